# SPDX-License-Identifier: Apache-2.0
"""The outcome of a reconcile pass (reconcile.h): ``ReconcileResult``, read
from a C result by ``_read_result``, with the enums it holds. Both the
reconcile pass (``_operations``) and the forecast (``_forecast``, whose
events each carry a pass's result) read results, so they live here, below
both: ``_operations`` imports ``_forecast``, and neither imports the other
back.
"""

import collections
import enum

from ._enums import Phase, c_enum
from ._ffi import ffi, lib

__all__ = ["OpStepFlag", "PersistAction", "PersistFailure", "AfterPersistFailure", "Canceled", "ReconcileResult"]


@c_enum("velstatus_op_step_flag", "VELSTATUS_OP_STEP_", lib.velstatus_op_step_flag_to_string)
class OpStepFlag(enum.IntFlag):
    """The outcome bits of one operation's step (velstatus_op_step_flag)."""

    CHANGED = 1
    CANCEL = 2
    FAILED_NOW = 4
    COMPLETED_NOW = 8
    COUNT_COMPLETED = 16
    COUNT_FAILED = 32
    IN_PROGRESS = 64
    UNKNOWN_PHASE = 128
    MISSING_CREATED = 256
    ERROR_DEFERRED = 512


@c_enum("velstatus_persist_action", "VELSTATUS_PERSIST_", lib.velstatus_persist_action_to_string)
class PersistAction(enum.IntEnum):
    """What the host must write after a pass (doc/velero-behaviour.md §2.5 step 11): NONE, PATCH
    (the CR only) or UPLOAD_AND_PATCH."""

    NONE = 0
    PATCH = 1
    UPLOAD_AND_PATCH = 2


@c_enum("velstatus_persist_failure", "VELSTATUS_PERSIST_FAILED_")
class PersistFailure(enum.IntEnum):
    """Which write of the persist action fails (velstatus_persist_failure)."""
    UPLOAD = 1
    PATCH = 2


AfterPersistFailure = collections.namedtuple("AfterPersistFailure", "phase pending_errors lost_errors")
AfterPersistFailure.__doc__ = ("What stays when a write fails (velstatus_reconcile_result_after_persist_failure): "
                               "the ``phase`` the CR keeps, the errors still ``pending_errors`` for the next pass "
                               "and the ``lost_errors`` that never reach status.errors; Velero requeues.")


def _after_failures(r):
    out = {}
    for f in PersistFailure:
        phase, pending, lost = ffi.new("velstatus_phase *"), ffi.new("int64_t *"), ffi.new("int64_t *")
        st = lib.velstatus_reconcile_result_after_persist_failure(r, int(f), phase, pending, lost, ffi.NULL)
        out[f] = AfterPersistFailure(Phase.from_c(phase[0]), int(pending[0]), int(lost[0])) if st == 0 else None
    return out


def _text(p, n):
    return ffi.unpack(p, n).decode("utf-8", "surrogateescape") if p != ffi.NULL else ""


Canceled = collections.namedtuple("Canceled", "index operation_id cancel_error")
Canceled.__doc__ = ("An operation Cancel was called for: its ``index``, ``operation_id`` and the "
                    "error Cancel returned (None when nil, or when the policy discards it, as Velero does).")

ReconcileResult = collections.namedtuple(
    "ReconcileResult", "phase still_in_progress changes completed failed in_progress errors canceled flag_counts "
                       "persist errors_added requeue after_persist_failure")
ReconcileResult.__doc__ = """The outcome of one reconcile pass.

``phase`` (the next Phase of the backup or restore), ``still_in_progress``,
``changes``, ``completed`` / ``failed`` / ``in_progress`` (counts over the
whole list), ``errors`` (the new error texts, as Velero formats them),
``canceled`` (tuple of Canceled), ``flag_counts`` ({OpStepFlag: the number
of operations whose step had it}), ``persist`` (the PersistAction Velero
takes next), ``errors_added`` (what Velero adds to the CR's
``status.errors``), ``requeue`` (Reconcile returns an error: a lookup
failed) and ``after_persist_failure`` ({PersistFailure: AfterPersistFailure,
or None when the pass writes no such thing}).
"""


def _read_result(r):
    n = ffi.new("size_t *")
    errors = tuple(_text(lib.velstatus_reconcile_result_error(r, i, n), n[0])
                   for i in range(lib.velstatus_reconcile_result_error_count(r)))
    canceled = []
    for i in range(lib.velstatus_reconcile_result_canceled_count(r)):
        op_id = _text(lib.velstatus_reconcile_result_canceled_id(r, i, n), n[0])
        p = lib.velstatus_reconcile_result_cancel_error(r, i, n)
        canceled.append(Canceled(int(lib.velstatus_reconcile_result_canceled_index(r, i)), op_id,
                                 _text(p, n[0]) if p != ffi.NULL else None))
    counts = {f: int(lib.velstatus_reconcile_result_count(r, f)) for f in OpStepFlag}
    return ReconcileResult(Phase.from_c(lib.velstatus_reconcile_result_phase(r)),
                           bool(lib.velstatus_reconcile_result_still_in_progress(r)),
                           bool(lib.velstatus_reconcile_result_changes(r)),
                           int(lib.velstatus_reconcile_result_completed(r)),
                           int(lib.velstatus_reconcile_result_failed(r)),
                           int(lib.velstatus_reconcile_result_in_progress(r)),
                           errors, tuple(canceled), counts,
                           PersistAction(int(lib.velstatus_reconcile_result_persist(r))),
                           int(lib.velstatus_reconcile_result_errors_added(r)),
                           bool(lib.velstatus_reconcile_result_requeue(r)), _after_failures(r))
