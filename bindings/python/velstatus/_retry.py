# SPDX-License-Identifier: Apache-2.0
"""Retry (retry.h, doc/design.md §6): wait.Backoff, retry.OnError, the hardened
driver, and which phase transitions get a retried status patch.

``Backoff`` is the C value type; iterating it yields the sleeps (ns) that
``wait.ExponentialBackoff`` takes between failing attempts. ``retry(fn, ...)``
runs ``fn`` under one of the library's drivers, with the host's side effects
(sleep, random numbers, the clock) injectable, so a test can run a retry
loop against a fake clock in no time.
"""

import collections
import random as _random
import time as _time
from typing import Any, Callable, Iterator, Optional, Union

from ._context import HOST_FAILED, Context, _Host, _onerror
from ._core import DurationLike, KindLike, PhaseLike, PolicyLike, duration_ns, policy_ptr
from ._enums import CEnum, Kind, Phase, c_enum
from ._errors import HostError, check, new_error
from ._ffi import ffi, lib

__all__ = ["RetryClass", "RetryOutcome", "BackoffKind", "Backoff", "RetrySchedule", "RetryResult",
           "retry", "retry_result", "retry_transition"]

@c_enum("velstatus_retry_class", "VELSTATUS_RETRY_CLASS_", lib.velstatus_retry_class_to_string)
class RetryClass(CEnum):
    """How an error is retried: TRANSIENT, CONFLICT (both retried), TERMINAL (not)."""

    TRANSIENT = "transient"
    CONFLICT = "conflict"
    TERMINAL = "terminal"


@c_enum("velstatus_retry_outcome", "VELSTATUS_RETRY_OUTCOME_", lib.velstatus_retry_outcome_to_string)
class RetryOutcome(CEnum):
    """How a retry run ended."""

    SUCCEEDED = "succeeded"
    NOT_ATTEMPTED = "not_attempted"
    TERMINAL = "terminal"
    EXHAUSTED = "exhausted"
    DEADLINE = "deadline"
    TRUNCATED = "truncated"


@c_enum("velstatus_backoff_kind", "VELSTATUS_BACKOFF_", lib.velstatus_backoff_kind_to_string)
class BackoffKind(CEnum):
    """Backoff presets: VELERO_CAP, DEFAULT_BACKOFF, DEFAULT_RETRY."""

    VELERO_CAP = "velero_cap"
    DEFAULT_BACKOFF = "default_backoff"
    DEFAULT_RETRY = "default_retry"


class _SizedStruct:
    """A size-tagged C value struct with its fields as attributes (from the cdef)."""

    __slots__ = ("_c",)
    _CTYPE = None

    def __init__(self, **fields):
        c = ffi.new(self._CTYPE + " *")
        self._init(c)
        object.__setattr__(self, "_c", c)
        for name, value in fields.items():
            setattr(self, name, value)

    @classmethod
    def _fields(cls):
        return [n for n, _ in ffi.typeof(cls._CTYPE).fields if n not in ("struct_size", "flags")]

    @classmethod
    def _wrap(cls, cvalue):
        self = cls.__new__(cls)
        c = ffi.new(cls._CTYPE + " *", cvalue)
        object.__setattr__(self, "_c", c)
        return self

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._fields():
            raise AttributeError("%s has no field %r" % (type(self).__name__, name))
        v = getattr(self._c, name)
        return float(v) if isinstance(v, float) else int(v)

    def __setattr__(self, name, value):
        if name not in self._fields():
            raise AttributeError("%s has no field %r" % (type(self).__name__, name))
        if name.endswith("_ns"):
            value = duration_ns(value)
        setattr(self._c, name, value)

    def copy(self, **fields):
        new = self._wrap(self._c[0])
        for name, value in fields.items():
            setattr(new, name, value)
        return new

    def as_dict(self):
        return {n: getattr(self, n) for n in self._fields()}

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    __hash__ = None

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % kv for kv in self.as_dict().items()))


