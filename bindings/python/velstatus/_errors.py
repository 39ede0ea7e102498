# SPDX-License-Identifier: Apache-2.0
"""Exceptions chosen by status code (pygit2's check_error, doc/conventions.md §7)."""

from typing import Any, Optional

from ._ffi import ffi, lib

__all__ = ["VelstatusError", "NoMemory", "InvalidArgument", "ParseError", "SchemaError",
           "HostError", "AbiError", "RangeError", "StateError", "status_name", "status_str"]


def status_name(code: int) -> str:
    """The identifier of a status code, e.g. ``"VELSTATUS_E_PARSE"`` (C: velstatus_status_name)."""
    return ffi.string(lib.velstatus_status_name(int(code))).decode("utf-8")


def status_str(code: int) -> str:
    """A human-readable description of a status code (C: velstatus_status_str)."""
    return ffi.string(lib.velstatus_status_str(int(code))).decode("utf-8")


class VelstatusError(Exception):
    """A libvelstatus call failed.

    Attributes mirror ``velstatus_error``: ``code`` (the ``velstatus_status``
    value, e.g. ``lib.VELSTATUS_E_PARSE``), ``message`` (the C message, naming
    the offending field and position), ``host_code`` (a callback's own return
    value for HostError), and ``line``, ``column``, ``offset`` (1-based position
    in JSON or time text; 0 when not applicable). ``str(e)`` is the message.
    The subclass is chosen by ``code``; codes without a subclass of their own
    (``VELSTATUS_E_INTERNAL``, codes added later) raise this class itself.
    """

    code = None

    def __init__(self, message: str, code: Optional[int] = None, host_code: int = 0, line: int = 0,
                 column: int = 0, offset: int = 0) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.host_code = host_code
        self.line = line
        self.column = column
        self.offset = offset

    @property
    def status_name(self) -> str:
        """The C identifier of ``code``, e.g. ``"VELSTATUS_E_SCHEMA"``."""
        return status_name(self.code)

    def __str__(self):
        # The library's messages never spell their position; it is added here,
        # once, as the CLI and the Go binding add it.
        if self.line:
            return "%s (line %d, column %d)" % (self.message, self.line, self.column)
        return self.message

    def __repr__(self):
        pos = ""
        if self.line or self.column or self.offset:
            pos = ", line=%d, column=%d, offset=%d" % (self.line, self.column, self.offset)
        return "%s(%r, code=%s%s)" % (type(self).__name__, self.message, self.status_name, pos)


class NoMemory(VelstatusError, MemoryError):
    """VELSTATUS_E_NOMEM: an allocation failed; nothing leaked."""
    code = lib.VELSTATUS_E_NOMEM


class InvalidArgument(VelstatusError, ValueError):
    """VELSTATUS_E_INVALID: an argument is invalid (unknown enum value, bad token)."""
    code = lib.VELSTATUS_E_INVALID


class ParseError(VelstatusError, ValueError):
    """VELSTATUS_E_PARSE: input text is not well-formed (JSON, time, duration)."""
    code = lib.VELSTATUS_E_PARSE


class SchemaError(VelstatusError, ValueError):
    """VELSTATUS_E_SCHEMA: well-formed input has a field of the wrong type or value."""
    code = lib.VELSTATUS_E_SCHEMA


class HostError(VelstatusError):
    """VELSTATUS_E_HOST: a host callback returned a negative code (``host_code``).

    A Python callback that raises does not produce this: its own exception
    propagates instead, unchanged.
    """
    code = lib.VELSTATUS_E_HOST


class AbiError(VelstatusError):
    """VELSTATUS_E_ABI: a struct_size does not match what the library accepts."""
    code = lib.VELSTATUS_E_ABI


class RangeError(VelstatusError, OverflowError):
    """VELSTATUS_E_RANGE: a number or time is outside the representable range."""
    code = lib.VELSTATUS_E_RANGE


class StateError(VelstatusError):
    """VELSTATUS_E_STATE: the call is not allowed in the object's current state.

    Also raised by the binding itself when a closed object is used, or when a
    callback re-enters the context that is running it (doc/conventions.md §2).
    """
    code = lib.VELSTATUS_E_STATE


_BY_CODE = {cls.code: cls for cls in (NoMemory, InvalidArgument, ParseError, SchemaError,
                                       HostError, AbiError, RangeError, StateError)}


def new_error() -> Any:
    """A fresh caller-owned ``velstatus_error *`` for one call."""
    return ffi.new("velstatus_error *")


def error_from(status: int, err: Any) -> "VelstatusError":
    """The exception for a failed call's status and its ``velstatus_error``."""
    status = int(status)
    message = ffi.string(err.message).decode("utf-8", "replace") if err != ffi.NULL else ""
    if not message:
        message = status_str(status)
    cls = _BY_CODE.get(status, VelstatusError)
    return cls(message, code=status, host_code=int(err.host_code), line=int(err.line),
               column=int(err.column), offset=int(err.offset))


def check(status: int, err: Any) -> None:
    """Raises the exception for ``status`` unless it is VELSTATUS_OK."""
    if status != lib.VELSTATUS_OK:
        raise error_from(status, err)
