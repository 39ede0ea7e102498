# SPDX-License-Identifier: Apache-2.0
"""The forecast of an operation list (forecast.h, doc/explain.md): when the
coming reconcile passes decide something, what each decides, and what
becomes of each operation, if every plugin keeps reporting the progress its
record holds. ``OpList.forecast(now=..., ...)`` returns a ``Forecast``.
"""

import collections
import enum


from ._enums import Phase, c_enum
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._reconcile_result import _read_result

__all__ = ["ForecastFate", "ForecastEta", "ForecastEnd", "ForecastEvent", "ForecastOp", "Forecast"]


@c_enum("velstatus_forecast_fate", "VELSTATUS_FORECAST_FATE_", lib.velstatus_forecast_fate_to_string)
class ForecastFate(enum.IntEnum):
    """What the timeline says becomes of an operation (velstatus_forecast_fate)."""

    SETTLED = 0
    TIMES_OUT = 1
    ERROR_FAILS = 2
    UNKNOWN_FAILS = 3
    UNKNOWN_SKIPPED = 4
    NO_CREATED = 5
    NO_TIMEOUT = 6
    NOT_REACHED = 7


@c_enum("velstatus_forecast_eta", "VELSTATUS_FORECAST_ETA_", lib.velstatus_forecast_eta_to_string)
class ForecastEta(enum.IntEnum):
    """How an operation's estimated finish compares with its deadline."""

    UNKNOWN = 0
    BEFORE = 1
    AFTER = 2
    NO_DEADLINE = 3


@c_enum("velstatus_forecast_end", "VELSTATUS_FORECAST_END_", lib.velstatus_forecast_end_to_string)
class ForecastEnd(enum.IntEnum):
    """How the timeline ends: FINAL (it leaves the Waiting phases) or STALLED."""

    FINAL = 0
    STALLED = 1


ForecastEvent = collections.namedtuple("ForecastEvent", "at result")
ForecastEvent.__doc__ = ("One instant at which a pass decides something: ``at`` (int ns, the earliest such "
                         "instant) and ``result``, the ReconcileResult of the pass at that instant.")

ForecastOp = collections.namedtuple("ForecastOp", "index fate event deadline finish eta")
ForecastOp.__doc__ = """What the forecast says of one operation: ``index`` in the list, ``fate``
(ForecastFate), ``event`` (the index in ``Forecast.events`` of the pass that fails it, or None),
``deadline`` (created + timeout in ns, or None), ``finish`` (its estimated finish at the current
rate in ns, or None) and ``eta`` (ForecastEta)."""

Forecast = collections.namedtuple("Forecast", "phase final_phase end events operations")
Forecast.__doc__ = """The timeline of an operation list from a Waiting phase: ``phase`` (the start),
``final_phase`` (after the last event), ``end`` (ForecastEnd), ``events`` (tuple of
ForecastEvent, in time order; event 0 may be the next pass, at ``now``) and ``operations`` (tuple
of ForecastOp, in list order)."""


def _opt_time(getter, f, i):
    ns = ffi.new("int64_t *")
    return int(ns[0]) if getter(f, i, ns) else None


def _read(f):
    events = []
    for k in range(lib.velstatus_forecast_event_count(f)):
        events.append(ForecastEvent(_opt_time(lib.velstatus_forecast_event_time, f, k),
                                    _read_result(lib.velstatus_forecast_event_result(f, k))))
    ops = []
    for i in range(lib.velstatus_forecast_op_count(f)):
        e = lib.velstatus_forecast_op_event(f, i)
        ops.append(ForecastOp(i, ForecastFate(int(lib.velstatus_forecast_op_fate(f, i))),
                              None if e == ffi.cast("size_t", -1) else int(e),
                              _opt_time(lib.velstatus_forecast_op_deadline, f, i),
                              _opt_time(lib.velstatus_forecast_op_finish, f, i),
                              ForecastEta(int(lib.velstatus_forecast_op_eta(f, i)))))
    return Forecast(Phase.from_c(lib.velstatus_forecast_phase(f)), Phase.from_c(lib.velstatus_forecast_final_phase(f)),
                    ForecastEnd(int(lib.velstatus_forecast_end_kind(f))), tuple(events), tuple(ops))


def _forecast(clist, opts, pol, dm=None):
    """velstatus_forecast_new, or velstatus_forecast_new_dm with dm = its
    (dms, snapshots, namespace, ns_len, major, minor, cfg) arguments."""
    out = ffi.new("velstatus_forecast **")
    err = new_error()
    if dm is None:
        check(lib.velstatus_forecast_new(out, clist, opts, pol, err), err)
    else:
        check(lib.velstatus_forecast_new_dm(out, clist, opts, pol, *dm, err), err)
    try:
        return _read(out[0])
    finally:
        lib.velstatus_forecast_free(out[0])
