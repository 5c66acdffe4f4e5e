#!/bin/sh
# intel_bts pause/resume: only the uname system call's branches
# SPDX-License-Identifier: GPL-2.0
#
# perf-record.txt's example on intel_bts: start paused, resume at
# sys_enter_newuname, pause at sys_exit_newuname. The trace must hold the
# system call's own branches (a function named *newuname*) and none of
# what the command does after it (its next system call writes what it
# printed: ksys_write, vfs_write), which the same recording without the
# pause does hold (else the check could not fail). Needs the intel_bts
# PMU (Intel BTS, or the x86_64:pmu guest's QEMU model), the syscalls
# tracepoints and kernel symbols; skips without them.

. "$(dirname "$0")"/lib/intel_bts.sh
bts_require
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_newuname ] ||
	[ -d /sys/kernel/debug/tracing/events/syscalls/sys_enter_newuname ] ||
	{ echo "Skip: no syscalls:sys_enter_newuname tracepoint"; exit 2; }
tmp=$(mktemp -d /tmp/perf-intel-bts-pause.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
after='ksys_write|vfs_write'

# rec NAME EVENT...: intel_bts//k of uname, started paused, with the
# trigger EVENTs, into NAME.data, in an AUX area of 16 MiB (without the
# pause, half a million branches of a KASAN kernel, which would overflow
# the default)
rec() {
	name=$1
	shift
	perf record -q --per-thread -m ,16M -o "$tmp/$name.data" \
		-e intel_bts/aux-action=start-paused/k "$@" -- uname \
		> /dev/null 2> "$tmp/rec.err" ||
		{ cat "$tmp/rec.err"; echo "FAIL: perf record ($name)"; exit 1; }
}

# syms NAME: the function of each branch of NAME.data, in order
syms() {
	perf script --itrace=b -i "$tmp/$1.data" -F ip,sym 2> /dev/null |
		awk 'NF >= 2 { sub(/\+0x[0-9a-f]+$/, "", $2); print $2 }'
}

rec open -e syscalls:sys_enter_newuname/aux-action=resume/
# Only whether the trace gets there: the first one ends the decoding
# (perf script stops at the closed pipe; all of it takes about a minute).
first=$(syms open | awk -v re="^($after)\$" '$0 ~ re { print; exit }')
echo "open: reaches ${first:-none of $after}"
if [ -z "$first" ]; then
	echo "FAIL: resumed and never paused, none of $after: no kernel symbols, or data lost?"
	exit 1
fi

rec window -e syscalls:sys_enter_newuname/aux-action=resume/ \
	-e syscalls:sys_exit_newuname/aux-action=pause/
syms window | sort | uniq -c | sort -rn > "$tmp/window.syms"
echo "window: $(awk '{ n += $1 } END { print n + 0 }' "$tmp/window.syms") branches in" \
	"$(wc -l < "$tmp/window.syms") functions"
head -5 "$tmp/window.syms" | sed 's/^/  /'
grep -q "newuname" "$tmp/window.syms" ||
	{ echo "FAIL: no branch of the newuname system call inside the window"; fail=1; }
if grep -Eq " ($after)\$" "$tmp/window.syms"; then
	grep -E " ($after)\$" "$tmp/window.syms" | sed 's/^/  /'
	echo "FAIL: branches from after the window"
	fail=1
fi
exit $fail
