# SPDX-License-Identifier: Apache-2.0
"""Python enums generated from the C enums: no second table.

Members and their order come from the cdef (``ffi.typeof(...).elements``,
i.e. the real header); each member's value is the wire string the C
``*_to_string`` function returns, so ``str(Phase.COMPLETED) == "Completed"``
and ``Phase("Completed") is Phase.COMPLETED``. The C integer of a member is
``member.c``. Members are also ``str`` (a str-mixin enum), so they compare
equal to their wire strings: ``Phase.COMPLETED == "Completed"``.
"""

import enum

from ._errors import InvalidArgument, check, new_error
from ._ffi import ffi, lib

__all__ = ["CEnum", "Kind", "Phase", "Preset", "RestartAction", "Status"]


class CEnum(enum.Enum):
    """Base of the enums backed by a C enum and its to_string function."""

    def __str__(self):
        return self.value

    @property
    def c(self):
        """The C enum value."""
        return type(self)._c_of[self]

    @classmethod
    def from_c(cls, value):
        """The member for a C enum value (ValueError for an unknown one)."""
        try:
            return cls._by_c[int(value)]
        except KeyError:
            raise ValueError("%r is not a C value of %s" % (value, cls.__name__)) from None

    @classmethod
    def coerce(cls, value):
        """A member from a member, its wire string, or its C value."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return cls.from_c(value)
        raise TypeError("expected %s, str or int, got %s" % (cls.__name__, type(value).__name__))


def c_enum(name, ctype, prefix, to_string, doc, null_value=None):
    """Builds a CEnum subclass from the C enum ``ctype``.

    ``null_value``: the value for a member whose to_string gives NULL (a
    sentinel such as "unknown"); without it such a member is an error.
    """
    elements = ffi.typeof(ctype).elements  # {int value: "VELSTATUS_..."}
    items, cvals = [], []
    for value in sorted(elements):
        cname = elements[value]
        text = to_string(value)
        if text == ffi.NULL:
            if null_value is None:  # pragma: no cover - a header/library mismatch
                raise ImportError("velstatus: %s has no string for %s" % (ctype, cname))
            items.append((cname[len(prefix):], null_value))
        else:
            items.append((cname[len(prefix):], ffi.string(text).decode("utf-8")))
        cvals.append(value)
    cls = CEnum(name, items, module=__name__.rpartition(".")[0], qualname=name, type=str)
    cls.__doc__ = doc
    cls._c_of = {member: value for member, value in zip(cls, cvals)}
    cls._by_c = {value: member for member, value in cls._c_of.items()}
    return cls


Kind = c_enum("Kind", "velstatus_kind", "VELSTATUS_KIND_", lib.velstatus_kind_to_string,
              "Which CR a phase belongs to: BACKUP (\"backup\") or RESTORE (\"restore\").")

Phase = c_enum("Phase", "velstatus_phase", "VELSTATUS_PHASE_", lib.velstatus_phase_to_string,
               "Backup and restore phases in Velero's wire spelling (doc/velero-behaviour.md §5.1).")

Preset = c_enum("Preset", "velstatus_preset", "VELSTATUS_PRESET_", lib.velstatus_preset_to_string,
                "Policy presets: VELERO (Velero HEAD, quirk for quirk) and HARDENED.")

RestartAction = c_enum("RestartAction", "velstatus_restart_action", "VELSTATUS_RESTART_",
                       lib.velstatus_restart_action_to_string,
                       "What the server does at restart with a CR in a given phase.")


def _phase_parse(cls, text, kind="backup"):
    """Parses a phase of ``kind`` as the library does ("" reads as NEW).

    Raises InvalidArgument (a ValueError) for an unknown phase or one the kind
    does not have (a restore "Queued").
    """
    if isinstance(text, cls):
        if not text.valid_for(kind):
            raise InvalidArgument("a %s has no phase %s" % (Kind.coerce(kind), text))
        return text
    raw = text.encode("utf-8")
    out = ffi.new("velstatus_phase *")
    err = new_error()
    check(lib.velstatus_phase_from_string(out, Kind.coerce(kind).c, raw, len(raw), err), err)
    return cls.from_c(out[0])


def _phase_valid_for(self, kind):
    """Whether the kind has this phase."""
    return bool(lib.velstatus_phase_valid(Kind.coerce(kind).c, self.c))


def _phase_is_terminal(self, kind="backup"):
    """Whether ``velero ... create --wait`` stops at this phase (doc/velero-behaviour.md §5.1)."""
    return bool(lib.velstatus_phase_is_terminal(Kind.coerce(kind).c, self.c))


Phase.parse = classmethod(_phase_parse)
Phase.valid_for = _phase_valid_for
Phase.is_terminal = _phase_is_terminal


class _StatusBase(enum.IntEnum):
    def __str__(self):
        return ffi.string(lib.velstatus_status_name(self.value)).decode("utf-8")


Status = _StatusBase("Status", [(cname[len("VELSTATUS_"):], value)
                                for value, cname in sorted(ffi.typeof("velstatus_status").elements.items(),
                                                           key=lambda kv: (kv[0] != 0, -kv[0]))],
                     module=__name__.rpartition(".")[0], qualname="Status")
Status.__doc__ = ("The C status codes (velstatus_status) as an IntEnum; str() is the C "
                  "identifier, e.g. \"VELSTATUS_E_PARSE\".")
