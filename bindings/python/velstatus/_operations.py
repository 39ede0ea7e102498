# SPDX-License-Identifier: Apache-2.0
"""Item operations (operations.h, doc/design.md §4): the itemoperations list, the
per-operation step and the reconcile pass with Python plugin callbacks.

``OpList`` holds one ``<name>-itemoperations.json`` (decoded, built or
written back byte-exactly). ``OpList.reconcile(progress, cancel, ...)`` runs
Velero's operations controller over it, asking ``progress(op)`` what the
plugin says for each running operation and calling ``cancel(op)`` for those
that timed out. Records are handed to Python as ``Operation`` snapshots.
"""

import collections
import contextlib
import enum
from typing import Any, Callable, Iterable, Iterator, List, Optional, Tuple, Union

from ._context import _Closeable, Context, _Host, _onerror
from ._core import (DurationLike, KindLike, PhaseLike, PolicyLike, TimeLike, duration_ns, exact_time_ns, policy_ptr,
                    time_ns)
from ._datamover import DataMoverClient, DataMoverList, Release, _raw, _release
from ._dm_node import _config, _Texts
from ._enums import CEnum, Kind, Phase, c_enum
from ._errors import InvalidArgument, StateError, check, new_error
from ._ffi import ffi, lib
from ._forecast import _forecast
from ._reconcile_result import (AfterPersistFailure, Canceled, OpStepFlag, PersistAction, PersistFailure,
                               ReconcileResult, _read_result, _text)

# A plugin's answer for one operation: Progress(...), or an exception it raises.
ProgressCallback = Callable[["Operation"], "Progress"]

__all__ = ["OpPhase", "OpReport", "OpStepFlag", "BslState", "PersistAction", "ResourceId", "Operation", "Progress",
           "StepOutcome", "Canceled", "ReconcileResult", "OpList", "OpReports", "wrap_error", "PersistFailure",
           "AfterPersistFailure"]


def _names(ctype, prefix):
    """[(NAME, value)] of a C enum, by value (from the cdef)."""
    return [(cname[len(prefix):], value) for value, cname in sorted(ffi.typeof(ctype).elements.items())]


_MODULE = __name__.rpartition(".")[0]

@c_enum("velstatus_op_phase", "VELSTATUS_OP_PHASE_", lib.velstatus_op_phase_to_string, null_value='')
class OpPhase(CEnum):
    """An operation's phase: NEW, IN_PROGRESS, COMPLETED, FAILED (Velero's four), or
    UNKNOWN (any other text; its value is "")."""

    UNKNOWN = ""
    NEW = "New"
    IN_PROGRESS = "InProgress"
    COMPLETED = "Completed"
    FAILED = "Failed"


@c_enum("velstatus_op_report_kind", "VELSTATUS_OP_REPORT_", lib.velstatus_op_report_kind_to_string)
class OpReport(enum.IntEnum):
    """What a plugin's answer is: PROGRESS, PROGRESS_ERROR or LOOKUP_ERROR."""

    PROGRESS = 0
    PROGRESS_ERROR = 1
    LOOKUP_ERROR = 2


@c_enum("velstatus_bsl_state", "VELSTATUS_BSL_", lib.velstatus_bsl_state_to_string)
class BslState(enum.IntEnum):
    """The state of the backup's BSL for a reconcile: AVAILABLE, MISSING, READONLY."""

    AVAILABLE = 0
    MISSING = 1
    READONLY = 2


_OpField = enum.IntEnum("_OpField", _names("velstatus_op_field", "VELSTATUS_OP_FIELD_"), module=_MODULE)
_OpTime = enum.IntEnum("_OpTime", _names("velstatus_op_time", "VELSTATUS_OP_TIME_"), module=_MODULE)
_RESOURCE = [f for f in _OpField if f.name.startswith("RESOURCE_")]
_STRINGS = {f.name.lower(): f for f in _OpField}
_TIMES = {t.name.lower(): t for t in _OpTime}


def _bsl_state(value):
    if isinstance(value, BslState):
        return value
    if isinstance(value, str) and value.upper() in BslState.__members__:
        return BslState[value.upper()]
    raise InvalidArgument("unknown BSL state %r (want available, missing or readonly)" % (value,),
                          code=lib.VELSTATUS_E_INVALID)


ResourceId = collections.namedtuple("ResourceId", [f.name[len("RESOURCE_"):].lower() for f in _RESOURCE])
ResourceId.__doc__ = "A Kubernetes resource identifier (group, resource, namespace, name)."

Operation = collections.namedtuple(
    "Operation", ["index"] + list(_STRINGS) + ["n_completed", "n_total"] + list(_TIMES) + ["post_items"])