class Backoff(_SizedStruct):
    """A ``wait.Backoff`` (velstatus_backoff): ``duration_ns``, ``factor``,
    ``jitter``, ``steps``, ``cap_ns`` (``*_ns`` fields accept "10ms" or a
    timedelta too). ``Backoff()`` is Go's zero value.

    ``step(r)`` is exactly ``Backoff.Step()``: it returns the next sleep (ns)
    and advances this backoff. Iterating yields the sleeps the retry loop
    takes when every attempt fails (``wait.ExponentialBackoff``: no sleep
    after the last step, and the sleep after which the cap ends the loop is
    the last one), drawing jitter from ``random`` (see ``sleeps()``); the
    backoff itself is not advanced.
    """

    __slots__ = ()
    _CTYPE = "velstatus_backoff"

    @staticmethod
    def _init(c):
        lib.velstatus_backoff_init(c, ffi.sizeof("velstatus_backoff"))

    @classmethod
    def velero_cap(cls, cap: DurationLike) -> "Backoff":
        """Velero's ``CapBackoff(cap)``: 10 ms, x5, jitter 0.1, MaxInt steps, the cap."""
        return cls.preset(BackoffKind.VELERO_CAP, cap)

    @classmethod
    def default_backoff(cls) -> "Backoff":
        """client-go ``retry.DefaultBackoff``: 10 ms, x5, jitter 0.1, 4 steps."""
        return cls.preset(BackoffKind.DEFAULT_BACKOFF)

    @classmethod
    def default_retry(cls) -> "Backoff":
        """client-go ``retry.DefaultRetry``: 10 ms, x1, jitter 0.1, 5 steps."""
        return cls.preset(BackoffKind.DEFAULT_RETRY)

    @classmethod
    def preset(cls, kind: Union[BackoffKind, str], cap: DurationLike = 0) -> "Backoff":
        """A preset by BackoffKind (or its token); ``cap`` for VELERO_CAP
        (velstatus_backoff_init_preset)."""
        self = cls()
        err = new_error()
        check(lib.velstatus_backoff_init_preset(self._c, ffi.sizeof(self._CTYPE), BackoffKind.coerce(kind).c,
                                                duration_ns(cap), err), err)
        return self

    def step(self, r: float = 0.0) -> int:
        """One ``Step()``: the sleep in ns (jitter uses ``r`` in [0, 1)); advances the backoff."""
        out = ffi.new("int64_t *")
        err = new_error()
        check(lib.velstatus_backoff_step(out, self._c, float(r), err), err)
        return int(out[0])

    def sleeps(self, random: Callable[[], float] = _random.random) -> Iterator[int]:
        """Iterator over the sleeps (ns) of a retry loop whose attempts all fail.

        ``random()`` gives the jitter's number in [0, 1) (called only when
        jitter > 0, as Go does). Infinite only for a backoff that never ends
        (no cap and MaxInt steps would take 2^63 steps).
        """
        b = self.copy()
        while b._c.steps > 1:  # ExponentialBackoff: no sleep after the last attempt
            yield b.step(random() if b._c.jitter > 0 else 0.0)

    def __iter__(self) -> Iterator[int]:
        return self.sleeps()

    def simulate(self, max_sleeps: int = 1000, random: Optional[Callable[[], float]] = None,
                 ctx: Optional[Context] = None) -> "RetryResult":
        """The library's dry run (velstatus_backoff_simulate): a RetryResult."""
        host = _RetryHost(None, None, None, random, None)
        vt = host.vtable(attempt=False)
        with _ctx(ctx) as c, c._held() as p:
            out = ffi.new("velstatus_retry_result **")
            err = new_error()
            status = lib.velstatus_backoff_simulate(out, p, self._c, int(max_sleeps), vt, err)
            return host.finish(status, err, out, p)


class RetrySchedule(_SizedStruct):
    """The hardened schedule (velstatus_retry_schedule): ``base_ns``,
    ``factor``, ``jitter``, ``max_sleep_ns``, ``max_attempts``,
    ``deadline_ns``. ``RetrySchedule()`` holds the hardened defaults."""

    __slots__ = ()
    _CTYPE = "velstatus_retry_schedule"

    @staticmethod
    def _init(c):
        lib.velstatus_retry_schedule_init(c, ffi.sizeof("velstatus_retry_schedule"))

    @classmethod
    def hardened(cls, **fields: Any) -> "RetrySchedule":
        new = cls()  # velstatus_retry_schedule_init: the hardened defaults
        for name, value in fields.items():
            setattr(new, name, value)
        return new


class RetryResult(collections.namedtuple(
        "RetryResult", "outcome attempts sleeps trailing_sleep error error_attempt value")):
    """How a retry run went: ``outcome`` (RetryOutcome), ``attempts``,
    ``sleeps`` (tuple of ns), ``trailing_sleep`` (the last sleep bought no
    attempt), ``error`` (the exception the run returns, i.e. the one raised
    by attempt ``error_attempt``; None when the run returns nil), ``value``
    (what ``fn`` returned on success)."""

    __slots__ = ()

    @property
    def total_sleep(self) -> int:
        """The sum of the sleeps, in ns."""
        return sum(self.sleeps)


