# SPDX-License-Identifier: Apache-2.0
"""Backup and Restore objects and watch events (backup_object.h, watch.h).

``decode_backups(text)`` reads ``kubectl get backup -o json`` (one object, a
List or an array) with the library's decoder, which reads keys as
Kubernetes' own decoder does: unescaped, case-sensitive, and the last
non-null repeated value wins (``{"phase":"Failed","phase":"Completed"}`` is
Completed). ``backup_conditions(kind, phase, ...)`` gives the kstatus-style
Ready / Reconciling / Stalled conditions; ``watch_event(text)`` decodes one
event of a ``kubectl get --watch -o json`` stream, and
``json_value_end(data)`` says where the first JSON value of a stream ends.
"""

import collections
import enum
from typing import Any, Optional, Union

from ._context import Context
from ._core import KindLike, PolicyLike, policy_ptr
from ._enums import CEnum, Kind, c_enum
from ._errors import check, new_error
from ._ffi import ffi, lib

__all__ = ["BackupObject", "BackupObjects", "decode_backups", "ConditionStatus", "BackupConditions",
           "backup_conditions", "WatchType", "WatchEvent", "watch_event", "json_value_end"]

TextLike = Union[str, bytes]


def _raw(text: TextLike) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def _text(p: Any, n: int) -> Optional[str]:
    """A library text (None for NULL); a NUL byte stays, invalid UTF-8 is surrogate-escaped."""
    return None if p == ffi.NULL else ffi.unpack(p, n).decode("utf-8", "surrogateescape")


BackupObject = collections.namedtuple(
    "BackupObject", "kind name namespace phase failure_reason deletion_time_ns generation errors warnings "
                    "storage_location item_operation_timeout backup_name item_operations_completed "
                    "item_operations_failed finalizers")
BackupObject.__doc__ = """One decoded Backup or Restore (velstatus_backup_list_*).

``kind`` (Kind); the texts ``name``, ``namespace``, ``phase`` (``""`` is
New), ``failure_reason``, ``storage_location``, ``item_operation_timeout``
(verbatim, e.g. ``"4h0m0s"``) and ``backup_name`` (a Restore's), each None
when absent or null; ``deletion_time_ns`` (ns since the epoch, None unless
being deleted); the integers ``generation``, ``errors``, ``warnings``,
``item_operations_completed`` and ``item_operations_failed`` (None when
absent); ``finalizers`` (tuple of str).
"""

BackupObjects = collections.namedtuple("BackupObjects", "objects skipped")
BackupObjects.__doc__ = ("The Backups and Restores of a text (``objects``, a tuple of BackupObject, "
                         "in text order) and how many objects of another kind were ``skipped``.")


def _opt_int(getter: Any, lst: Any, i: int) -> Optional[int]:
    v = ffi.new("int64_t *")
    return int(v[0]) if getter(lst, i, v) else None


def _object(lst: Any, i: int) -> BackupObject:
    n = ffi.new("size_t *")

    def text(getter: Any) -> Optional[str]:
        return _text(getter(lst, i, n), n[0])

    fins = tuple(_text(lib.velstatus_backup_list_finalizer(lst, i, j, n), n[0])
                 for j in range(lib.velstatus_backup_list_finalizer_count(lst, i)))
    return BackupObject(Kind.from_c(lib.velstatus_backup_list_kind(lst, i)), text(lib.velstatus_backup_list_name),
                        text(lib.velstatus_backup_list_namespace), text(lib.velstatus_backup_list_phase),
                        text(lib.velstatus_backup_list_failure_reason),
                        _opt_int(lib.velstatus_backup_list_deletion_time, lst, i),
                        _opt_int(lib.velstatus_backup_list_generation, lst, i),
                        _opt_int(lib.velstatus_backup_list_errors, lst, i),
                        _opt_int(lib.velstatus_backup_list_warnings, lst, i),
                        text(lib.velstatus_backup_list_storage_location),
                        text(lib.velstatus_backup_list_item_operation_timeout),
                        text(lib.velstatus_backup_list_backup_name),
                        _opt_int(lib.velstatus_backup_list_item_operations_completed, lst, i),
                        _opt_int(lib.velstatus_backup_list_item_operations_failed, lst, i), fins)


def decode_backups(text: TextLike, ctx: Optional[Context] = None) -> BackupObjects:
    """Decodes Backup and Restore objects (velstatus_backup_list_from_json):
    one object, a List (``List``, ``BackupList``, ``RestoreList``) or an
    array. Objects of another kind are skipped and counted. A field of the
    wrong type raises SchemaError with its path and position, malformed
    JSON ParseError."""
    raw = _raw(text)
    out = ffi.new("velstatus_backup_list **")
    err = new_error()
    with (ctx if ctx is not None else Context())._held() as p:
        check(lib.velstatus_backup_list_from_json(out, p, raw, len(raw), err), err)
        lst = out[0]
        try:
            objects = tuple(_object(lst, i) for i in range(lib.velstatus_backup_list_count(lst)))
            return BackupObjects(objects, int(lib.velstatus_backup_list_skipped(lst)))
        finally:
            lib.velstatus_backup_list_free(lst)


