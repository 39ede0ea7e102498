# SPDX-License-Identifier: Apache-2.0
"""The data mover (datamover.h): DataUploads and DataDownloads, the CSI PVC
plugin's answers for them per Velero release, and the ready-made plugin client.

``DataMoverList.from_json(text)`` reads ``kubectl get datauploads -o json``
(an object, a List, an array or a ``-w`` watch stream) with the library's
decoder. ``dms.progress(kind, operation_id, release=...)`` is what the CSI
PVC plugin's Progress() answers through its gRPC hop (a Progress), and
``dms.cancel(...)`` what its Cancel() does. ``OpList.reconcile(DataMoverClient(dms,
release=...), ...)`` runs a pass whose CSI PVC operations are answered from
the list and every other operation by a fallback callable.
"""

import collections
from typing import Any, Callable, Dict, Iterator, Optional, Tuple, Union

from ._context import Context, _Closeable
from ._enums import CEnum, c_enum
from ._errors import StateError, check, new_error
from ._ffi import ffi, lib

__all__ = ["DmKind", "DmPhase", "DmText", "DmTime", "DmInt", "DataMoverObject", "DataMoverList",
           "DataMoverClient", "Release"]

Release = Union[str, Tuple[int, int]]


@c_enum("velstatus_dm_kind", "VELSTATUS_DM_", lib.velstatus_dm_kind_to_string)
class DmKind(CEnum):
    """A DataUpload (UPLOAD, "upload") or a DataDownload (DOWNLOAD, "download")."""

    UPLOAD = "upload"
    DOWNLOAD = "download"


@c_enum("velstatus_dm_phase", "VELSTATUS_DM_PHASE_", lib.velstatus_dm_phase_to_string)
class DmPhase(CEnum):
    """A DataUpload's or DataDownload's phase in Velero's spelling ("" and no phase are NEW)."""

    NEW = "New"
    ACCEPTED = "Accepted"
    PREPARED = "Prepared"
    IN_PROGRESS = "InProgress"
    CANCELING = "Canceling"
    CANCELED = "Canceled"
    COMPLETED = "Completed"
    FAILED = "Failed"
    UNKNOWN = "Unknown"


def _enum_of(ctype: str, prefix: str) -> Dict[str, int]:
    """The names (lower case, after prefix) and values of a C field enum."""
    return {name[len(prefix):].lower(): value for value, name in ffi.typeof(ctype).elements.items()}


class DmText:
    """The text fields (velstatus_dm_text): ``DmText.NAMES`` maps each
    attribute name of DataMoverObject.text (``"operation_id"``) to its C value."""

    NAMES = _enum_of("velstatus_dm_text", "VELSTATUS_DM_TEXT_")


class DmTime:
    """The timestamps (velstatus_dm_time), as DmText."""

    NAMES = _enum_of("velstatus_dm_time", "VELSTATUS_DM_TIME_")


class DmInt:
    """The integer fields (velstatus_dm_int), as DmText."""

    NAMES = _enum_of("velstatus_dm_int", "VELSTATUS_DM_INT_")


DataMoverObject = collections.namedtuple("DataMoverObject", "index kind phase text time_ns ints")
DataMoverObject.__doc__ = """One decoded DataUpload or DataDownload.

``kind`` (DmKind), ``phase`` (DmPhase), and three dicts keyed by field
name, each holding only the fields present: ``text`` (``"name"``,
``"operation_id"``, ``"phase"``, ... as DmText.NAMES; str), ``time_ns``
(``"created"``, ``"started"``, ...; int ns since the epoch) and ``ints``
(``"bytes_done"``, ``"total_bytes"``, ``"cancel"``, ...; int).
"""


def _text(p: Any, n: int) -> Optional[str]:
    return None if p == ffi.NULL else ffi.unpack(p, n).decode("utf-8", "surrogateescape")


def _raw(text: Union[str, bytes, None]) -> bytes:
    if text is None:
        return b""
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def _release(release: Release) -> Tuple[int, int]:
    """(major, minor) of "1.14", "v1.14.2" or (1, 14), checked as the policy's release is."""
    if isinstance(release, tuple):
        return int(release[0]), int(release[1])
    raw = _raw(release)
    pol = ffi.new("velstatus_policy *")
    major, minor = ffi.new("int *"), ffi.new("int *")
    err = new_error()
    check(lib.velstatus_policy_init_version(pol, ffi.sizeof("velstatus_policy"), major, minor, raw, len(raw), err),
          err)
    return int(major[0]), int(minor[0])


