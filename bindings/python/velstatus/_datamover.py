# SPDX-License-Identifier: Apache-2.0
"""The data mover (datamover.h, doc/data-mover.md): what Velero's node-agent
does next with a DataUpload or DataDownload, and when, per release.
``dm_decide(...)`` returns a ``DmDecision``.
"""

import collections
import enum
from typing import Optional, Tuple, Union

from ._enums import c_enum
from ._errors import check, new_error
from ._ffi import ffi, lib

__all__ = ["DmKind", "DmPhase", "DmAction", "DmWhen", "DmDecision", "dm_decide", "dm_timeline",
           "dm_prepare_timeout_default"]


@c_enum("velstatus_dm_kind", "VELSTATUS_DM_")
class DmKind(enum.IntEnum):
    """A data-mover object's kind: UPLOAD (DataUpload) or DOWNLOAD (DataDownload)."""

    UPLOAD = 0
    DOWNLOAD = 1


@c_enum("velstatus_dm_phase", "VELSTATUS_DM_PHASE_")
class DmPhase(enum.IntEnum):
    """A DataUpload / DataDownload ``status.phase`` (NEW is "" or "New")."""

    NEW = 0
    ACCEPTED = 1
    PREPARED = 2
    IN_PROGRESS = 3
    CANCELING = 4
    CANCELED = 5
    COMPLETED = 6
    FAILED = 7
    UNKNOWN = 8


@c_enum("velstatus_dm_action", "VELSTATUS_DM_ACTION_", lib.velstatus_dm_action_to_string)
class DmAction(enum.IntEnum):
    """What happens to the object next (velstatus_dm_action); str() is its token."""

    NONE = 0
    WAIT_EXPOSE = 1
    WAIT_DATA_PATH = 2
    ACCEPT = 3
    START = 4
    FAIL = 5
    SET_CANCEL = 6
    CANCELING = 7
    CANCELED = 8
    RESUME = 9


@c_enum("velstatus_dm_when", "VELSTATUS_DM_WHEN_", lib.velstatus_dm_when_to_string)
class DmWhen(enum.IntEnum):
    """When: NEVER (nothing timed), NOW (the next pass) or AT (``DmDecision.at``)."""

    NEVER = 0
    NOW = 1
    AT = 2


DmDecision = collections.namedtuple("DmDecision", "action when at phase_after cancel_after message")
DmDecision.__doc__ = """The node-agent's next decision: ``action`` (DmAction), ``when``
(DmWhen), ``at`` (int ns: the rule's instant, or None), ``phase_after`` (DmPhase),
``cancel_after`` (bool: spec.cancel after it) and ``message`` (the status.message it writes,
exactly as that release writes it, or None when the message is left as it is)."""

Release = Tuple[int, int]


def dm_prepare_timeout_default(release: Release) -> int:
    """The node-agent's default ``--data-mover-prepare-timeout`` of a release, in ns."""
    out = ffi.new("int64_t *")
    err = new_error()
    check(lib.velstatus_dm_prepare_timeout_default(release[0], release[1], out, err), err)
    return int(out[0])


class _Texts:
    """Keeps the C copies of the texts alive for one call."""

    def __init__(self) -> None:
        self.keep: list = []

    def set(self, struct, field: str, value: Optional[Union[str, bytes]]) -> None:
        if value is None:
            return
        raw = value.encode("utf-8") if isinstance(value, str) else bytes(value)
        buf = ffi.new("char[]", raw)
        self.keep.append(buf)
        setattr(struct, field, buf)
        setattr(struct, field + "_len", len(raw))


def _object(texts: _Texts, kind, phase, cancel, deleting, namespace, name, node, accepted_by_label,
            accepted_at_annotation, start, accepted):
    o = ffi.new("velstatus_dm_object *")
    err = new_error()
    check(lib.velstatus_dm_object_init(o, ffi.sizeof("velstatus_dm_object"), err), err)
    o.kind = int(DmKind(kind)) if not isinstance(kind, str) else int(DmKind[kind.upper()])
    if isinstance(phase, str):
        texts.set(o, "phase_text", phase)  # the library reads the phase from its text
    else:
        o.phase = int(DmPhase(phase))
    o.cancel, o.deleting = bool(cancel), bool(deleting)
    for field, value in (("ns", namespace), ("name", name), ("node", node),
                         ("accepted_by_label", accepted_by_label),
                         ("accepted_at_annotation", accepted_at_annotation)):
        texts.set(o, field, value)
    if start is not None:
        o.has_start, o.start_ns = 1, int(start)
    if accepted is not None:
        o.has_accepted, o.accepted_ns = 1, int(accepted)
    return o


