# SPDX-License-Identifier: GPL-2.0
# Helpers of the aux_test pause/resume trigger tests (test_aux_pause_*.sh).
# They use the caller's $tmp (a directory) and set its fail=1 on a failure.

# aux_pause_script DATA: perf script of DATA into $tmp/out, its aux_test
# summary into $tmp/err; the stream must have no gap and no bad record.
aux_pause_script() {
	perf script -i "$1" > "$tmp/out" 2> "$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL: perf script"; exit 1; }
	grep '^aux_test: ' "$tmp/err"
	grep -q 'unexplained gaps: 0; bad records: 0$' "$tmp/err" ||
		{ echo "FAIL: bad stream"; fail=1; }
}

# aux_pause_windows: "N OPEN" from the window summary
aux_pause_windows() {
	sed -n 's/^aux_test: windows: \([0-9]*\) (\([0-9]*\) open.*/\1 \2/p' "$tmp/err"
}

# aux_pause_check_periods LABEL: a counter with two periods, its samples
# named resume and pause, the pause period the shorter: every resume
# sample opens one window, every window but the last is closed by a
# pause, and most pause samples find the trace paused already.
aux_pause_check_periods() {
	label=$1
	nres=$(grep -c ' resume: ' "$tmp/out")
	npause=$(grep -c ' pause: ' "$tmp/out")
	resumes=$(grep -c ' aux-test: *RESUME ' "$tmp/out")
	pauses=$(grep -c ' aux-test: *PAUSE ' "$tmp/out")
	set -- $(aux_pause_windows)
	echo "$label: $nres resume and $npause pause samples;" \
	     "$resumes RESUME and $pauses PAUSE records; windows: $1 ($2 open)"
	[ "$nres" -ge 2 ] ||
		{ echo "FAIL: only $nres resume samples: the workload ran too short"; fail=1; }
	[ "$resumes" = "$nres" ] ||
		{ echo "FAIL: $resumes windows for $nres resume samples"; fail=1; }
	[ "$1" = "$nres" ] || { echo "FAIL: the summary counts $1 windows"; fail=1; }
	[ "$pauses" -ge $((nres - 1)) ] && [ "$pauses" -le "$nres" ] ||
		{ echo "FAIL: $pauses PAUSE records for $nres windows"; fail=1; }
	[ "$npause" -gt "$pauses" ] || { echo "FAIL: no pause found the trace paused"; fail=1; }
}
