#!/bin/sh
# aux_test recorded with --aio keeps its AUX data
# SPDX-License-Identifier: GPL-2.0
#
# perf record --aio writes the data ring with aio_write() at offsets of its
# own and the AUX area with write(): the AUX data must land past the aio
# writes, not under them. Record the software AUX PMU with and without
# --aio: each file must decode to records, with no unexplained gap and no
# bad record, and to exactly the bytes that its PERF_RECORD_AUX records
# say the kernel wrote.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
perf version --build-options 2>/dev/null | grep -q 'aio: \[ on' ||
	{ echo "Skip: this perf has no --aio (built without POSIX AIO support)"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-aio.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
err=0

# written: the bytes the PERF_RECORD_AUX records of perf.data account for
written() {
	perf report -D --no-itrace -i "$tmp/perf.data" 2>/dev/null | awk '
		function hex(s,   i, v) {
			s = tolower(s)
			sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		/PERF_RECORD_AUX offset/ {
			for (i = 1; i < NF; i++)
				if ($i == "size:")
					n += hex($(i + 1))
		}
		END { print n + 0 }'
}

# check OPTION...: record with the OPTIONs, decode, compare
check() {
	if ! perf record -q -C 0 -o "$tmp/perf.data" "$@" -e aux_test/period=500,burst=64/ -- \
		sleep 0.3 2>"$tmp/err"; then
		cat "$tmp/err"; echo "FAIL: perf record $*"; err=1; return
	fi
	perf script -i "$tmp/perf.data" > /dev/null 2>"$tmp/script.err" ||
		{ cat "$tmp/script.err"; echo "FAIL: perf script ($*)"; err=1; return; }
	summary=$(grep '^aux_test: [0-9]' "$tmp/script.err")
	bytes=$(echo "$summary" | sed -n 's/^aux_test: [0-9]* records, \([0-9]*\) bytes.*/\1/p')
	w=$(written)
	echo "perf record $*: $bytes bytes decoded, $w written; $summary"
	if [ "${bytes:-0}" = 0 ]; then
		echo "FAIL: perf record $*: no AUX data in the file"; err=1
	elif [ "$bytes" != "$w" ]; then
		echo "FAIL: perf record $*: $bytes bytes decoded of $w written"; err=1
	elif ! echo "$summary" | grep -q 'unexplained gaps: 0; bad records: 0$'; then
		echo "FAIL: perf record $*: unexplained loss or bad records"; err=1
	fi
}

check
check --aio
check --aio=4 -m ,64
exit $err