Operation.__doc__ = """A snapshot of one record of an OpList.

``index`` (in the list), the string fields (``name``, ``uid``,
``item_action``, ``resource_group`` .. ``resource_name``, ``operation_id``,
``phase`` (the raw text; OpPhase members are strings and compare equal to
it), ``error``, ``operation_units``, ``description``), ``n_completed``,
``n_total``, the timestamps ``created``, ``started``, ``updated`` (int ns, or
None when absent) and ``post_items`` (tuple of ResourceId, or None when nil).

A timestamp is exact over every time Velero reads (years 0000-9999): Go's
zero time ``0001-01-01T00:00:00Z`` is present, ``-62135596800 * 10**9``; a
time outside the int64 range (1677-2262) keeps its whole second. The int
may lie outside int64; to_datetime() converts it, raising RangeError where
datetime cannot hold it (year 0, or years -1 and 10000 reached by offsets).
"""


def _op_phase(text):
    raw = text.encode("utf-8")
    out = ffi.new("velstatus_op_phase *")
    # E_INVALID for any other text leaves *out at UNKNOWN: what a record with that text has.
    lib.velstatus_op_phase_from_string(out, raw, len(raw), ffi.NULL)
    return OpPhase.from_c(out[0])


Operation.op_phase = property(lambda self: _op_phase(self.phase),
                              doc="The phase as an OpPhase (UNKNOWN for any other text).")
Operation.resource = property(lambda self: ResourceId(self.resource_group, self.resource_resource,
                                                      self.resource_namespace, self.resource_name),
                              doc="spec.resourceIdentifier as a ResourceId.")


def _snapshot(clist, index):
    """Reads record ``index`` through the getters (call with the lock held)."""
    op = lib.velstatus_oplist_at(clist, index)
    if op == ffi.NULL:
        raise IndexError("operation index %d out of range" % index)
    n = ffi.new("size_t *")
    values = [index]
    for field in _STRINGS.values():
        p = lib.velstatus_op_string(op, field, n)
        values.append(_text(p, n[0]))
    values += [int(lib.velstatus_op_n_completed(op)), int(lib.velstatus_op_n_total(op))]
    sec = ffi.new("int64_t *")
    nsec = ffi.new("int32_t *")
    for which in _TIMES.values():
        has = lib.velstatus_op_time_sec(op, which, sec, nsec)
        values.append(int(sec[0]) * 10**9 + int(nsec[0]) if has else None)
    if lib.velstatus_op_post_items_null(op):
        values.append(None)
    else:
        items = []
        for i in range(lib.velstatus_op_post_item_count(op)):
            items.append(ResourceId(*(_text(lib.velstatus_op_post_item(op, i, f, n), n[0]) for f in _RESOURCE)))
        values.append(tuple(items))
    return Operation(*values)


class Progress(collections.namedtuple("Progress", "completed n_completed n_total err operation_units "
                                                  "description started updated report plugin_name")):
    """What a plugin's Progress() said for one operation (velstatus_op_progress).

    ``Progress(completed=, n_completed=, n_total=, err=, operation_units=,
    description=, started=, updated=)`` is an OperationProgress (times: int
    ns, RFC 3339 str or aware datetime; None is Go's zero time). A time is
    exact over Go's whole range, like an Operation's: outside int64
    nanoseconds (1677-2262) it goes to the library as whole seconds and
    nanoseconds (velstatus_op_progress's started_sec), and the record keeps
    its whole second.
    ``Progress.error(text)`` is a Progress() call that returned an error, and
    ``Progress.lookup_error(text)`` a plugin that could not be obtained.
    ``plugin_name`` is the plugin's own Name(), written after ``, plugin: ``
    in the operation's error messages; None means the name Velero's plugin
    manager registered the record's item action under (what a real plugin
    answers); ignored for a lookup error.
    """

    __slots__ = ()

    def __new__(cls, completed=False, n_completed=0, n_total=0, err="", operation_units="", description="",
                started=None, updated=None, report=OpReport.PROGRESS, plugin_name=None):
        return super().__new__(cls, bool(completed), int(n_completed), int(n_total), err or "",
                               operation_units or "", description or "",
                               None if started is None else exact_time_ns(started),
                               None if updated is None else exact_time_ns(updated), OpReport(report),
                               None if plugin_name is None else str(plugin_name))

    @classmethod
    def error(cls, text: str, plugin_name: Optional[str] = None) -> "Progress":
        """Progress() returned an error with this text (doc/velero-behaviour.md §2.4 step 2)."""
        return cls(err=text, report=OpReport.PROGRESS_ERROR, plugin_name=plugin_name)

    @classmethod
    def lookup_error(cls, text: str) -> "Progress":
        """The plugin could not be obtained (doc/velero-behaviour.md §2.4 step 1)."""
        return cls(err=text, report=OpReport.LOOKUP_ERROR)

    def _c(self):
        """(velstatus_op_progress *, the buffers it points to) for one call."""
        c = ffi.new("velstatus_op_progress *")
        lib.velstatus_op_progress_init(c, ffi.sizeof("velstatus_op_progress"))
        keep = []
        c.report = int(self.report)
        c.completed = 1 if self.completed else 0
        c.n_completed = self.n_completed
        c.n_total = self.n_total
        for name in ("err", "operation_units", "description"):
            raw = getattr(self, name).encode("utf-8")
            buf = ffi.new("char[]", raw)
            keep.append(buf)
            setattr(c, name, buf)
            setattr(c, name + "_len", len(raw))
        for name in ("started", "updated"):
            ns = getattr(self, name)
            if ns is None:
                continue
            if -(1 << 63) <= ns < (1 << 63):
                setattr(c, "has_" + name, 1)
                setattr(c, name + "_ns", ns)
                continue
            sec, nsec = divmod(ns, 10**9)
            if not -(1 << 63) <= sec < (1 << 63):
                raise OverflowError("%s %d is past every year Go can write" % (name, ns))
            setattr(c, "has_%s_sec" % name, 1)
            setattr(c, name + "_sec", sec)
            setattr(c, name + "_nsec", nsec)
        if self.plugin_name is not None:
            raw = self.plugin_name.encode("utf-8")
            buf = ffi.new("char[]", raw)  # never NULL, even for "": a name
            keep.append(buf)
            c.plugin_name, c.plugin_name_len = buf, len(raw)
        return c, keep


