# SPDX-License-Identifier: GPL-2.0
# Helpers of the intel_bts tests (test_intel_bts*.sh). They use the caller's
# $tmp (a directory).

# bts_require [PROGRAM]: skip (exit 2) without the intel_bts PMU or without
# PROGRAM (one of the harness's guest programs); set $prog to its path
bts_require() {
	[ -d /sys/bus/event_source/devices/intel_bts ] ||
		{ echo "Skip: no intel_bts PMU (no Intel BTS here)"; exit 2; }
	[ -z "$1" ] || prog=$(command -v "$1") || { echo "Skip: no $1 program"; exit 2; }
}

# bts_branches DATA: every branch record of DATA as "FROM TO", in hex
bts_branches() {
	perf script --itrace=b -i "$1" -F ip,addr 2> /dev/null |
		awk '$2 == "=>" { print $1, $3; next } NF == 2 { print $1, $2 }'
}

# bts_top BRANCHES: the most frequent branch of a file of "FROM TO" lines,
# as "COUNT FROM TO" (a loop's, in insn-loop and branch-loop:
# harness/guests/programs/insn-loop.S, the jnz at loop + 3 back to loop)
bts_top() {
	sort "$1" | uniq -c | sort -rn | head -n 1
}

# awk: kernel(ADDR), a kernel address (the upper half)
bts_kernel_awk='function kernel(a) { return length(a) == 16 && a ~ /^f/ }'
