#!/bin/sh
# vpa_dtl entries overwritten before a poll are reported lost
# SPDX-License-Identifier: GPL-2.0
#
# The hypervisor stand-in writes 100 entries at once into the 85-entry
# DTL of CPU 0: the oldest 15 are overwritten before the PMU can read
# them, and perf script must say so, then show the 85 others.

pmu=/sys/bus/event_source/devices/vpa_dtl
inj=/sys/kernel/debug/powerpc/vpa_dtl_inject
[ -d $pmu ] ||
	{ echo "Skip: no vpa_dtl PMU (pseries shared-processor LPAR, CONFIG_VPA_DTL)"; exit 2; }
[ -w $inj/cpu-0 ] ||
	{ echo "Skip: no hypervisor stand-in (CONFIG_VPA_DTL_INJECT) to write entries"; exit 2; }
tmp=$(mktemp -d /tmp/perf-vpa-dtl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

perf record -q -C 0 -e vpa_dtl/dtl_preempt/ -o "$tmp/perf.data" -- \
	sh -c "echo '7 4 0 1 2 3 1000 0 0 0 100' > $inj/cpu-0 && sleep 0.1" 2>"$tmp/record.err" || {
	cat "$tmp/record.err"; fail "perf record"; }
perf script -i "$tmp/perf.data" -F cpu,event,synth --vpa-dtl-summary > "$tmp/script.out" \
	2>"$tmp/script.err" || { cat "$tmp/script.err"; fail "perf script"; }
grep -q 'vpa-dtl: *lost 15 entries' "$tmp/script.out" || {
	cat "$tmp/script.out"; fail "no 'lost 15 entries'"; }
n=$(grep -c 'vpa-dtl: *timebase: ' "$tmp/script.out")
[ "$n" = 85 ] || { cat "$tmp/script.out"; fail "$n entries shown, 85 expected"; }
# The kernel flagged the PERF_RECORD_AUX of the data after the loss PARTIAL.
grep -q 'AUX data had gaps in it' "$tmp/script.err" || {
	cat "$tmp/script.err"; fail "no PARTIAL flag"; }
first=$(grep -m1 'vpa-dtl: *timebase: ' "$tmp/script.out" | sed 's/.*timebase: \([0-9]*\).*/\1/')
[ "$first" = 1015 ] || fail "the first entry after the loss is $first, 1015 expected"
grep -q '^vpa-dtl summary: cpu 0: 85 dispatches, 15 lost' "$tmp/script.out" || {
	cat "$tmp/script.out"; fail "summary"; }
exit 0
