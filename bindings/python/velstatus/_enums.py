# SPDX-License-Identifier: Apache-2.0
"""Python enums of the C enums, written out so that IDEs and type checkers see
their members, and checked at import against the header the module was
compiled against (the ``c_enum`` decorator): a drift is an ImportError.

Each member's value is the wire string the C ``*_to_string`` function
returns, so ``str(Phase.COMPLETED) == "Completed"``
and ``Phase("Completed") is Phase.COMPLETED``. The C integer of a member is
``member.c``. Members are also ``str`` (a str-mixin enum), so they compare
equal to their wire strings: ``Phase.COMPLETED == "Completed"``.
"""

import enum
from typing import Any, Callable, Optional, Type, TypeVar, Union

from ._errors import InvalidArgument, check, new_error
from ._ffi import ffi, lib

__all__ = ["ArgoHealth", "CEnum", "Kind", "Phase", "Preset", "RestartAction", "Status"]

_E = TypeVar("_E", bound=enum.Enum)


class CEnum(str, enum.Enum):
    """Base of the enums backed by a C enum and its to_string function."""

    def __str__(self) -> str:
        return str(self.value)

    @property
    def c(self) -> int:
        """The C enum value."""
        return type(self)._c_of[self]  # type: ignore[attr-defined, no-any-return]

    @classmethod
    def from_c(cls: Type[_E], value: int) -> _E:
        """The member for a C enum value (ValueError for an unknown one)."""
        try:
            return cls._by_c[int(value)]  # type: ignore[attr-defined, no-any-return]
        except KeyError:
            raise ValueError("%r is not a C value of %s" % (value, cls.__name__)) from None

    @classmethod
    def coerce(cls: Type[_E], value: Union[_E, str, int]) -> _E:
        """A member from a member, its wire string, or its C value."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return cls.from_c(value)  # type: ignore[attr-defined, no-any-return]
        raise TypeError("expected %s, str or int, got %s" % (cls.__name__, type(value).__name__))


def _token_str(to_string: Callable[[int], Any]) -> Callable[[Any], str]:
    """__str__ of an IntEnum/IntFlag: the C token ("upload_and_patch"); a
    combination of flags joins its flags' tokens with "|" ("0" when empty)."""
    def token(member: Any) -> str:
        text = to_string(int(member))
        if text != ffi.NULL:
            return str(ffi.string(text).decode("utf-8"))
        bits = [1 << i for i in range(32) if int(member) & (1 << i)]
        parts = [to_string(b) for b in bits]
        if not bits or any(p == ffi.NULL for p in parts):
            return str(int(member))
        return "|".join(ffi.string(p).decode("utf-8") for p in parts)
    return token


def c_enum(ctype: str, prefix: str, to_string: Optional[Callable[[int], Any]] = None,
           null_value: Optional[str] = None) -> Callable[[Type[_E]], Type[_E]]:
    """Class decorator: checks an enum declared in Python against the C enum ``ctype``.

    The members are written out in the class (so that IDEs and type checkers
    see them); at import the decorator compares them with the header the
    module was compiled against (``ffi.typeof(ctype).elements``): the same
    names after ``prefix``, and, for a CEnum, values equal to what the C
    ``to_string`` returns (``null_value`` where it returns NULL, e.g. the
    "unknown" sentinel), for an IntEnum/IntFlag the C integers. A C
    ``*_INVALID = -1`` (a getter's answer for NULL) is not declared. A mismatch is an
    ImportError, never a silently wrong enum. A CEnum member's C value is
    ``member.c``. An IntEnum/IntFlag given ``to_string`` prints its C token.
    """
    def bind(cls: Type[_E]) -> Type[_E]:
        # The C enums' INVALID value (-1, what a getter returns for a NULL
        # object) has no Python member: the binding never passes NULL, and
        # from_c(-1) raises ValueError.
        by_name = {cname[len(prefix):]: value for value, cname in ffi.typeof(ctype).elements.items()
                   if cname.startswith(prefix) and not (value == -1 and cname.endswith("_INVALID"))}
        names = list(cls.__members__)
        if sorted(names) != sorted(by_name):
            raise ImportError("velstatus: %s declares %s but %s has %s" % (
                cls.__name__, sorted(names), ctype, sorted(by_name)))
        for name, member in cls.__members__.items():
            if issubclass(cls, CEnum):
                assert to_string is not None
                text = to_string(by_name[name])
                want = null_value if text == ffi.NULL else ffi.string(text).decode("utf-8")
            else:
                want = by_name[name]
            if member.value != want:
                raise ImportError("velstatus: %s.%s is %r, the C library says %r" % (
                    cls.__name__, name, member.value, want))
        if to_string is not None and not issubclass(cls, CEnum):
            setattr(cls, "__str__", _token_str(to_string))
        if issubclass(cls, CEnum):
            c_of = {member: by_name[name] for name, member in cls.__members__.items()}
            setattr(cls, "_c_of", c_of)
            setattr(cls, "_by_c", {value: member for member, value in c_of.items()})
        return cls
    return bind


