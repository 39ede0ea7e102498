#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs tests/comment-refs.py (no stale function name in a comment); SKIP
# without python3 (scripts/deps.sh installs it, so CI never skips).
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
exec python3 "${VS_SRCDIR:-.}/tests/comment-refs.py" "${VS_SRCDIR:-.}"
