#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pkg-config: the .pc files validate, and a consumer builds and runs with
# nothing but `pkg-config --cflags` and `pkg-config --static --libs`.
set -u
pc=${PKG_CONFIG:-pkg-config}
fail=0
$pc --validate "$VS_BUILDDIR/pkgconfig/libvelstatus.pc" || { echo "FAIL: libvelstatus.pc"; fail=1; }
$pc --validate libvelstatus || { echo "FAIL: libvelstatus-uninstalled.pc"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/consumer.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <velstatus.h>
int main(void)
{
    velstatus_ctx *ctx = NULL;
    velstatus_phase p;
    if (velstatus_ctx_new(&ctx, NULL, NULL) != VELSTATUS_OK) return 1;
    if (velstatus_phase_from_string(&p, "Finalizing", VELSTATUS_NUL_TERMINATED, NULL) != VELSTATUS_OK) return 2;
    if (strcmp(velstatus_version_string(), VELSTATUS_VERSION_STRING) != 0) return 3;
    printf("%s %s\n", velstatus_version_string(), velstatus_phase_to_string(p));
    velstatus_ctx_free(ctx);
    return 0;
}
C
${CC:-cc} ${VS_CFLAGS:-} $($pc --cflags libvelstatus) "$tmp/consumer.c" -o "$tmp/consumer" ${VS_LDFLAGS:-} $($pc --static --libs libvelstatus) \
    || { echo "FAIL: consumer does not build"; exit 1; }
out=$("$tmp/consumer") || { echo "FAIL: consumer exit $?"; exit 1; }
case "$out" in *" Finalizing") ;; *) echo "FAIL: consumer printed '$out'"; fail=1 ;; esac
[ $fail = 0 ] && echo "pkg-config: valid; consumer printed: $out"
exit $fail
