#!/bin/sh
# intel_bts: a buffer that fills, and snapshot mode
# SPDX-License-Identifier: GPL-2.0
#
# branch-wait (the harness's guest program, no libc) reads one byte from
# its standard input, then takes 99,999 branches of its loop (the jnz at
# loop + 3 back to loop, 2.4 MB of BTS records) and exits.
#
# A buffer that fills: traced into a 64 KiB AUX area while perf record is
# stopped (SIGSTOP once the workload waits for its byte, SIGCONT once it
# has exited), so nothing is read while the workload runs. What was
# recorded must be the loop's branches and entries into the kernel (the
# read system call's, interrupts), no more than the area holds, and the
# loss of the rest must be reported (a PERF_RECORD_AUX with the truncated
# flag: perf's "AUX data lost" warning), never silent.
#
# Snapshot mode (-Se: one snapshot when perf record ends, 64 KiB area):
# the snapshot holds the newest records only, at most what the area
# holds: the loop's branches and entries into the kernel, the last one
# the exit system call's (from the syscall at loop + 12).
#
# A buffer that laps: branch-loop's kernel branches (//k: its exec, page
# faults and exit, about 175,000 of them, 4 MB of records) through a 64 KiB
# area, which perf record empties as it goes; where it falls behind, the
# area fills and the driver stops (8,000 to 46,000 records were kept in
# six runs, 3 to 16 laps; 2 are wanted, in up to three tries). The
# area's pieces (up to 32 KiB each, physically contiguous) keep records
# 24-byte aligned across them: a piece's records may start 8 or 16 bytes
# into its pages. Where too little room is left at the end of a piece,
# the driver skips to the next one and zeroes the skipped end
# (bts_buffer_pad_out()): anything left there from an earlier lap would be
# decoded as a record, a branch from address 0. Every record of the //k
# trace must come from the kernel.
#
# Needs the intel_bts PMU (Intel BTS, or the x86_64:pmu guest's QEMU model),
# branch-wait and branch-loop; skips without them.

