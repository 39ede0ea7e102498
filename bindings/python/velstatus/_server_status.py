# SPDX-License-Identifier: Apache-2.0
"""Server status from the BackupStorageLocations (server_status.h, doc/design.md §3).

``server_status()`` classifies a whole set of BSLs; ``ServerTracker`` keeps
one current as BSLs are upserted and deleted; ``server_status_step()`` runs
the library's controller step with Python callables for listing BSLs,
reading the published status and publishing a new one.

BSLs given as dicts are serialised with ``json.dumps`` and read by the C
decoder, so the accepted schema and the error messages (JSON path, line,
column) are the library's own, exactly as for JSON text.
"""

import collections
import enum
import json
import random as _random
import time as _time
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from ._context import _Closeable, HOST_FAILED, Context, _Host, _onerror
from ._core import DurationLike, PolicyLike, TimeLike, duration_ns, policy_ptr, time_ns
from ._enums import CEnum, c_enum
from ._errors import InvalidArgument, check, new_error
from ._ffi import ffi, lib
from . import _condition, _retry
from ._backup_object import WatchEvent, _event_of, _raw

# The BSLs a classification takes: the JSON text of ``kubectl get bsl -o json``
# (str or bytes, a list or an object with "items"), the parsed objects, or Bsl values.
BslsLike = Union[str, bytes, Iterable[Any]]

# The step's classify/sleep/random/now slots use the retry host's trampolines
# (same signatures), which importing _retry defines with def_extern.
_SHARED_TRAMPOLINES = (_retry._vs_rt_classify, _retry._vs_rt_sleep, _retry._vs_rt_random, _retry._vs_rt_now)

__all__ = ["ServerStatus", "ServerReason", "BslAccess", "Bsl", "ServerVerdict", "server_status", "bsl_watch_event",
           "ServerTracker", "StepResult", "server_status_step"]

@c_enum("velstatus_server_status", "VELSTATUS_SERVER_", lib.velstatus_server_status_to_string)
class ServerStatus(CEnum):
    """The server status: READY, PARTIALLY_READY, WAITING, NOT_READY; the
    values are the CLI's strings ("Ready", ...)."""

    READY = "Ready"
    PARTIALLY_READY = "PartiallyReady"
    WAITING = "Waiting"
    NOT_READY = "NotReady"


@c_enum("velstatus_server_reason", "VELSTATUS_SERVER_REASON_", lib.velstatus_server_reason_to_string)
class ServerReason(enum.IntFlag):
    """A reason flag of a verdict. The C type is a bit set, so this is an
    IntFlag (as OpStepFlag): the value is the flag bit, and flags combine
    with ``|``. ``str()`` is the CLI's token from the library's
    velstatus_server_reason_to_string ("some_unavailable"; a combination
    joins its tokens with "|"), and ``ServerReason.from_token("stale")``
    reads one back."""

    NO_BSL = 1
    PENDING = 2
    ALL_UNAVAILABLE = 4
    SOME_UNAVAILABLE = 8
    SOME_PENDING = 16
    NO_DEFAULT = 32
    MULTIPLE_DEFAULTS = 64
    DEFAULT_NOT_AVAILABLE = 128
    DEFAULT_READONLY = 256
    STALE = 512
    UNKNOWN_PHASE = 1024
    NEVER_VALIDATED = 2048

    @classmethod
    def from_token(cls, token: str) -> "ServerReason":
        """The flag of a CLI token (velstatus_server_reason_from_string;
        InvalidArgument for an unknown one)."""
        raw = token.encode("utf-8")
        out = ffi.new("velstatus_server_reason *")
        err = new_error()
        check(lib.velstatus_server_reason_from_string(out, raw, len(raw), err), err)
        return cls(int(out[0]))


@c_enum("velstatus_bsl_access", "VELSTATUS_BSL_", lib.velstatus_bsl_access_to_string)
class BslAccess(enum.IntEnum):
    """A BSL's spec.accessMode: READ_WRITE (str: "ReadWrite") or READ_ONLY ("ReadOnly")."""

    READ_WRITE = 0
    READ_ONLY = 1

    def __str__(self) -> str:
        # Velero's spelling is the enum's name in CamelCase: READ_ONLY -> ReadOnly.
        return "".join(w.capitalize() for w in self.name.split("_"))


