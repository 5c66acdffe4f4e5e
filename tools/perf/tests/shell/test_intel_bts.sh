#!/bin/sh
# intel_bts records every taken branch, at the privilege levels asked for
# SPDX-License-Identifier: GPL-2.0
#
# branch-loop (the harness's guest program, no libc) runs a loop of 1000
# iterations: 999 taken branches from the jnz at loop + 3 to loop, then
# the exit system call. intel_bts//u must hold exactly 999 records of that
# branch, the system call (from user space into the kernel: BTS filters on
# the privilege level a branch comes from, and that is why intel_bts needs
# kernel privileges even for //u) as its last record, and no record from
# the kernel. intel_bts//k must hold no record from user
# space. Needs the intel_bts PMU (Intel BTS, or the x86_64:pmu guest's
# QEMU model) and the branch-loop program; skips without them.

. "$(dirname "$0")"/lib/intel_bts.sh
bts_require branch-loop
tmp=$(mktemp -d /tmp/perf-intel-bts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0

# record FILTER [OPTION...]: the branches of branch-loop as "FROM TO", in hex
record() {
	f=$1
	shift
	# perf record --max-size ends the session by killing the workload
	# (SIGTERM) and then exits non-zero: that is no failure here.
	perf record -q --per-thread "$@" -e "intel_bts//$f" -o "$tmp/$f.data" -- "$prog" \
		2> "$tmp/rec.err" || grep -q 'perf size limit reached' "$tmp/rec.err" ||
		{ cat "$tmp/rec.err"; echo "FAIL: perf record //$f"; exit 1; }
	bts_branches "$tmp/$f.data" > "$tmp/$f.br"
	echo "intel_bts//$f: $(wc -l < "$tmp/$f.br") branches"
}

record u
# The most frequent branch is the loop's; 999 times, 3 bytes backwards.
sort "$tmp/u.br" | uniq -c | sort -rn | head -3 > "$tmp/u.top"
sed 's/^/  /' "$tmp/u.top"
read -r n from to < "$tmp/u.top"
# Nothing recorded: no addresses to compute with (dash stops at an
# arithmetic error with status 2, which perf test would call a skip).
[ -n "$to" ] || { echo "FAIL: //u: no branch recorded"; exit 1; }
back=$(( 0x$from - 0x$to ))
if [ "$n" != 999 ] || [ "$back" != 3 ]; then
	echo "FAIL: //u: the loop's branch $n times, $back bytes back (want 999, 3)"
	fail=1
fi
k=$(awk "$bts_kernel_awk"' kernel($1) { n++ } END { print n + 0 }' "$tmp/u.br")
sys=$(awk "$bts_kernel_awk"' !kernel($1) && kernel($2) { n++ } END { print n + 0 }' "$tmp/u.br")
echo "//u: $k records from the kernel, $sys from user space into the kernel"
[ "$k" = 0 ] || { echo "FAIL: //u recorded branches of the kernel"; fail=1; }
# The last record is the exit system call's: from loop + 12 (the syscall
# after the loop) into the kernel.
last=$(tail -n 1 "$tmp/u.br")
echo "//u: last record: $last"
echo "$last" | awk -v sc="$(printf '%x' $((0x$to + 12)))" "$bts_kernel_awk"'
	$1 == sc && kernel($2) { ok = 1 } END { exit !ok }' ||
	{ echo "FAIL: //u: the last record is not the exit system call's"; fail=1; }

# A //k trace holds whatever the kernel does while the task runs, the
# softirqs that land on it included: 0.17 to 3.5 million branches in five
# runs of the x86_64:pmu guest (4 to 83 MB, decoded in 5 to 69 s; once past
# this test's 300 s in make check). perf record stops at 8 MB, which ends
# the trace wherever it is; it still laps the AUX area.
record k --max-size=8M
u=$(awk "$bts_kernel_awk"' !kernel($1) { n++ } END { print n + 0 }' "$tmp/k.br")
echo "//k: $u records from user space"
[ -s "$tmp/k.br" ] || { echo "FAIL: //k recorded nothing"; fail=1; }
if [ "$u" != 0 ]; then
	awk "$bts_kernel_awk"' !kernel($1) { print "  record " NR ": " $0 " (after " prev ")" }
		{ prev = $0 }' "$tmp/k.br" | head -n 8
	perf report -D --no-itrace -i "$tmp/k.data" 2> /dev/null |
		grep -E 'PERF_RECORD_(AUX |LOST|ITRACE)' | head -n 20 | sed 's/^/  /'
	echo "FAIL: //k recorded branches of user space"
	fail=1
fi
exit $fail