class _RetryHost(_Host):
    __slots__ = ("fn", "classify", "sleep", "random", "clock", "errors", "texts", "value")

    def __init__(self, fn, classify, sleep, random, clock):
        super().__init__()
        self.fn, self.classify, self.sleep, self.random, self.clock = fn, classify, sleep, random, clock
        self.errors, self.texts, self.value = {}, [], None

    def vtable(self, attempt=True):
        vt = ffi.new("velstatus_retry_host *")
        lib.velstatus_retry_host_init(vt, ffi.sizeof("velstatus_retry_host"))
        vt.userdata = self.userdata
        vt.attempt = lib._vs_rt_attempt if attempt else ffi.NULL
        vt.classify = lib._vs_rt_classify if self.classify is not None else ffi.NULL
        vt.sleep = lib._vs_rt_sleep if self.sleep is not None else ffi.NULL
        vt.random = lib._vs_rt_random if self.random is not None else ffi.NULL
        vt.now = lib._vs_rt_now if self.clock is not None else ffi.NULL
        self.texts.append(vt)  # keep it alive with the host
        return vt

    def finish(self, status, err, out, ctxptr):
        """Re-raise a callback's exception or map the status; read and free the result."""
        try:
            self.check(status, err)
            r = out[0]
            n = lib.velstatus_retry_result_sleep_count(r)
            sleeps = tuple(int(lib.velstatus_retry_result_sleep(r, i)) for i in range(n))
            text = ffi.new("const char **")
            tlen = ffi.new("size_t *")
            has_error = lib.velstatus_retry_result_error(text, tlen, r)
            which = int(lib.velstatus_retry_result_error_attempt(r))
            error = None
            if has_error:
                error = self.errors.get(which)
                if error is None:  # a dry run: no Python exception behind the text
                    error = RuntimeError(ffi.unpack(text[0], tlen[0]).decode("utf-8", "replace"))
            return RetryResult(RetryOutcome.from_c(lib.velstatus_retry_result_outcome(r)),
                               int(lib.velstatus_retry_result_attempts(r)), sleeps,
                               bool(lib.velstatus_retry_result_trailing_sleep(r)), error,
                               which if has_error else 0, self.value)
        finally:
            if out[0] != ffi.NULL:
                lib.velstatus_retry_result_free(out[0])
            self.texts.clear()
            self.errors.clear()
            self.release()


@ffi.def_extern(onerror=_onerror)
def _vs_rt_attempt(userdata, attempt, reply):
    host = ffi.from_handle(userdata)
    try:
        host.value = host.fn()
    except Exception as exc:  # the retry domain; BaseException (KeyboardInterrupt) aborts the run
        host.errors[int(attempt)] = exc
        text = (str(exc) or type(exc).__name__).encode("utf-8", "replace")
        # The library copies the text during the call; E_NOMEM ends the run.
        if lib.velstatus_retry_reply_set_error(reply, text, len(text), ffi.NULL) != lib.VELSTATUS_OK:
            return HOST_FAILED
    return 0


@ffi.def_extern(onerror=_onerror)
def _vs_rt_classify(userdata, attempt, err_text, err_len, cls, interrupted):
    host = ffi.from_handle(userdata)
    if host._exc is not None:
        return HOST_FAILED
    exc = host.errors.get(int(attempt))
    if exc is None:  # a publish that returned a negative code rather than raising
        exc = HostError(ffi.unpack(err_text, err_len).decode("utf-8", "replace"), code=lib.VELSTATUS_E_HOST)
    got = host.classify(exc)
    intr = False
    if isinstance(got, tuple):
        got, intr = got
    cls[0] = RetryClass.coerce(got).c
    interrupted[0] = 1 if intr else 0
    return 0


# A host callback returning a negative code aborts the run; after a fatal
# exception (one that must surface, e.g. KeyboardInterrupt from fn) the next
# callback does so at once rather than sleeping on.

@ffi.def_extern(onerror=_onerror)
def _vs_rt_sleep(userdata, ns):
    host = ffi.from_handle(userdata)
    if host._exc is not None:
        return HOST_FAILED
    host.sleep(ns / 1e9)
    return 0


