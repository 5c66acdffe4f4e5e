#!/bin/sh
# aux-action misuse gets a clear message
# SPDX-License-Identifier: GPL-2.0
#
# Every misuse of the aux-action config term is refused, by perf or by
# the kernel, with a message that says what is wrong.

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-pause-err.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect_error WHAT MESSAGE EVENT...: perf record must fail saying MESSAGE
expect_error() {
	what=$1 msg=$2
	shift 2
	if perf record -o "$tmp/perf.data" "$@" -- true > "$tmp/out" 2>&1; then
		echo "FAIL: $what: perf record succeeded"; fail=1; return
	fi
	if grep -qF -- "$msg" "$tmp/out"; then
		echo "ok: $what: $msg"
	else
		echo "FAIL: $what: expected '$msg', got:"; cat "$tmp/out"; fail=1
	fi
}

expect_error "bad value" "valid values: start-paused, pause or resume" \
	-e aux_test/aux-action=sometimes/
expect_error "start-paused on a non-AUX event" \
	"aux-action=start-paused: cpu-clock/aux-action=start-paused/ is not an AUX area event" \
	-e cpu-clock/aux-action=start-paused/
expect_error "pause on the AUX event itself" \
	"is an AUX area event; pause is for the events that switch its tracing" \
	-e aux_test/aux-action=pause/
expect_error "resume without an AUX event" \
	"cpu-clock/aux-action=resume/ needs an AUX area event as its group leader" \
	-e cpu-clock/aux-action=resume/
expect_error "resume in a group led by a non-AUX event" \
	"needs an AUX area event as its group leader" \
	-e aux_test// -e '{cpu-clock,page-faults/aux-action=resume/}'
expect_error "aux-output with pause (refused by the kernel)" \
	"aux-output cannot be combined with aux-action=pause" \
	-e aux_test// -e cpu-clock/aux-output,aux-action=pause/
exit $fail
