#!/bin/bash
# Usage: busy.sh N COMMAND...
# Runs COMMAND with N busy loops beside it on this machine (a shell loop
# each, one core's worth), and stops them when it ends: `make check
# BUSY_LOOPS=2` shows that a busy host gives the verdict an idle one does
# (harness/README.md, "Time in the guests, and a slow machine"). Exit status: COMMAND's.
n=${1:?N}; shift
pids=()
for ((i = 0; i < n; i++)); do
	sh -c 'while :; do :; done' &
	pids+=($!)
done
[ "$n" -gt 0 ] && echo "busy: $n busy loop(s) beside: $*" >&2
"$@"
rc=$?
[ ${#pids[@]} = 0 ] || kill "${pids[@]}" 2>/dev/null
exit $rc