def _access(value):
    if isinstance(value, BslAccess):
        return value
    if value in (None, ""):
        return BslAccess.READ_WRITE  # doc/velero-behaviour.md §1.1: empty is ReadWrite
    for a in BslAccess:
        if value == str(a):
            return a
    raise InvalidArgument("unknown accessMode %r (want ReadWrite or ReadOnly)" % (value,),
                          code=lib.VELSTATUS_E_INVALID)


def reasons_from_mask(mask):
    """The reason flags in ``mask`` as ServerReason members, sorted by token (as the CLI)."""
    return tuple(sorted((r for r in ServerReason if mask & r), key=str))


def _reasons_mask(reasons):
    if isinstance(reasons, int):
        return reasons
    mask = 0
    for r in reasons:
        mask |= ServerReason.from_token(r) if isinstance(r, str) else ServerReason(r)
    return int(mask)


class Bsl(collections.namedtuple("Bsl", "name phase default access created validated message")):
    """One BackupStorageLocation, as the library sees it.

    ``name`` (metadata.name), ``phase`` (status.phase, verbatim; "" = never
    validated), ``default`` (spec.default), ``access`` (BslAccess or
    "ReadWrite"/"ReadOnly"), ``created`` and ``validated``
    (metadata.creationTimestamp, status.lastValidationTime: instants as int ns,
    RFC 3339 str or aware datetime; None when unknown), ``message``.
    """

    __slots__ = ()

    def __new__(cls, name, phase="", default=False, access=BslAccess.READ_WRITE, created=None,
                validated=None, message=""):
        return super().__new__(cls, name, phase or "", bool(default), _access(access),
                               None if created is None else time_ns(created),
                               None if validated is None else time_ns(validated), message or "")

    @classmethod
    def from_dict(cls, obj: Dict[str, Any]) -> "Bsl":
        """A Bsl from one BSL object of ``kubectl get bsl -o json``.

        The C decoder reads it (errors name the field and its position) and
        the Bsl is made from what it decoded (velstatus_bsl_set_get).
        """
        if not isinstance(obj, dict):
            raise TypeError("Bsl.from_dict takes one BSL object (a dict), not %s" % type(obj).__name__)
        with Context() as ctx:
            return _decode(ctx, json.dumps(obj, allow_nan=False).encode("utf-8"),
                           lambda cset, p: cls._from_set(cset, 0))

    @classmethod
    def _from_set(cls, cset, i):
        """The i-th BSL of a C set."""
        r = ffi.new("velstatus_bsl_record *")
        err = new_error()
        lib.velstatus_bsl_record_init(r, ffi.sizeof("velstatus_bsl_record"))
        check(lib.velstatus_bsl_set_get(cset, i, r, err), err)
        return cls._from_record(r)

    @classmethod
    def _from_record(cls, r):
        """A Bsl of a C record (its texts read by their lengths)."""
        def text(p, n):
            return ffi.unpack(p, n).decode("utf-8") if n else ""
        return cls(text(r.name, r.name_len), text(r.phase, r.phase_len), bool(r.is_default), BslAccess(r.access),
                   r.created_ns if r.has_created else None, r.validated_ns if r.has_validated else None,
                   text(r.message, r.message_len))

    def _c_record(self):
        """A velstatus_bsl_record of this BSL, and the buffers it points into (keep both alive)."""
        name, phase, message = (x.encode("utf-8") for x in (self.name, self.phase, self.message))
        bufs = [ffi.from_buffer(b) for b in (name, phase, message)]
        r = ffi.new("velstatus_bsl_record *")
        lib.velstatus_bsl_record_init(r, ffi.sizeof("velstatus_bsl_record"))
        r.name, r.name_len = bufs[0], len(name)
        r.phase, r.phase_len = bufs[1], len(phase)
        r.message, r.message_len = bufs[2], len(message)
        r.is_default = 1 if self.default else 0
        r.access = int(self.access)
        r.has_created, r.created_ns = (0, 0) if self.created is None else (1, self.created)
        r.has_validated, r.validated_ns = (0, 0) if self.validated is None else (1, self.validated)
        return r, bufs

    def _c_args(self):
        name = self.name.encode("utf-8")
        phase = self.phase.encode("utf-8")
        return (name, len(name), phase, len(phase), 1 if self.default else 0, int(self.access),
                0 if self.created is None else 1, self.created or 0,
                0 if self.validated is None else 1, self.validated or 0)


