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
. "$(dirname "$0")"/lib/aux_pause.sh

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
aux_pause_script "$tmp/kp.data"
calls=$(grep -c ' auxtest:vfs_read:' "$tmp/out")
rets=$(grep -c ' auxtest:vfs_read_ret:' "$tmp/out")
resumes=$(grep -c ' aux-test: *RESUME ' "$tmp/out")
echo "kprobe: $calls vfs_read calls, $rets returns, $resumes RESUME records;" \
     "windows: $(aux_pause_windows)"
[ "$calls" -ge 2 ] || { echo "FAIL: $calls vfs_read calls for a read of /proc/version"; fail=1; }
[ "$resumes" = "$calls" ] || { echo "FAIL: $resumes windows for $calls calls"; fail=1; }
[ "$(aux_pause_windows)" = "$calls 0" ] || { echo "FAIL: window summary for $calls calls"; fail=1; }
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
aux_pause_script "$tmp/cc.data"
aux_pause_check_periods cpu-clock
exit $fail
