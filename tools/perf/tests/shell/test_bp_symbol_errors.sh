#!/bin/sh
# mem:SYMBOL breakpoints: refusals say why
# SPDX-License-Identifier: GPL-2.0
#
# Each case must fail at parse time, in perf stat and perf record, with
# the exact message for its reason: an unknown symbol, a name kallsyms
# lists at several addresses, addresses hidden by kptr_restrict, a range
# past the symbol's end, a length the architecture cannot watch.

. "$(dirname "$0")"/lib/bp_symbol.sh

kallsyms_visible || { echo "Skip: /proc/kallsyms shows no addresses"; exit 2; }
tmp=$(mktemp -d /tmp/perf-bp-symbol.XXXXXX)
restrict=$(cat /proc/sys/kernel/kptr_restrict)
trap 'echo "$restrict" > /proc/sys/kernel/kptr_restrict; rm -rf "$tmp"' EXIT
err=0

# expect EVENT MESSAGE: perf stat and perf record refuse EVENT with MESSAGE
expect() {
	for tool in stat record; do
		if [ $tool = stat ]; then
			perf stat -e "$1" -o /dev/null -- true > "$tmp/out" 2>&1
		else
			perf record -e "$1" -o "$tmp/perf.data" -- true > "$tmp/out" 2>&1
		fi
		rc=$?
		if [ $rc = 0 ] || ! grep -q 'event syntax error' "$tmp/out" ||
		   ! grep -qF "\\___ $2" "$tmp/out"; then
			echo "FAIL: perf $tool -e $1 (exit $rc) did not say: $2"
			sed 's/^/  | /' "$tmp/out"
			err=1
		else
			echo "ok: perf $tool -e $1: $2"
		fi
	done
}

expect "mem:no_such_symbol_here:w" "symbol 'no_such_symbol_here' is not in /proc/kallsyms"

# A name that kallsyms lists at several addresses (static symbols of
# different files), spelled as perf's lexer takes a symbol: the first one
# in kallsyms, read once and no further.
dup=$(awk '$3 ~ /^[a-zA-Z_][a-zA-Z0-9_.]*$/ && $3 !~ /^[rwx]+$/ && !(($3, $1) in seen) {
	seen[$3, $1]
	if (++n[$3] == 2) { print $3; exit }
}' /proc/kallsyms)
if [ -n "$dup" ]; then
	naddr=$(ksym_addrs "$dup" | wc -l)
	msg="symbol '$dup' is ambiguous: $naddr addresses in /proc/kallsyms"
	msg="$msg ($(hex "$(ksym_addrs "$dup" | head -n 1)")"
	expect "mem:$dup:w" "$msg"
else
	echo "FAIL: no symbol with several addresses in /proc/kallsyms to test with"
	err=1
fi

# The end of a symbol is where the next one in kallsyms starts: init_task,
# which every kernel has (6.14 made pid_max, used here before, a field of
# the PID namespace).
obj=init_task
addr=$(ksym_addrs $obj | head -n 1)
if [ -n "$addr" ] && set -- $(ksym_next "$addr") && [ -n "$1" ]; then
	size=$((0x$1 - 0x$addr))
	off=$((size - 2))
	nxt="of a $size-byte symbol (the next symbol, $2, is at $(hex "$1"))"
	msg="'$obj+$off/4' goes past the end of $obj: bytes $off-$((off + 3))"
	expect "mem:$obj+$off/4:w" "$msg $nxt"
	msg="'$obj+$size/1' goes past the end of $obj: bytes $size-$size"
	expect "mem:$obj+$size:w" "$msg $nxt"
else
	echo "FAIL: $obj, or the symbol after it, is not in /proc/kallsyms"
	err=1
fi

# Lengths the architecture cannot watch.
task=$(hex "$(ksym_addrs init_task)")
case $(uname -m) in
x86_64)
	rule="a data breakpoint covers 1, 2, 4 or 8 bytes, aligned to its length"
	expect "mem:init_task/520:w" "x86 cannot watch 520 bytes at $task: $rule"
	expect "mem:init_task/3:w" "x86 cannot watch 3 bytes at $task: $rule"
	expect "mem:init_task+2/4:w" \
		"x86 cannot watch 4 bytes at $(printf '0x%x' $((task + 2))): $rule"
	msg="x86 cannot watch 4 bytes for execution at $task:"
	msg="$msg an instruction breakpoint's length is a long's (leave /LEN out)"
	expect "mem:init_task/4:x" "$msg"
	;;
ppc64le|ppc64)
	rule="a data breakpoint stays within one 512-byte block (DAWR),"
	rule="$rule one doubleword without DAWR"
	expect "mem:init_task/520:w" "powerpc cannot watch 520 bytes at $task: $rule"
	# 4 bytes across a 512-byte boundary inside init_task
	o=$((1022 - (task & 511)))
	expect "mem:init_task+$o/4:w" \
		"powerpc cannot watch 4 bytes at $(printf '0x%x' $((task + o))): $rule"
	msg="powerpc cannot watch 8 bytes for execution at $task:"
	expect "mem:init_task:x" "$msg its breakpoints watch data accesses (r, w, rw) only"
	;;
*)
	echo "FAIL: no length case for $(uname -m)"
	err=1
	;;
esac

# Addresses hidden by kptr_restrict: kallsyms shows zeros, even to root.
echo 2 > /proc/sys/kernel/kptr_restrict
msg="/proc/kallsyms hides kernel addresses (all zero, kernel.kptr_restrict=2):"
expect "mem:jiffies_64:w" "$msg cannot resolve 'jiffies_64'"
echo "$restrict" > /proc/sys/kernel/kptr_restrict

# Numeric addresses are not looked up: still taken as they are.
perf stat -vv -e "mem:$task/8:w" -o /dev/null -- true > "$tmp/out" 2>&1
if grep -q 'event syntax error' "$tmp/out" ||
   ! grep -q "bp_addr, config1 }  *$task$" "$tmp/out"; then
	echo "FAIL: mem:$task/8:w is not parsed as before"
	sed 's/^/  | /' "$tmp/out"
	err=1
else
	echo "ok: mem:$task/8:w parses as before"
fi
exit $err