class ServerVerdict:
    """An immutable classification result.

    ``status`` (ServerStatus, equal to the CLI's string), ``reasons`` (tuple
    of ServerReason, sorted by token), ``reason_flags`` (the bitmask),
    ``available`` / ``unavailable`` / ``pending`` / ``total`` (the counts),
    ``default`` (the resolved default BSL's name, or None), ``bsls`` (reason
    token -> the sorted BSL names behind it), ``message`` (one line), and
    ``json`` (the verdict exactly as ``velstatus server-status -o json``
    prints it). ``str(verdict)`` is the CLI's text line. ``condition()`` is
    the verdict as a Kubernetes condition (``-o condition``).
    """

    __slots__ = ("status", "reasons", "reason_flags", "available", "unavailable", "pending", "total",
                 "default", "bsls", "message", "json", "_condition")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("ServerVerdict objects come from server_status() and ServerTracker")

    @classmethod
    def _from_c(cls, v, ctxptr):
        """Copies a C verdict (call with the ctx lock held; the caller frees it)."""
        self = object.__new__(cls)
        self.status = ServerStatus.from_c(lib.velstatus_server_verdict_status(v))
        self.reason_flags = int(lib.velstatus_server_verdict_reasons(v))
        self.reasons = reasons_from_mask(self.reason_flags)
        self.available = int(lib.velstatus_server_verdict_available(v))
        self.unavailable = int(lib.velstatus_server_verdict_unavailable(v))
        self.pending = int(lib.velstatus_server_verdict_pending(v))
        self.total = int(lib.velstatus_server_verdict_total(v))
        d = lib.velstatus_server_verdict_default(v)
        self.default = None if d == ffi.NULL else ffi.string(d).decode("utf-8")
        bsls = {}
        for r in self.reasons:
            n = lib.velstatus_server_verdict_name_count(v, r)
            bsls[str(r)] = tuple(ffi.string(lib.velstatus_server_verdict_name(v, r, i)).decode("utf-8")
                                 for i in range(n))
        self.bsls = bsls
        self.message = ffi.string(lib.velstatus_server_verdict_message(v)).decode("utf-8")
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        err = new_error()
        check(lib.velstatus_server_verdict_to_json(out, out_len, v, err), err)
        try:
            self.json = ffi.unpack(out[0], out_len[0]).decode("utf-8")
        finally:
            lib.velstatus_free(ctxptr, out[0])
        self._condition = _condition.condition_base(v, ctxptr)
        return self

    def condition(self, last_transition: TimeLike, observed_generation: Optional[int] = None) -> Dict[str, Any]:
        """The verdict as a ``metav1.Condition`` dict (type "Ready"), as
        velstatus_server_verdict_to_condition_json() writes it: see _condition.condition."""
        return _condition.condition(self._condition, last_transition, observed_generation)

    @property
    def condition_reason(self) -> str:
        """The condition's reason (velstatus_server_condition_reason of reason_flags)."""
        return _condition.condition_reason(self.reason_flags)

    def as_dict(self) -> Dict[str, Any]:
        """The JSON form as Python objects."""
        return json.loads(self.json)

    def __str__(self):
        return "%s: %s" % (self.status, self.message)

    def __repr__(self):
        return "<ServerVerdict %s reasons=%s>" % (self.status, [str(r) for r in self.reasons])

    def __eq__(self, other):
        if not isinstance(other, ServerVerdict):
            return NotImplemented
        return self.json == other.json

    __hash__ = None


def _take_verdict(pp, ctxptr):
    """ServerVerdict from ``*pp``, then frees the C verdict."""
    try:
        return ServerVerdict._from_c(pp[0], ctxptr)
    finally:
        lib.velstatus_server_verdict_free(pp[0])
        pp[0] = ffi.NULL


