# SPDX-License-Identifier: Apache-2.0
"""CSI snapshots without the data mover (snapshot.h).

``SnapshotList(text)`` decodes VolumeSnapshots and VolumeSnapshotContents
(one object, a List, an array or a ``kubectl get -w -o json`` stream);
``snapshots.progress(operation_id, now=, release=)`` is what Velero's
VolumeSnapshot plugin answers to Progress() in that release (a Progress,
``Progress.error`` for a Progress error); ``SnapshotClient(snapshots, ...)``
is the library's ready-made plugin client, which ``OpList.reconcile``
accepts as its ``progress`` and which passes every other operation to a
``fallback`` Python callable (or to none: the plugin cannot be obtained).
"""

import collections
from typing import Any, Callable, Optional, Tuple, Union

from ._context import Context
from ._core import TimeLike, time_ns
from ._enums import CEnum, Kind, c_enum
from ._errors import StateError, check, new_error
from ._ffi import ffi, lib
from ._operations import OpReport, Progress, _reported_time

__all__ = ["SnapshotKind", "SnapshotField", "SnapshotObject", "SnapshotList", "SnapshotClient"]

Release = Union[str, Tuple[int, int]]


@c_enum("velstatus_snapshot_kind", "VELSTATUS_SNAPSHOT_KIND_", lib.velstatus_snapshot_kind_to_string)
class SnapshotKind(CEnum):
    """VOLUME_SNAPSHOT ("volume_snapshot") or CONTENT ("volume_snapshot_content")."""

    VOLUME_SNAPSHOT = "volume_snapshot"
    CONTENT = "volume_snapshot_content"


@c_enum("velstatus_snapshot_field", "VELSTATUS_SNAPSHOT_FIELD_", lib.velstatus_snapshot_field_to_string)
class SnapshotField(CEnum):
    """The fields the decoder reads (velstatus_snapshot_field); each is an attribute of SnapshotObject."""

    API_VERSION = "api_version"
    NAME = "name"
    NAMESPACE = "namespace"
    BACKUP_NAME_LABEL = "backup_name_label"
    SOURCE_PVC = "source_pvc"
    CLASS_NAME = "class_name"
    BOUND_CONTENT = "bound_content"
    RESTORE_SIZE = "restore_size"
    ERROR_MESSAGE = "error_message"
    DRIVER = "driver"
    DELETION_POLICY = "deletion_policy"
    SNAPSHOT_HANDLE = "snapshot_handle"
    REF_NAME = "ref_name"
    REF_NAMESPACE = "ref_namespace"
    CREATION_TIMESTAMP = "creation_timestamp"
    DELETION_TIMESTAMP = "deletion_timestamp"
    CREATION_TIME = "creation_time"
    ERROR_TIME = "error_time"
    READY_TO_USE = "ready_to_use"


_TEXTS = tuple(f for f in SnapshotField if f.c <= SnapshotField.REF_NAMESPACE.c)
_TIMES = (SnapshotField.CREATION_TIMESTAMP, SnapshotField.DELETION_TIMESTAMP, SnapshotField.CREATION_TIME,
          SnapshotField.ERROR_TIME)

SnapshotObject = collections.namedtuple(
    "SnapshotObject", ("kind", "has_status", "has_error") + tuple(f.value for f in SnapshotField))
SnapshotObject.__doc__ = """One decoded VolumeSnapshot or VolumeSnapshotContent.

``kind`` (SnapshotKind), ``has_status`` / ``has_error`` (a non-nil
``status`` / ``status.error``), then one attribute per SnapshotField: the
texts (None when absent; ``restore_size`` is a VolumeSnapshot's quantity
text or a content's int of bytes), the times as int ns since the epoch
(``creation_time`` too, which a content writes as an integer) or None, and
``ready_to_use`` (True, False, or None when absent).
"""


def _text(p: Any, n: int) -> Optional[str]:
    return None if p == ffi.NULL else ffi.unpack(p, n).decode("utf-8", "surrogateescape")