def _reported_time(has, ns, has_sec, sec, nsec):
    """A velstatus_op_progress time as Progress keeps it: int ns (exact), or None."""
    if has_sec:
        return int(sec) * 10**9 + int(nsec)
    return int(ns) if has else None


def _as_progress(value):
    if isinstance(value, Progress):
        return value
    if isinstance(value, dict):
        return Progress(**value)
    raise TypeError("progress() must return a Progress (or a dict of its fields), not %s"
                    % type(value).__name__)


StepOutcome = collections.namedtuple("StepOutcome", "flags message")
StepOutcome.__doc__ = ("One operation's step: ``flags`` (OpStepFlag) and ``message`` (the error "
                       "text as Velero formats it when it failed now, else None).")



class _PluginHost(_Host):
    __slots__ = ("progress", "cancel")


@ffi.def_extern(onerror=_onerror)
def _vs_op_progress(userdata, clist, index, reply):
    host = ffi.from_handle(userdata)
    answer = _as_progress(host.progress(_snapshot(clist, index)))
    c, keep = answer._c()
    err = new_error()
    check(lib.velstatus_op_reply_set_progress(reply, c, err), err)  # the reply copies the texts
    del keep
    return 0


@ffi.def_extern(onerror=_onerror)
def _vs_op_cancel(userdata, clist, index, reply):
    host = ffi.from_handle(userdata)
    result = host.cancel(_snapshot(clist, index))
    if result is not None:
        raw = str(result).encode("utf-8")
        err = new_error()
        check(lib.velstatus_op_reply_set_cancel_error(reply, raw, len(raw), err), err)
    return 0


def wrap_error(msg: str, plugin: Optional[str] = None) -> str:
    """Velero's wrapErrMsg: ``"<msg>, plugin: <plugin>"`` (``"plugin: <plugin>"`` when msg is
    empty; plugin None gives ``unknown``)."""
    m = msg.encode("utf-8")
    pl = plugin.encode("utf-8") if plugin is not None else None
    with Context() as ctx, ctx._held() as p:
        out = ffi.new("char **")
        n = ffi.new("size_t *")
        err = new_error()
        check(lib.velstatus_op_wrap_error(out, n, p, m, len(m), pl if pl is not None else ffi.NULL,
                                          len(pl) if pl is not None else 0, err), err)
        try:
            return ffi.unpack(out[0], n[0]).decode("utf-8")
        finally:
            lib.velstatus_free(p, out[0])


def _decode_chunks(p: Any, kind_c: Optional[int], chunks: Iterator[Union[str, bytes]], out: Any, err: Any) -> int:
    """The streaming decoder (velstatus/decoder.h) fed each chunk in turn; kind_c
    None takes the kind from the text (velstatus_oplist_decoder_new_detect)."""
    dec = ffi.new("velstatus_oplist_decoder **")
    if kind_c is None:
        status = lib.velstatus_oplist_decoder_new_detect(dec, p, err)
    else:
        status = lib.velstatus_oplist_decoder_new(dec, p, kind_c, err)
    if status != lib.VELSTATUS_OK:
        return status
    try:
        for chunk in chunks:
            raw = chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
            status = lib.velstatus_oplist_decoder_feed(dec[0], raw, len(raw), err)
            if status != lib.VELSTATUS_OK:
                return status
        return lib.velstatus_oplist_decoder_finish(out, dec[0], err)
    finally:
        lib.velstatus_oplist_decoder_free(dec[0])


