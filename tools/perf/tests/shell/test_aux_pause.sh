#!/bin/sh
# aux_test pause/resume: one window per uname call
# SPDX-License-Identifier: GPL-2.0
#
# The uname example of AUX area pause/resume on the software AUX PMU:
# aux_test starts paused, sys_enter_newuname resumes it and
# sys_exit_newuname pauses it again. perf script must show exactly one
# window (a RESUME record, data, a PAUSE record) per newuname call, counted
# by the tracepoint samples themselves, and no data outside the windows.
# The window summary (on stderr, stdout keeps only samples) counts the
# same windows, each with its RESUME, three DATA and PAUSE records.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
tp=/sys/kernel/tracing/events/syscalls/sys_enter_newuname
[ -d $tp ] || tp=/sys/kernel/debug/tracing/events/syscalls/sys_enter_newuname
[ -d $tp ] || { echo "Skip: no syscalls:sys_enter_newuname tracepoint"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-pause.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

perf record -q -o "$tmp/perf.data" \
	-e aux_test/period=10000,burst=3,aux-action=start-paused/ \
	-e syscalls:sys_enter_newuname/aux-action=resume/ \
	-e syscalls:sys_exit_newuname/aux-action=pause/ -- \
	sh -c 'for i in 1 2 3 4 5; do uname > /dev/null; done' \
	2>"$tmp/record.err" || { cat "$tmp/record.err"; echo "FAIL: perf record"; exit 1; }
perf script -i "$tmp/perf.data" > "$tmp/script.out" 2>"$tmp/script.err" || {
	cat "$tmp/script.err"; echo "FAIL: perf script"; exit 1; }

grep '^aux_test: ' "$tmp/script.err"
grep -q '^aux_test: ' "$tmp/script.out" && { echo "FAIL: the summary is on stdout"; exit 1; }
calls=$(grep -c 'syscalls:sys_enter_newuname:' "$tmp/script.out")
exits=$(grep -c 'syscalls:sys_exit_newuname:' "$tmp/script.out")
windows=$(grep -c ' aux-test: *RESUME ' "$tmp/script.out")
closes=$(grep -c ' aux-test: *PAUSE ' "$tmp/script.out")
line=$(grep '^aux_test: pause/resume: ' "$tmp/script.err")
inside=$(echo "$line" | sed -n 's/.*data records: \([0-9]*\) in windows.*/\1/p')
paused=$(echo "$line" | sed -n 's/.* \([0-9]*\) while paused.*/\1/p')
before=$(echo "$line" | sed -n 's/.* \([0-9]*\) before the first.*/\1/p')
echo "newuname calls: $calls (exits $exits); windows: $windows opened, $closes closed;" \
     "data records: $inside inside, $paused outside, $before before the first window"

[ "$calls" -ge 5 ] || { echo "FAIL: $calls newuname samples for 5 uname runs"; exit 1; }
[ "$windows" = "$calls" ] || { echo "FAIL: $windows windows for $calls calls"; exit 1; }
[ "$closes" = "$exits" ] || { echo "FAIL: $closes pauses for $exits exits"; exit 1; }
[ "$paused" = 0 ] && [ "$before" = 0 ] || { echo "FAIL: data outside the windows"; exit 1; }
[ "$inside" -ge $((3 * calls)) ] || { echo "FAIL: $inside records in $calls windows of 3"; exit 1; }
grep -q 'unexplained gaps: 0; bad records: 0$' "$tmp/script.err" ||
	{ echo "FAIL: bad stream"; exit 1; }
win=$(grep '^aux_test: windows: ' "$tmp/script.err")
nwin=$(echo "$win" | sed -n 's/^aux_test: windows: \([0-9]*\) (\([0-9]*\) open.*/\1 \2/p')
minb=$(echo "$win" | sed -n 's/.*; bytes min \([0-9]*\) median.*/\1/p')
[ "$nwin" = "$windows 0" ] || { echo "FAIL: window summary '$win' for $windows windows"; exit 1; }
[ "$minb" -ge 160 ] || { echo "FAIL: a window of $minb bytes, less than 5 records"; exit 1; }
echo "$win" | grep -q 'records lost in windows: 0$' || { echo "FAIL: loss in a window"; exit 1; }

# -vv shows the bits in perf_event_attr.
perf record -vv -o "$tmp/vv.data" -e aux_test/aux-action=start-paused/ \
	-e syscalls:sys_enter_newuname/aux-action=resume/ -- true > "$tmp/vv.out" 2>&1
grep -q 'aux_start_paused *1' "$tmp/vv.out" ||
	{ echo "FAIL: -vv does not show aux_start_paused"; exit 1; }
grep -q 'aux_resume *1' "$tmp/vv.out" || { echo "FAIL: -vv does not show aux_resume"; exit 1; }
exit 0
