# SPDX-License-Identifier: Apache-2.0
"""Version, time and duration text, policy presets, phase decisions."""

import collections
import datetime
from typing import Any, Dict, List, Optional, Tuple, Union

from ._enums import BslValidation, Kind, Phase, Preset, RestartAction
from ._errors import InvalidArgument, RangeError, check, new_error
from ._ffi import ffi, lib

# What the functions accept for an instant, a duration, a kind, a phase and a
# policy (see time_ns(), duration_ns(), Kind.coerce(), Phase.parse(), policy_ptr()).
TimeLike = Union[int, str, datetime.datetime]
DurationLike = Union[int, str, datetime.timedelta]
KindLike = Union[Kind, str, int]
PhaseLike = Union[Phase, str]
PolicyLike = Union["Policy", Preset, str, None]

__all__ = ["version", "version_info", "parse_time", "parse_time_go_string", "format_time", "format_time_go",
           "parse_duration", "format_duration", "time_ns", "duration_ns", "Policy",
           "Transition", "Restart", "phase_transition", "phase_after_run", "phase_on_restart"]


# -- version -----------------------------------------------------------------

def version() -> str:
    """The library's version string, e.g. ``"1.0.0"`` (velstatus_version_string)."""
    return ffi.string(lib.velstatus_version_string()).decode("ascii")


def version_info() -> Tuple[int, int, int]:
    """The library's version as ``(major, minor, patch)`` (velstatus_version_number)."""
    n = int(lib.velstatus_version_number())
    return (n >> 16, (n >> 8) & 0xFF, n & 0xFF)


# -- time --------------------------------------------------------------------

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _text(value, what):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    raise TypeError("%s must be str or bytes, not %s" % (what, type(value).__name__))


def _parse_exact(parse, text) -> int:
    """An exact instant (int nanoseconds) from a (sec, nsec) parser of the library."""
    raw = _text(text, "text")
    sec = ffi.new("int64_t *")
    nsec = ffi.new("int32_t *")
    err = new_error()
    check(parse(sec, nsec, raw, len(raw), err), err)
    return int(sec[0]) * 10**9 + int(nsec[0])


def parse_time(text: str) -> int:
    """Parses an RFC 3339 timestamp as Go's time.Parse(time.RFC3339) does
    (how metav1.Time, every time in Velero's files, reads).

    Returns the exact instant in nanoseconds since the Unix epoch (int), over
    Go's whole range: years 0000 to 9999 at any offset. Go's zero time,
    ``0001-01-01T00:00:00Z``, is ``-62135596800 * 10**9``. Past the int64
    range (1677 to 2262) the int is still exact, but a call that hands an
    instant to the library (``now=``, a setter) raises OverflowError for it.
    Raises ParseError (with ``offset``/``column`` of the bad byte).
    """
    return _parse_exact(lib.velstatus_time_parse_sec, text)


def parse_time_go_string(text: str) -> int:
    """Parses a time as Go's Time.String() prints it, as ``velero describe``
    and ``velero backup-location get`` show times
    (``2023-11-10 16:40:35 +0100 CET``): the numeric offset decides, the
    zone's abbreviation and a monotonic ``m=+...`` suffix are ignored.

    Returns the exact instant in nanoseconds since the Unix epoch (int), as
    parse_time() does. Raises ParseError (with ``offset``/``column``).
    """
    return _parse_exact(lib.velstatus_time_parse_go_string, text)


def format_time(ns: TimeLike, fraction: bool = True) -> str:
    """Formats an instant as RFC 3339 UTC, as Go's Time.Format does.

    ``ns`` is an int (nanoseconds since the epoch, any int whose second fits
    int64, so every value parse_time() returns), an RFC 3339 str or an
    aware datetime. ``fraction=True`` prints Go's RFC3339Nano (trailing
    zeros dropped); ``False`` prints whole seconds, as metav1.Time marshals.
    Years outside 0000-9999 are written as Go writes them (``-0001-12-31T...``,
    ``10000-01-01T...``).
    """
    if isinstance(ns, (str, bytes)):
        ns = parse_time(ns)
    elif not isinstance(ns, int) or isinstance(ns, bool):
        ns = time_ns(ns)
    sec, nsec = divmod(ns, 10**9)
    _int64(sec, "second")
    buf = ffi.new("char[]", lib.VELSTATUS_TIME_BUFSIZE)
    err = new_error()
    check(lib.velstatus_time_format_sec(buf, len(buf), sec, nsec, 1 if fraction else 0, err), err)
    return ffi.string(buf).decode("ascii")


