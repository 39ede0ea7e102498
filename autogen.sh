#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Generates configure and Makefile.in (needs autoconf, automake, libtool,
# autoconf-archive and pkg-config's m4 macros).
set -e
cd "$(dirname "$0")"
autoreconf -fi
