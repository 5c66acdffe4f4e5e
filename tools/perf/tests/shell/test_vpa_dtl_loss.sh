#!/bin/sh
# vpa_dtl entries overwritten before a poll are reported lost
# SPDX-License-Identifier: GPL-2.0
#
# The hypervisor stand-in writes 100 entries at once into the 85-entry
# DTL of CPU 0: the oldest 15 are overwritten before the PMU can read
# them. The kernel reports them with a PERF_RECORD_LOST_SAMPLES, and perf
# script says so with an error event (--itrace=e, on by default), then
# shows the 85 others; without 'e' in --itrace it does not.

. "$(dirname "$0")"/lib/vpa_dtl.sh
vpa_dtl_require
tmp=$(mktemp -d /tmp/perf-vpa-dtl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

perf record -q -C 0 -e vpa_dtl/dtl_preempt/ -o "$tmp/perf.data" -- \
	sh -c "echo '7 4 0 1 2 3 1000 0 0 0 100' > $vpa_dtl_inj/cpu-0 && sleep 0.1" \
	2>"$tmp/record.err" || { cat "$tmp/record.err"; fail "perf record"; }
perf script -i "$tmp/perf.data" --vpa-dtl-summary > "$tmp/script.out" \
	2>"$tmp/script.err" || { cat "$tmp/script.err"; fail "perf script"; }
grep -q ' error type 1 .* cpu 0 .* code 1: vpa_dtl: 15 entries lost$' "$tmp/script.out" || {
	cat "$tmp/script.out"; fail "no 'vpa_dtl: 15 entries lost' error event"; }
vpa_dtl_entries "$tmp/script.out" > "$tmp/entries"
n=$(wc -l < "$tmp/entries")
[ "$n" = 85 ] || { cat "$tmp/script.out"; fail "$n entries shown, 85 expected"; }
# The kernel flagged the PERF_RECORD_AUX of the poll that found the loss.
grep -q 'AUX data had gaps in it' "$tmp/script.err" || {
	cat "$tmp/script.err"; fail "no PARTIAL flag"; }
first=$(head -n 1 "$tmp/entries" | sed 's/.*timebase: \([0-9]*\) .*/\1/')
[ "$first" = 1015 ] || fail "the first entry after the loss is $first, 1015 expected"
grep -q '^vpa-dtl summary: cpu 0: 85 dispatches, 15 lost' "$tmp/script.out" || {
	cat "$tmp/script.out"; fail "summary"; }

# Without 'e' in --itrace: the entries, no error event.
perf script -i "$tmp/perf.data" --itrace=i > "$tmp/noerr.out" 2>/dev/null ||
	fail "perf script --itrace=i"
grep -q 'entries lost' "$tmp/noerr.out" && fail "--itrace without e still reports the loss"
[ "$(vpa_dtl_entries "$tmp/noerr.out" | wc -l)" = 85 ] || fail "--itrace=i: entries missing"
exit 0
