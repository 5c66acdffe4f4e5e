#!/bin/bash
# Usage: passed.sh NAME INPUT... -- COMMAND...
#
# Runs COMMAND, a check that passes or fails on its INPUTs (files, or
# directories whose files count by content), unless it passed before on
# the same inputs: then it prints what that run printed, and the check is
# not run again. A fresh clone (CI) spares the checks of the series as
# outsiders take it (git am and quilt import of the mails, checkpatch),
# about 90 s on the slower machine of our kind, when the mails and the
# tree did not change.
#
# The key: NAME; COMMAND's words, with the clone's path taken out (the
# base's version is in its path); the content of every INPUT, but for an
# assembled tree (build/linux, with its .assembled) its stamp, which
# stands for its content: if a file there is newer than the stamp (an
# edit not refreshed into the repository), COMMAND runs; every
# script of harness/tree; the versions of every installed Debian package
# (git, quilt, perl). A run that fails is never kept, so a failure is
# always the check's own, run again.
# The cache keeps the last pass of each NAME: PASSED_DIR/NAME (the
# Makefile's CACHE/passed). PASSED=off runs COMMAND always.
set -euo pipefail
usage() { echo "usage: passed.sh NAME INPUT... -- COMMAND..." >&2; exit 2; }
[ $# -ge 3 ] || usage
name=$1
shift
inputs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	inputs+=("$1")
	shift
done
if [ "${1:-}" != -- ] || [ $# -lt 2 ]; then usage; fi
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
store=${PASSED_DIR:-$HOME/.cache/perf-aux/passed}/$name

[ "${PASSED:-}" != off ] || exec "$@"
for i in "${inputs[@]}"; do
	[ -e "$i" ] || { echo "passed: no input $i" >&2; exit 2; }
	if [ -f "$i/.assembled" ] && [ -n "$(find "$i" -newer "$i/.assembled" ! -type d -print -quit)" ]; then
		exec "$@"
	fi
done

key=$( {
	echo "$name"
	for w in "$@"; do printf '%s\n' "${w//"$root"/@ROOT@}"; done
	for i in "${inputs[@]}"; do
		if [ -f "$i/.assembled" ]; then
			head -n 1 "$i/.assembled"
		else
			(cd "$(dirname "$i")" && find "$(basename "$i")" -type f -print0 |
				LC_ALL=C sort -z | xargs -0 sha256sum)
		fi
	done
	(cd "$root" && find harness/tree -type f -name '*.sh' | LC_ALL=C sort | xargs sha256sum)
	dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' | LC_ALL=C sort
} | sha256sum | cut -d' ' -f1)

if [ -f "$store/key" ] && [ "$(cat "$store/key")" = "$key" ] && [ -f "$store/output" ]; then
	echo "passed: $name passed on the same inputs ($(cat "$store/when")); it printed:"
	cat "$store/output"
	exit 0
fi

rm -rf "$store.new"
mkdir -p "$store.new"
rc=0
"$@" 2>&1 | tee "$store.new/output" || rc=$?
if [ $rc != 0 ]; then
	rm -rf "$store.new"
	exit $rc
fi
echo "$key" > "$store.new/key"
date -u '+%Y-%m-%d %H:%M UTC' > "$store.new/when"
rm -rf "$store"
mv "$store.new" "$store"
