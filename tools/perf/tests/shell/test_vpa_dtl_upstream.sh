#!/bin/sh
# vpa_dtl recordings decode the same in upstream perf and in ours
# SPDX-License-Identifier: GPL-2.0
#
# Upstream perf (the guest's perf-upstream: Debian unstable's linux-perf,
# which carries upstream's vpa-dtl decoder) against ours, both ways:
#  1. a recording of ours, with entries lost on CPU 0 and entries of two
#     CPUs interleaved in time: upstream's perf script shows the same
#     entries as ours, in the same order and the same text, and does not
#     hang; perf report -D dumps the same records;
#  2. a recording of upstream's perf record (144-byte attrs, no private
#     auxtrace data): ours shows the injected entries, as upstream does.

. "$(dirname "$0")"/lib/vpa_dtl.sh
vpa_dtl_require
command -v perf-upstream > /dev/null ||
	{ echo "Skip: no upstream perf (perf-upstream) in this system"; exit 2; }
v=$(perf-upstream version 2>&1) ||
	{ echo "Skip: upstream perf does not run here: $v"; exit 2; }
echo "upstream: $v; ours: $(perf version)"
[ -w /sys/kernel/debug/powerpc/vpa_dtl_inject/cpu-1 ] ||
	{ echo "Skip: needs two CPUs"; exit 2; }
