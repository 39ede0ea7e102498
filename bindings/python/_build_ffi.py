# SPDX-License-Identifier: Apache-2.0
"""Builds the cffi extension module ``velstatus._velstatus_cffi`` (out-of-line API mode).

One build recipe for every way the module is made: ``make`` (into the build
tree, against the uninstalled archive), ``pip install ./bindings/python`` and
the Debian package (setup.py passes ``make_ffi`` as its ``cffi_modules``),
both against an installed libvelstatus.

The cdef is never written by hand: it is the umbrella header (and the
experimental tier's header) run through the
C preprocessor with ``-P -DVELSTATUS_CDEF`` (``$CPP``, default ``cc -E``), the
header found through ``pkg-config --cflags libvelstatus``, followed by
``callbacks.cdef`` (the ``extern "Python"`` trampolines, which only a binding
can declare). API mode compiles the cdef against the real header, so a
declaration that drifts breaks the build.

Compiler and linker flags come from ``pkg-config --static --cflags --libs
libvelstatus`` (the library is a static archive; cffi's
set_source_pkgconfig() does not pass --static, hence the parsing here). With
``PKG_CONFIG_PATH=$(abs_top_builddir)/pkgconfig`` that is the uninstalled .pc,
i.e. the in-tree archive.

Run as a script, everything is written under --outdir: the generated C file,
the objects, and ``velstatus/_velstatus_cffi*.so``. Nothing is written next
to this script, so it works from distcheck's read-only source tree.

Usage: _build_ffi.py --outdir BUILDDIR/bindings/python
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import cffi

MODULE = "velstatus._velstatus_cffi"
HERE = os.path.dirname(os.path.abspath(__file__))
# The binding also wraps the experimental tier (the replay map of recorded
# plugin answers), which the umbrella header leaves out.
SOURCE = "#include <velstatus.h>\n#include <velstatus/experimental.h>\n"


def pkg_config(*args):
    """Runs $PKG_CONFIG (default pkg-config) on libvelstatus and returns its words."""
    cmd = shlex.split(os.environ.get("PKG_CONFIG") or "pkg-config") + list(args) + ["libvelstatus"]
    try:
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit("velstatus: %s failed (%s): install libvelstatus (the -dev package) or point "
                         "PKG_CONFIG_PATH at its .pc" % (" ".join(cmd), exc)) from None
    return shlex.split(out)


def link_flags():
    """pkg-config --static --cflags --libs, sorted into set_source() keywords."""
    flags = {"include_dirs": [], "library_dirs": [], "libraries": [], "define_macros": [],
             "extra_compile_args": [], "extra_link_args": []}
    for word in pkg_config("--static", "--cflags", "--libs"):
        if word.startswith("-I"):
            flags["include_dirs"].append(word[2:])
        elif word.startswith("-L"):
            flags["library_dirs"].append(word[2:])
        elif word.startswith("-l"):
            flags["libraries"].append(word[2:])
        elif word.startswith("-D"):
            name, _, value = word[2:].partition("=")
            flags["define_macros"].append((name, value or None))
        elif word.startswith("-pthread"):
            flags["extra_compile_args"].append(word)
            flags["extra_link_args"].append(word)
        elif word.startswith("-Wl,") or word.endswith((".a", ".so")):
            flags["extra_link_args"].append(word)
        else:
            flags["extra_compile_args"].append(word)
    return flags


def header_cdef():
    """The umbrella header, preprocessed for cffi (-P -DVELSTATUS_CDEF)."""
    cpp = shlex.split(os.environ.get("CPP") or "cc -E")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cdef.h")
        with open(src, "w", encoding="utf-8") as f:
            f.write(SOURCE)
        cmd = cpp + ["-P", "-DVELSTATUS_CDEF"] + pkg_config("--cflags") + [src]
        return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout


def make_ffi():
    """The FFI builder (setup.py's cffi_modules entry point)."""
    ffi = cffi.FFI()
    ffi.cdef(header_cdef())
    with open(os.path.join(HERE, "callbacks.cdef"), encoding="utf-8") as f:
        ffi.cdef(f.read())
    ffi.set_source(MODULE, SOURCE, **link_flags())
    return ffi


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--outdir", required=True, help="where velstatus/_velstatus_cffi*.so is written")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    outdir = os.path.join(os.path.abspath(args.outdir), "velstatus")
    tmpdir = os.path.join(os.path.abspath(args.outdir), "_cffi_tmp")
    # Always a clean rebuild: the archive the module links may have changed
    # while the generated C file did not, and distutils would not notice.
    shutil.rmtree(tmpdir, ignore_errors=True)
    os.makedirs(tmpdir)
    os.makedirs(outdir, exist_ok=True)
    built = make_ffi().compile(tmpdir=tmpdir, verbose=args.verbose)
    target = os.path.join(outdir, os.path.basename(built))
    for old in os.listdir(outdir):
        if old.startswith("_velstatus_cffi.") and old.endswith(".so"):
            os.unlink(os.path.join(outdir, old))
    os.replace(built, target)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
