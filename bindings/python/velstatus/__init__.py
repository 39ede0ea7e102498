# SPDX-License-Identifier: Apache-2.0
"""velstatus: Python binding of libvelstatus (cffi, out-of-line API mode).

Velero's status decisions (server status, item operations, progress, retry,
phases) from the C library, with Pythonic types: enums generated from the C
enums, exceptions chosen by status code, Python callables as callbacks.

Thread safety (doc/conventions.md §4, §7): the library has no global state. Each
Context serialises its own calls with a lock (cffi releases the GIL around C
calls), so Contexts and the objects made from them may be shared between
threads. Module-level functions that need a context make a fresh one per call.

The cffi objects are not part of the API: ``velstatus._ffi`` holds them for
the binding's own tests. C memory is owned through ``ffi.gc`` pointers, so
garbage collection frees what ``close()`` (or ``with``) did not.
"""

from ._errors import (VelstatusError, NoMemory, InvalidArgument, ParseError, SchemaError,
                      HostError, AbiError, RangeError, StateError, status_name, status_str)
from ._enums import ArgoHealth, BslValidation, Kind, Phase, Preset, RestartAction, Status
from ._context import Context, DebugAllocator
from ._core import (version, version_info, parse_time, parse_time_go_string, format_time, format_time_go, to_datetime,
                    parse_duration, format_duration, time_ns, duration_ns, Policy,
                    Transition, Restart, phase_transition, phase_after_run, phase_on_restart,
                    phase_exists, velero_releases, bsl_validation_error)
from ._server_status import (ServerStatus, ServerReason, BslAccess, Bsl, ServerVerdict, server_status,
                             ServerTracker, StepResult, server_status_step)
from ._retry import (RetryClass, RetryOutcome, BackoffKind, Backoff, RetrySchedule, RetryResult, retry,
                     retry_result, retry_transition)
from ._operations import (OpPhase, OpReport, OpStepFlag, BslState, PersistAction, ResourceId, Operation,
                          Progress, StepOutcome, Canceled, ReconcileResult, OpList, OpReports, wrap_error,
                          PersistFailure, AfterPersistFailure)
from ._forecast import ForecastFate, ForecastEta, ForecastEnd, ForecastEvent, ForecastOp, Forecast
from ._datamover import DmKind, DmPhase, DmAction, DmWhen, DmDecision, dm_decide, dm_timeline, dm_prepare_timeout_default
from ._condition import ArgoHealthResult, argo_health, condition_reason
from ._backup_object import (BackupObject, BackupObjects, decode_backups, ConditionStatus, BackupConditions,
                             backup_conditions, WatchType, WatchEvent, watch_event, json_value_end)
from ._snapshot import SnapshotKind, SnapshotField, SnapshotObject, SnapshotList, SnapshotClient
from ._progress import ProgressFlag, UnitProgress, ProgressReport, progress_report, describe_operations

__version__ = version()

__all__ = [
    "VelstatusError", "NoMemory", "InvalidArgument", "ParseError", "SchemaError", "HostError",
    "AbiError", "RangeError", "StateError", "status_name", "status_str",
    "ArgoHealth", "ArgoHealthResult", "argo_health", "condition_reason",
    "BackupObject", "BackupObjects", "decode_backups", "ConditionStatus", "BackupConditions", "backup_conditions",
    "WatchType", "WatchEvent", "watch_event", "json_value_end",
    "SnapshotKind", "SnapshotField", "SnapshotObject", "SnapshotList", "SnapshotClient",
    "Kind", "Phase", "Preset", "RestartAction", "Status",
    "Context", "DebugAllocator",
    "version", "version_info", "parse_time", "parse_time_go_string", "format_time", "format_time_go", "to_datetime", "parse_duration",
    "format_duration", "time_ns", "duration_ns", "Policy", "Transition", "Restart",
    "phase_transition", "phase_after_run", "phase_on_restart", "phase_exists", "velero_releases",
    "bsl_validation_error", "BslValidation",
    "ServerStatus", "ServerReason", "BslAccess", "Bsl", "ServerVerdict", "server_status",
    "ServerTracker", "StepResult", "server_status_step",
    "RetryClass", "RetryOutcome", "BackoffKind", "Backoff", "RetrySchedule", "RetryResult", "retry",
    "retry_result", "retry_transition",
    "OpPhase", "OpReport", "OpStepFlag", "BslState", "PersistAction", "ResourceId", "Operation", "Progress",
    "StepOutcome", "Canceled", "ReconcileResult", "OpList", "OpReports", "wrap_error", "PersistFailure",
    "AfterPersistFailure",
    "ForecastFate", "ForecastEta", "ForecastEnd", "ForecastEvent", "ForecastOp", "Forecast",
    "DmKind", "DmPhase", "DmAction", "DmWhen", "DmDecision", "dm_decide", "dm_timeline", "dm_prepare_timeout_default",
    "ProgressFlag", "UnitProgress", "ProgressReport", "progress_report", "describe_operations",
]