class _Options:
    """A velstatus_server_status_options and the bytes it points to."""

    __slots__ = ("c", "_name", "policy")

    def __init__(self, default_location=None, now=None, stale_after=None, three_state=False, policy=None,
                 retry_timeout=0):
        self.c = ffi.new("velstatus_server_status_options *")
        lib.velstatus_server_status_options_init(self.c, ffi.sizeof("velstatus_server_status_options"))
        self._name = None
        if default_location:
            self._name = ffi.new("char[]", default_location.encode("utf-8"))
            self.c.default_location = self._name
            self.c.default_location_len = len(self._name) - 1
        if stale_after is not None:
            self.c.check_stale = 1
            self.c.stale_after_ns = duration_ns(stale_after)
            # The library never reads a clock; Python is the host, so "now"
            # defaults to the wall clock here.
            self.c.now_ns = _time.time_ns() if now is None else time_ns(now)
        elif now is not None:
            raise InvalidArgument("now is only used with stale_after (the staleness check)",
                                  code=lib.VELSTATUS_E_INVALID)
        self.c.three_state = 1 if three_state else 0
        self.policy = policy_ptr(policy)  # passed to the step beside the options
        self.c.retry_timeout_ns = duration_ns(retry_timeout)


def _bsls_input(bsls):
    """(JSON bytes, None) for kubectl text (str/bytes) or BSL dicts; (None, [Bsl]) for Bsl objects."""
    if isinstance(bsls, str):
        return bsls.encode("utf-8"), None
    if isinstance(bsls, (bytes, bytearray, memoryview)):
        return bytes(bsls), None
    if isinstance(bsls, dict):
        return json.dumps(bsls, allow_nan=False).encode("utf-8"), None
    items = list(bsls)  # any iterable, read once
    if items and all(isinstance(b, Bsl) for b in items):
        return None, items
    if not all(isinstance(b, dict) for b in items):
        raise TypeError("bsls must be JSON text, a dict, or a list of dicts or of Bsl, not a mix")
    return json.dumps(items, allow_nan=False).encode("utf-8"), None


def _decode(ctx, data, use):
    """Decodes BSL JSON into a C set on ``ctx`` and calls ``use(set)`` with the lock held."""
    with ctx._held() as p:
        out = ffi.new("velstatus_bsl_set **")
        err = new_error()
        check(lib.velstatus_bsl_set_from_json(out, p, data, len(data), err), err)
        try:
            return use(out[0], p)
        finally:
            lib.velstatus_bsl_set_free(out[0])


class _BslSink(_Host):
    __slots__ = ("bsls",)


@ffi.def_extern(onerror=_onerror)
def _vs_bsl_each(userdata, event, bsl):
    ffi.from_handle(userdata).bsls.append(Bsl._from_record(bsl))
    return 0


def bsl_watch_event(text: Union[str, bytes], ctx: Optional[Context] = None) -> Tuple[WatchEvent, List[Bsl]]:
    """Decodes one event of a BackupStorageLocation watch and the BSLs of its
    object, validating the text once (velstatus_bsl_watch_event_foreach):
    the event as ``watch_event()`` gives it, and the BSLs of its object in
    order (none for an ERROR or a BOOKMARK). Raises ParseError or SchemaError
    as ``watch_event()`` and ``server_status()`` do."""
    raw = _raw(text)
    out = ffi.new("velstatus_watch_event **")
    err = new_error()
    sink = _BslSink()
    sink.bsls = []
    with (ctx if ctx is not None else Context())._held() as p:
        try:
            sink.check(lib.velstatus_bsl_watch_event_foreach(out, p, raw, len(raw), lib._vs_bsl_each, sink.userdata,
                                                             err), err)
            return _event_of(out[0], raw), sink.bsls
        finally:
            sink.release()
            lib.velstatus_watch_event_free(out[0])


