#!/bin/sh
# vpa_dtl entries interleave with sched_switch, with their task
# SPDX-License-Identifier: GPL-2.0
#
# perf record -a -e sched:sched_switch -e vpa_dtl/dtl_all/ while the
# hypervisor stand-in logs entries at the current timebase on each CPU:
# perf script shows every event in time order, the vpa-dtl samples among
# the sched_switch ones (not after them all), and with the task that ran
# on their CPU (the sched_switch and context-switch events say which).

. "$(dirname "$0")"/lib/vpa_dtl.sh
vpa_dtl_require
[ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
	[ -d /sys/kernel/debug/tracing/events/sched/sched_switch ] ||
	{ echo "Skip: no sched:sched_switch tracepoint"; exit 2; }
tmp=$(mktemp -d /tmp/perf-vpa-dtl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cpus=$(vpa_dtl_cpus)
cat > "$tmp/work.sh" <<EOS
i=0
while [ \$i -lt 5 ]; do
	for c in $cpus; do echo '3 2 0 1 2 3 0 0 0 0' > $vpa_dtl_inj/cpu-\$c || exit 1; done
	sleep 0.05
	i=\$((i + 1))
done
EOS
perf record -q -a -e sched:sched_switch -e vpa_dtl/dtl_all/ -o "$tmp/perf.data" -- \
	sh "$tmp/work.sh" 2>"$tmp/record.err" || { cat "$tmp/record.err"; fail "perf record"; }
perf script -i "$tmp/perf.data" --ns > "$tmp/script.out" 2>"$tmp/script.err" ||
	{ cat "$tmp/script.err"; fail "perf script"; }

n=$(vpa_dtl_entries "$tmp/script.out" | wc -l)
want=$((5 * $(echo $cpus | wc -w)))
[ "$n" = "$want" ] || fail "$n vpa-dtl samples, $want injected"
# Every event line: [CPU] TIME: EVENT. Times never go back.
sed -n 's/.*\[[0-9]*\] *\([0-9]*\.[0-9]*\): *\([a-z_:-]*\):.*/\1 \2/p' "$tmp/script.out" \
	> "$tmp/events"
awk '$1 < last { print "back in time at line " NR ": " last " then " $1; bad = 1 }
	{ last = $1 } END { exit bad }' "$tmp/events" || fail "events not in time order"
# Interleaved: a sched_switch comes after the first vpa-dtl sample.
awk '$2 == "vpa-dtl:" || $2 == "vpa-dtl" { seen = 1 }
	seen && $2 ~ /^sched:sched_switch/ { found = 1 } END { exit !found }' "$tmp/events" ||
	{ head -50 "$tmp/script.out"; fail "vpa-dtl samples not among the sched_switch ones"; }
# The task: known for the samples (the stand-in runs in a task on each CPU).
grep ' vpa-dtl: ' "$tmp/script.out" | grep -v '^ *:-1 *-1 ' > "$tmp/known"
[ -s "$tmp/known" ] ||
	{ grep ' vpa-dtl: ' "$tmp/script.out"; fail "no vpa-dtl sample has its task"; }
exit 0
