# SPDX-License-Identifier: Apache-2.0
"""setup.py exists only for what pyproject.toml cannot say to Debian 12's
setuptools 66: the cffi extension (``cffi_modules``), and the version, which is
the version of the libvelstatus the module is built against."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _build_ffi import pkg_config  # noqa: E402  (the one recipe, also used by make)

setup(version=pkg_config("--modversion")[0], cffi_modules=["_build_ffi.py:make_ffi"])
