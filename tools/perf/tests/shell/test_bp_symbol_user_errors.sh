#!/bin/sh
# mem:SYMBOL@FILE breakpoints: refusals say why
# SPDX-License-Identifier: GPL-2.0
#
# Each case must be refused, in perf stat and perf record, with the exact
# message for its reason. At parse time: an unknown symbol, a name FILE
# has several symbols of without #N, #N out of range, a FILE that is not
# ELF or not there, terms after FILE without ACCESS, a range past the
# symbol's end, a length the architecture cannot watch. Once the target is
# known: system-wide (-a, -C), a process that has not mapped FILE.

. "$(dirname "$0")"/lib/bp_symbol.sh

[ -x "$BP_APP" ] || { echo "Skip: no $BP_APP (harness/guests/programs/bp-app.c)"; exit 2; }
tmp=$(mktemp -d /tmp/perf-bp-user.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
err=0
app=$BP_APP

# run TOOL EVENT [OPTION...]: perf TOOL with EVENT and the options, output in $tmp/out
run() {
	tool=$1 ev=$2
	shift 2
	if [ "$tool" = stat ]; then
		perf stat "$@" -e "$ev" -o /dev/null -- true > "$tmp/out" 2>&1
	else
		perf record "$@" -e "$ev" -o "$tmp/perf.data" -- true > "$tmp/out" 2>&1
	fi
}

# expect EVENT MESSAGE: perf stat and perf record refuse EVENT at parse time with MESSAGE
expect() {
	for tool in stat record; do
		run $tool "$1"
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

# refuse EVENT MESSAGE OPTION...: perf stat and perf record with the
# options refuse EVENT once the target is known, with "mem:SPEC: MESSAGE"
refuse() {
	ev=$1 msg=$2
	shift 2
	for tool in stat record; do
		run $tool "$ev" "$@"
		rc=$?
		if [ $rc = 0 ] || ! grep -qxF "$ev: $msg" "$tmp/out"; then
			echo "FAIL: perf $tool $* -e $ev (exit $rc) did not say: $ev: $msg"
			sed 's/^/  | /' "$tmp/out"
			err=1
		else
			echo "ok: perf $tool $* -e $ev: $msg"
		fi
	done
}

"$app" addrs > "$tmp/addrs"
set -- $(app_twins "$tmp/addrs")
twin1=$1 twin2=$2
counter=$(app_addr "$tmp/addrs" counter)

expect "mem:no_such_symbol@$app:w" "symbol 'no_such_symbol' is not in $app's symbol table"
msg="symbol 'twin' is ambiguous: 2 symbols in $app: #1 $twin1 (local, 4 bytes),"
msg="$msg #2 $twin2 (global, 4 bytes); pick one with twin#N@$app (#g: the global one)"
expect "mem:twin@$app:w" "$msg"
expect "mem:twin#3@$app:w" "$app has 2 symbols named 'twin': #3 is not one of #1-#2"
expect "mem:counter#2@$app:w" "$app has 1 symbol named 'counter': #2 is not one of #1-#1"
echo "not an ELF file" > "$tmp/text"
expect "mem:counter@$tmp/text:w" "$tmp/text is not an ELF file"
expect "mem:counter@$tmp/none:w" "cannot open $tmp/none: No such file or directory"
msg="cannot open $app/aux-action=resume/: Not a directory"
msg="$msg (terms after @FILE need :ACCESS first: SYMBOL@FILE:rw/terms/)"
expect "mem:counter@$app/aux-action=resume/" "$msg"
msg="goes past the end of counter: bytes"
expect "mem:counter@$app+8:w" "'counter+8/1' $msg 8-8 of a 8-byte symbol"
expect "mem:counter@$app+4/8:w" "'counter+4/8' $msg 4-11 of a 8-byte symbol"
case $(uname -m) in
x86_64)
	rule="a data breakpoint covers 1, 2, 4 or 8 bytes, aligned to its length"
	expect "mem:counter@$app/3:w" "x86 cannot watch 3 bytes at $counter: $rule"
	;;
ppc64*)
	main=$(app_addr "$tmp/addrs" main)
	rule="its breakpoints watch data accesses (r, w, rw) only"
	expect "mem:main@$app:x" "powerpc cannot watch 8 bytes for execution at $main: $rule"
	;;
esac

msg="a symbol of $app is at an address of one process: give the process with -p PID"
msg="$msg or -t TID, or run it as the workload, not -a, -C or -u"
refuse "mem:counter@$app:w" "$msg" -a
refuse "mem:counter@$app:w" "$msg" -C 0
refuse "mem:counter@$app:w" "$app is not mapped in process $$" -p $$
exit $err