def to_datetime(ns: int) -> datetime.datetime:
    """The instant ``ns`` (int nanoseconds since the epoch, as parse_time()
    and Operation return) as an aware datetime in UTC.

    datetime holds microseconds: the nanoseconds are truncated toward the
    past. datetime holds years 1 to 9999 only: an instant before
    0001-01-01T00:00:00Z (year 0, which Go reads, or year -1, which an
    offset reaches) or after 9999-12-31T23:59:59.999999Z (year 10000) raises
    RangeError; use the int, or format_time(), for those.
    """
    if isinstance(ns, bool) or not isinstance(ns, int):
        raise TypeError("an instant must be int ns, not %s" % type(ns).__name__)
    try:
        return _EPOCH + datetime.timedelta(microseconds=ns // 1000)
    except OverflowError:
        raise RangeError("instant %d ns (%s) is outside the years 1-9999 a datetime holds"
                         % (ns, format_time(ns)), code=lib.VELSTATUS_E_RANGE) from None


def format_time_go(ns: int) -> str:
    """Formats an instant as Go's time.Time.String() does in UTC."""
    buf = ffi.new("char[]", lib.VELSTATUS_TIME_BUFSIZE)
    err = new_error()
    check(lib.velstatus_time_format_go(buf, len(buf), time_ns(ns), err), err)
    return ffi.string(buf).decode("ascii")


def parse_duration(text: str) -> int:
    """Parses a Go duration (``"4h0m0s"``, ``"1.5s"``) into nanoseconds, as time.ParseDuration."""
    raw = _text(text, "text")
    out = ffi.new("int64_t *")
    err = new_error()
    check(lib.velstatus_duration_parse(out, raw, len(raw), err), err)
    return int(out[0])


def format_duration(ns: int) -> str:
    """Formats nanoseconds as Go's time.Duration.String() does (``"4h0m0s"``)."""
    buf = ffi.new("char[]", lib.VELSTATUS_DURATION_BUFSIZE)
    err = new_error()
    check(lib.velstatus_duration_format(buf, len(buf), duration_ns(ns), err), err)
    return ffi.string(buf).decode("utf-8")


def _int64(value, what):
    if not -(1 << 63) <= value < (1 << 63):
        raise OverflowError("%s %d does not fit in int64 nanoseconds" % (what, value))
    return value


def time_ns(value: TimeLike) -> int:
    """An instant as int64 nanoseconds since the epoch.

    Accepts an int (nanoseconds), an RFC 3339 str, or a timezone-aware
    datetime.datetime (a naive one is rejected: its zone is unknown).
    """
    return _int64(exact_time_ns(value), "instant")


def exact_time_ns(value: TimeLike) -> int:
    """time_ns() over Go's whole range: the int may lie outside int64."""
    if isinstance(value, bool):
        raise TypeError("an instant cannot be a bool")
    if isinstance(value, int):
        return value
    if isinstance(value, (str, bytes)):
        return parse_time(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidArgument("a naive datetime has no time zone; use an aware one (e.g. tzinfo=timezone.utc)",
                                  code=lib.VELSTATUS_E_INVALID)
        return (value - _EPOCH) // datetime.timedelta(microseconds=1) * 1000
    raise TypeError("an instant must be int ns, str or datetime, not %s" % type(value).__name__)


def duration_ns(value: DurationLike) -> int:
    """A duration as int64 nanoseconds: an int (ns), a Go duration str, or a timedelta."""
    if isinstance(value, bool):
        raise TypeError("a duration cannot be a bool")
    if isinstance(value, int):
        return _int64(value, "duration")
    if isinstance(value, (str, bytes)):
        return parse_duration(value)
    if isinstance(value, datetime.timedelta):
        return _int64(value // datetime.timedelta(microseconds=1) * 1000, "duration")
    raise TypeError("a duration must be int ns, str or timedelta, not %s" % type(value).__name__)


# -- policy ------------------------------------------------------------------

def _knobs():
    """The policy's knobs, from the C struct's fields (no hand-kept list)."""
    knobs = {}
    for name, field in ffi.typeof("velstatus_policy").fields:
        if name in ("struct_size", "preset"):
            continue
        knobs[name] = field.type.cname
    return knobs


class Policy:
    """A ``velstatus_policy``: the knobs where Velero's quirks and the hardened
    behaviour differ (doc/design.md §2). Start from a preset and change knobs by
    attribute or keyword::

        p = Policy.velero()
        q = Policy(Preset.HARDENED, progress_error_grace_ns=0)

    Knobs typed ``int`` in C are booleans here; ``*_ns`` knobs are int
    nanoseconds (a timedelta or Go duration string is accepted when setting).
    ``None`` wherever a policy is accepted means the hardened preset, as NULL
    does in C.
    """

    __slots__ = ("_c",)
    KNOBS = tuple(_knobs())

    def __init__(self, preset: Union[Preset, str] = Preset.HARDENED, **knobs: Any) -> None:
        c = ffi.new("velstatus_policy *")
        err = new_error()
        check(lib.velstatus_policy_init(c, ffi.sizeof(c[0]), Preset.coerce(preset).c, err), err)
        object.__setattr__(self, "_c", c)
        for name, value in knobs.items():
            setattr(self, name, value)

    @classmethod
    def velero(cls, **knobs: Any) -> "Policy":
        """Velero HEAD's behaviour, quirk for quirk (velstatus_policy_init, VELSTATUS_PRESET_VELERO)."""
        return cls(Preset.VELERO, **knobs)

    @classmethod
    def hardened(cls, **knobs: Any) -> "Policy":
        """The recommended default for new hosts (velstatus_policy_init, VELSTATUS_PRESET_HARDENED)."""
        return cls(Preset.HARDENED, **knobs)

    @classmethod
    def velero_release(cls, version: Union[str, Tuple[int, int]], **knobs: Any) -> "Policy":
        """The Velero-exact preset of one Velero release (doc/velero-releases.md):
        ``"1.14"``, ``"v1.14.2"`` or ``(1, 14)``
        (velstatus_policy_init_version / velstatus_policy_init_release).

        Raises InvalidArgument, naming the supported range, for a release
        outside it (``velero_releases()`` lists them).
        """
        new = cls(Preset.VELERO)
        err = new_error()
        if isinstance(version, tuple):
            major, minor = version
            check(lib.velstatus_policy_init_release(new._c, ffi.sizeof(new._c[0]), int(major), int(minor), err), err)
        else:
            text = version.encode("utf-8") if isinstance(version, str) else bytes(version)
            check(lib.velstatus_policy_init_version(new._c, ffi.sizeof(new._c[0]), ffi.NULL, ffi.NULL, text, len(text),
                                                    err), err)
        for name, value in knobs.items():
            setattr(new, name, value)
        return new

    @property
    def preset(self) -> Preset:
        """The preset this policy was made from (informational)."""
        return Preset.from_c(self._c.preset)

    def __getattr__(self, name):
        ctype = _KNOB_TYPES.get(name)
        if ctype is None:
            raise AttributeError("Policy has no knob %r" % name)
        value = getattr(self._c, name)
        return bool(value) if ctype == "int" else int(value)

    def __setattr__(self, name, value):
        ctype = _KNOB_TYPES.get(name)
        if ctype is None:
            raise AttributeError("Policy has no knob %r" % name)
        if ctype == "int":
            if not isinstance(value, (bool, int)) or value not in (0, 1):
                raise TypeError("%s is a boolean knob" % name)
            value = int(value)
        elif name.endswith("_ns"):
            value = duration_ns(value)
        setattr(self._c, name, value)

    def as_dict(self) -> Dict[str, Any]:
        """Every knob by name, plus "preset"."""
        d = {"preset": str(self.preset)}
        d.update((name, getattr(self, name)) for name in self.KNOBS)
        return d

    def copy(self, **knobs: Any) -> "Policy":
        """A copy, with ``knobs`` changed."""
        new = Policy(self.preset)
        ffi.memmove(new._c, self._c, ffi.sizeof("velstatus_policy"))
        for name, value in knobs.items():
            setattr(new, name, value)
        return new

    def __eq__(self, other):
        if not isinstance(other, Policy):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.KNOBS)

    __hash__ = None

    def __repr__(self):
        return "Policy(%s)" % ", ".join("%s=%r" % kv for kv in self.as_dict().items())


_KNOB_TYPES = _knobs()


def velero_releases() -> List[str]:
    """The Velero releases ``Policy.velero_release()`` accepts, oldest first;
    the last is the current release, the one ``Policy.velero()`` is."""
    major, minor = ffi.new("int *"), ffi.new("int *")
    out = []
    for i in range(lib.velstatus_velero_release_count()):
        err = new_error()
        check(lib.velstatus_velero_release_at(major, minor, i, err), err)
        out.append("%d.%d" % (major[0], minor[0]))
    return out


def policy_ptr(policy: PolicyLike) -> Any:
    """The C pointer for a Policy / Preset / preset name / None (NULL: hardened)."""
    if policy is None:
        return ffi.NULL
    if isinstance(policy, Policy):
        return policy._c
    return Policy(Preset.coerce(policy))._c


# -- phases ------------------------------------------------------------------

Transition = collections.namedtuple("Transition", "legal controller")
Transition.__doc__ = ("Whether Velero moves a CR between two phases (``legal``), and which "
                      "controller does (``controller``; None when illegal, \"none\" for a "
                      "phase moved to itself).")
Restart = collections.namedtuple("Restart", "action next")
Restart.__doc__ = "What the server does at restart (``action``) and the phase after it (``next``)."


def _phase(value, kind):
    return Phase.parse(value, kind)


def phase_transition(kind: KindLike, from_phase: PhaseLike, to_phase: PhaseLike,
                     policy: PolicyLike = None) -> Transition:
    """Whether Velero ever moves a ``kind`` CR from one phase to another (doc/velero-behaviour.md §5.2-5.3),
    in the Velero release the policy models (doc/velero-releases.md; None: the current one).

    Phases may be Phase members or wire strings (``""`` is New). Returns a
    Transition(legal, controller). Raises InvalidArgument for a phase the
    kind does not have, or the release did not have.
    """
    kind = Kind.coerce(kind)
    frm, to = _phase(from_phase, kind), _phase(to_phase, kind)
    legal = ffi.new("int *")
    controller = ffi.new("const char **")
    err = new_error()
    check(lib.velstatus_phase_transition(legal, controller, kind.c, frm.c, to.c, policy_ptr(policy), err), err)
    name = ffi.string(controller[0]).decode("utf-8") if controller[0] != ffi.NULL else ""
    return Transition(bool(legal[0]), name or None)


def phase_exists(kind: KindLike, phase: PhaseLike, policy: PolicyLike = None) -> bool:
    """Whether the kind has the phase in the policy's Velero release: Queued and
    ReadyToStart from 1.18, a restore's Finalizing phases from 1.14
    (velstatus_phase_exists; doc/velero-releases.md)."""
    kind = Kind.coerce(kind)
    ph = _phase(phase, kind)
    exists = ffi.new("int *")
    err = new_error()
    check(lib.velstatus_phase_exists(exists, kind.c, ph.c, policy_ptr(policy), err), err)
    return bool(exists[0])


def bsl_validation_error(kind: KindLike, problem: Union[BslValidation, str], bsl: str, cause: str = "",
                         policy: PolicyLike = None) -> Optional[str]:
    """The validation error Velero writes for a BSL problem, in the wording of
    the policy's release (velstatus_bsl_validation_error;
    doc/velero-releases.md); None when that release has no such check (an
    unavailable BSL before Velero 1.17)."""
    kind = Kind.coerce(kind)
    problem = BslValidation.coerce(problem)
    from ._context import Context  # a context of its own allocates the text
    b, c = bsl.encode("utf-8"), cause.encode("utf-8")
    out, n = ffi.new("char **"), ffi.new("size_t *")
    err = new_error()
    with Context()._held() as p:
        check(lib.velstatus_bsl_validation_error(out, n, p, kind.c, problem.c, b, len(b), c, len(c),
                                                 policy_ptr(policy), err), err)
        if out[0] == ffi.NULL:
            return None
        try:
            return ffi.unpack(out[0], n[0]).decode("utf-8", "replace")
        finally:
            lib.velstatus_free(p, out[0])


def phase_after_run(kind: KindLike, fatal: bool = False, errors_logged: int = 0,
                    in_progress: bool = False) -> Phase:
    """The phase after the main backup or restore run (doc/velero-behaviour.md §2.7)."""
    kind = Kind.coerce(kind)
    return Phase.from_c(lib.velstatus_phase_after_run(kind.c, 1 if fatal else 0, int(errors_logged),
                                                      1 if in_progress else 0))


def phase_on_restart(kind: KindLike, phase: PhaseLike, policy: PolicyLike = None) -> Restart:
    """What the server does at restart with a CR in ``phase``: a Restart(action, next)."""
    kind = Kind.coerce(kind)
    ph = _phase(phase, kind)
    action = ffi.new("velstatus_restart_action *")
    nxt = ffi.new("velstatus_phase *")
    err = new_error()
    check(lib.velstatus_phase_on_restart(action, nxt, kind.c, ph.c, policy_ptr(policy), err), err)
    return Restart(RestartAction.from_c(action[0]), Phase.from_c(nxt[0]))