class DataMoverList(_Closeable):
    """Decoded DataUploads and DataDownloads (velstatus_dm_list).

    ``len()``, indexing and iteration give DataMoverObject snapshots;
    ``skipped`` counts the objects of other kinds. Close it (or use
    ``with``) to free it now; otherwise garbage collection does.
    """

    def __init__(self, text: Union[str, bytes], ctx: Optional[Context] = None) -> None:
        raw = _raw(text)
        self._ptr = None
        self._ref = (ctx if ctx is not None else Context())._child_ref()
        out = ffi.new("velstatus_dm_list **")
        err = new_error()
        with self._ref.held() as p:
            check(lib.velstatus_dm_list_from_json(out, p, raw, len(raw), err), err)
            self._ptr = self._ref.own(out[0], lib.velstatus_dm_list_free)

    @classmethod
    def from_json(cls, text: Union[str, bytes], ctx: Optional[Context] = None) -> "DataMoverList":
        """Decodes an object, a List, an array or a watch stream
        (velstatus_dm_list_from_json). A field of the wrong type raises
        SchemaError with its path and position, malformed JSON ParseError."""
        return cls(text, ctx)

    def close(self) -> None:
        """Frees the list (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            ffi.release(ptr)
            self._ref = None

    def _held(self) -> Any:
        if self._ptr is None:
            raise StateError("the DataMoverList is closed", code=lib.VELSTATUS_E_STATE)
        return self._ref.held()

    def __len__(self) -> int:
        with self._held():
            return int(lib.velstatus_dm_list_count(self._ptr))

    @property
    def skipped(self) -> int:
        """The number of objects skipped (another kind, a watch's ERROR)."""
        with self._held():
            return int(lib.velstatus_dm_list_skipped(self._ptr))

    def _object(self, i: int) -> DataMoverObject:
        n = ffi.new("size_t *")
        v = ffi.new("int64_t *")
        lst = self._ptr
        text = {}
        for name, f in DmText.NAMES.items():
            s = _text(lib.velstatus_dm_list_text(lst, i, f, n), n[0])
            if s is not None:
                text[name] = s
        times = {name: int(v[0]) for name, f in DmTime.NAMES.items() if lib.velstatus_dm_list_time(lst, i, f, v)}
        ints = {name: int(v[0]) for name, f in DmInt.NAMES.items() if lib.velstatus_dm_list_int(lst, i, f, v)}
        return DataMoverObject(i, DmKind.from_c(lib.velstatus_dm_list_kind(lst, i)),
                               DmPhase.from_c(lib.velstatus_dm_list_phase(lst, i)), text, times, ints)

    def __getitem__(self, index: int) -> DataMoverObject:
        with self._held():
            n = int(lib.velstatus_dm_list_count(self._ptr))
            i = index + n if index < 0 else index
            if not 0 <= i < n:
                raise IndexError("data mover object index %d out of range" % index)
            return self._object(i)

    def __iter__(self) -> Iterator[DataMoverObject]:
        for i in range(len(self)):
            yield self[i]

    def find(self, kind: Union[DmKind, str], operation_id: str, *, release: Release,
             velero_namespace: Optional[str] = None) -> Tuple[Optional[int], int]:
        """The object the CSI PVC plugin of ``release`` reads for an operation
        (velstatus_dm_list_find): ``(index, matches)``, index None unless
        exactly one matches."""
        major, minor = _release(release)
        rid, rns = _raw(operation_id), _raw(velero_namespace)
        index, matches = ffi.new("size_t *"), ffi.new("size_t *")
        err = new_error()
        with self._held():
            check(lib.velstatus_dm_list_find(self._ptr, DmKind.coerce(kind).c, rid, len(rid),
                                             rns if velero_namespace is not None else ffi.NULL, len(rns), major,
                                             minor, index, matches, err), err)
        return (None if matches[0] != 1 else int(index[0])), int(matches[0])

    def progress(self, kind: Union[DmKind, str], operation_id: str, *, release: Release,
                 velero_namespace: Optional[str] = None) -> Any:
        """What the CSI PVC plugin's Progress() answers for the operation, as it
        reaches Velero (velstatus_dm_progress): a Progress (``Progress.error``
        with the gRPC-wrapped text when the plugin returns an error)."""
        from ._operations import OpReport, Progress, _reported_time  # the operations module imports this one
        major, minor = _release(release)
        rid, rns = _raw(operation_id), _raw(velero_namespace)
        c = ffi.new("velstatus_op_progress *")
        lib.velstatus_op_progress_init(c, ffi.sizeof("velstatus_op_progress"))
        text = ffi.new("char **")
        err = new_error()
        with self._held() as p:
            check(lib.velstatus_dm_progress(c, text, p, self._ptr, DmKind.coerce(kind).c, rid, len(rid),
                                            rns if velero_namespace is not None else ffi.NULL, len(rns), major,
                                            minor, err), err)
            try:
                return Progress(bool(c.completed), int(c.n_completed), int(c.n_total), _text(c.err, c.err_len),
                                _text(c.operation_units, c.operation_units_len),
                                _text(c.description, c.description_len),
                                _reported_time(c.has_started, c.started_ns, 0, 0, 0),
                                _reported_time(c.has_updated, c.updated_ns, 0, 0, 0), OpReport(int(c.report)))
            finally:
                lib.velstatus_free(p, text[0])

    def cancel(self, kind: Union[DmKind, str], operation_id: str, *, release: Release,
               velero_namespace: Optional[str] = None) -> Tuple[Optional[int], Optional[str]]:
        """What the CSI PVC plugin's Cancel() does (velstatus_dm_cancel):
        ``(index, None)``, the object whose spec.cancel it patches to true,
        or ``(None, error)``, the error it returns after the gRPC hop."""
        major, minor = _release(release)
        rid, rns = _raw(operation_id), _raw(velero_namespace)
        index = ffi.new("size_t *")
        text = ffi.new("char **")
        n = ffi.new("size_t *")
        err = new_error()
        with self._held() as p:
            check(lib.velstatus_dm_cancel(index, text, n, p, self._ptr, DmKind.coerce(kind).c, rid, len(rid),
                                          rns if velero_namespace is not None else ffi.NULL, len(rns), major, minor,
                                          err), err)
            try:
                if text[0] != ffi.NULL:
                    return None, _text(text[0], n[0])
                return int(index[0]), None
            finally:
                lib.velstatus_free(p, text[0])

    def next(self, index: int, *, now: int, release: Release, prepare_timeout: int = 0,
             node_restart: Optional[Tuple[int, str]] = None, server_restart: Optional[int] = None,
             cancel_seen: Optional[int] = None, resume_error: Optional[str] = None) -> Any:
        """What the node-agent of ``release`` does next with the ``index``-th
        object at ``now``, and when (velstatus_dm_next): a DmDecision. The
        keyword arguments after ``release`` are dm_decide()'s config."""
        from ._dm_node import _config, _decision, _decisions, _Texts  # that module imports this one
        major, minor = _release(release)
        texts = _Texts()
        c = _config(texts, prepare_timeout, node_restart, server_restart, cancel_seen, resume_error)
        d = _decisions(1)
        err = new_error()
        with self._held():
            check(lib.velstatus_dm_next(self._ptr, int(index), int(now), major, minor, c, d, err), err)
        return _decision(d[0])

    def __repr__(self) -> str:
        return "<DataMoverList %s>" % ("closed" if self._ptr is None else "of %d" % len(self))


class DataMoverClient:
    """The plugin client of the data mover (velstatus_dm_client_init) for
    ``OpList.reconcile``: the operations of Velero's CSI PVC plugins are
    answered from ``dms`` as ``release``'s plugin answers them; every other
    operation goes to ``fallback`` (a progress callable taking an Operation,
    as reconcile's ``progress``; None: no plugin can be obtained, as
    reconcile answers a missing plugin) and reconcile's ``cancel``.
    ``fallback`` may also be a SnapshotClient: the chain is then the C one
    (the data mover's client, the VolumeSnapshot plugin's, then that
    client's own fallbacks), and reconcile takes no ``cancel``.
    """

    def __init__(self, dms: DataMoverList, *, release: Release, velero_namespace: Optional[str] = None,
                 fallback: Optional[Any] = None) -> None:
        self.dms = dms
        self.major, self.minor = _release(release)
        self.velero_namespace = velero_namespace
        self.fallback = fallback

    def _new(self, p: Any, fallback_client: Any) -> Any:
        """The C state (velstatus_dm_client_new) under the context p, freed by the caller."""
        out = ffi.new("velstatus_dm_client **")
        rns = _raw(self.velero_namespace)
        err = new_error()
        if self.dms._ptr is None:
            raise StateError("the DataMoverList is closed", code=lib.VELSTATUS_E_STATE)
        check(lib.velstatus_dm_client_new(out, p, self.dms._ptr, rns if self.velero_namespace is not None
                                          else ffi.NULL, len(rns), self.major, self.minor, fallback_client, err), err)
        return out[0]