def _lookup_texts(opts, **texts):
    """Sets the lookup-error texts of a velstatus_reconcile_options; returns the buffers they point into."""
    held = []
    for field, text in texts.items():
        if text is not None:
            buf = ffi.new("char[]", text.encode("utf-8", "surrogateescape"))
            setattr(opts, field, buf)
            setattr(opts, field + "_len", len(buf) - 1)
            held.append(buf)
    return held


class OpList(_Closeable):
    """An itemoperations list of one kind (velstatus_oplist).

    ``OpList(kind)`` is a new empty list; ``OpList.from_json(text, kind)``
    reads Velero's file (unknown keys are kept and written back);
    ``to_json()`` writes Velero's exact bytes. ``len()``, indexing and
    iteration give Operation snapshots. Close it (or use ``with``) to free it
    now; otherwise garbage collection does.
    """

    def __init__(self, kind: Optional[KindLike] = "backup", ctx: Optional[Context] = None, _from: Any = None) -> None:
        self._ptr = None
        if kind is None and _from is None:
            raise TypeError("kind None (take it from the text) needs a text: use from_json or from_chunks")
        # The C context lives while the list does (its ffi.gc destructor holds it).
        self._ref = (ctx if ctx is not None else Context())._child_ref()
        kind_c = None if kind is None else Kind.coerce(kind).c
        out = ffi.new("velstatus_oplist **")
        err = new_error()
        with self._ref.held() as p:
            if _from is None:
                status = lib.velstatus_oplist_new(out, p, kind_c, err)
            elif isinstance(_from, bytes) and kind_c is not None:
                status = lib.velstatus_oplist_from_json(out, p, kind_c, _from, len(_from), err)
            else:
                status = _decode_chunks(p, kind_c, iter([_from]) if isinstance(_from, bytes) else _from, out, err)
            check(status, err)
            self._ptr = self._ref.own(out[0], lib.velstatus_oplist_free)

    @classmethod
    def from_json(cls, text: Union[str, bytes], kind: Optional[KindLike] = "backup",
                  ctx: Optional[Context] = None) -> "OpList":
        """Decodes a ``<name>-itemoperations.json`` text (str or bytes) of ``kind``;
        ``kind=None`` takes it from the text: the first ``spec`` key only one kind
        has (``restoreName``, ``backupName``, ...), backup when there is none
        (velstatus_oplist_decoder_new_detect; ``kind`` of the list says which).

        Raises ParseError / SchemaError / RangeError naming the JSON path
        (``[3].status.nTotal``) with line, column and offset.
        """
        raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        return cls(kind, ctx, _from=raw)

    @classmethod
    def from_chunks(cls, chunks: Iterable[Union[str, bytes]], kind: Optional[KindLike] = "backup",
                    ctx: Optional[Context] = None) -> "OpList":
        """Decodes an itemoperations text given in pieces (an iterable of str or
        bytes, cut anywhere) with the streaming decoder, so the whole text is
        never held: the same list and the same errors as from_json() of the
        pieces joined (``kind=None`` too). ``OpList.from_chunks(iter(lambda: f.read(65536), b""))``
        reads a binary file so. The iterable must not use this list's context.
        """
        return cls(kind, ctx, _from=iter(chunks))

    # -- lifetime -----------------------------------------------------------
    def close(self) -> None:
        """Frees the list (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            ffi.release(ptr)  # runs the ffi.gc destructor now
            self._ref = None  # and drops this object's hold on the C context


    def _held(self):
        if self._ptr is None:
            raise StateError("the OpList is closed", code=lib.VELSTATUS_E_STATE)
        return self._ref.held()

    # -- reading --------------------------------------------------------------
    @property
    def kind(self) -> Kind:
        """The list's Kind."""
        with self._held():
            return Kind.from_c(lib.velstatus_oplist_kind(self._ptr))

    @property
    def is_null(self) -> bool:
        """True for a list decoded from JSON ``null`` (Go's nil slice)."""
        with self._held():
            return bool(lib.velstatus_oplist_is_null(self._ptr))

    def __len__(self) -> int:
        with self._held():
            return int(lib.velstatus_oplist_count(self._ptr))

    def __getitem__(self, index: Union[int, slice]) -> Union[Operation, List[Operation]]:
        with self._held():
            n = int(lib.velstatus_oplist_count(self._ptr))
            if isinstance(index, slice):
                return [_snapshot(self._ptr, i) for i in range(*index.indices(n))]
            if index < 0:
                index += n
            if not 0 <= index < n:
                raise IndexError("operation index out of range")
            return _snapshot(self._ptr, index)

    def __iter__(self) -> Iterator[Operation]:
        return iter(self[:])

    def to_json(self) -> str:
        """The list exactly as Velero writes it (with the trailing newline)."""
        with self._held() as p:
            out = ffi.new("char **")
            n = ffi.new("size_t *")
            err = new_error()
            check(lib.velstatus_oplist_to_json(out, n, self._ptr, err), err)
            try:
                return ffi.unpack(out[0], n[0]).decode("utf-8")
            finally:
                lib.velstatus_free(p, out[0])

    # -- building -------------------------------------------------------------
    def append(self, **fields: Any) -> int:
        """Appends a record in the state Velero creates one in (phase New),
        then sets ``fields`` as set() does. Returns its index."""
        idx = ffi.new("size_t *")
        err = new_error()
        with self._held():
            check(lib.velstatus_oplist_append(idx, self._ptr, err), err)
        index = int(idx[0])
        if fields:
            self.set(index, **fields)
        return index

    def set(self, index: int, **fields: Any) -> None:
        """Sets fields of record ``index``: any string field of Operation
        (``name``, ``operation_id``, ``phase``, ...), ``n_completed`` and
        ``n_total``, ``created`` / ``started`` / ``updated`` (an instant, or
        None to clear), ``post_items`` (ResourceIds or 4-tuples, appended)."""
        for name in fields:
            if name not in _STRINGS and name not in _TIMES and name not in ("post_items", "n_completed",
                                                                             "n_total"):
                raise TypeError("unknown operation field %r" % name)
        err = new_error()
        with self._held():
            if lib.velstatus_oplist_at(self._ptr, index) == ffi.NULL:
                raise IndexError("operation index out of range")
            for name, value in fields.items():
                if name in _STRINGS:
                    raw = str(value).encode("utf-8")
                    check(lib.velstatus_oplist_set_string(self._ptr, index, _STRINGS[name], raw, len(raw), err),
                          err)
                elif name in _TIMES:
                    has = value is not None
                    check(lib.velstatus_oplist_set_time(self._ptr, index, _TIMES[name], 1 if has else 0,
                                                        time_ns(value) if has else 0, err), err)
                elif name == "post_items":
                    for item in value:
                        raw = [str(x).encode("utf-8") for x in item]
                        if len(raw) != 4:
                            raise InvalidArgument("a post item has 4 fields (group, resource, namespace, name)",
                                                  code=lib.VELSTATUS_E_INVALID)
                        check(lib.velstatus_oplist_add_post_item(self._ptr, index, raw[0], len(raw[0]), raw[1],
                                                                 len(raw[1]), raw[2], len(raw[2]), raw[3],
                                                                 len(raw[3]), err), err)
            if "n_completed" in fields or "n_total" in fields:
                op = lib.velstatus_oplist_at(self._ptr, index)
                nc = int(fields.get("n_completed", lib.velstatus_op_n_completed(op)))
                nt = int(fields.get("n_total", lib.velstatus_op_n_total(op)))
                check(lib.velstatus_oplist_set_counts(self._ptr, index, nc, nt, err), err)

    # -- deciding -------------------------------------------------------------
    def step(self, index: int, report: Optional[Progress] = None, now: TimeLike = 0, timeout: DurationLike = "4h",
             policy: PolicyLike = None) -> StepOutcome:
        """One operation, one pass (velstatus_oplist_step): updates record
        ``index`` in place from ``report`` (a Progress; None for a record
        that is not running) and returns a StepOutcome."""
        flags = ffi.new("uint32_t *")
        msg = ffi.new("char **")
        n = ffi.new("size_t *")
        err = new_error()
        c, keep = (ffi.NULL, None) if report is None else _as_progress(report)._c()
        now_ns, timeout_ns, pol = time_ns(now), duration_ns(timeout), policy_ptr(policy)
        with self._held() as p:
            check(lib.velstatus_oplist_step(flags, msg, n, self._ptr, index, c, now_ns, timeout_ns, pol, err),
                  err)
            try:
                text = ffi.unpack(msg[0], n[0]).decode("utf-8") if msg[0] != ffi.NULL else None
            finally:
                if msg[0] != ffi.NULL:
                    lib.velstatus_free(p, msg[0])
        del keep
        return StepOutcome(OpStepFlag(int(flags[0])), text)

    def reconcile(self, progress: Union[ProgressCallback, "OpReports", DataMoverClient, None] = None,
                  cancel: Optional[Callable[[Operation], Optional[str]]] = None, *, now: TimeLike,
                  phase: PhaseLike = Phase.WAITING_FOR_PLUGIN_OPERATIONS, timeout: DurationLike = "4h",
                  bsl: Union[BslState, str] = "available", bsl_name: Optional[str] = None, errors: int = 0,
                  completed_before: int = 0, failed_before: int = 0, policy: PolicyLike = None,
                  bsl_error: Optional[str] = None, backup_error: Optional[str] = None,
                  backup_name: Optional[str] = None, velero_namespace: Optional[str] = None) -> ReconcileResult:
        """One pass of Velero's operations controller over the list (velstatus_oplist_reconcile).

        ``progress`` may also be an OpReports (recorded answers, as the
        CLI's --progress file gives them; no Python runs then), or a
        DataMoverClient (the CSI PVC plugin's operations answered from its
        DataUploads / DataDownloads, the others by its fallback).

        ``progress(op)`` is the plugin's Progress() for a running Operation:
        it returns a Progress (``Progress.error(text)`` for a failed call,
        ``Progress.lookup_error(text)`` for a missing plugin); None instead
        of a callable means no plugin can be obtained. ``cancel(op)`` is
        called for each operation that timed out and returns None (nil) or
        the error text of a failed Cancel(). An exception raised by either
        stops the pass and propagates unchanged (records already stepped
        keep their updates, as the C function documents).

        ``now`` (instant), ``phase`` (the backup's current Phase),
        ``timeout`` (spec.itemOperationTimeout), ``bsl`` ("available",
        "missing", "readonly"), ``bsl_name``, ``errors`` (pending errors),
        ``completed_before`` / ``failed_before`` (the CR's operation counts
        before the pass, for ``persist``) and ``policy`` (None: hardened) are
        the pass's inputs. ``bsl_error`` (the BSL's Get failed otherwise than
        NotFound), ``backup_error`` with ``backup_name`` and
        ``velero_namespace`` (a restore's Backup Get failed) are the lookup
        errors of doc/operations.md. Returns a ReconcileResult.
        """
        host = _PluginHost()
        host.progress, host.cancel = progress, cancel
        client = ffi.new("velstatus_plugin_client *")
        lib.velstatus_plugin_client_init(client, ffi.sizeof("velstatus_plugin_client"))
        installed = None
        inputs = (now, phase, timeout, bsl, bsl_name, errors, completed_before, failed_before, policy,
                  dict(bsl_error=bsl_error, backup_error=backup_error, backup_name=backup_name,
                       velero_namespace=velero_namespace))
        if isinstance(progress, DataMoverClient):
            return self._reconcile_dm(progress, host, cancel, inputs)
        if isinstance(progress, OpReports):
            if cancel is not None:
                raise TypeError("an OpReports answers Cancel() itself; pass no cancel")
            err = new_error()
            check(lib.velstatus_op_reports_client(client, progress._live(), err), err)
        elif hasattr(progress, "_install"):  # a SnapshotClient: the library's client, Python behind it
            if cancel is not None:
                raise TypeError("a SnapshotClient answers Cancel() itself (fallback_cancel); pass no cancel")
            host.progress, host.cancel = progress.fallback, progress.fallback_cancel
            installed = progress._install(client, host)
        else:
            client.userdata = host.userdata
            client.progress = lib._vs_op_progress if progress is not None else ffi.NULL
            client.cancel = lib._vs_op_cancel if cancel is not None else ffi.NULL
        refs = []
        if installed is not None and progress.snapshots._ref is not self._ref:
            refs.append(progress.snapshots._ref)  # the client reads the list in C
        return self._pass(host, client, inputs, refs, installed)

    def _pass(self, host, client, inputs, refs=(), keep=None):
        """One velstatus_oplist_reconcile with this client and reconcile()'s other inputs."""
        now, phase, timeout, bsl, bsl_name, errors, completed_before, failed_before, policy, texts = inputs
        opts, name = self._options(phase, bsl, bsl_name, now, timeout, errors, completed_before, failed_before)
        held = _lookup_texts(opts, **texts)
        pol = policy_ptr(policy)
        out = ffi.new("velstatus_reconcile_result **")
        err = new_error()
        with contextlib.ExitStack() as stack:
            stack.enter_context(self._held())
            for ref in refs:
                stack.enter_context(ref.held())
            status = lib.velstatus_oplist_reconcile(out, self._ptr, client, opts, pol, err)
            try:
                host.check(status, err)
                return _read_result(out[0])
            finally:
                host.release()
                if out[0] != ffi.NULL:
                    lib.velstatus_reconcile_result_free(out[0])
                del held, name, keep

    def _reconcile_dm(self, dmc, host, cancel, inputs):
        """reconcile() with a DataMoverClient: its C client chained to the fallback callables, or
        to a SnapshotClient's C client (and that one's fallbacks behind it)."""
        fallback = ffi.new("velstatus_plugin_client *")
        lib.velstatus_plugin_client_init(fallback, ffi.sizeof("velstatus_plugin_client"))
        installed, refs = None, []
        if hasattr(dmc.fallback, "_install"):  # a SnapshotClient
            if cancel is not None:
                raise TypeError("a SnapshotClient answers Cancel() itself (fallback_cancel); pass no cancel")
            host.progress, host.cancel = dmc.fallback.fallback, dmc.fallback.fallback_cancel
            installed = dmc.fallback._install(fallback, host)
            refs.append(dmc.fallback.snapshots._ref)
        else:
            host.progress = dmc.fallback
            fallback.userdata = host.userdata
            fallback.progress = lib._vs_op_progress if dmc.fallback is not None else ffi.NULL
            fallback.cancel = lib._vs_op_cancel if cancel is not None else ffi.NULL
        with dmc.dms._held() as dp:
            state = dmc._new(dp, fallback)
        try:
            client = ffi.new("velstatus_plugin_client *")
            err = new_error()
            check(lib.velstatus_dm_client_init(client, ffi.sizeof("velstatus_plugin_client"), state, err), err)
            refs.append(dmc.dms._ref)
            refs = [r for i, r in enumerate(refs) if r is not self._ref and r not in refs[:i]]
            return self._pass(host, client, inputs, refs, installed)
        finally:
            with dmc.dms._ref.held():
                lib.velstatus_dm_client_free(state)

    def _options(self, phase, bsl, bsl_name, now, timeout, errors, completed_before, failed_before):
        """The velstatus_reconcile_options of a pass, and the buffer its bsl_name points into."""
        opts = ffi.new("velstatus_reconcile_options *")
        lib.velstatus_reconcile_options_init(opts, ffi.sizeof("velstatus_reconcile_options"))
        opts.phase = Phase.parse(phase, self.kind).c
        opts.bsl = int(_bsl_state(bsl))
        opts.now_ns = time_ns(now)
        opts.timeout_ns = duration_ns(timeout)
        opts.errors = int(errors)
        opts.completed_before = int(completed_before)
        opts.failed_before = int(failed_before)
        name = None
        if bsl_name is not None:
            name = ffi.new("char[]", bsl_name.encode("utf-8"))
            opts.bsl_name = name
            opts.bsl_name_len = len(name) - 1
        return opts, name

    def forecast(self, *, now: TimeLike, phase: PhaseLike = Phase.WAITING_FOR_PLUGIN_OPERATIONS,
                 timeout: DurationLike = "4h", bsl: Union[BslState, str] = "available",
                 bsl_name: Optional[str] = None, errors: int = 0, completed_before: int = 0,
                 failed_before: int = 0, policy: PolicyLike = None) -> "Forecast":
        """The forecast of the coming passes (velstatus_forecast_new): see velstatus.Forecast.

        The arguments are those of reconcile() without the plugin: every
        plugin is assumed to keep reporting the progress its record holds.
        The list is not modified.
        """
        opts, name = self._options(phase, bsl, bsl_name, now, timeout, errors, completed_before, failed_before)
        with self._held():
            result = _forecast(self._ptr, opts, policy_ptr(policy))
        del name
        return result

    def forecast_dm(self, dms: Optional[DataMoverList] = None, *, release: Release, now: TimeLike,
                    snapshots: Optional[Any] = None, velero_namespace: Optional[str] = None,
                    phase: PhaseLike = Phase.WAITING_FOR_PLUGIN_OPERATIONS,
                    timeout: DurationLike = "4h", bsl: Union[BslState, str] = "available",
                    bsl_name: Optional[str] = None, errors: int = 0, completed_before: int = 0,
                    failed_before: int = 0, policy: PolicyLike = None, prepare_timeout: int = 0,
                    node_restart: Optional[Tuple[int, str]] = None, server_restart: Optional[int] = None,
                    cancel_seen: Optional[int] = None, resume_error: Optional[str] = None) -> "Forecast":
        """forecast() over the operations and the objects Velero's own CSI
        plugins read (velstatus_forecast_new_dm): the CSI PVC plugin's
        operations are answered from a copy of ``dms`` (DataUploads or
        DataDownloads) that the node-agent's decisions of ``release``
        change, so an event can be an operation failing when the prepare
        timeout fails its DataUpload; the VolumeSnapshot plugin's from
        ``snapshots`` (a SnapshotList, typed Any here because _snapshot
        imports this module; nothing changes it: a ready
        snapshot completes at the next pass, a content error fails it then).
        Give ``dms``, ``snapshots`` or both. The keyword arguments after
        ``policy`` are dm_decide()'s config. No list is modified."""
        major, minor = _release(release)
        texts = _Texts()
        c = _config(texts, prepare_timeout, node_restart, server_restart, cancel_seen, resume_error)
        rns = _raw(velero_namespace)
        opts, name = self._options(phase, bsl, bsl_name, now, timeout, errors, completed_before, failed_before)
        with contextlib.ExitStack() as held:  # one lock per context: the lists may share one
            refs = [self._ref]
            lists = []
            if dms is not None:
                lists.append((dms._held(), dms._ref))  # StateError when dms is closed
            if snapshots is not None:
                snapshots._live()  # StateError when closed
                lists.append((snapshots._ref.held(), snapshots._ref))
            held.enter_context(self._held())
            for lock, ref in lists:
                if all(ref is not r for r in refs):
                    refs.append(ref)
                    held.enter_context(lock)
            dm = (dms._ptr if dms is not None else ffi.NULL, snapshots._ptr if snapshots is not None else ffi.NULL,
                  rns if velero_namespace is not None else ffi.NULL, len(rns), major, minor, c)
            result = _forecast(self._ptr, opts, policy_ptr(policy), dm)
        del name
        return result

    def dm_instants(self, dms: DataMoverList, *, now: int, release: Release,
                    velero_namespace: Optional[str] = None, prepare_timeout: int = 0,
                    node_restart: Optional[Tuple[int, str]] = None, server_restart: Optional[int] = None,
                    cancel_seen: Optional[int] = None, resume_error: Optional[str] = None) -> List[int]:
        """The instants (int ns, ascending) at which the DataUploads or
        DataDownloads of the running operations change on their own
        (velstatus_forecast_dm_instants): a forecast over the operations and
        ``dms`` looks at these besides its own. The keyword arguments after
        ``velero_namespace`` are dm_decide()'s config."""
        major, minor = _release(release)
        texts = _Texts()
        c = _config(texts, prepare_timeout, node_restart, server_restart, cancel_seen, resume_error)
        rns = _raw(velero_namespace)
        n = ffi.new("size_t *")
        err = new_error()
        with contextlib.ExitStack() as held:  # one lock per context: the two may share one
            dms_held = dms._held()  # StateError when dms is closed
            held.enter_context(self._held())
            if dms._ref is not self._ref:
                held.enter_context(dms_held)
            cap = 16 * int(lib.velstatus_oplist_count(self._ptr)) + 1
            out = ffi.new("int64_t[]", cap)
            check(lib.velstatus_forecast_dm_instants(self._ptr, dms._ptr, rns if velero_namespace is not None
                                                     else ffi.NULL, len(rns), int(now), major, minor, c, out, cap,
                                                     n, err), err)
        return [int(out[i]) for i in range(n[0])]

    def __repr__(self):
        if self._ptr is None:
            return "<velstatus.OpList closed>"
        return "<velstatus.OpList %s, %d operations>" % (self.kind, len(self))


