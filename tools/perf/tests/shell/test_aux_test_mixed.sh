#!/bin/sh
# aux_test with another AUX area PMU in one session is refused
# SPDX-License-Identifier: GPL-2.0
#
# perf record registers aux_test before the architecture's own AUX area
# tracers; a session has one, because the kernel does not let the AUX
# events of two PMUs share a ring buffer. aux_test together with one of
# them must be refused with a message naming both, before any event is
# opened, and the other PMU must still record on its own.

devices=/sys/bus/event_source/devices
[ -d $devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
other=
for p in intel_pt intel_bts cs_etm vpa_dtl; do
	[ -d $devices/$p ] && { other=$p; break; }
done
[ -n "$other" ] || { echo "Skip: no other AUX area PMU here"; exit 2; }
ev=$other//
opt=
# vpa_dtl records per CPU only, and config 0 is no event of it
[ $other = vpa_dtl ] && { ev=vpa_dtl/dtl_all/; opt=-a; }
tmp=$(mktemp -d /tmp/perf-aux-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for order in "aux_test// $ev" "$ev aux_test//"; do
	set -- $order
	# no -q: it would silence the message too
	if perf record $opt -o "$tmp/perf.data" -e "$1" -e "$2" -- true \
		2>"$tmp/err"; then
		echo "FAIL: -e $1 -e $2 was recorded"; exit 1
	fi
	cat "$tmp/err"
	grep -q "aux_test and $other may not be used together" "$tmp/err" || {
		echo "FAIL: -e $1 -e $2: no refusal naming both"; exit 1; }
done
perf record -q $opt -o "$tmp/perf.data" -e $ev -- true 2>"$tmp/err" || {
	cat "$tmp/err"; echo "FAIL: $other alone"; exit 1; }
echo "aux_test with $other: refused; $other alone: recorded"
