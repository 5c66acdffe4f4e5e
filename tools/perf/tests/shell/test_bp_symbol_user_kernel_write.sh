#!/bin/sh
# mem:SYMBOL@FILE write breakpoints count the kernel's writes too
# SPDX-License-Identifier: GPL-2.0
#
# bp-app reads 8 bytes from a pipe into its 'counter' N times: the kernel
# stores them (copy_to_user()). A write breakpoint on the symbol counts
# every store: the same number for each read, which is one on x86_64 (one
# 8-byte move) and may be more where the copy stores in pieces (ppc64le
# counts two a read).
# On powerpc the kernel emulates the store that hit, in its exception
# handler: it must do so without sleeping (a lockdep/might_sleep splat
# fails the run).

. "$(dirname "$0")"/lib/bp_symbol.sh

bp_app_setup kwrite
n=5
ev="mem:counter@$BP_APP:w"
perf stat -x, -o "$tmp/stat.csv" -e "$ev" -- "$BP_APP" read $n 2> "$tmp/stat.err" ||
	{ cat "$tmp/stat.err"; echo "FAIL: perf stat -e $ev"; exit 1; }
count=$(grep -v '^#' "$tmp/stat.csv" | grep . | cut -d, -f1)
echo "$ev: $count for $n reads into it"
case $count in ''|*[!0-9]*) echo "FAIL: no count"; exit 1 ;; esac
[ "$count" -ge $n ] && [ $((count % n)) = 0 ] ||
	{ echo "FAIL: $count is not the same number of stores for each of $n reads"; exit 1; }
exit 0