. "$(dirname "$0")"/lib/intel_bts.sh
bts_require branch-loop
lap_prog=$prog
bts_require branch-wait
tmp=$(mktemp -d /tmp/perf-intel-bts-modes.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
area=65536
cap=$((area / 24))

# summary NAME [CAP]: NAME.data's branches into NAME.br; sets $loops,
# $total; at most CAP records (default: what the area holds)
summary() {
	name=$1
	max=${2:-$cap}
	bts_branches "$tmp/$name.data" > "$tmp/$name.br"
	read -r loops from to <<-EOT
	$(bts_top "$tmp/$name.br")
	EOT
	loops=${loops:-0}
	total=$(wc -l < "$tmp/$name.br")
	perf report -D --no-itrace -i "$tmp/$name.data" 2> /dev/null |
		grep 'PERF_RECORD_AUX offset' > "$tmp/$name.aux"
	perf script --itrace=b -F ip -i "$tmp/$name.data" 2>&1 > /dev/null |
		grep -i 'lost\|error' > "$tmp/$name.warn"
	auxs=$(wc -l < "$tmp/$name.aux")
	trunc=$(grep -c '\[T' "$tmp/$name.aux")
	echo "$name: $total branches, $loops of the loop ($from -> $to);" \
		"$auxs AUX records, $trunc truncated"
	sed 's/^/  /' "$tmp/$name.aux" "$tmp/$name.warn" | head -n 8
	grep -vn "^$from $to\$" "$tmp/$name.br" | head -n 8 | sed 's/^/  not the loop: /'
	[ "$loops" -gt 0 ] && [ $((0x$from - 0x$to)) = 3 ] ||
		{ echo "FAIL: $name: no loop branch recorded"; fail=1; }
	[ "$total" -le "$max" ] ||
		{ echo "FAIL: $name: $total records, more than $max"; fail=1; }
	# the rest: entries into the kernel (system calls, interrupts, faults)
	odd=$(awk -v f="$from" -v t="$to" "$bts_kernel_awk"'
		!($1 == f && $2 == t) && !(!kernel($1) && kernel($2)) { n++ }
		END { print n + 0 }' "$tmp/$name.br")
	[ "$odd" = 0 ] ||
		{ echo "FAIL: $name: $odd records neither the loop's nor into the kernel"; fail=1; }
}

# wait_for WHAT CMD...: poll CMD for up to 30 s
wait_for() {
	what=$1
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -lt 300 ] ||
			{ echo "FAIL: timed out waiting for $what"; kill -CONT "$perf"; exit 1; }
		sleep 0.1
	done
}

# the workload: perf record's child, once it runs branch-wait
workload() {
	for s in /proc/[0-9]*/stat; do
		read -r pid comm state ppid rest < "$s" 2> /dev/null || continue
		[ "$ppid" = "$perf" ] && [ "$comm" = "(branch-wait)" ] && { echo "$pid"; return 0; }
	done
	return 1
}
blocked() { w=$(workload) && grep -q '^State:.*S' "/proc/$w/status"; }
exited() { [ ! -d "/proc/$w" ] || grep -q '^State:.*Z' "/proc/$w/status"; }

mkfifo "$tmp/go"
perf record -q --per-thread -m ,64K -o "$tmp/full.data" -e intel_bts//u -- \
	"$prog" < "$tmp/go" > /dev/null 2> "$tmp/rec.err" &
perf=$!
exec 3> "$tmp/go"
wait_for "branch-wait to wait for its input" blocked
kill -STOP "$perf"
echo x >&3
wait_for "branch-wait to exit" exited
kill -CONT "$perf"
exec 3>&-
wait "$perf" || { cat "$tmp/rec.err"; echo "FAIL: perf record (full)"; exit 1; }
summary full
[ "$loops" -lt 99999 ] ||
	{ echo "FAIL: full: every branch recorded: the area never filled"; fail=1; }
grep -q '\[T' "$tmp/full.aux" || grep -qi 'AUX data lost' "$tmp/full.warn" ||
	{ echo "FAIL: full: $((99999 - loops)) branches lost, and no loss reported"; fail=1; }

echo x | perf record -q -Se --per-thread -m ,64K -o "$tmp/snap.data" \
	-e intel_bts//u -- "$prog" > /dev/null 2> "$tmp/rec.err"
rc=$?
[ $rc = 0 ] || { cat "$tmp/rec.err"; echo "FAIL: perf record (snapshot): exit $rc"; exit 1; }
summary snap
tail -n 2 "$tmp/snap.br" | sed 's/^/  last: /'
# Without the loop's branch (summary said FAIL) there is no loop + 12, and
# no arithmetic on an empty address: in the main shell dash would end the
# script there with status 2 (a skip for perf test), losing the failures
# counted so far; here, in a pipeline, it is an error message instead of
# this check.
[ -z "$to" ] ||
tail -n 1 "$tmp/snap.br" | awk -v sc="$(printf '%x' $((0x$to + 12)))" "$bts_kernel_awk"'
	$1 == sc && kernel($2) { ok = 1 } END { exit !ok }' ||
	{ echo "FAIL: snap: the last record is not the exit system call's (loop + 12)"; fail=1; }

# up to three recordings, until one laps the area twice
laps=0
for try in 1 2 3; do
	perf record -q --per-thread -m ,64K -o "$tmp/lap.data" -e intel_bts//k -- \
		"$lap_prog" > /dev/null 2> "$tmp/rec.err" ||
		{ cat "$tmp/rec.err"; echo "FAIL: perf record (lapped)"; exit 1; }
	bts_branches "$tmp/lap.data" > "$tmp/lap.br"
	total=$(wc -l < "$tmp/lap.br")
	auxs=$(perf report -D --no-itrace -i "$tmp/lap.data" 2> /dev/null |
		grep -c 'PERF_RECORD_AUX offset')
	odd=$(awk "$bts_kernel_awk"' !kernel($1) { n++ } END { print n + 0 }' "$tmp/lap.br")
	laps=$((total * 24 / area))
	echo "lap $try: $total branches ($laps laps) in $auxs AUX records; $odd not from the kernel"
	awk "$bts_kernel_awk"' !kernel($1)' "$tmp/lap.br" | head -n 4 |
		sed 's/^/  not from the kernel: /'
	[ "$odd" = 0 ] ||
		{ echo "FAIL: lap: $odd records of a //k trace not from the kernel"; fail=1; }
	[ "$laps" -lt 2 ] || break
done
[ "$laps" -ge 2 ] ||
	{ echo "FAIL: lap: the area did not lap twice in three recordings"; fail=1; }
exit $fail