class OpReports(_Closeable):
    """Plugin answers by operation ID, read from the CLI's ``--progress``
    format (velstatus_op_reports_from_json): a progress object,
    ``{"error": ...}``, ``{"lookupError": ...}``, each optionally with
    ``"cancelError"``. ``reports.get(id)`` gives the recorded Progress (None
    when absent); ``OpList.reconcile(reports, ...)`` answers from it, as
    ``velstatus operations reconcile --progress`` does (an absent ID gets
    Velero's ``operation ID <id> is invalid``).

    Experimental: it wraps the C library's experimental tier
    (``velstatus/experimental.h``), whose shape may change in a minor release.
    """

    def __init__(self, text: Union[str, bytes], ctx: Optional[Context] = None) -> None:
        raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        self._ptr = None
        self._ref = (ctx if ctx is not None else Context())._child_ref()
        out = ffi.new("velstatus_op_reports **")
        err = new_error()
        with self._ref.held() as p:
            check(lib.velstatus_op_reports_from_json(out, p, raw, len(raw), err), err)
            self._ptr = self._ref.own(out[0], lib.velstatus_op_reports_free)

    from_json = classmethod(lambda cls, text, ctx=None: cls(text, ctx))

    def _live(self):
        if self._ptr is None:
            raise StateError("the OpReports is closed", code=lib.VELSTATUS_E_STATE)
        return self._ptr

    def get(self, operation_id: str) -> Optional[Progress]:
        """The recorded answer for ``operation_id`` as a Progress, or None."""
        raw = operation_id.encode("utf-8")
        c = ffi.new("velstatus_op_progress *")
        lib.velstatus_op_progress_init(c, ffi.sizeof("velstatus_op_progress"))
        ptr = self._live()
        with self._ref.held():
            if not lib.velstatus_op_reports_get(c, ptr, raw, len(raw)):
                return None
            return Progress(bool(c.completed), int(c.n_completed), int(c.n_total), _text(c.err, c.err_len),
                            _text(c.operation_units, c.operation_units_len),
                            _text(c.description, c.description_len),
                            _reported_time(c.has_started, c.started_ns, c.has_started_sec, c.started_sec,
                                           c.started_nsec),
                            _reported_time(c.has_updated, c.updated_ns, c.has_updated_sec, c.updated_sec,
                                           c.updated_nsec), OpReport(int(c.report)),
                            _text(c.plugin_name, c.plugin_name_len) if c.plugin_name != ffi.NULL else None)

    def close(self) -> None:
        """Frees the map (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            ffi.release(ptr)  # runs the ffi.gc destructor now
            self._ref = None  # and drops this object's hold on the C context

