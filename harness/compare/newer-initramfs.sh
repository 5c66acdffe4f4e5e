#!/bin/bash
# Usage: newer-initramfs.sh IN OUT SELFTESTS COMPARE_DIR
# The initramfs of `make compare`'s run of upstream's newer tests: IN (make
# check's initramfs of the guest) with an archive appended (the kernel
# unpacks concatenated archives one after the other, a later file
# replacing an earlier one) that holds
#   /kselftests/upstream/DIR/PROG   upstream's kselftests, built in SELFTESTS
#   /harness/upstream-perf-test     COMPARE_DIR/in-guest/upstream-perf-test
#   /harness/tests.list             COMPARE_DIR/upstream-tests.list
# so that the guest's `check` runs that list instead of make check's.
set -euo pipefail
[ $# = 4 ] || { echo "usage: newer-initramfs.sh IN OUT SELFTESTS COMPARE_DIR" >&2; exit 1; }
in=$1 out=$2 selftests=$3 dir=$4
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/kselftests/upstream" "$stage/harness"
(cd "$selftests" && find . -type f -perm -u+x ! -name '*.sh' -exec cp --parents {} "$stage/kselftests/upstream/" \;)
cp "$dir/in-guest/upstream-perf-test" "$stage/harness/"
cp "$dir/upstream-tests.list" "$stage/harness/tests.list"
mkdir -p "$(dirname "$out")"
{
	cat "$in"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet)
} > "$out.tmp"
mv "$out.tmp" "$out"
