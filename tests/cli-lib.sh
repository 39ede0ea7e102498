# SPDX-License-Identifier: Apache-2.0
# Shared checks of the CLI's shell tests (sourced). The caller sets v (the
# velstatus binary), tmp (a scratch prefix) and fail=0; each check prints
# "ok NAME" or "FAIL NAME: ..." and sets fail=1 on failure.
ok() { echo "ok $1"; }
bad() { echo "FAIL $1"; fail=1; }
run() { # run NAME WANT_RC ARGS... : stdout in $tmp/out, stderr in $tmp/err ($tmp a directory)
    name=$1; want=$2; shift 2
    "$v" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" != "$want" ]; then
        bad "$name: exit $rc, want $want"; cat "$tmp/err"; return 1
    fi
    return 0
}
golden() { # golden NAME FILE -- ARGS... : exit 0 and stdout byte-identical to FILE
    name=$1; want=$2; shift 3
    "$v" "$@" >"$tmp.out" 2>"$tmp.err"; rc=$?
    if [ "$rc" != 0 ]; then echo "FAIL $name: exit $rc"; cat "$tmp.err"; fail=1; return; fi
    if ! cmp -s "$tmp.out" "$want"; then echo "FAIL $name: output differs from $want"; diff "$tmp.out" "$want"; fail=1; return; fi
    echo "ok $name"
}
stderr_has() { # stderr_has NAME TEXT -- ARGS... : exit 2, nothing on stdout, stderr contains TEXT
    name=$1; text=$2; shift 3
    "$v" "$@" >"$tmp.out" 2>"$tmp.err"; rc=$?
    if [ "$rc" != 2 ]; then echo "FAIL $name: exit $rc, want 2"; fail=1; return; fi
    if [ -s "$tmp.out" ]; then echo "FAIL $name: wrote to stdout"; fail=1; return; fi
    if ! grep -qF -- "$text" "$tmp.err"; then echo "FAIL $name: stderr lacks '$text':"; cat "$tmp.err"; fail=1; return; fi
    echo "ok $name"
}