def _object(lst: Any, i: int) -> SnapshotObject:
    n = ffi.new("size_t *")
    v = ffi.new("int64_t *")
    b = ffi.new("int *")
    kind = SnapshotKind.from_c(lib.velstatus_snapshot_list_kind(lst, i))
    values = {f.value: _text(lib.velstatus_snapshot_list_text(lst, i, f.c, n), n[0]) for f in _TEXTS}
    for f in _TIMES:
        values[f.value] = int(v[0]) if lib.velstatus_snapshot_list_time(lst, i, f.c, v) else None
    if lib.velstatus_snapshot_list_int(lst, i, SnapshotField.RESTORE_SIZE.c, v):
        values["restore_size"] = int(v[0])
    ready = lib.velstatus_snapshot_list_bool(lst, i, SnapshotField.READY_TO_USE.c, b)
    values["ready_to_use"] = bool(b[0]) if ready else None
    return SnapshotObject(kind, bool(lib.velstatus_snapshot_list_has_status(lst, i)),
                          bool(lib.velstatus_snapshot_list_has_error(lst, i)), **values)


def _release(release: Release) -> Tuple[int, int]:
    if isinstance(release, str):
        major, _, minor = release.partition(".")
        return int(major), int(minor.split(".")[0])
    return int(release[0]), int(release[1])


