# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures. run-tests.sh puts the srcdir package and the build-tree
module on PYTHONPATH and exports VS_SRCDIR, VS_BUILDDIR and VELSTATUS (the CLI)."""

import os

import pytest


@pytest.fixture(scope="session")
def srcdir():
    return os.environ["VS_SRCDIR"]


@pytest.fixture(scope="session")
def cli():
    """Path of the built velstatus command-line tool."""
    path = os.environ["VELSTATUS"]
    assert os.access(path, os.X_OK), path
    return path
