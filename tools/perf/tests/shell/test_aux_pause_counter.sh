#!/bin/sh
# aux_test pause/resume by hardware counter overflow
# SPDX-License-Identifier: GPL-2.0
#
# perf-record.txt's counter example, on aux_test, its periods times 100:
# resume every 100,000,000 user instructions, pause every 997,331 (the
# example's 9,973 samples faster than an emulated CPU's lowered
# perf_event_max_sample_rate allows: a throttled pause event would leave a
# window open across a resume). Every resume finds the trace
# paused (the pause period is shorter and does not divide the resume
# period), so each resume sample opens one window and each window is
# closed by a pause; most pause samples find the trace paused already
# (how many there are depends on throttling: perf_event_max_sample_rate).
# Needs a hardware PMU that counts instructions (skips without one).

[ -d /sys/bus/event_source/devices/aux_test ] || { echo "Skip: no aux_test PMU"; exit 2; }
perf stat -x, -e instructions:u true 2>&1 | grep -q '^[0-9][0-9]*,' ||
	{ echo "Skip: no hardware PMU counts instructions here"; exit 2; }
tmp=$(mktemp -d /tmp/perf-aux-counter.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")"/lib/aux_pause.sh

perf record -q -o "$tmp/perf.data" \
	-e aux_test/period=1000,aux-action=start-paused/ \
	-e instructions/period=100000000,aux-action=resume,name=resume/u \
	-e instructions/period=997331,aux-action=pause,name=pause/u -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' \
	> /dev/null 2> "$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; echo "FAIL: perf record"; exit 1; }
aux_pause_script "$tmp/perf.data"
aux_pause_check_periods instructions
exit $fail
