#!/bin/sh
# mem:SYMBOL@FILE breakpoints: the address the program sees
# SPDX-License-Identifier: GPL-2.0
#
# perf resolves 'mem:SYMBOL[#N]@FILE[+OFFSET][/LEN][:ACCESS]' from FILE's
# ELF symbol table, and for a position-independent FILE from the target's
# /proc/PID/maps. The test program (bp-app, harness/guests/programs/bp-app.c)
# prints the addresses of its own variables; for each form below, the
# perf_event_attr that perf stat -vv and perf record -vv print must be the
# one of the numeric form with that address. The spellings around FILE
# (its '/', '+' and digits, the event's /terms/, groups, modifiers) are
# tried too. The attr is printed before the event is opened.

. "$(dirname "$0")"/lib/bp_symbol.sh

[ -x "$BP_APP" ] || { echo "Skip: no $BP_APP (harness/guests/programs/bp-app.c)"; exit 2; }
tmp=$(mktemp -d /tmp/perf-bp-user.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
err=0

# check TOOL SYMBOLIC NUMERIC BP_TYPE BP_ADDR BP_LEN [OPTION...]
check() {
	tool=$1 sym=$2 num=$3 type=$4 addr=$5 len=$6
	shift 6
	if [ "$tool" = stat ]; then
		perf stat -vv "$@" -e "$sym" -o /dev/null -- true > "$tmp/sym.out" 2>&1
		perf stat -vv "$@" -e "$num" -o /dev/null -- true > "$tmp/num.out" 2>&1
	else
		perf record -vv "$@" -e "$sym" -o "$tmp/sym.data" -- true > "$tmp/sym.out" 2>&1
		perf record -vv "$@" -e "$num" -o "$tmp/num.data" -- true > "$tmp/num.out" 2>&1
	fi
	attr_of "$tmp/sym.out" > "$tmp/sym.attr"
	attr_of "$tmp/num.out" > "$tmp/num.attr"
	if [ ! -s "$tmp/sym.attr" ]; then
		echo "FAIL: perf $tool $* -e $sym printed no perf_event_attr:"
		sed 's/^/  | /' "$tmp/sym.out"
		err=1
	elif ! cmp -s "$tmp/sym.attr" "$tmp/num.attr"; then
		echo "FAIL: perf $tool $*: $sym and $num give different attrs:"
		diff "$tmp/num.attr" "$tmp/sym.attr"
		err=1
	elif ! grep -q "^  type  *5$" "$tmp/sym.attr" ||
	     ! grep -q "^  bp_type  *$type$" "$tmp/sym.attr" ||
	     ! grep -q "^  { bp_addr, config1 }  *$addr$" "$tmp/sym.attr" ||
	     ! grep -q "^  { bp_len, config2 }  *$len$" "$tmp/sym.attr"; then
		echo "FAIL: perf $tool $* -e $sym: not type 5, bp_type $type," \
		     "bp_addr $addr, bp_len $len:"
		cat "$tmp/sym.attr"
		err=1
	else
		echo "ok: perf $tool $* -e $sym = $num"
	fi
}

# add ADDR N: ADDR + N, as perf prints it
add() {
	printf '0x%x\n' $(($1 + $2))
}

# An ET_EXEC program: its addresses are its symbols' st_value.
"$BP_APP" addrs > "$tmp/exec.addrs"
counter=$(app_addr "$tmp/exec.addrs" counter)
gate=$(app_addr "$tmp/exec.addrs" gate)
set -- $(app_twins "$tmp/exec.addrs")
twin1=$1 twin2=$2
global=$(app_addr "$tmp/exec.addrs" twin_global)
[ -n "$counter" ] && [ -n "$gate" ] && [ -n "$twin2" ] ||
	{ echo "FAIL: $BP_APP addrs printed no addresses"; cat "$tmp/exec.addrs"; exit 1; }
app=$BP_APP
for tool in stat record; do
	check $tool "mem:counter@$app:w" "mem:$counter/8:w" 2 "$counter" 0x8
	check $tool "mem:gate@$app/4:rw" "mem:$gate/4:rw" 3 "$gate" 0x4
done
check stat "mem:counter@$app+4/4:r" "mem:$(add "$counter" 4)/4:r" 1 "$(add "$counter" 4)" 0x4
check stat "mem:counter@$app+0x2/0x2" "mem:$(add "$counter" 2)/2" 3 "$(add "$counter" 2)" 0x2
check stat "mem:twin#1@$app:w" "mem:$twin1/4:w" 2 "$twin1" 0x4
check stat "mem:twin#2@$app:w" "mem:$twin2/4:w" 2 "$twin2" 0x4
for g in g G 0; do
	check stat "mem:twin#$g@$app:w" "mem:$global/4:w" 2 "$global" 0x4
done

# Spellings of FILE: a relative path, '..', a directory named by a number,
# '+' and digits in the names (only a trailing +NUMBER and /NUMBER are
# OFFSET and LEN).
mkdir -p "$tmp/8/a+1"
cp "$app" "$tmp/8/a+1/bp+app"
check stat "mem:counter@$tmp/8/a+1/bp+app:w" "mem:$counter/8:w" 2 "$counter" 0x8
check stat "mem:counter@$tmp/8/a+1/bp+app+4/4:w" "mem:$(add "$counter" 4)/4:w" 2 \
	"$(add "$counter" 4)" 0x4
check stat "mem:counter@$tmp/8/../8/a+1/bp+app/2" "mem:$counter/2" 3 "$counter" 0x2
(cd "$tmp/8/a+1" && check stat "mem:counter@./bp+app:w" "mem:$counter/8:w" 2 "$counter" 0x8 &&
	exit $err) || err=1
# The event's terms follow ACCESS; modifiers follow as usual; FILE ends at
# ',' and '}' too.
check stat "mem:counter@$app:w/name=cnt/" "mem:$counter/8:w/name=cnt/" 2 "$counter" 0x8
check stat "mem:counter@$app/8:w/period=3/" "mem:$counter/8:w/period=3/" 2 "$counter" 0x8
check stat "mem:counter@$app:w:u" "mem:$counter/8:w:u" 2 "$counter" 0x8
check stat "mem:counter@$app:w/name=cnt/u" "mem:$counter/8:w/name=cnt/u" 2 "$counter" 0x8
perf stat -vv -e "{mem:counter@$app:w,mem:gate@$app:w},mem:twin#2@$app/4:w" -o /dev/null -- true \
	> "$tmp/group.out" 2>&1
n=$(grep -c '^  { bp_addr, config1 }' "$tmp/group.out")
if [ "$n" = 3 ] && grep -q "bp_addr, config1 }  *$counter$" "$tmp/group.out" &&
   grep -q "bp_addr, config1 }  *$gate$" "$tmp/group.out" &&
   grep -q "bp_addr, config1 }  *$twin2$" "$tmp/group.out"; then
	echo "ok: a group and a list of mem:SYMBOL@FILE events"
else
	echo "FAIL: {mem:counter@$app:w,mem:gate@$app:w},mem:twin#2@$app/4:w: $n attrs"
	sed 's/^/  | /' "$tmp/group.out"
	err=1
fi
# The name is the event as written.
if perf stat -x, -e "mem:counter@$app:w" -- true 2>&1 | grep -q ",mem:counter@$app:w,"; then
	echo "ok: the event is named mem:counter@$app:w"
else
	echo "FAIL: perf stat does not name the event mem:counter@$app:w:"
	perf stat -x, -e "mem:counter@$app:w" -- true 2>&1 | sed 's/^/  | /'
	err=1
fi

# A static PIE (ET_DYN): the address comes from the process's maps (-p,
# -t, or the workload's at its exec), the same in perf stat and perf record.
if [ -x "$BP_APP_PIE" ]; then
	pie=$BP_APP_PIE
	app_wait "$pie" "$tmp/pie.addrs" 0 || { echo "FAIL: $pie wait"; exit 1; }
	pcounter=$(app_addr "$tmp/pie.addrs" counter)
	set -- $(app_twins "$tmp/pie.addrs")
	ptwin2=$2
	for tool in stat record; do
		check $tool "mem:counter@$pie:w" "mem:$pcounter/8:w" 2 "$pcounter" 0x8 -p "$app_pid"
	done
	check stat "mem:twin#2@$pie/4:w" "mem:$ptwin2/4:w" 2 "$ptwin2" 0x4 -t "$app_pid"
	check stat "mem:counter@$pie+4/4:w" "mem:$(add "$pcounter" 4)/4:w" 2 \
		"$(add "$pcounter" 4)" 0x4 -p "$app_pid"
	app_done "$tmp/pie.addrs"
	# As the workload: perf stops it at its exec and moves the breakpoint
	# there (perf -v says where); the program prints where it is.
	for tool in stat record; do
		if [ $tool = stat ]; then
			perf stat -v -e "mem:counter@$pie:w" -o /dev/null -- "$pie" addrs \
				> "$tmp/wl.addrs" 2> "$tmp/wl.err"
		else
			perf record -v -e "mem:counter@$pie:w" -o "$tmp/wl.data" -- "$pie" addrs \
				> "$tmp/wl.addrs" 2> "$tmp/wl.err"
		fi
		want=$(app_addr "$tmp/wl.addrs" counter)
		pat='s/.*(a position-independent executable) at \(0x[0-9a-f]*\)'
		pat="$pat in the workload.*/\\1/p"
		got=$(sed -n "$pat" "$tmp/wl.err")
		if [ -n "$want" ] && [ "$got" = "$want" ]; then
			echo "ok: perf $tool -e mem:counter@$pie:w -- $pie: moved to $got at exec"
		else
			echo "FAIL: perf $tool -e mem:counter@$pie:w -- $pie: at '$got'," \
			     "the program has counter at '$want':"
			sed 's/^/  | /' "$tmp/wl.err" "$tmp/wl.addrs"
			err=1
		fi
	done
else
	echo "no $BP_APP_PIE (the toolchain links no static PIE): the ET_DYN cases are not run"
fi
exit $err