def server_status(bsls: BslsLike, default_location: Optional[str] = None, now: Optional[TimeLike] = None,
                  stale_after: Optional[DurationLike] = None, three_state: bool = False,
                  ctx: Optional[Context] = None) -> "ServerVerdict":
    """Classifies a set of BackupStorageLocations: the total rule of doc/design.md §3.

    ``bsls`` is ``kubectl get backupstoragelocations -o json`` text (str or
    bytes: a List, an array or one BSL), the same as parsed dicts (a list of
    BSL objects or one List object), or a list of Bsl. ``default_location`` is
    the server's default-location setting (that BSL alone is the default).
    ``stale_after`` (a duration: ns, "5m" or timedelta) turns on the staleness
    check at instant ``now`` (ns, RFC 3339 or aware datetime; the wall clock
    when None). ``three_state`` reports NotReady as Waiting. Returns a
    ServerVerdict whose ``status`` and ``json`` equal the CLI's.

    Raises ParseError (not JSON) or SchemaError (a field of the wrong type or
    value; the message names its path, e.g. ``items[1].spec.default``, and the
    exception carries line, column and offset).
    """
    opts = _Options(default_location, now, stale_after, three_state)
    own = ctx is None
    ctx = Context() if own else ctx
    try:
        def classify(cset, p):
            out = ffi.new("velstatus_server_verdict **")
            err = new_error()
            check(lib.velstatus_server_status_classify(out, cset, opts.c, err), err)
            return _take_verdict(out, p)

        data, items = _bsls_input(bsls)
        if data is not None:
            return _decode(ctx, data, classify)
        with ctx._held() as p:
            out = ffi.new("velstatus_bsl_set **")
            err = new_error()
            check(lib.velstatus_bsl_set_new(out, p, err), err)
            try:
                for b in items:
                    check(lib.velstatus_bsl_set_add(out[0], *b._c_args(), err), err)
                return classify(out[0], p)
            finally:
                lib.velstatus_bsl_set_free(out[0])
    finally:
        if own:
            ctx.close()


