#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The layers of the library, checked on disk (doc/design.md draws them):
#  1. no public header includes a header of a layer above its own;
#  2. a source or private header in lib/AREA/ includes only the private
#     headers of its own area and of the areas below it;
#  3. every folder of lib/ is an area this script knows (a new one is added
#     here and in doc/design.md together);
#  4. util/, the internal layer the library and the CLI share (prefix vsx_),
#     includes nothing of either: it is below both.
set -u
src=${VS_SRCDIR:-.}
fail=0

# Public headers, bottom (0) to top.
hlayer() {
    case $1 in
    common.h | status.h | host.h | time.h | version.h | watch.h) echo 0 ;;
    policy.h) echo 1 ;;
    phase.h) echo 2 ;;
    retry.h | oplist.h | backup_object.h) echo 3 ;;
    server_status.h | op_step.h | decoder.h | progress.h) echo 4 ;;
    reconcile.h) echo 5 ;;
    operations.h | experimental.h | forecast.h | datamover.h | snapshot.h) echo 6 ;;
    json.h) echo 7 ;;
    *) echo "" ;;
    esac
}
for h in "$src"/include/velstatus/*.h "$src"/include/velstatus/version.h.in; do
    [ -f "$h" ] || continue
    name=$(basename "$h" .in)
    me=$(hlayer "$name")
    if [ -z "$me" ]; then echo "FAIL: include/velstatus/$name has no layer (add it here and to doc/design.md)"; fail=1; continue; fi
    for inc in $(sed -n 's/^#include "\(velstatus\/\)\{0,1\}\([a-z_]*\.h\)".*/\2/p' "$h"); do
        it=$(hlayer "$inc")
        if [ -z "$it" ] || [ "$it" -gt "$me" ]; then
            echo "FAIL: include/velstatus/$name (layer $me) includes $inc (layer ${it:-none})"; fail=1
        fi
    done
done

# Library areas: which areas' private headers each may include.
allowed() {
    case $1 in
    common) echo "common" ;;
    phase) echo "common phase" ;;
    retry) echo "common phase retry" ;;
    server_status) echo "common phase retry server_status" ;;
    operations) echo "common phase operations" ;;
    progress) echo "common phase operations progress" ;;
    forecast) echo "common phase operations progress datamover forecast" ;;
    datamover) echo "common phase operations datamover" ;;
    snapshot) echo "common phase operations snapshot" ;;
    *) echo "" ;;
    esac
}
for d in "$src"/lib/*/; do
    area=$(basename "$d")
    ok=$(allowed "$area")
    if [ -z "$ok" ]; then echo "FAIL: lib/$area/ is not a known area"; fail=1; continue; fi
    for f in "$d"*.c "$d"*.h; do
        [ -f "$f" ] || continue
        for inc in $(sed -n 's/^#include "\([a-z_]*\)\/[a-z_]*\.h".*/\1/p' "$f"); do
            [ "$inc" = velstatus ] && continue
            case " $ok " in
            *" $inc "*) ;;
            *) echo "FAIL: lib/$area/$(basename "$f") includes a header of $inc/ (above or beside $area)"; fail=1 ;;
            esac
        done
    done
done
for f in "$src"/util/*.h "$src"/util/*.c; do
    [ -f "$f" ] || continue
    if grep -nE '^#include "(velstatus|common|phase|retry|server_status|operations|progress|forecast|snapshot)[/.]|^#include "(cli|svg|watch_stream)\.h"' "$f"; then
        echo "FAIL: util/$(basename "$f") includes a header of lib/ or tools/"; fail=1
    fi
done
[ $fail = 0 ] && echo "layers: every public header and every lib/ file includes only its own layer or those below"
exit $fail
