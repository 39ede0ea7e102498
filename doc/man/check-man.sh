#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The man pages: (1) each renders with groff without a single warning
# (`groff -ww -z -man`) and its .TH names the version being built;
# (2) velstatus(1) names every subcommand and every option the tool accepts. The subcommands are read from `velstatus --help`
# (the "commands:" list), the sub-subcommands (`phase check`, `operations
# reconcile`, ...) from the usage lines of `velstatus CMD --help`, and the
# options from every -x / --long-option those help texts mention, so an option
# added to the tool's help and not to the page fails here. Skips (77) without
# groff, which scripts/deps.sh installs (groff-base) so that CI never skips.
set -u
man1=$VS_SRCDIR/doc/man/velstatus.1
man3=$VS_SRCDIR/doc/man/libvelstatus.3
if ! command -v groff >/dev/null 2>&1; then echo "groff not found"; exit 77; fi
fail=0
for page in "$man1" "$man3"; do
    out=$(groff -ww -z -man "$page" 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
        printf '%s\n' "$out"; echo "FAIL: $(basename "$page") does not render cleanly (groff -ww -z -man)"; fail=1
    else
        echo "ok: $(basename "$page") renders without warnings"
    fi
done

# Each page's .TH names the version being built (CONTRIBUTING.md: update at release).
ver=$("$VELSTATUS" version | sed -n 's/.*(libvelstatus \([^)]*\)).*/\1/p')
[ -n "$ver" ] || { echo "FAIL: no library version in velstatus version"; fail=1; }
for page in "$man1" "$man3"; do
    if ! grep -q "^\.TH .* \"libvelstatus $ver\"" "$page"; then
        echo "FAIL: $(basename "$page"): .TH does not say \"libvelstatus $ver\""; fail=1
    fi
done

# The page's text with roff escapes for hyphens and fonts undone.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$man1")
has() { # the page names $1 as a whole word (an option or a command)
    printf '%s\n' "$text" | grep -qE -- "(^|[^-[:alnum:]])$1([^-[:alnum:]]|$)"
}
top=$("$VELSTATUS" --help) || { echo "FAIL: velstatus --help"; exit 1; }
cmds=$(printf '%s\n' "$top" | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || { echo "FAIL: no command found in velstatus --help"; exit 1; }
ncmd=0; nopt=0
opts=$(printf '%s\n' "$top" | grep -oE -- '(^|[^-[:alnum:]])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[^-]*//')
for c in $cmds; do
    ncmd=$((ncmd + 1))
    has "$c" || { echo "FAIL: velstatus(1) does not name the command $c"; fail=1; }
    h=$("$VELSTATUS" "$c" --help) || { echo "FAIL: velstatus $c --help exits non-zero"; fail=1; continue; }
    for sub in $(printf '%s\n' "$h" | sed -n "s/^.*velstatus $c \([a-z][a-z-]*\).*/\1/p" | sort -u); do
        ncmd=$((ncmd + 1))
        printf '%s\n' "$text" | grep -qE -- "$c $sub([^-[:alnum:]]|$)" ||
            { echo "FAIL: velstatus(1) does not describe \"$c $sub\""; fail=1; }
    done
    opts="$opts
$(printf '%s\n' "$h" | grep -oE -- '(^|[^-[:alnum:]])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[^-]*//')"
done
for o in $(printf '%s\n' "$opts" --help -h --version | sort -u); do
    nopt=$((nopt + 1))
    has "$o" || { echo "FAIL: velstatus(1) does not document the option $o"; fail=1; }
done
# Each command's section (.SS CMD [SUB]) names every option of that command's
# table (velstatus --complete, the table --help and the completion come from).
section() { # the page's text of section "$1", escapes undone
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$man1" | awk -v s=".SS $1" '$0 == s {on=1; next} /^\.S[SH]/ {on=0} on'
}
nsec=0
for c in $("$VELSTATUS" --complete | grep -v '^-'); do
    [ "$c" = help ] && continue
    if "$VELSTATUS" --complete "$c" | grep -q '^-'; then subs=-; else subs=$("$VELSTATUS" --complete "$c"); fi
    for sub in $subs; do
        [ "$sub" = - ] && sub=""
        name=$c${sub:+ $sub}
        sec=$(section "$name")
        [ -n "$sec" ] || { echo "FAIL: velstatus(1) has no section \"$name\""; fail=1; continue; }
        for o in $("$VELSTATUS" --complete "$c" $sub | grep '^-' | cut -d' ' -f1); do
            # shared by every command: the "Conventions every command shares" section
            case $o in --max-input|--input-form|-h|--help|--output) continue ;; esac
            nsec=$((nsec + 1))
            printf '%s\n' "$sec" | grep -qE -- "(^|[^-[:alnum:]])$o([^-[:alnum:]]|$)" ||
                { echo "FAIL: velstatus(1), section $name, does not name $o"; fail=1; }
        done
    done
done
echo "velstatus(1): $nsec options checked in their command's section"
echo "velstatus(1): $ncmd commands and subcommands, $nopt options checked"
[ "$ncmd" -gt 0 ] && [ "$nopt" -gt 0 ] || fail=1
exit "$fail"
