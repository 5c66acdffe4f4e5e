#!/bin/bash
# Usage: checkpatch.sh SRC SERIES
# scripts/checkpatch.pl --strict on the exported mails (SERIES/0001-*.patch
# ...), as a maintainer would run it on what they receive: the commit
# messages, the changes to the base, and every added file, whole.
# ERRORs and WARNINGs fail; CHECKs are shown. What is filtered out, and why:
#  - UNKNOWN_COMMIT_ID: checkpatch looks commit ids up in the git
#    repository it runs in; ours holds the base, not upstream's history,
#    so it is run with none (GIT_DIR points nowhere). The form of a
#    'commit 123456789abc ("subject")' reference is still checked.
#  - SPDX_LICENSE_TAG in tools/perf/tests/shell/*.sh: 'perf test' takes a
#    shell test's description from its line 2, so the SPDX tag is on line
#    3 there, as in every upstream perf shell test.
#  - CHECK CAMELCASE on PRIu64 & co., PRINT_ATTRf (tools/perf's names) and
#    libelf's types (Elf, Elf_Scn, GElf_Sym...: its API, as in symbol-elf.c),
#    and the kselftest_harness.h idiom "FIXTURE_DATA(x) *self", which
#    checkpatch reads as a product: false positives, not counted.
set -uo pipefail
src=$1 series=$2
cp="perl $src/scripts/checkpatch.pl --strict --no-tree --show-types --no-summary"
bad=0 checks=0 n=0
# checkpatch keeps a cache of CamelCase names in its working directory.
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
cd "$tmpd"
for m in "$series"/[0-9]*.patch; do
	case $m in */0000-cover-letter.patch) continue ;; esac
	n=$((n + 1))
	# One line per finding: "TYPE<TAB>FILE:LINE<TAB>message".
	out=$(GIT_DIR=/nonexistent $cp "$m" 2>&1 | awk '
		/^(ERROR|WARNING|CHECK):/ { if (msg != "") print msg "\t?"; msg = $0; next }
		msg != "" && /^#[0-9]+: FILE: / { print msg "\t" $3; msg = ""; next }
		msg != "" && /^#[0-9]+:/ { print msg "\t(commit message)"; msg = ""; next }
		END { if (msg != "") print msg "\t?" }' |
		grep -v '^WARNING:UNKNOWN_COMMIT_ID:' |
		grep -v '^WARNING:SPDX_LICENSE_TAG:.*	tools/perf/tests/shell/[^	]*\.sh:' |
		grep -v '^CHECK:CAMELCASE: Avoid CamelCase: <\(PRI[diux]64\|PRINT_ATTRf\|G\?Elf\(_[A-Za-z]*\)\?\)>' |
		grep -v "^CHECK:SPACING: spaces preferred around that '\*' (ctx:WxV)	tools/testing/selftests/")
	[ -z "$out" ] && continue
	echo "$out" | sed "s|^|  $(basename "$m"): |"
	if echo "$out" | grep -q '^\(ERROR\|WARNING\):'; then bad=1; fi
	checks=$((checks + $(echo "$out" | grep -c '^CHECK:')))
done
[ $n -gt 0 ] || { echo "checkpatch: no mails in $series" >&2; exit 1; }
echo "checkpatch: $n mails, $([ $bad = 0 ] && echo clean || echo 'ERRORs or WARNINGs above'), $checks CHECK(s)"
exit $bad
