#!/bin/sh
# aux_test record and script round trip
# SPDX-License-Identifier: GPL-2.0
#
# Records the software AUX PMU with perf record, decodes it with perf
# script, and checks that every record arrived: as many aux-test samples
# as records counted, in sequence, no gap and nothing unexplained.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

perf record -q -o "$tmp/perf.data" -e aux_test/period=500,burst=4/ -- \
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' 2>"$tmp/record.err" || {
	cat "$tmp/record.err"; echo "FAIL: perf record"; exit 1; }
perf script -i "$tmp/perf.data" > "$tmp/script.out" 2>"$tmp/script.err" || {
	cat "$tmp/script.err"; echo "FAIL: perf script"; exit 1; }

summary=$(grep '^aux_test: ' "$tmp/script.err")
echo "$summary"
# stdout is the samples only, for a pipe; the summary goes to stderr.
grep -q '^aux_test: ' "$tmp/script.out" && { echo "FAIL: the summary is on stdout"; exit 1; }
records=$(echo "$summary" | sed -n 's/^aux_test: \([0-9]*\) records.*/\1/p')
samples=$(grep -c ' aux-test: ' "$tmp/script.out")
[ -n "$records" ] && [ "$records" -gt 10 ] || { echo "FAIL: too few records: '$records'"; exit 1; }
[ "$samples" = "$records" ] || { echo "FAIL: $samples samples for $records records"; exit 1; }
echo "$summary" | grep -q '; 0 gaps, 0 records lost' || { echo "FAIL: records lost"; exit 1; }
echo "$summary" | grep -q 'unexplained gaps: 0; bad records: 0$' ||
	{ echo "FAIL: bad stream"; exit 1; }
grep -q 'START  seq        0 ' "$tmp/script.out" || { echo "FAIL: no START record"; exit 1; }

# perf report -D dumps the same records, from the raw AUX buffers.
perf report -D -i "$tmp/perf.data" > "$tmp/dump.out" 2>&1 ||
	{ echo "FAIL: perf report -D"; exit 1; }
dumped=$(grep -c '^\.  *\(DATA\|START\) seq ' "$tmp/dump.out")
[ "$dumped" = "$records" ] ||
	{ echo "FAIL: perf report -D shows $dumped records of $records"; exit 1; }
exit 0
