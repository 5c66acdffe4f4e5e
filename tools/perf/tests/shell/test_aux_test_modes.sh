#!/bin/sh
# aux_test recording modes: -C, -p and snapshot -S
# SPDX-License-Identifier: GPL-2.0
#
# The other ways of recording the software AUX PMU: one CPU (-C), an
# existing process (-p) and snapshot mode (-S, the AUX area overwritten,
# a snapshot taken at the end). Each must decode with records and no
# unexplained gap; snapshots may only lose data to overwriting.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-test.XXXXXX)
busy=
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT

check() {
	perf script -i "$tmp/perf.data" > "$tmp/script.out" 2>"$tmp/script.err" || {
		cat "$tmp/script.err"; echo "FAIL: $1: perf script"; exit 1; }
	summary=$(grep '^aux_test: ' "$tmp/script.err")
	echo "$1: $summary"
	records=$(echo "$summary" | sed -n 's/^aux_test: \([0-9]*\) records.*/\1/p')
	[ "${records:-0}" -gt 0 ] || { echo "FAIL: $1: no records"; exit 1; }
	echo "$summary" | grep -q 'unexplained gaps: 0; bad records: 0$' || {
		echo "FAIL: $1: unexplained loss"; exit 1; }
	echo "$summary" | grep -q "$2" || { echo "FAIL: $1: expected '$2'"; exit 1; }
}

perf record -q -C 0 -o "$tmp/perf.data" -e aux_test/period=500/ -- sleep 0.2 \
	2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL: -C 0"; exit 1; }
check "-C 0" "; 0 gaps, 0 records lost"
grep ' aux-test: ' "$tmp/script.out" | grep -v '\[000\]' | head -n 1 | grep -q . &&
	{ echo "FAIL: -C 0: a record from another CPU"; exit 1; }

sh -c 'while :; do :; done' &
busy=$!
perf record -q -p $busy -o "$tmp/perf.data" -e aux_test/period=500/ -- sleep 0.3 \
	2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL: -p"; exit 1; }
# Not left spinning through the checks: it would slow every step after.
kill $busy
wait $busy 2>/dev/null
pid=$busy busy=
check "-p" "; 0 gaps, 0 records lost"
grep ' aux-test: ' "$tmp/script.out" | grep -v "^ *sh *$pid " | head -n 1 | grep -q . &&
	{ echo "FAIL: -p: a record of another task"; exit 1; }

perf record -q -Se -m ,8K -C 0 -o "$tmp/perf.data" -e aux_test/period=100,burst=64/ -- \
	sleep 0.3 2>"$tmp/err" || { cat "$tmp/err"; echo "FAIL: -S"; exit 1; }
check "-S" "overwrite [1-9]"
exit 0
