#!/bin/sh
# mem:SYMBOL breakpoints count what mem:ADDR counts
# SPDX-License-Identifier: GPL-2.0
#
# The workload writes kernel.perf_event_mlock_kb (its current value) N
# times: each write stores sysctl_perf_event_mlock once (proc_dointvec).
# A write breakpoint on the symbol and one on its kallsyms address must
# both count N; perf record on the symbol must record N samples.

. "$(dirname "$0")"/lib/bp_symbol.sh

kallsyms_visible || { echo "Skip: /proc/kallsyms shows no addresses"; exit 2; }
ctl=/proc/sys/kernel/perf_event_mlock_kb
[ -w $ctl ] || { echo "Skip: $ctl is not writable"; exit 2; }
tmp=$(mktemp -d /tmp/perf-bp-symbol.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

why=$(bp_unavailable "$tmp/probe.err") && {
	echo "Skip: no hardware breakpoint can be created here: $why"; exit 2; }

n=7
addr=$(hex "$(ksym_addrs sysctl_perf_event_mlock)")
work="v=\$(cat $ctl); i=0; while [ \$i -lt $n ]; do echo \$v > $ctl; i=\$((i + 1)); done"

# One run each: with both events in one run, QEMU 7.2 TCG (x86_64)
# counted every write on one breakpoint and none on the other.
for ev in mem:sysctl_perf_event_mlock/4:w "mem:$addr/4:w"; do
	perf stat -x, -o "$tmp/stat.csv" -e "$ev" -- sh -c "$work" 2> "$tmp/stat.err" ||
		{ cat "$tmp/stat.err"; echo "FAIL: perf stat -e $ev"; exit 1; }
	grep -v '^#' "$tmp/stat.csv" | grep .
	count=$(grep 'mem:' "$tmp/stat.csv" | cut -d, -f1)
	case $ev in mem:0x*) num=$count ;; *) sym=$count ;; esac
done
if [ "$sym" = 0 ] && [ "$num" = 0 ]; then
	echo "Skip: the emulated CPU accepts the breakpoint but never triggers it"
	exit 2
fi
[ "$sym" = "$n" ] && [ "$num" = "$n" ] || {
	echo "FAIL: $n writes: mem:sysctl_perf_event_mlock counted '$sym', mem:$addr '$num'"
	exit 1
}
echo "ok: $n writes, counted $sym by mem:sysctl_perf_event_mlock/4:w and $num by mem:$addr/4:w"

perf record -q -o "$tmp/perf.data" -e mem:sysctl_perf_event_mlock/4:w -- sh -c "$work" \
	2> "$tmp/record.err" || { cat "$tmp/record.err"; echo "FAIL: perf record"; exit 1; }
samples=$(perf script -i "$tmp/perf.data" -F event 2>/dev/null |
	grep -c 'mem:sysctl_perf_event_mlock')
[ "$samples" = "$n" ] || { echo "FAIL: perf record: $samples samples for $n writes"; exit 1; }
echo "ok: perf record -e mem:sysctl_perf_event_mlock/4:w: $samples samples"
exit 0
