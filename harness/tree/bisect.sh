#!/bin/bash
# Usage: bisect.sh ROOT SERIES WORK
#
# Builds every prefix of the exported series (the commits `make series`
# made in SERIES/.git, branch "series"), as `git bisect` would meet them:
# the x86_64 and ppc64le guest kernels (configured as `make check` does,
# without the options the prefix does not have yet) and, for each patch
# that touches tools/, perf as distributions build it (default features,
# WERROR=1). The prefixes are checked out one after the other into
# WORK/linux, so each build only recompiles what the patch changed.
#
# Prints one row per patch and stops at the first patch that breaks a
# build (its log is named). Exit status 1 then.
set -uo pipefail
root=$1 series=$2 work=$3
h=$root/harness
mkdir -p "$work/linux" "$work/logs"
# A repository of its own (objects shared with the base's), so that
# `make series` meanwhile does not pull the commits from under the builds.
export GIT_DIR=$work/git GIT_INDEX_FILE=$work/index
if [ ! -d "$GIT_DIR" ]; then
	git init -q --bare "$GIT_DIR"
	cp "$series/.git/objects/info/alternates" "$GIT_DIR/objects/info/"
fi
git fetch -q -f "$series/.git" series:series 'refs/tags/*:refs/tags/*'
commits=$(git rev-list --reverse base..series)
[ -n "$commits" ] || { echo "bisect: no series in $series (make series)" >&2; exit 1; }
total=$(wc -l <<<"$commits")

# Every per-architecture fact comes from harness/arch/<arch>.mk (through
# the Makefile, which passes them in the environment).
kernel() {	# kernel ARCH
	local a=$1 karch cross image
	karch=$(printenv "KARCH_$a") cross=$(printenv "CROSS_$a") image=$(printenv "KTARGET_$a")
	local debug=("$h/builds/configs/debug.config")
	[ ! -f "$h/builds/configs/debug-$a.config" ] || debug+=("$h/builds/configs/debug-$a.config")
	KCONFIG_KNOWN_ONLY=1 "$h/builds/build-kernel.sh" "$work/linux" "$work/$a" "$karch" "$cross" "$image" \
		"${debug[@]}" "$h/builds/configs/common.config" "$h/builds/configs/$a.config" \
		$(for d in $(printenv "KSELFTEST_DIRS_$a"); do
			ls "$work/linux/tools/testing/selftests/$d/config" 2>/dev/null; done)
}
perf() {
	"$h/builds/build-perf-distro.sh" "$work/linux" "$work/perf"
}

run() {	# run NAME LOG COMMAND...: one cell of the table
	local name=$1 log=$2 start=$SECONDS
	shift 2
	if "$@" >"$log" 2>&1; then
		cell="ok $((SECONDS - start))s"
		return 0
	fi
	cell="FAILED"
	echo "bisect: $name failed; its log: $log" >&2
	tail -20 "$log" | sed 's/^/  | /' >&2
	return 1
}

printf '%-4s %-62s %-14s %-14s %s\n' "#" "patch" "kernel x86_64" "kernel ppc64le" "perf"
# The work tree is at the commit in WORK/at (a previous run's last one);
# moving to the next commit rewrites only the files that differ.
wt() { git --work-tree="$work/linux" "$@"; }
at=$(cat "$work/at" 2>/dev/null || true)
if [ -z "$at" ] || ! git cat-file -e "$at" 2>/dev/null; then
	wt read-tree --reset -u base
	at=$(git rev-parse base)
fi
n=0 start=$SECONDS
for c in $commits; do
	n=$((n + 1))
	subject=$(git log -1 --format=%s "$c")
	wt read-tree -m -u "$at" "$c" 2>/dev/null || wt read-tree --reset -u "$c"
	at=$c
	echo "$at" >"$work/at"
	row=() bad=0
	for a in x86_64 ppc64le; do
		if run "patch $n, kernel $a" "$work/logs/$n-kernel-$a.log" kernel "$a"; then :; else bad=1; fi
		row+=("$cell")
	done
	if git diff-tree --no-commit-id --name-only -r "$c" | grep -q '^tools/\(perf\|include\|lib\|build\|arch\)/'; then
		if run "patch $n, perf" "$work/logs/$n-perf.log" perf; then :; else bad=1; fi
		row+=("$cell")
	else
		row+=("-")
	fi
	printf '%-4s %-62.62s %-14s %-14s %s\n' "$n/$total" "$subject" "${row[@]}"
	[ $bad = 0 ] || { echo "bisect: patch $n ($subject) breaks the build"; exit 1; }
done
echo "bisect: all $total prefixes build ($(( (SECONDS - start) / 60 )) min)"
