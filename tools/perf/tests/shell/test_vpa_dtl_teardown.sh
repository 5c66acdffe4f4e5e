#!/bin/sh
# vpa_dtl recording through CPU offline and a killed perf record
# SPDX-License-Identifier: GPL-2.0
#
# While perf record -a records vpa_dtl, CPU 1 goes offline and comes
# back, then perf record is killed: each CPU's DTL must be back with its
# owner before (the kernel's accounting), and the DTL lock free again
# (debugfs dtl opens).

. "$(dirname "$0")"/lib/vpa_dtl.sh
vpa_dtl_require
inj=$vpa_dtl_inj
[ -w /sys/devices/system/cpu/cpu1/online ] || { echo "Skip: cpu1 cannot go offline"; exit 2; }
tmp=$(mktemp -d /tmp/perf-vpa-dtl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
owner() { sed 's/ idx=.*//' $inj/cpu-$1; }

before0=$(owner 0) before1=$(owner 1)
perf record -q -a -e vpa_dtl/dtl_all/ -o "$tmp/perf.data" -- sleep 60 2>"$tmp/record.err" &
pid=$!
i=0
while [ "$(owner 0)" = "$before0" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
owner 0 | grep -q '^owner=vpa_dtl mask=0x7$' || { kill -9 $pid; fail "not recording: $(owner 0)"; }
echo '1 2 0 0 0 0 0 0 0 0 10' > $inj/cpu-0 || fail "inject on cpu 0"
echo '1 2 1 0 0 0 0 0 0 0 10' > $inj/cpu-1 || fail "inject on cpu 1"
echo 0 > /sys/devices/system/cpu/cpu1/online || fail "cpu1 offline"
echo 1 > /sys/devices/system/cpu/cpu1/online || fail "cpu1 online"
[ "$(owner 1)" = "$before1" ] || fail "cpu1 after online: $(owner 1), before: $before1"
kill -9 $pid
wait $pid
[ "$(owner 0)" = "$before0" ] || fail "cpu0 after the kill: $(owner 0), before: $before0"
if [ -e /sys/kernel/debug/powerpc/dtl/cpu-0 ]; then
	exec 3< /sys/kernel/debug/powerpc/dtl/cpu-0 || fail "dtl_access_lock still held"
	exec 3<&-
fi
# And a new recording works.
perf record -q -C 0 -e vpa_dtl/dtl_all/ -o "$tmp/perf2.data" -- \
	sh -c "echo '1 2 0 0 0 0 0 0 0 0' > $inj/cpu-0" 2>"$tmp/record.err" ||
		fail "perf record after the kill"
[ "$(perf script -i "$tmp/perf2.data" -F event 2>/dev/null | grep -c vpa-dtl)" = 1 ] ||
	fail "no entry recorded after the kill"
exit 0