class ServerTracker(_Closeable):
    """BSLs kept current one event at a time ("continuously updated", doc/design.md §3).

    ``upsert(bsl)`` and ``delete(name)`` cost O(1) and return True when the
    status or the reasons changed, so a controller publishes only on change.
    ``status``, ``reasons`` and ``len()`` are O(1); ``verdict()`` builds the
    full ServerVerdict, equal to server_status() over the same BSLs. Options
    are those of server_status(). Close it (or use ``with``) to free it now;
    otherwise garbage collection does.
    """

    def __init__(self, default_location: Optional[str] = None, now: Optional[TimeLike] = None,
                 stale_after: Optional[DurationLike] = None, three_state: bool = False,
                 ctx: Optional[Context] = None) -> None:
        self._ptr = None
        opts = _Options(default_location, now, stale_after, three_state)
        self._ref = (ctx if ctx is not None else Context())._child_ref()
        with self._ref.held() as p:
            out = ffi.new("velstatus_server_tracker **")
            err = new_error()
            check(lib.velstatus_server_tracker_new(out, p, opts.c, err), err)
            self._ptr = self._ref.own(out[0], lib.velstatus_server_tracker_free)

    def close(self) -> None:
        """Frees the tracker (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            ffi.release(ptr)  # runs the ffi.gc destructor now
            self._ref = None  # and drops this object's hold on the C context


    def _call(self):
        if self._ptr is None:
            from ._errors import StateError
            raise StateError("the ServerTracker is closed", code=lib.VELSTATUS_E_STATE)
        return self._ref.held()

    def upsert(self, bsl: Union["Bsl", Dict[str, Any], str, bytes]) -> bool:
        """Inserts or replaces a BSL; True if status or reasons changed.

        ``bsl`` is a Bsl, one BSL object as a dict, or its JSON text (str or
        bytes: a watch event's object). A dict or text goes to the library in
        one call (velstatus_server_tracker_upsert_json): decoded by the same
        decoder as server_status(), with the same errors.
        """
        changed = ffi.new("int *")
        err = new_error()
        if isinstance(bsl, Bsl):
            r, bufs = bsl._c_record()
            with self._call():
                check(lib.velstatus_server_tracker_upsert(self._ptr, changed, r, err), err)
            del bufs
            return bool(changed[0])
        if isinstance(bsl, dict):
            data = json.dumps(bsl, allow_nan=False).encode("utf-8")
        elif isinstance(bsl, str):
            data = bsl.encode("utf-8")
        elif isinstance(bsl, (bytes, bytearray, memoryview)):
            data = bytes(bsl)
        else:
            raise TypeError("upsert takes a Bsl, a dict or JSON text, not %s" % type(bsl).__name__)
        with self._call():
            check(lib.velstatus_server_tracker_upsert_json(self._ptr, changed, data, len(data), err), err)
        return bool(changed[0])

    def delete(self, name: str) -> bool:
        """Removes the BSL of that name (absent: no-op); True if status or reasons changed."""
        raw = name.encode("utf-8")
        changed = ffi.new("int *")
        err = new_error()
        with self._call():
            check(lib.velstatus_server_tracker_delete(self._ptr, changed, raw, len(raw), err), err)
        return bool(changed[0])

    def set_now(self, now: TimeLike) -> bool:
        """Moves the tracker's clock; True if status or reasons changed.

        With a staleness check it re-evaluates staleness (O(n)); without, it
        only dates the transitions that follow (see ``last_transition``)."""
        changed = ffi.new("int *")
        err = new_error()
        ns = time_ns(now)
        with self._call():
            check(lib.velstatus_server_tracker_set_now(self._ptr, changed, ns, err), err)
        return bool(changed[0])

    @property
    def status(self) -> ServerStatus:
        """The current ServerStatus."""
        with self._call():
            return ServerStatus.from_c(lib.velstatus_server_tracker_status(self._ptr))

    @property
    def reasons(self) -> Tuple[ServerReason, ...]:
        """The current reasons (tuple of ServerReason, sorted by token)."""
        with self._call():
            return reasons_from_mask(lib.velstatus_server_tracker_reasons(self._ptr))

    @property
    def last_transition(self) -> Optional[int]:
        """When the condition status (True, False, Unknown) last changed, ns
        since the epoch: the tracker's clock at that event, the condition's
        ``lastTransitionTime``; the first ``set_now`` dates the status holding then
        (a tracker created with a staleness check is dated from creation).
        None while no clock has been given."""
        ns = ffi.new("int64_t *")
        with self._call():
            known = lib.velstatus_server_tracker_last_transition(self._ptr, ns)
        return int(ns[0]) if known else None

    def __len__(self) -> int:
        with self._call():
            return int(lib.velstatus_server_tracker_count(self._ptr))

    def verdict(self) -> "ServerVerdict":
        """The full ServerVerdict of the tracked BSLs."""
        out = ffi.new("velstatus_server_verdict **")
        err = new_error()
        with self._call() as p:
            check(lib.velstatus_server_tracker_verdict(out, self._ptr, err), err)
            return _take_verdict(out, p)


# -- controller step ------------------------------------------------------------

StepResult = collections.namedtuple("StepResult", "verdict published")
StepResult.__doc__ = "server_status_step()'s result: the ServerVerdict and whether publish() ran and succeeded."


class _StepHost(_Host):
    # classify/sleep/random/clock/errors: the slots the retry trampolines
    # (_retry.py) read, shared because the signatures are the same.
    __slots__ = ("list_bsls", "read_status", "publish", "classify", "sleep", "random", "clock",
                 "errors", "publishes")


@ffi.def_extern(onerror=_onerror)
def _vs_ss_list_bsls(userdata, reply):
    host = ffi.from_handle(userdata)
    data, _ = _bsls_input(host.list_bsls())
    if data is None:
        raise TypeError("list_bsls() must return JSON text or BSL dicts")
    # Decoded during the call; a decoding failure is the step's result.
    lib.velstatus_bsls_reply_set_json(reply, data, len(data), ffi.NULL)
    return 0


@ffi.def_extern(onerror=_onerror)
def _vs_ss_read_status(userdata, has_status, status, reasons):
    host = ffi.from_handle(userdata)
    current = host.read_status()
    if current is None:
        has_status[0] = 0
        return 0
    st, rs = current
    has_status[0] = 1
    status[0] = ServerStatus.coerce(st).c
    reasons[0] = _reasons_mask(rs)
    return 0


@ffi.def_extern(onerror=_onerror)
def _vs_ss_publish(userdata, status, reasons, json_text, json_len):
    host = ffi.from_handle(userdata)
    if host._exc is not None:
        return HOST_FAILED  # a fatal exception is pending: stop trying
    host.publishes += 1
    try:
        result = host.publish(ServerStatus.from_c(status), reasons_from_mask(reasons),
                              ffi.unpack(json_text, json_len).decode("utf-8"))
    except Exception as exc:  # a failed write: the retry policy decides what happens next
        host.errors[host.publishes] = exc
        return HOST_FAILED
    if isinstance(result, int) and not isinstance(result, bool) and result < 0:
        return result
    return 0


def server_status_step(list_bsls: Callable[[], BslsLike], publish: Callable[["ServerVerdict"], Any],
                       read_status: Optional[Callable[[], Any]] = None, default_location: Optional[str] = None,
                       now: Optional[TimeLike] = None, stale_after: Optional[DurationLike] = None,
                       three_state: bool = False, policy: PolicyLike = None, retry_timeout: DurationLike = 0,
                       classify: Optional[Callable[[BaseException], Union["_retry.RetryClass", str]]] = None,
                       sleep: Callable[[float], Any] = _time.sleep, random: Callable[[], float] = _random.random,
                       clock: Callable[[], int] = _time.monotonic_ns, ctx: Optional[Context] = None) -> "StepResult":
    """One controller step with Python callables (velstatus_server_status_step).

    ``list_bsls()`` returns the BSLs (JSON text or dicts, as server_status()
    takes); ``read_status()`` (optional) returns None when nothing was
    published yet, else ``(status, reasons)``; ``publish(status, reasons,
    json_text)`` runs only when the status or the reasons differ from what
    read_status() gave.

    The publish is a status write, retried as ``policy`` says (None: hardened;
    ``retry_timeout`` is Velero's --resource-timeout, 0 = 10 min): a publish
    that raises an Exception (or returns a negative int) is a failed attempt;
    ``classify(exc)``, ``sleep(seconds)``, ``random()`` and ``clock()`` are as
    in retry(). When the retries end with the write still failing, the
    exception of the last attempt is raised unchanged (HostError with
    ``host_code`` for a negative int). An exception raised by any other
    callable (or a BaseException such as KeyboardInterrupt from publish)
    ends the step at once and propagates unchanged.

    Returns StepResult(verdict, published).
    """
    opts = _Options(default_location, now, stale_after, three_state, policy, retry_timeout)
    host = _StepHost()
    host.list_bsls, host.read_status, host.publish = list_bsls, read_status, publish
    host.classify, host.sleep, host.random, host.clock = classify, sleep, random, clock
    host.errors, host.publishes = {}, 0
    vt = ffi.new("velstatus_server_status_host *")
    lib.velstatus_server_status_host_init(vt, ffi.sizeof("velstatus_server_status_host"))
    vt.userdata = host.userdata
    vt.list_bsls = lib._vs_ss_list_bsls
    vt.read_status = lib._vs_ss_read_status if read_status is not None else ffi.NULL
    vt.publish = lib._vs_ss_publish
    vt.retry.classify = lib._vs_rt_classify if classify is not None else ffi.NULL
    vt.retry.sleep = lib._vs_rt_sleep if sleep is not None else ffi.NULL
    vt.retry.random = lib._vs_rt_random if random is not None else ffi.NULL
    vt.retry.now = lib._vs_rt_now if clock is not None else ffi.NULL
    own = ctx is None
    ctx = Context() if own else ctx
    try:
        out = ffi.new("velstatus_server_verdict **")
        published = ffi.new("int *")
        err = new_error()
        with ctx._held() as p:
            status = lib.velstatus_server_status_step(out, published, p, vt, opts.c, opts.policy, err)
            try:
                if (status == lib.VELSTATUS_E_HOST and host._exc is None and host.publishes
                        and host.publishes in host.errors):
                    raise host.errors[host.publishes]  # the last publish attempt's own exception
                host.check(status, err)
                return StepResult(_take_verdict(out, p), bool(published[0]))
            finally:
                if out[0] != ffi.NULL:
                    lib.velstatus_server_verdict_free(out[0])
    finally:
        host.errors.clear()
        host.release()
        if own:
            ctx.close()
