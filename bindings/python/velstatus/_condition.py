# SPDX-License-Identifier: Apache-2.0
"""A verdict as a Kubernetes condition, and the Argo CD health of a Backup
or Restore (json.h, phase.h; doc/cli.md §6, §7).

``ServerVerdict.condition()`` gives the ``metav1.Condition`` that
``velstatus_server_verdict_to_condition_json()`` writes, for a host to patch
into a status subresource; ``condition_reason()`` is the reason the library
picks for a set of reason flags; ``argo_health()`` is
``velstatus_argo_health_of()``.
"""

import json
from typing import Any, Dict, NamedTuple, Optional, Union

from ._core import TimeLike, format_time, time_ns
from ._enums import ArgoHealth, Kind, Phase
from ._errors import InvalidArgument, check, new_error
from ._ffi import ffi, lib

__all__ = ["ArgoHealth", "ArgoHealthResult", "argo_health", "condition_reason"]


def condition_reason(flags: int) -> str:
    """The condition reason for a bitmask of ServerReason flags
    (velstatus_server_condition_reason): the first of the library's fixed
    precedence, or "AllLocationsAvailable" when no flag is set."""
    if isinstance(flags, bool) or not isinstance(flags, int) or not 0 <= flags <= 0xFFFFFFFF:
        raise InvalidArgument("flags: a uint32 bitmask, got %r" % (flags,), code=lib.VELSTATUS_E_INVALID)
    return str(ffi.string(lib.velstatus_server_condition_reason(flags)).decode("ascii"))


def condition_base(v: Any, ctxptr: Any) -> str:
    """The C condition of a C verdict at the epoch with no generation (call
    with the ctx lock held): the keys the verdict alone decides."""
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    err = new_error()
    check(lib.velstatus_server_verdict_to_condition_json(out, out_len, v, 0, -1, err), err)
    try:
        return str(ffi.unpack(out[0], out_len[0]).decode("utf-8"))
    finally:
        lib.velstatus_free(ctxptr, out[0])


def condition(base: str, last_transition: TimeLike, observed_generation: Optional[int]) -> Dict[str, Any]:
    """``base`` (from condition_base) with the host's time and generation,
    keys in the order velstatus_server_verdict_to_condition_json writes them."""
    if observed_generation is not None and (isinstance(observed_generation, bool)
                                            or not isinstance(observed_generation, int)
                                            or not 0 <= observed_generation < 1 << 63):
        raise InvalidArgument("observed_generation is %r: None (absent) or an int64 >= 0" % (observed_generation,),
                              code=lib.VELSTATUS_E_INVALID)
    when = format_time(time_ns(last_transition), fraction=False)
    fixed = json.loads(base)
    cond: Dict[str, Any] = {"type": fixed["type"], "status": fixed["status"]}
    if observed_generation is not None:
        cond["observedGeneration"] = observed_generation
    cond["lastTransitionTime"] = when
    cond["reason"] = fixed["reason"]
    cond["message"] = fixed["message"]
    return cond


class ArgoHealthResult(NamedTuple):
    """What Argo CD's health check of a Backup or Restore says: ``health``
    (ArgoHealth) and Argo's ``message``."""

    health: ArgoHealth
    message: str


def _optional_text(value: Optional[str], what: str) -> Optional[bytes]:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidArgument("%s: expected str or None, got %s" % (what, type(value).__name__),
                              code=lib.VELSTATUS_E_INVALID)
    return value.encode("utf-8")


def argo_health(kind: Union[Kind, str, int], phase: Union[Phase, str, None], failure_reason: Optional[str] = None,
                deleting: bool = False) -> ArgoHealthResult:
    """The Argo CD health of a Backup or Restore (velstatus_argo_health_of),
    exactly as Argo CD's ``velero.io/Backup`` and ``velero.io/Restore``
    health checks compute it.

    ``phase`` is ``status.phase`` as a string (any text: a phase unknown to
    this version is Progressing, as in Argo) or None when absent or null;
    ``failure_reason`` is ``status.failureReason`` or None; ``deleting``
    says ``metadata.deletionTimestamp`` is set.
    """
    k = Kind.coerce(kind)
    # C buffers of our own: the message may borrow phase or failure_reason,
    # so they must live until it is copied.
    raw_phase = _optional_text(None if phase is None else str(phase), "phase")
    raw_reason = _optional_text(failure_reason, "failure_reason")
    c_phase = ffi.NULL if raw_phase is None else ffi.new("char[]", raw_phase)
    c_reason = ffi.NULL if raw_reason is None else ffi.new("char[]", raw_reason)
    health = ffi.new("velstatus_argo_health *")
    msg = ffi.new("const char **")
    msg_len = ffi.new("size_t *")
    err = new_error()
    st = lib.velstatus_argo_health_of(health, msg, msg_len, k.c, c_phase, len(raw_phase or b""), c_reason,
                                      len(raw_reason or b""), 1 if deleting else 0, err)
    check(st, err)
    text = ffi.unpack(msg[0], msg_len[0]).decode("utf-8")
    return ArgoHealthResult(ArgoHealth.from_c(health[0]), text)
