#!/bin/bash
# Usage: cpu-quota.sh create FACTOR     prints the path of a new cgroup
#        cpu-quota.sh enter CGROUP CMD...   runs CMD (exec) inside it
#        cpu-quota.sh remove CGROUP
#
# A CPU quota for a guest, so that `make check GUEST_SLOW=FACTOR` shows on
# any machine what a machine FACTOR times slower gives (harness/README.md,
# "Time in the guests, and a slow machine"): the cgroup may use 1/FACTOR of
# one CPU (the CFS bandwidth controller: cgroup v2's cpu.max, or v1's
# cpu.cfs_quota_us), and a check
# guest, which keeps its vCPUs in one thread (run-guest.sh), then runs
# FACTOR times slower than alone on a core. FACTOR may have a fraction
# (2.5). Without a cgroup CPU controller to write to, `create` fails
# (exit 2) and says so: the knob is never silently ignored.
set -euo pipefail
me=cpu-quota
period=100000
case ${1:-} in
create)
	factor=${2:?factor}
	quota=$(awk -v f="$factor" -v p=$period 'BEGIN { if (f < 1) exit 1; printf "%d", p / f }') ||
		{ echo "$me: FACTOR must be a number >= 1, not '$factor'" >&2; exit 2; }
	name=perf-aux-guest-$$-$RANDOM
	if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
	   grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		cg=/sys/fs/cgroup/$name
		mkdir "$cg"
		echo "$quota $period" > "$cg/cpu.max"
	elif [ -w /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		cg=/sys/fs/cgroup/cpu/$name
		mkdir "$cg"
		echo $period > "$cg/cpu.cfs_period_us"
		echo "$quota" > "$cg/cpu.cfs_quota_us"
	else
		echo "$me: no cgroup CPU controller to write to (cgroup v2 with cpu in" \
			"subtree_control, or v1's cpu hierarchy): GUEST_SLOW needs one" >&2
		exit 2
	fi
	echo "$cg"
	;;
enter)
	cg=${2:?cgroup}; shift 2
	echo $$ > "$cg/cgroup.procs"
	exec "$@"
	;;
remove)
	rmdir "${2:?cgroup}"
	;;
*)
	echo "usage: cpu-quota.sh create FACTOR | enter CGROUP CMD... | remove CGROUP" >&2
	exit 2
	;;
esac
