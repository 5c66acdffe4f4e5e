#!/bin/bash
# Usage: checkpatch.sh ROOT SRC
# scripts/checkpatch.pl --strict over the series: every patch of
# patches/series (given the "diff --git" lines checkpatch expects, which
# quilt does not write) and every file of the sparse tree. ERRORs and
# WARNINGs fail; CHECKs are shown. The CHECKs known to remain are false
# positives: PRIu64 & co. "CamelCase" in tools/perf, and the
# kselftest_harness.h idiom "FIXTURE_DATA(x) *self" read as a product.
set -uo pipefail
root=$1 src=$2
cp="perl $src/scripts/checkpatch.pl --strict --no-tree --quiet --show-types --no-summary"
bad=0 checks=0
report() {
	local out=$1 what=$2
	[ -z "$out" ] && return
	echo "$out" | sed "s|^|  $what: |"
	if echo "$out" | grep -q '^\(ERROR\|WARNING\):'; then bad=1; fi
	checks=$((checks + $(echo "$out" | grep -c '^CHECK:')))
}
while read -r p _; do
	case $p in ''|'#'*) continue ;; esac
	out=$(awk '/^--- a\// { f = substr($2, 3); print "diff --git a/" f " b/" f } { print }' \
		"$root/patches/$p" | $cp - 2>&1 | grep -E '^(ERROR|WARNING|CHECK):' |
		grep -v 'FILE_PATH_CHANGES\|CAMELCASE.*\(PRI[diux]64\|PRINT_ATTRf\)')
	report "$out" "$p"
done < "$root/patches/series"
for f in $("$root/harness/sparse-files.sh" "$root"); do
	case $f in *.c|*.h) ;; *) continue ;; esac
	out=$($cp -f "$root/$f" 2>&1 | grep -E '^(ERROR|WARNING|CHECK):' |
		grep -v 'CAMELCASE.*PRI[diux]64\|SPACING.*spaces preferred around that .\*. (ctx:WxV)')
	report "$out" "$f"
done
echo "checkpatch: $([ $bad = 0 ] && echo clean || echo 'ERRORs or WARNINGs above'), $checks CHECK(s)"
exit $bad