@c_enum("velstatus_condition_status", "VELSTATUS_CONDITION_", lib.velstatus_condition_status_to_string)
class ConditionStatus(CEnum):
    """A Kubernetes condition status: TRUE ("True"), FALSE ("False"), UNKNOWN ("Unknown")."""

    FALSE = "False"
    TRUE = "True"
    UNKNOWN = "Unknown"


BackupConditions = collections.namedtuple(
    "BackupConditions", "ready reconciling stalled reason phase_valid phase_in_release")
BackupConditions.__doc__ = """The kstatus-style conditions of a Backup or Restore
(velstatus_backup_conditions_of): ``ready``, ``reconciling``, ``stalled``
(ConditionStatus), their one ``reason`` (the phase, ``New``, ``NoStatus``,
``Deleting`` or ``UnknownPhase``), and whether the phase is one of the
kind's (``phase_valid``) and in the policy's Velero release
(``phase_in_release``).
"""


def backup_conditions(kind: KindLike, phase: Optional[str], deleting: bool = False,
                      policy: PolicyLike = None) -> BackupConditions:
    """The Ready, Reconciling and Stalled conditions a Backup or Restore in
    ``phase`` (``status.phase``, None when absent) should carry; ``policy``
    picks the Velero release whose phases exist (None: the current one)."""
    k = Kind.coerce(kind)
    raw = None if phase is None else _raw(str(phase))
    c_phase = ffi.NULL if raw is None else ffi.new("char[]", raw)
    c = ffi.new("velstatus_backup_conditions *")
    lib.velstatus_backup_conditions_init(c, ffi.sizeof("velstatus_backup_conditions"))
    err = new_error()
    check(lib.velstatus_backup_conditions_of(c, k.c, c_phase, len(raw or b""), 1 if deleting else 0,
                                             policy_ptr(policy), err), err)
    return BackupConditions(ConditionStatus.from_c(c.ready), ConditionStatus.from_c(c.reconciling),
                            ConditionStatus.from_c(c.stalled), _text(c.reason, c.reason_len),
                            bool(c.phase_valid), bool(c.phase_in_release))


@c_enum("velstatus_watch_type", "VELSTATUS_WATCH_", lib.velstatus_watch_type_to_string)
class WatchType(enum.IntEnum):
    """The type of a watch event; str() is the token ("ADDED", ...; "OBJECT"
    for a bare object without a type)."""

    OBJECT = 0
    ADDED = 1
    MODIFIED = 2
    DELETED = 3
    BOOKMARK = 4
    ERROR = 5


WatchEvent = collections.namedtuple("WatchEvent", "type object reason message code")
WatchEvent.__doc__ = """One decoded watch event (velstatus_watch_event_from_json):
``type`` (WatchType), ``object`` (the bytes of its object, which
decode_backups() or server_status() read), and of an ERROR's Status
``reason``, ``message`` (None when absent) and ``code`` (int or None).
"""


def watch_event(text: TextLike, ctx: Optional[Context] = None) -> WatchEvent:
    """Decodes one event of a ``kubectl get --watch -o json`` stream (with
    or without ``--output-watch-events``)."""
    raw = _raw(text)
    out = ffi.new("velstatus_watch_event **")
    err = new_error()
    with (ctx if ctx is not None else Context())._held() as p:
        check(lib.velstatus_watch_event_from_json(out, p, raw, len(raw), err), err)
        try:
            return _event_of(out[0], raw)
        finally:
            lib.velstatus_watch_event_free(out[0])


def _event_of(ev, raw: bytes) -> WatchEvent:
    """A decoded C event as a WatchEvent; its object is a slice of ``raw``."""
    off = ffi.new("size_t *")
    n = ffi.new("size_t *")
    code = ffi.new("int64_t *")
    length = lib.velstatus_watch_event_object(ev, off)
    reason = _text(lib.velstatus_watch_event_reason(ev, n), n[0])
    message = _text(lib.velstatus_watch_event_message(ev, n), n[0])
    has_code = lib.velstatus_watch_event_code(ev, code)
    return WatchEvent(WatchType(lib.velstatus_watch_event_type(ev)), raw[off[0]:off[0] + length], reason,
                      message, int(code[0]) if has_code else None)


def json_value_end(data: bytes) -> int:
    """Where the JSON value starting at ``data[0]`` ends (velstatus_json_value_end),
    validated as the decoders validate; ParseError (with the offset) otherwise."""
    raw = bytes(data)
    end = ffi.new("size_t *")
    err = new_error()
    check(lib.velstatus_json_value_end(end, ffi.NULL, raw, len(raw), err), err)
    return int(end[0])
