#!/bin/bash
# Usage: stage.sh NAME COMMAND...
# Runs one stage of the harness, saying what runs and how long it took.
# With STAGE_LOG set (the Makefile sets it), the stage's name, seconds and
# outcome are also appended to that file, one tab-separated line a stage,
# for stage-table.sh's table at the end of the run.
name=$1; shift
# Under make -n, make still runs a recipe line that names $(MAKE), as ours
# do: then the stage only runs (its sub-make prints what it would do), and
# is neither announced nor recorded (a dry run took no time).
flags=${MAKEFLAGS%% *}
case $flags in
-*) ;;
*n*) exec "$@" ;;
esac
start=$(date +%s)
printf '==> %-28s %s\n' "$name" "$(date +%H:%M:%S)"
"$@"
rc=$?
secs=$(( $(date +%s) - start ))
if [ $rc = 0 ]; then
	printf '<== %-28s %3dm%02ds\n' "$name" $((secs / 60)) $((secs % 60))
else
	printf '<== %-28s FAILED (exit %d) after %dm%02ds\n' "$name" $rc $((secs / 60)) $((secs % 60))
fi
if [ -n "${STAGE_LOG:-}" ]; then
	printf '%s\t%d\t%d\t%s\n' "$(date +%s)" "$secs" "$rc" "$name" >> "$STAGE_LOG"
fi
exit $rc
