#!/bin/sh
# aux_test losses are reported and explained
# SPDX-License-Identifier: GPL-2.0
#
# Overruns a small AUX area (8 KiB against 16 KiB per 100 us) and makes the
# PMU drop every 7th record: perf script must show the truncation and
# partial flags, and every sequence gap it finds must have an explanation.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

perf record -q -m ,8K -o "$tmp/perf.data" -a -e aux_test/period=100,burst=512,drop=7/ -- \
	sleep 0.2 2>"$tmp/record.err" || {
	cat "$tmp/record.err"; echo "FAIL: perf record"; exit 1; }
perf script -i "$tmp/perf.data" > "$tmp/script.out" 2>"$tmp/script.err" || {
	cat "$tmp/script.err"; echo "FAIL: perf script"; exit 1; }

summary=$(grep '^aux_test: ' "$tmp/script.err")
echo "$summary"
truncated=$(echo "$summary" | sed -n 's/.*(truncated \([0-9]*\),.*/\1/p')
partial=$(echo "$summary" | sed -n 's/.*, partial \([0-9]*\), overwrite.*/\1/p')
[ "${truncated:-0}" -gt 0 ] || { echo "FAIL: no truncated AUX record"; exit 1; }
[ "${partial:-0}" -gt 0 ] || { echo "FAIL: no partial AUX record"; exit 1; }
echo "$summary" | grep -q 'unexplained gaps: 0; bad records: 0$' ||
	{ echo "FAIL: unexplained loss"; exit 1; }
grep -q '\[gap: 1 records lost, partial\]' "$tmp/script.out" ||
	{ echo "FAIL: partial gap not shown"; exit 1; }
exit 0
