# SPDX-License-Identifier: Apache-2.0
"""The compiled cffi module, and the version check done once at import."""

try:
    from ._velstatus_cffi import ffi, lib  # built by _build_ffi.py (make, pip or the Debian package)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "velstatus: the compiled module velstatus._velstatus_cffi is not importable; build it with "
        "make, or pip install bindings/python") from exc

# doc/conventions.md §6: the header the module was compiled against and the archive it
# linked must agree on the major version.
_runtime = int(lib.velstatus_version_number())
if (_runtime >> 16) != lib.VELSTATUS_VERSION_MAJOR:  # pragma: no cover
    raise ImportError("velstatus: compiled against libvelstatus %d.x but linked %s"
                      % (lib.VELSTATUS_VERSION_MAJOR, ffi.string(lib.velstatus_version_string()).decode()))

__all__ = ["ffi", "lib"]