class SnapshotList:
    """The decoded VolumeSnapshots and VolumeSnapshotContents of a text
    (velstatus_snapshot_list_from_json): ``objects`` (a tuple of
    SnapshotObject), ``skipped`` (objects of other kinds and ERROR
    events). A field of the wrong type raises SchemaError with its
    path and position, malformed JSON ParseError."""

    def __init__(self, text: Union[str, bytes], ctx: Optional[Context] = None) -> None:
        raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        self._ptr = None
        self._ref = (ctx if ctx is not None else Context())._child_ref()
        out = ffi.new("velstatus_snapshot_list **")
        err = new_error()
        with self._ref.held() as p:
            check(lib.velstatus_snapshot_list_from_json(out, p, raw, len(raw), err), err)
            self._ptr = self._ref.own(out[0], lib.velstatus_snapshot_list_free)
            self.objects = tuple(_object(self._ptr, i) for i in range(lib.velstatus_snapshot_list_count(self._ptr)))
            self.skipped = int(lib.velstatus_snapshot_list_skipped(self._ptr))

    from_json = classmethod(lambda cls, text, ctx=None: cls(text, ctx))

    def _live(self):
        if self._ptr is None:
            raise StateError("the SnapshotList is closed", code=lib.VELSTATUS_E_STATE)
        return self._ptr

    def find(self, kind: Union[SnapshotKind, str], namespace: Optional[str], name: str) -> Optional[int]:
        """The index of the object of that kind, namespace (ignored for a content) and name, or None."""
        k = SnapshotKind.coerce(kind)
        ns = (namespace or "").encode("utf-8")
        nm = name.encode("utf-8")
        idx = ffi.new("size_t *")
        ptr = self._live()
        with self._ref.held():
            found = lib.velstatus_snapshot_list_find(ptr, k.c, ns, len(ns), nm, len(nm), idx)
        return int(idx[0]) if found else None

    def progress(self, operation_id: str, *, now: TimeLike, release: Release = "1.18",
                 kind: Union[Kind, str] = Kind.BACKUP) -> Progress:
        """What Velero's VolumeSnapshot plugin of ``release`` ("1.14" or
        (1, 14)) answers to Progress(operation_id) with these objects in the
        cluster (velstatus_snapshot_progress): a Progress, whose ``report``
        is OpReport.PROGRESS_ERROR (``Progress.error``) when the plugin
        returned an error, with the text the controller receives."""
        major, minor = _release(release)
        k, t = Kind.coerce(kind).c, time_ns(now)
        return self._answer(operation_id, lambda c, text, ptr, raw, err: lib.velstatus_snapshot_progress(
            c, text, ptr, k, raw, len(raw), t, major, minor, err))

    def content_progress(self, operation_id: str, *, release: Release = "1.13") -> Progress:
        """What the VolumeSnapshotContent backup action of Velero's CSI plugin
        (velero.io/csi-volumesnapshotcontent-backupper) of ``release``
        answers to Progress(operation_id) with these objects in the cluster
        (velstatus_snapshot_content_progress): in 1.12 and 1.13 the content
        the ID ``<name>/<started>`` names decides; 1.14 and later give an
        empty progress. Returned as progress() returns it."""
        major, minor = _release(release)
        return self._answer(operation_id, lambda c, text, ptr, raw, err: lib.velstatus_snapshot_content_progress(
            c, text, ptr, raw, len(raw), major, minor, err))

    def _answer(self, operation_id: str, call) -> Progress:
        """Runs one of the library's answers and reads the progress it fills."""
        raw = operation_id.encode("utf-8")
        c = ffi.new("velstatus_op_progress *")
        lib.velstatus_op_progress_init(c, ffi.sizeof("velstatus_op_progress"))
        text = ffi.new("char **")
        err = new_error()
        ptr = self._live()
        with self._ref.held() as p:
            check(call(c, text, ptr, raw, err), err)
            try:
                return Progress(bool(c.completed), int(c.n_completed), int(c.n_total), _text(c.err, c.err_len),
                                _text(c.operation_units, c.operation_units_len),
                                _text(c.description, c.description_len),
                                _reported_time(c.has_started, c.started_ns, c.has_started_sec, c.started_sec,
                                               c.started_nsec),
                                _reported_time(c.has_updated, c.updated_ns, c.has_updated_sec, c.updated_sec,
                                               c.updated_nsec), OpReport(int(c.report)))
            finally:
                if text[0] != ffi.NULL:
                    lib.velstatus_free(p, text[0])

    def close(self) -> None:
        """Frees the list (idempotent)."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            ffi.release(ptr)
            self._ref = None

    def __enter__(self) -> "SnapshotList":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SnapshotClient:
    """The library's plugin client for the VolumeSnapshot plugin
    (velstatus_snapshot_client_init), to pass as ``OpList.reconcile``'s
    ``progress``: it answers the operations of
    ``velero.io/csi-volumesnapshot-backupper`` / ``-restorer`` from
    ``snapshots`` as ``release``'s plugin does, and hands every other one to
    ``fallback(op)`` (a Progress callable, as reconcile takes) and
    ``fallback_cancel(op)``; with no fallback the other plugins cannot be
    obtained. ``now`` is the instant Updated takes (set it for each pass)."""

    def __init__(self, snapshots: SnapshotList, *, now: TimeLike, release: Release = "1.18",
                 fallback: Optional[Callable[..., Any]] = None,
                 fallback_cancel: Optional[Callable[..., Optional[str]]] = None) -> None:
        self.snapshots = snapshots
        self.now = now
        self.release = _release(release)
        self.fallback = fallback
        self.fallback_cancel = fallback_cancel

    def _install(self, client: Any, host: Any) -> Any:
        """Fills the C client; returns what must stay alive during the pass."""
        fb = ffi.new("velstatus_plugin_client *")
        lib.velstatus_plugin_client_init(fb, ffi.sizeof("velstatus_plugin_client"))
        fb.userdata = host.userdata
        fb.progress = lib._vs_op_progress if self.fallback is not None else ffi.NULL
        fb.cancel = lib._vs_op_cancel if self.fallback_cancel is not None else ffi.NULL
        cfg = ffi.new("velstatus_snapshot_client_config *")
        lib.velstatus_snapshot_client_config_init(cfg, ffi.sizeof("velstatus_snapshot_client_config"))
        cfg.snapshots = self.snapshots._live()
        cfg.major, cfg.minor = self.release
        cfg.now_ns = time_ns(self.now)
        cfg.fallback = fb
        err = new_error()
        check(lib.velstatus_snapshot_client_init(client, ffi.sizeof("velstatus_plugin_client"), cfg, err), err)
        return (fb, cfg)
