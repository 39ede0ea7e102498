#!/bin/sh
# Generates configure and Makefile.in (needs autoconf, automake, libtool,
# autoconf-archive and pkg-config's m4 macros).
set -e
cd "$(dirname "$0")"
autoreconf -fi