tmp=$(mktemp -d /tmp/perf-vpa-dtl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
vpa_dtl_timebase || fail "no timebase frequency"
limit=300	# seconds: longer is a hang

# CPU 0: 100 entries in one write, 1 ms apart from 1 s after boot: the
# first 15 are overwritten before the PMU reads them. CPU 1: 10 entries
# 2 ms apart from 1.0155 s, in between CPU 0's. Reasons within the tables
# (upstream's perf does not check them).
ms=$((tb_freq / 1000))
: > "$tmp/inject-0"
: > "$tmp/inject-1"
: > "$tmp/unsorted"
k=0
while [ $k -lt 100 ]; do
	tb=$((boot_tb + tb_freq + k * ms))
	echo "7 4 3 11 22 33 $tb 0 0 0" >> "$tmp/inject-0"
	[ $k -lt 15 ] ||
		echo "$tb 0 time_slice time_slice 11 22 33 3" >> "$tmp/unsorted"
	if [ $k -lt 10 ]; then
		tb=$((boot_tb + tb_freq + (15 + 2 * k) * ms + ms / 2))
		echo "3 2 5 44 55 66 $tb 0 0 0" >> "$tmp/inject-1"
		echo "$tb 1 decrementer_interrupt H_CEDE 44 55 66 5" >> "$tmp/unsorted"
	fi
	k=$((k + 1))
done
fmt='%d timebase: %s dispatch_reason:%s, preempt_reason:%s, enqueue_to_dispatch_time:%d,'
fmt="$fmt"' ready_to_enqueue_time:%d,waiting_to_ready_time:%d, processor_id: %d\n'
sort -n -k1,1 "$tmp/unsorted" |
	awk -v f="$fmt" '{ printf f, $2, $1, $3, $4, $5, $6, $7, $8 }' > "$tmp/expected"
cat > "$tmp/work.sh" <<EOS
cat "$tmp/inject-0" > $vpa_dtl_inj/cpu-0 || exit 1
cat "$tmp/inject-1" > $vpa_dtl_inj/cpu-1 || exit 1
sleep 0.1
EOS

# 1. Ours records; both decode.
perf record -q -C 0,1 -e vpa_dtl/dtl_all/ -o "$tmp/ours.data" -- sh "$tmp/work.sh" \
	2>"$tmp/record.err" || { cat "$tmp/record.err"; fail "perf record (ours)"; }
perf script -i "$tmp/ours.data" > "$tmp/ours-by-ours.out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "perf script (ours) of our recording"; }
timeout $limit perf-upstream script -i "$tmp/ours.data" > "$tmp/ours-by-up.out" 2>"$tmp/err"
rc=$?
[ $rc = 124 ] && fail "upstream perf script hangs on our recording (killed after ${limit}s)"
[ $rc = 0 ] || { cat "$tmp/err"; fail "upstream perf script of our recording: exit $rc"; }
vpa_dtl_entries "$tmp/ours-by-ours.out" > "$tmp/a"
vpa_dtl_entries "$tmp/ours-by-up.out" > "$tmp/b"
cmp -s "$tmp/expected" "$tmp/a" || {
	diff "$tmp/expected" "$tmp/a" | head -20; fail "ours: not the entries injected"; }
cmp -s "$tmp/a" "$tmp/b" || {
	diff "$tmp/a" "$tmp/b" | grep '^[-+][0-9]' | head -6
	grep -m 2 -A 1 ' vpa-dtl: ' "$tmp/ours-by-up.out"
	fail "upstream's perf script shows other entries than ours (- ours, + upstream)"; }
grep -q 'vpa_dtl: 15 entries lost' "$tmp/ours-by-ours.out" || fail "ours: no loss reported"
echo "our recording: $(wc -l < "$tmp/a") entries, the same in both perfs; the first two, ours:"
grep -m 2 -A 1 ' vpa-dtl: ' "$tmp/ours-by-ours.out"
echo "upstream's:"
grep -m 2 -A 1 ' vpa-dtl: ' "$tmp/ours-by-up.out"

perf report -D -i "$tmp/ours.data" 2>/dev/null | grep '^\.  [0-9a-f]\{8\}: ' > "$tmp/a"
timeout $limit perf-upstream report -D -i "$tmp/ours.data" 2>/dev/null |
	grep '^\.  [0-9a-f]\{8\}: ' > "$tmp/b"
[ -s "$tmp/a" ] || fail "perf report -D (ours) dumps no record"
cmp -s "$tmp/a" "$tmp/b" || {
	diff "$tmp/a" "$tmp/b" | grep '^[-+][.]' | head -6
	fail "perf report -D: dumps differ (- ours, + upstream)"; }

# 2. Upstream records; both decode.
timeout $limit perf-upstream record -q -C 0,1 -e vpa_dtl/dtl_all/ -o "$tmp/up.data" -- \
	sh "$tmp/work.sh" 2>"$tmp/record.err" ||
	{ cat "$tmp/record.err"; fail "perf record (upstream)"; }
perf script -i "$tmp/up.data" > "$tmp/up-by-ours.out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "perf script (ours) of upstream's recording"; }
timeout $limit perf-upstream script -i "$tmp/up.data" > "$tmp/up-by-up.out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "upstream perf script of its own recording"; }
vpa_dtl_entries "$tmp/up-by-ours.out" > "$tmp/a"
vpa_dtl_entries "$tmp/up-by-up.out" > "$tmp/b"
cmp -s "$tmp/expected" "$tmp/a" || {
	diff "$tmp/expected" "$tmp/a" | head -20
	fail "ours on upstream's recording: not the entries injected"; }
cmp -s "$tmp/a" "$tmp/b" || {
	diff "$tmp/a" "$tmp/b" | grep '^[-+][0-9]' | head -6
	fail "upstream's recording: the perfs differ (- ours, + upstream)"; }
echo "upstream's recording: $(wc -l < "$tmp/a") entries, the same in both perfs"

# An event whose config3 is set is refused, by name: the first attr of the
# file (perf.data header: attrs.offset at byte 24) with config3 (byte 128 of
# the attr) made 1.
off=$(od -An -tu8 -j 24 -N 8 "$tmp/up.data" | tr -d ' ')
asz=$(od -An -tu4 -j $((off + 4)) -N 4 "$tmp/up.data" | tr -d ' ')
[ "${asz:-0}" -gt 128 ] || fail "upstream's attr is $asz bytes: expected more than our 128"
cp "$tmp/up.data" "$tmp/bad.data"
printf '\001' | dd of="$tmp/bad.data" bs=1 seek=$((off + 128)) conv=notrunc 2>/dev/null
perf script -i "$tmp/bad.data" > /dev/null 2>"$tmp/err" && fail "an event with config3 set is read"
grep -q 'sets config3 (byte 128 of '"$asz"')' "$tmp/err" || {
	cat "$tmp/err"; fail "the refusal does not name config3"; }
exit 0