def _config(texts: _Texts, prepare_timeout, node_restart, server_restart, cancel_seen, resume_error):
    c = ffi.new("velstatus_dm_config *")
    err = new_error()
    check(lib.velstatus_dm_config_init(c, ffi.sizeof("velstatus_dm_config"), err), err)
    c.prepare_timeout_ns = int(prepare_timeout or 0)
    if node_restart is not None:
        c.has_node_restart, c.node_restart_ns = 1, int(node_restart[0])
        texts.set(c, "restart_node", node_restart[1])
    if server_restart is not None:
        c.has_server_restart, c.server_restart_ns = 1, int(server_restart)
    if cancel_seen is not None:
        c.has_cancel_seen, c.cancel_seen_ns = 1, int(cancel_seen)
    texts.set(c, "resume_error", resume_error)
    return c


def dm_decide(*, kind: Union[DmKind, str, int], phase: Union[DmPhase, str, int], now: int, release: Release,
              cancel: bool = False, deleting: bool = False, namespace: Optional[str] = None,
              name: Optional[str] = None, node: Optional[str] = None, accepted_by_label: Optional[str] = None,
              accepted_at_annotation: Optional[str] = None, start: Optional[int] = None,
              accepted: Optional[int] = None, prepare_timeout: int = 0,
              node_restart: Optional[Tuple[int, str]] = None, server_restart: Optional[int] = None,
              cancel_seen: Optional[int] = None, resume_error: Optional[str] = None) -> DmDecision:
    """What Velero ``release`` (major, minor)'s node-agent does next with the object at ``now``
    (velstatus_dm_decide). ``kind`` is "upload" or "download"; ``phase`` the status.phase text
    as written ("" is New) or a DmPhase; times are int ns since the epoch: ``start``
    (status.startTimestamp), ``accepted`` (status.acceptedTimestamp), ``node_restart`` ((ns, node):
    a node-agent restarts), ``server_restart`` (the Velero server restarts while the backup is
    InProgress), ``cancel_seen`` (1.17+: the controller first saw spec.cancel).
    ``prepare_timeout`` 0 is the release's default."""
    texts = _Texts()
    o = _object(texts, kind, phase, cancel, deleting, namespace, name, node, accepted_by_label,
                accepted_at_annotation, start, accepted)
    c = _config(texts, prepare_timeout, node_restart, server_restart, cancel_seen, resume_error)
    d = _decisions(1)
    err = new_error()
    check(lib.velstatus_dm_decide(o, int(now), release[0], release[1], c, d, err), err)
    return _decision(d[0])


def _decisions(n: int):
    d = ffi.new("velstatus_dm_decision[]", n)
    err = new_error()
    for i in range(n):
        check(lib.velstatus_dm_decision_init(ffi.addressof(d, i), ffi.sizeof("velstatus_dm_decision"), err), err)
    return d


def _decision(d) -> DmDecision:
    message = ffi.unpack(d.message, d.message_len).decode("utf-8", "surrogateescape") if d.message_set else None
    return DmDecision(DmAction(d.action), DmWhen(d.when), int(d.at_ns) if d.has_at else None,
                      DmPhase(d.phase_after), bool(d.cancel_after), message)


def dm_timeline(*, kind, phase, now: int, release: Release, cancel: bool = False, deleting: bool = False,
                namespace=None, name=None, node=None, accepted_by_label=None, accepted_at_annotation=None,
                start=None, accepted=None, prepare_timeout: int = 0, node_restart=None, server_restart=None,
                cancel_seen=None, resume_error=None) -> list:
    """The changes to come, one after another (velstatus_dm_timeline): a list of DmDecision, each
    with ``at`` the instant it happens. The arguments are dm_decide()'s."""
    texts = _Texts()
    o = _object(texts, kind, phase, cancel, deleting, namespace, name, node, accepted_by_label,
                accepted_at_annotation, start, accepted)
    c = _config(texts, prepare_timeout, node_restart, server_restart, cancel_seen, resume_error)
    n = ffi.new("size_t *")
    err = new_error()
    check(lib.velstatus_dm_timeline(o, int(now), release[0], release[1], c, ffi.NULL, 0, n, err), err)
    events = _decisions(max(1, n[0]))
    check(lib.velstatus_dm_timeline(o, int(now), release[0], release[1], c, events, n[0], n, err), err)
    return [_decision(events[i]) for i in range(n[0])]
