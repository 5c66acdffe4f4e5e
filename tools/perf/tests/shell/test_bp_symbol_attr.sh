#!/bin/sh
# mem:SYMBOL breakpoints: the same perf_event_attr as mem:ADDR
# SPDX-License-Identifier: GPL-2.0
#
# perf resolves 'mem:SYMBOL[+OFFSET][/LEN][:ACCESS]' through /proc/kallsyms:
# for each form below, the perf_event_attr that perf stat -vv and perf
# record -vv print must be the one of the numeric form, with the address
# looked up in kallsyms here. The attr is printed before the event is
# opened, so this runs where no breakpoint can be created too.

. "$(dirname "$0")"/lib/bp_symbol.sh

kallsyms_visible || { echo "Skip: /proc/kallsyms shows no addresses"; exit 2; }
tmp=$(mktemp -d /tmp/perf-bp-symbol.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
err=0

jiffies=$(ksym_addrs jiffies_64)
task=$(ksym_addrs init_task)
mlock=$(ksym_addrs sysctl_perf_event_mlock)
for a in "$jiffies" "$task" "$mlock"; do
	[ "$(echo "$a" | wc -l)" = 1 ] && [ -n "$a" ] ||
		{ echo "FAIL: test symbols not unique in kallsyms"; exit 1; }
done
task16=$(printf '0x%x' $((0x$task + 16)))

# check TOOL SYMBOLIC NUMERIC BP_TYPE BP_ADDR BP_LEN
check() {
	tool=$1 sym=$2 num=$3
	if [ "$tool" = stat ]; then
		perf stat -vv -e "$sym" -o /dev/null -- true > "$tmp/sym.out" 2>&1
		perf stat -vv -e "$num" -o /dev/null -- true > "$tmp/num.out" 2>&1
	else
		perf record -vv -e "$sym" -o "$tmp/sym.data" -- true > "$tmp/sym.out" 2>&1
		perf record -vv -e "$num" -o "$tmp/num.data" -- true > "$tmp/num.out" 2>&1
	fi
	attr_of "$tmp/sym.out" > "$tmp/sym.attr"
	attr_of "$tmp/num.out" > "$tmp/num.attr"
	if [ ! -s "$tmp/sym.attr" ]; then
		echo "FAIL: perf $tool -e $sym printed no perf_event_attr:"
		cat "$tmp/sym.out"
		err=1
	elif ! cmp -s "$tmp/sym.attr" "$tmp/num.attr"; then
		echo "FAIL: perf $tool: $sym and $num give different attrs:"
		diff "$tmp/num.attr" "$tmp/sym.attr"
		err=1
	elif ! grep -q "^  type  *5$" "$tmp/sym.attr" ||
	     ! grep -q "^  bp_type  *$4$" "$tmp/sym.attr" ||
	     ! grep -q "^  { bp_addr, config1 }  *$5$" "$tmp/sym.attr" ||
	     ! grep -q "^  { bp_len, config2 }  *$6$" "$tmp/sym.attr"; then
		echo "FAIL: perf $tool -e $sym: not type 5, bp_type $4, bp_addr $5, bp_len $6:"
		cat "$tmp/sym.attr"
		err=1
	else
		echo "ok: perf $tool -e $sym = $num"
	fi
}

check stat "mem:jiffies_64:w" "mem:$(hex "$jiffies")/8:w" 2 "$(hex "$jiffies")" 0x8
check stat "mem:jiffies_64/8:w" "mem:$(hex "$jiffies")/8:w" 2 "$(hex "$jiffies")" 0x8
check stat "mem:sysctl_perf_event_mlock/4:rw" "mem:$(hex "$mlock")/4:rw" 3 "$(hex "$mlock")" 0x4
check stat "mem:init_task+16/8:r" "mem:$task16/8:r" 1 "$task16" 0x8
check stat "mem:init_task+0x10/2" "mem:$task16/2" 3 "$task16" 0x2
check record "mem:jiffies_64:w" "mem:$(hex "$jiffies")/8:w" 2 "$(hex "$jiffies")" 0x8
check record "mem:init_task+16/4:rw" "mem:$task16/4:rw" 3 "$task16" 0x4

# A group of two symbolic events parses, one with a length.
perf stat -vv -e "{mem:jiffies_64:w,mem:sysctl_perf_event_mlock/4:w}" -o /dev/null -- true \
	> "$tmp/group.out" 2>&1
# (perf -v says what each resolved to; where breakpoints cannot be
# created, only the first one's attr is printed before the open fails)
n=$(grep -c '^mem:.*: [0-9]* bytes at 0x' "$tmp/group.out")
if [ "$n" != 2 ] || grep -q 'event syntax error' "$tmp/group.out"; then
	echo "FAIL: a group of two symbolic breakpoints:"
	cat "$tmp/group.out"
	err=1
else
	echo "ok: a group of two symbolic breakpoints"
fi

# perf list shows the syntax.
if perf list 2>/dev/null | grep -q 'mem:<symbol>\[+offset\]\[/len\]\[:access\]'; then
	echo "ok: perf list shows mem:<symbol>[+offset][/len][:access]"
else
	echo "FAIL: perf list does not show the mem:<symbol> syntax"
	err=1
fi
exit $err