@c_enum("velstatus_kind", "VELSTATUS_KIND_", lib.velstatus_kind_to_string)
class Kind(CEnum):
    """Which CR a phase belongs to: BACKUP ("backup") or RESTORE ("restore")."""

    BACKUP = "backup"
    RESTORE = "restore"


@c_enum("velstatus_phase", "VELSTATUS_PHASE_", lib.velstatus_phase_to_string)
class Phase(CEnum):
    """Backup and restore phases in Velero's wire spelling (doc/velero-behaviour.md §5.1)."""

    NEW = "New"
    QUEUED = "Queued"
    READY_TO_START = "ReadyToStart"
    FAILED_VALIDATION = "FailedValidation"
    IN_PROGRESS = "InProgress"
    WAITING_FOR_PLUGIN_OPERATIONS = "WaitingForPluginOperations"
    WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED = "WaitingForPluginOperationsPartiallyFailed"
    FINALIZING = "Finalizing"
    FINALIZING_PARTIALLY_FAILED = "FinalizingPartiallyFailed"
    COMPLETED = "Completed"
    PARTIALLY_FAILED = "PartiallyFailed"
    FAILED = "Failed"
    DELETING = "Deleting"

    @classmethod
    def parse(cls, text: Union["Phase", str], kind: Union[Kind, str, int] = "backup") -> "Phase":
        """Parses a phase of ``kind`` as the library does ("" reads as NEW).

        Raises InvalidArgument (a ValueError) for an unknown phase or one the kind
        does not have (a restore "Queued").
        """
        if isinstance(text, cls):
            if not text.valid_for(kind):
                raise InvalidArgument('phase: a %s has no phase "%s"' % (Kind.coerce(kind), text),
                                      code=lib.VELSTATUS_E_INVALID)
            return text
        raw = text.encode("utf-8")
        out = ffi.new("velstatus_phase *")
        err = new_error()
        check(lib.velstatus_phase_from_string(out, raw, len(raw), err), err)
        phase = cls.from_c(out[0])
        if not phase.valid_for(kind):
            raise InvalidArgument('phase: a %s has no phase "%s"' % (Kind.coerce(kind), phase),
                                  code=lib.VELSTATUS_E_INVALID)
        return phase

    def valid_for(self, kind: Union[Kind, str, int]) -> bool:
        """Whether the kind has this phase."""
        return bool(lib.velstatus_phase_valid(Kind.coerce(kind).c, self.c))

    def is_terminal(self, kind: Union[Kind, str, int] = "backup") -> bool:
        """Whether ``velero ... create --wait`` stops at this phase (doc/velero-behaviour.md §5.1)."""
        return bool(lib.velstatus_phase_is_terminal(Kind.coerce(kind).c, self.c))


@c_enum("velstatus_preset", "VELSTATUS_PRESET_", lib.velstatus_preset_to_string)
class Preset(CEnum):
    """Policy presets: VELERO (Velero HEAD, quirk for quirk) and HARDENED."""

    VELERO = "velero"
    HARDENED = "hardened"


@c_enum("velstatus_restart_action", "VELSTATUS_RESTART_", lib.velstatus_restart_action_to_string)
class RestartAction(CEnum):
    """What the server does at restart with a CR in a given phase."""

    NONE = "none"
    MARK_FAILED = "mark_failed"
    REQUEUE = "requeue"


@c_enum("velstatus_bsl_validation", "VELSTATUS_BSL_VALIDATION_", lib.velstatus_bsl_validation_to_string)
class BslValidation(CEnum):
    """A BackupStorageLocation problem that fails validation (velstatus_bsl_validation)."""

    SERVER_DEFAULT_MISSING = "server_default_missing"
    DEFAULT_MISSING = "default_missing"
    READ_ONLY = "read_only"
    UNAVAILABLE = "unavailable"


@c_enum("velstatus_argo_health", "VELSTATUS_ARGO_", lib.velstatus_argo_health_to_string)
class ArgoHealth(CEnum):
    """Argo CD's health of a Backup or Restore (velstatus_argo_health):
    HEALTHY ("healthy"), PROGRESSING ("progressing"), DEGRADED ("degraded")."""

    HEALTHY = "healthy"
    PROGRESSING = "progressing"
    DEGRADED = "degraded"


@c_enum("velstatus_status", "VELSTATUS_")
class Status(enum.IntEnum):
    """The C status codes (velstatus_status) as an IntEnum; str() is the C identifier, e.g. "VELSTATUS_E_PARSE"."""

    OK = 0
    E_NOMEM = -1
    E_INVALID = -2
    E_PARSE = -3
    E_SCHEMA = -4
    E_HOST = -5
    E_ABI = -6
    E_RANGE = -7
    E_STATE = -8
    PASSTHROUGH = -30
    E_INTERNAL = -99

    def __str__(self) -> str:
        return str(ffi.string(lib.velstatus_status_name(self.value)).decode("utf-8"))
