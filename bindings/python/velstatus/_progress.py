# SPDX-License-Identifier: Apache-2.0
"""Progress aggregation and Velero's describe text (progress.h, doc/design.md §5)."""

import collections
import enum

from ._core import TimeLike, time_ns
from ._enums import c_enum
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._operations import OpList

__all__ = ["ProgressFlag", "UnitProgress", "ProgressReport", "progress_report", "describe_operations"]

_MODULE = __name__.rpartition(".")[0]


def _names(ctype, prefix):
    return [(cname[len(prefix):], value) for value, cname in sorted(ffi.typeof(ctype).elements.items())]


@c_enum("velstatus_progress_flag", "VELSTATUS_PROGRESS_F_", lib.velstatus_progress_flag_to_string)
class ProgressFlag(enum.IntFlag):
    """Flags of a progress report or of one unit group (velstatus_progress_flag)."""

    UNKNOWN_PHASE = 1
    OVER_TOTAL = 2
    NEGATIVE = 4
    SATURATED = 8
    UNTIMED = 16


_Counter = enum.IntEnum("_Counter", _names("velstatus_progress_counter", "VELSTATUS_PROGRESS_"), module=_MODULE)

UnitProgress = collections.namedtuple("UnitProgress", "units operations completed total percent rate eta flags")
UnitProgress.__doc__ = """One unit group of a report: ``units`` (the operationUnits string),
``operations``, ``completed`` and ``total`` (sums, clamped to int64), ``percent``
(rounded down to 0.01), ``rate`` (units per second, None when unknown), ``eta``
(seconds, None when unknown) and ``flags`` (ProgressFlag)."""

ProgressReport = collections.namedtuple(
    "ProgressReport", [c.name.lower() for c in _Counter] + ["flags", "units", "summary", "json"])
ProgressReport.__doc__ = """An aggregated progress report (velstatus_progress).

The operation counts (``attempted``, ``new``, ``in_progress``, ``completed``,
``failed``, ``unknown_phase``, ``unquantified``), ``flags`` (ProgressFlag),
``units`` (tuple of UnitProgress, sorted by unit string), ``summary`` (one
line, as ``velstatus progress`` prints it) and ``json`` (as
``velstatus progress -o json`` prints it)."""


def progress_report(ops: OpList, now: TimeLike) -> ProgressReport:
    """Aggregates an OpList at instant ``now`` (ns, RFC 3339 or aware datetime) into a ProgressReport."""
    if not isinstance(ops, OpList):
        raise TypeError("progress_report() takes an OpList")
    now_ns = time_ns(now)
    with ops._held() as p:
        rp = ffi.new("velstatus_progress **")
        err = new_error()
        check(lib.velstatus_progress_new(rp, p, ops._ptr, now_ns, err), err)
        r = rp[0]
        try:
            counts = [int(lib.velstatus_progress_count(r, c)) for c in _Counter]
            n = ffi.new("size_t *")
            rate = ffi.new("double *")
            eta = ffi.new("int64_t *")
            units = []
            for i in range(lib.velstatus_progress_unit_count(r)):
                name = lib.velstatus_progress_unit_name(r, i, n)
                units.append(UnitProgress(
                    ffi.unpack(name, n[0]).decode("utf-8", "surrogateescape"),
                    int(lib.velstatus_progress_unit_operations(r, i)),
                    int(lib.velstatus_progress_unit_completed(r, i)),
                    int(lib.velstatus_progress_unit_total(r, i)),
                    float(lib.velstatus_progress_unit_percent(r, i)),
                    float(rate[0]) if lib.velstatus_progress_unit_rate(r, i, rate) else None,
                    int(eta[0]) if lib.velstatus_progress_unit_eta(r, i, eta) else None,
                    ProgressFlag(int(lib.velstatus_progress_unit_flags(r, i)))))
            texts = []
            for fn in (lib.velstatus_progress_summary, lib.velstatus_progress_to_json):
                out = ffi.new("char **")
                tn = ffi.new("size_t *")
                check(fn(out, tn, r, err), err)
                try:
                    texts.append(ffi.unpack(out[0], tn[0]).decode("utf-8"))
                finally:
                    lib.velstatus_free(p, out[0])
            return ProgressReport(*counts, ProgressFlag(int(lib.velstatus_progress_flags(r))), tuple(units),
                                  *texts)
        finally:
            lib.velstatus_progress_free(r)


def describe_operations(ops: OpList, details: bool = False) -> str:
    """The operations section of ``velero backup describe`` (or restore),
    byte-exact (doc/velero-behaviour.md §3.2, §3.3; times print in UTC)."""
    if not isinstance(ops, OpList):
        raise TypeError("describe_operations() takes an OpList")
    with ops._held() as p:
        out = ffi.new("char **")
        n = ffi.new("size_t *")
        err = new_error()
        check(lib.velstatus_describe_operations(out, n, p, ops._ptr, 1 if details else 0, err), err)
        try:
            return ffi.unpack(out[0], n[0]).decode("utf-8")
        finally:
            lib.velstatus_free(p, out[0])


def _progress(self, now):
    """The list's ProgressReport at instant ``now`` (see progress_report())."""
    return progress_report(self, now)


def _describe(self, details=False):
    """Velero's describe text for the list (see describe_operations())."""
    return describe_operations(self, details)


OpList.progress = _progress
OpList.describe = _describe
