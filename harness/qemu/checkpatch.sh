#!/bin/bash
# Usage: checkpatch.sh CACHEDIR
# QEMU's own scripts/checkpatch.pl (of the pristine source that build.sh
# fetched into CACHEDIR/qemu/src) on every patch of harness/qemu/series.
# A patch fails on any error, and on any warning but the one that asks
# whether a new file needs a MAINTAINERS entry (ours stay out of tree).
set -euo pipefail
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
src=$(find "$cache/qemu/src" -mindepth 1 -maxdepth 1 -type d ! -name '*.tmp' 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$src" ] || { echo "qemu-checkpatch: no QEMU source in $cache/qemu/src (make qemu)" >&2; exit 1; }
bad=0
while read -r p; do
	out=$(cd "$src" && perl scripts/checkpatch.pl --no-signoff "$here/patches/$p" 2>&1) || true
	errs=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1 \2/p')
	maint=$(echo "$out" | grep -c '^WARNING: added, moved or deleted file(s), does MAINTAINERS need updating' || true)
	set -- $errs
	if [ -z "$errs" ] || [ "$1" != 0 ] || [ "$2" != "$maint" ]; then
		echo "$out"
		echo "qemu-checkpatch: $p: ${1:-?} errors, ${2:-?} warnings"
		bad=1
	else
		echo "qemu-checkpatch: $p: clean"
	fi
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/series")
exit $bad
