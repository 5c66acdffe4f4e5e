#!/bin/sh
# vpa_dtl record and script round trip
# SPDX-License-Identifier: GPL-2.0
#
# perf list shows the four vpa_dtl events; perf record -a -e
# vpa_dtl/dtl_all/ records entries that the hypervisor stand-in writes
# on each CPU, and perf script prints exactly those, in time order across
# the CPUs, in upstream perf's two-line text, with their reasons by name
# (unknown(N) out of the tables), their times on perf's clock, srr0
# symbolized; --vpa-dtl-summary counts them; perf report -D dumps them.

. "$(dirname "$0")"/lib/vpa_dtl.sh
vpa_dtl_require
tmp=$(mktemp -d /tmp/perf-vpa-dtl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

n=$(perf list vpa_dtl 2>/dev/null | grep -c 'vpa_dtl/dtl_\(cede\|preempt\|fault\|all\)/')
[ "$n" = 4 ] || { perf list vpa_dtl; fail "perf list vpa_dtl shows $n of the 4 events"; }

vpa_dtl_timebase || fail "no timebase frequency"
sym=schedule
srr0=$(awk -v s=$sym '$3 == s { print $1; exit }' /proc/kallsyms)
[ -n "$srr0" ] || fail "no $sym in /proc/kallsyms"

# Per CPU c, entry k: at (c + 1) + k / 1000 s on perf's clock. The third
# entry's reasons are out of the tables.
cpus=$(vpa_dtl_cpus)
fmt='%d timebase: %s dispatch_reason:%s, preempt_reason:%s,'
fmt="$fmt"' enqueue_to_dispatch_time:%d, ready_to_enqueue_time:%d,'
fmt="$fmt"'waiting_to_ready_time:%d, processor_id: %d\n'
: > "$tmp/expected"
: > "$tmp/expected-times"
for c in $cpus; do
	: > "$tmp/inject-$c"
	for k in 0 1 2; do
		tb=$((boot_tb + (c + 1) * tb_freq + k * (tb_freq / 1000)))
		case $k in
		0) d=3; p=2; dn=decrementer_interrupt; pn=H_CEDE ;;
		1) d=10; p=9; dn=priv_doorbell; pn=HDEC_adjunct ;;
		2) d=200; p=12; dn='unknown(200)'; pn='unknown(12)' ;;
		esac
		echo "$d $p $((c + 4)) $((100 + k)) $((200 + k)) $((300 + k)) $tb 0 0x$srr0 0" \
			>> "$tmp/inject-$c"
		printf "$fmt" "$c" "$tb" "$dn" "$pn" \
			$((100 + k)) $((200 + k)) $((300 + k)) $((c + 4)) >> "$tmp/expected"
		printf '%d %d.%03d000\n' "$c" $((c + 1)) "$k" >> "$tmp/expected-times"
	done
done

cat > "$tmp/work.sh" <<EOS
for c in $cpus; do cat "$tmp/inject-\$c" > $vpa_dtl_inj/cpu-\$c || exit 1; done
sleep 0.1
EOS
perf record -q -a -e vpa_dtl/dtl_all/ -o "$tmp/perf.data" -- sh "$tmp/work.sh" \
	2>"$tmp/record.err" || {
	cat "$tmp/record.err"; fail "perf record"; }
perf script -i "$tmp/perf.data" > "$tmp/script.out" 2>"$tmp/script.err" || {
	cat "$tmp/script.err"; fail "perf script"; }
vpa_dtl_entries "$tmp/script.out" > "$tmp/actual"
if ! cmp -s "$tmp/expected" "$tmp/actual"; then
	echo "expected:"; cat "$tmp/expected"; echo "perf script:"; cat "$tmp/script.out"
	fail "perf script does not show exactly the injected entries, in time order"
fi
sed -n 's/.*\[\([0-9]*\)\] *\([0-9.]*\): *vpa-dtl: .*/\1 \2/p' "$tmp/script.out" |
	awk '{ print $1 + 0, $2 }' > "$tmp/times"
cmp -s "$tmp/expected-times" "$tmp/times" || {
	paste "$tmp/expected-times" "$tmp/times"; fail "entry times on perf's clock"; }
n=$(grep -c "processor_id: [0-9]* .* $sym" "$tmp/script.out")
[ "$n" = "$(wc -l < "$tmp/expected")" ] || {
	cat "$tmp/script.out"; fail "srr0 not symbolized as $sym"; }
grep -q 'lost' "$tmp/script.out" && fail "entries reported lost"
# Without -F or -c, perf record polls every 10 ms, not every 1 ms (the
# minimum that perf's default frequency would give).
perf evlist -v -i "$tmp/perf.data" 2>/dev/null |
	grep -q '^vpa_dtl/dtl_all/:.* sample_period, sample_freq }: 10000000,' || {
	perf evlist -v -i "$tmp/perf.data"; fail "the poll interval is not 10 ms"; }

perf script -i "$tmp/perf.data" --vpa-dtl-summary > "$tmp/summary.out" 2>"$tmp/summary.err" ||
	fail "perf script --vpa-dtl-summary"
for c in $cpus; do
	grep -q "^vpa-dtl summary: cpu $c: 3 dispatches, 0 lost" "$tmp/summary.out" || {
		cat "$tmp/summary.out"; fail "no summary for cpu $c"; }
done
grep -q 'dispatch_reason: external_interrupt' "$tmp/summary.out" &&
	fail "summary counts a reason never seen"
grep -q '^  dispatch_reason: decrementer_interrupt 1 priv_doorbell 1 unknown 1$' \
	"$tmp/summary.out" || {
	cat "$tmp/summary.out"; fail "summary: dispatch reasons"; }
grep -q '^  enqueue_to_dispatch_time: total 303 max 102 (timebase ticks); ' "$tmp/summary.out" || {
	cat "$tmp/summary.out"; fail "summary: wait times"; }
# p50, p99 and max of one entry are its value; in us at the timebase's rate.
us=$(awk -v t="$tb_freq" 'BEGIN { printf "%.3f", 101 * 1000000 / t }')
grep -q "^    priv_doorbell  *1  101 101 101 ($us $us $us)$" "$tmp/summary.out" || {
	cat "$tmp/summary.out"; fail "summary: latency by reason (101 ticks = $us us)"; }

perf report -D -i "$tmp/perf.data" > "$tmp/dump.out" 2>&1 || fail "perf report -D"
dumped=$(grep -c '^\.  [0-9a-f]\{8\}: dispatch_reason:' "$tmp/dump.out")
[ "$dumped" = "$(wc -l < "$tmp/expected")" ] || fail "perf report -D dumps $dumped entries"
grep -q "^\.  00000000: boot_tb: $boot_tb, tb_freq: $tb_freq$" "$tmp/dump.out" ||
	fail "perf report -D: no header record"

# perf report counts the samples by symbol.
perf report -i "$tmp/perf.data" --stdio --sort sym > "$tmp/report.out" 2>&1 ||
	{ cat "$tmp/report.out"; fail "perf report"; }
grep -q "100.00%.*$sym" "$tmp/report.out" || { cat "$tmp/report.out"; fail "perf report: $sym"; }
exit 0
