#!/bin/sh
# aux_test pause/resume by a kprobe and by a counter with two periods
# SPDX-License-Identifier: GPL-2.0
#
# The trigger examples of perf-aux-test.txt, run and checked on aux_test:
#  - a kprobe and a kretprobe on vfs_read: one window per vfs_read call of
#    the workload (the shell's read builtin reads a byte per call), counted
#    by the probes' own samples;
#  - cpu-clock with two periods, resume every 100 ms of CPU time, pause
#    every 9.7 ms: every resume finds the trace paused (the pause period is
#    shorter), so each resume sample opens one window, each window is
#    closed by a pause, and most pause samples find the trace paused
#    already and write nothing.
# The probes are made in tracefs, so that the test needs no perf probe.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
tfs=/sys/kernel/tracing
[ -f $tfs/kprobe_events ] || tfs=/sys/kernel/debug/tracing
[ -f $tfs/kprobe_events ] || { echo "Skip: no kprobe_events in tracefs"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-trig.XXXXXX)
cleanup() {
	echo "-:auxtest/vfs_read_ret" >> $tfs/kprobe_events 2>/dev/null
	echo "-:auxtest/vfs_read" >> $tfs/kprobe_events 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0

# script DATA: perf script to $tmp/out, the summary to $tmp/err
script() {
	perf script -i "$1" > "$tmp/out" 2> "$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL: perf script"; exit 1; }
	grep '^aux_test: ' "$tmp/err"
	grep -q 'unexplained gaps: 0; bad records: 0$' "$tmp/err" ||
		{ echo "FAIL: bad stream"; fail=1; }
}

# windows: "N OPEN" from the window summary
windows() {
	sed -n 's/^aux_test: windows: \([0-9]*\) (\([0-9]*\) open.*/\1 \2/p' "$tmp/err"
}

# The kprobe pair.
echo "p:auxtest/vfs_read vfs_read" >> $tfs/kprobe_events &&
echo "r:auxtest/vfs_read_ret vfs_read" >> $tfs/kprobe_events ||
	{ echo "Skip: cannot make a kprobe on vfs_read"; exit 2; }
perf record -q -o "$tmp/kp.data" \
	-e aux_test/period=10000,burst=2,aux-action=start-paused/ \
	-e auxtest:vfs_read/aux-action=resume/ \
	-e auxtest:vfs_read_ret/aux-action=pause/ -- sh -c 'read l < /proc/version' \
	> /dev/null 2> "$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; echo "FAIL: perf record (kprobe)"; exit 1; }
script "$tmp/kp.data"
calls=$(grep -c ' auxtest:vfs_read:' "$tmp/out")
rets=$(grep -c ' auxtest:vfs_read_ret:' "$tmp/out")
resumes=$(grep -c ' aux-test: *RESUME ' "$tmp/out")
echo "kprobe: $calls vfs_read calls, $rets returns, $resumes RESUME records; windows: $(windows)"
[ "$calls" -ge 2 ] || { echo "FAIL: $calls vfs_read calls for a read of /proc/version"; fail=1; }
[ "$resumes" = "$calls" ] || { echo "FAIL: $resumes windows for $calls calls"; fail=1; }
[ "$(windows)" = "$calls 0" ] || { echo "FAIL: window summary for $calls calls"; fail=1; }
grep -q 'data records: [0-9]* in windows, 0 while paused, 0 before' "$tmp/err" ||
	{ echo "FAIL: data outside the windows"; fail=1; }

# The counter with two periods.
perf record -q -o "$tmp/cc.data" \
	-e aux_test/period=1000,aux-action=start-paused/ \
	-e cpu-clock/period=100000000,aux-action=resume,name=resume/ \
	-e cpu-clock/period=9700000,aux-action=pause,name=pause/ -- \
	sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' \
	> /dev/null 2> "$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; echo "FAIL: perf record (cpu-clock)"; exit 1; }
script "$tmp/cc.data"
nres=$(grep -c ' resume: ' "$tmp/out")
npause=$(grep -c ' pause: ' "$tmp/out")
resumes=$(grep -c ' aux-test: *RESUME ' "$tmp/out")
pauses=$(grep -c ' aux-test: *PAUSE ' "$tmp/out")
set -- $(windows)
echo "cpu-clock: $nres resume and $npause pause samples;" \
     "$resumes RESUME and $pauses PAUSE records; windows: $1 ($2 open)"
[ "$nres" -ge 2 ] || { echo "FAIL: only $nres resume samples: the workload ran too short"; fail=1; }
[ "$resumes" = "$nres" ] || { echo "FAIL: $resumes windows for $nres resume samples"; fail=1; }
[ "$1" = "$nres" ] || { echo "FAIL: the summary counts $1 windows"; fail=1; }
[ "$pauses" -ge $((nres - 1)) ] && [ "$pauses" -le "$nres" ] ||
	{ echo "FAIL: $pauses PAUSE records for $nres windows"; fail=1; }
[ "$npause" -gt "$pauses" ] || { echo "FAIL: no pause found the trace paused"; fail=1; }
exit $fail
