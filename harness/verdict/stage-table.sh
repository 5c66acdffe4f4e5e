#!/bin/bash
# Usage: stage-table.sh STAGE_LOG [START]
# Prints the table of the stages that stage.sh recorded in STAGE_LOG (end
# time, seconds, exit status, name per line): each stage's time, whether it
# failed or was killed at its time limit (a guest: the harness self-test
# that hangs on purpose is), in the order they started, and the run's
# wall-clock time since START (seconds since the
# epoch; the first stage's start when not given). Stages that ran at the
# same time (make -j) overlap, so their sum may exceed the wall-clock time.
set -uo pipefail
log=$1 start=${2:-}
[ -s "$log" ] || { echo "stage times: no stage recorded in $log"; exit 0; }
awk -F'\t' -v start="$start" '
function mmss(s) { return sprintf("%dm%02ds", int(s / 60), s % 60) }
function result(rc) {
	if (rc == 0) return "ok"
	if (rc == 124 || rc == 137) return "killed at its time limit (exit " rc ")"
	return "FAILED (exit " rc ")"
}
{
	end = $1; secs = $2; rc = $3; name = $4
	if (first == "" || end - secs < first) first = end - secs
	if (end > last) last = end
	n++; names[n] = name; times[n] = secs; rcs[n] = rc
	if (name !~ /^ /) sum += secs	# a guest (indented) is part of its stage
}
END {
	if (start == "") start = first
	printf "\nstage times (this run)\n"
	printf "%-44s %9s  %s\n", "stage", "time", "result"
	for (i = 1; i <= n; i++)
		printf "%-44s %9s  %s\n", names[i], mmss(times[i]), result(rcs[i])
	printf "%-44s %9s\n", "sum of the stages", mmss(sum)
	printf "%-44s %9s\n", "wall clock, first stage to last", mmss(last - start)
}' < <(awk -F'\t' '{ print $1 - $2 "\t" $0 }' "$log" | sort -t "$(printf '\t')" -k1,1n -s | cut -f2-)
