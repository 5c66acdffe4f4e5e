#!/bin/sh
# intel_bts pause/resume by hardware counter overflow
# SPDX-License-Identifier: GPL-2.0
#
# perf-record.txt's counter example on intel_bts//u, with periods chosen so
# that the windows are known in advance. insn-loop (the harness's guest
# program, no libc) retires 2N + 4 user instructions, N = 10^7, and takes
# one branch every 2 instructions (its jnz). The trace starts paused;
# instructions:u resumes it every R = 2Q - 5000 instructions and pauses
# it every Q = 999983. The k-th resume (at k * R = 2kQ - 5000k) is
# followed by the pause at 2kQ and no other pause in between, so window k
# spans 5000k instructions: 2500k loop branches, k = 1..10, 137,500 in
# all, a different length each (a pause or resume lost, or one window
# missed, shows). Each window edge may be off by the PMI's skid (the
# interrupt comes some instructions after the overflow: up to one
# translation block on the QEMU model, more on silicon): SKID instructions
# per edge are allowed. Only 30 samples, so no throttling. Needs intel_bts
# and a hardware PMU that counts instructions (skips without them).

. "$(dirname "$0")"/lib/intel_bts.sh
bts_require insn-loop
perf stat -x, -e instructions:u true 2>&1 | grep -q '^[0-9][0-9]*,' ||
	{ echo "Skip: no hardware PMU counts instructions here"; exit 2; }
tmp=$(mktemp -d /tmp/perf-intel-bts-counter.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=10000000 q=999983 skid=128
r=$((2 * q - 5000))

perf record -q --per-thread -m ,8M -o "$tmp/perf.data" \
	-e intel_bts/aux-action=start-paused/u \
	-e instructions/period=$r,aux-action=resume,name=resume/u \
	-e instructions/period=$q,aux-action=pause,name=pause/u -- "$prog" \
	> /dev/null 2> "$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; echo "FAIL: perf record"; exit 1; }
perf script --no-itrace -F event -i "$tmp/perf.data" > "$tmp/samples" 2> /dev/null
nres=$(grep -c '^ *resume:' "$tmp/samples")
npause=$(grep -c '^ *pause:' "$tmp/samples")
bts_branches "$tmp/perf.data" > "$tmp/br"
read -r loops from to <<EOT
$(bts_top "$tmp/br")
EOT

# the windows the periods give: resumes at k * r, k = 1..K, each paused at
# the next multiple of q; one loop branch every 2 instructions
k=1 want=0 windows=0
while [ $((k * r)) -le $((2 * n + 4)) ]; do
	start=$((k * r))
	end=$(( (start / q + 1) * q ))
	want=$((want + (end - start) / 2))
	windows=$((windows + 1))
	k=$((k + 1))
done
slack=$((windows * skid))
echo "$nres resume and $npause pause samples; loop branches: ${loops:-0}" \
	"(want $want +- $slack, from $windows windows); all branches: $(wc -l < "$tmp/br")"
[ "$nres" = "$windows" ] ||
	{ echo "FAIL: $nres resume samples, want $windows"; fail=1; }
[ "$npause" -ge "$windows" ] ||
	{ echo "FAIL: $npause pause samples for $windows windows"; fail=1; }
[ "${loops:-0}" -ge $((want - slack)) ] && [ "${loops:-0}" -le $((want + slack)) ] ||
	{ echo "FAIL: ${loops:-0} loop branches in the windows, want $want +- $slack"; fail=1; }
[ -n "$from" ] && [ $((0x$from - 0x$to)) = 3 ] ||
	{ echo "FAIL: the most frequent branch is not insn-loop's jnz ($from -> $to)"; fail=1; }
exit $fail
