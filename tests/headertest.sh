#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The public headers stand alone: C99 -pedantic -Werror, C++11, each module
# header on its own, and the cffi cdef (cpp -DVELSTATUS_CDEF) parses with pycparser.
set -u
inc="-I$VS_SRCDIR/include -I$VS_BUILDDIR/include"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
printf '#include <velstatus.h>\nint main(void) { return velstatus_version_number() == 0; }\n' > "$tmp/t.c"
${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror $inc -c "$tmp/t.c" -o "$tmp/t.o" || { echo "FAIL: C99"; fail=1; }
cp "$tmp/t.c" "$tmp/t.cpp"
${CXX:-c++} -std=c++11 -pedantic -Wall -Wextra -Werror $inc -c "$tmp/t.cpp" -o "$tmp/t2.o" || { echo "FAIL: C++11"; fail=1; }
# Every public header once: the source tree's, plus the generated version.h,
# which is in the build tree (the same directory in an in-tree build).
hdrs=$(ls "$VS_SRCDIR"/include/velstatus/*.h)
[ -f "$VS_SRCDIR/include/velstatus/version.h" ] || hdrs="$hdrs $VS_BUILDDIR/include/velstatus/version.h"
for h in $hdrs; do
    name=$(basename "$h")
    printf '#include <velstatus/%s>\n#include <velstatus/%s>\n' "$name" "$name" > "$tmp/one.c"
    ${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror $inc -c "$tmp/one.c" -o "$tmp/one.o" \
        || { echo "FAIL: velstatus/$name does not stand alone"; fail=1; }
    # Public headers include nothing but our own headers and stddef/stdint.
    # Our own: "name.h" beside it, or "velstatus/name.h" (version.h, which is
    # generated into the build tree, finds common.h through the include path).
    if grep -E '^#[[:space:]]*include' "$h" | grep -vE '"(velstatus/)?[a-z_]+\.h"|<stddef\.h>|<stdint\.h>' ; then
        echo "FAIL: velstatus/$name includes a system header other than stddef.h/stdint.h"; fail=1
    fi
done
if [ -n "${PYTHON:-}" ] && "$PYTHON" -c 'import pycparser' 2>/dev/null; then
    ${CC:-cc} -E -P -DVELSTATUS_CDEF $inc "$VS_SRCDIR/include/velstatus.h" > "$tmp/cdef.h" || fail=1
    # cffi predefines the <stdint.h>/<stddef.h> types; plain pycparser needs them spelled out.
    "$PYTHON" -c 'import sys, pycparser
pre = "".join("typedef int %s;\n" % t for t in ("size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uintptr_t"))
pycparser.CParser().parse(pre + open(sys.argv[1]).read(), sys.argv[1])' "$tmp/cdef.h" \
        || { echo "FAIL: the cdef does not parse with pycparser"; fail=1; }
else
    echo "FAIL: python3 with pycparser is needed for the cdef check"; fail=1
fi
[ $fail = 0 ] && echo "headers: C99, C++11, standalone and cdef OK"
exit $fail
