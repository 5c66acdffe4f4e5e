#!/bin/bash
# Usage: stage.sh NAME COMMAND...
# Runs one stage of the harness, saying what runs and how long it took.
name=$1; shift
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
exit $rc