@ffi.def_extern(onerror=_onerror)
def _vs_rt_random(userdata, r):
    host = ffi.from_handle(userdata)
    if host._exc is not None:
        return HOST_FAILED
    r[0] = float(host.random())
    return 0


@ffi.def_extern(onerror=_onerror)
def _vs_rt_now(userdata, ns):
    host = ffi.from_handle(userdata)
    if host._exc is not None:
        return HOST_FAILED
    ns[0] = int(host.clock())
    return 0


class _ctx:
    """``with _ctx(ctx) as c``: the given Context, or a fresh one closed after."""

    def __init__(self, ctx):
        self.ctx, self.own = (ctx, False) if ctx is not None else (Context(), True)

    def __enter__(self):
        return self.ctx

    def __exit__(self, *exc):
        if self.own:
            self.ctx.close()


def retry_result(fn: Callable[[], Any], backoff: Optional[Backoff] = None, *, schedule: Optional[RetrySchedule] = None,
                 policy: PolicyLike = None, resource_timeout: DurationLike = "10m",
                 classify: Optional[Callable[[BaseException], Union[RetryClass, str]]] = None,
                 sleep: Callable[[float], Any] = _time.sleep, random: Callable[[], float] = _random.random,
                 clock: Callable[[], int] = _time.monotonic_ns, ctx: Optional[Context] = None) -> RetryResult:
    """Runs ``fn()`` under a retry driver and returns a RetryResult.

    Which driver: with ``backoff`` (a Backoff), client-go's ``retry.OnError``
    exactly (velstatus_retry_on_error); with ``schedule`` (a RetrySchedule),
    the hardened driver (velstatus_retry_hardened); otherwise
    velstatus_retry_run(), which picks one from ``policy`` (None: hardened;
    "velero": CapBackoff(resource_timeout), every error retried).

    An attempt fails when ``fn`` raises an Exception. ``classify(exc)``
    returns a RetryClass (or its token: "transient", "conflict", "terminal"),
    optionally as ``(class, interrupted)``; None retries every error (as
    Velero does). ``sleep(seconds)``, ``random()`` (in [0, 1)) and ``clock()``
    (monotonic ns, used for the hardened deadline) are the host's side
    effects: pass fakes to test without waiting. An exception raised by
    ``classify``, ``sleep``, ``random`` or ``clock`` (or a BaseException such
    as KeyboardInterrupt from ``fn``) stops the run and propagates unchanged.
    """
    host = _RetryHost(fn, classify, sleep, random, clock)
    vt = host.vtable()
    with _ctx(ctx) as c, c._held() as p:
        out = ffi.new("velstatus_retry_result **")
        err = new_error()
        if backoff is not None:
            if not isinstance(backoff, Backoff):
                raise TypeError("backoff must be a Backoff")
            status = lib.velstatus_retry_on_error(out, p, backoff._c, vt, err)
        elif schedule is not None:
            if not isinstance(schedule, RetrySchedule):
                raise TypeError("schedule must be a RetrySchedule")
            status = lib.velstatus_retry_hardened(out, p, schedule._c, vt, err)
        else:
            status = lib.velstatus_retry_run(out, p, duration_ns(resource_timeout), vt, policy_ptr(policy), err)
        return host.finish(status, err, out, p)


def retry(fn: Callable[[], Any], backoff: Optional[Backoff] = None, **kwargs: Any) -> Any:
    """Runs ``fn()`` with retries (see retry_result() for the arguments).

    Returns what ``fn`` returned. When the run ends with an error, the
    exception ``fn`` raised on the attempt the library names is re-raised,
    unchanged. When the run returns nil without a success (no attempt made
    because steps <= 0, or client-go's interrupted quirk), returns None.
    """
    result = retry_result(fn, backoff, **kwargs)
    if result.error is not None:
        raise result.error
    return result.value if result.outcome is RetryOutcome.SUCCEEDED else None


def retry_transition(kind: KindLike, from_phase: PhaseLike, to_phase: PhaseLike, at_startup: bool = False,
                     policy: PolicyLike = None) -> bool:
    """Whether the status patch moving a CR from one phase to another is retried (doc/velero-behaviour.md §4.3)."""
    kind = Kind.coerce(kind)
    frm, to = Phase.parse(from_phase, kind), Phase.parse(to_phase, kind)
    out = ffi.new("int *")
    err = new_error()
    check(lib.velstatus_retry_transition(out, kind.c, frm.c, to.c, 1 if at_startup else 0,
                                         policy_ptr(policy), err), err)
    return bool(out[0])

