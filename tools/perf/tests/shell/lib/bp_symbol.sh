# SPDX-License-Identifier: GPL-2.0
# Helpers for the mem:SYMBOL breakpoint tests: kallsyms lookups done the
# plain way, to compare perf's own resolution with.

# ksym_addrs NAME: the distinct addresses of NAME in /proc/kallsyms
ksym_addrs() {
	awk -v n="$1" '$3 == n { print $1 }' /proc/kallsyms | sort -u
}

# ksym_next ADDR: "ADDR NAME" of the first symbol above ADDR (hex, as in
# kallsyms), in kallsyms order among those at the lowest such address
ksym_next() {
	awk -v a="$1" '{ x = $1 "" }
		x > a "" && (n == "" || x < n) { n = x; name = $3 }
		END { print n, name }' /proc/kallsyms
}

# hex ADDR: kallsyms's zero-padded hex as perf prints it (0x, no padding)
hex() {
	printf '0x%s\n' "$(echo "$1" | sed 's/^0*//')"
}

# attr_of FILE: the first perf_event_attr that perf -vv printed in FILE
attr_of() {
	awk '/^perf_event_attr:/ { f = 1; next } /^-+$/ && f { exit } f' "$1"
}

# kallsyms_visible: kallsyms shows addresses (we run as root in the guests)
kallsyms_visible() {
	[ -r /proc/kallsyms ] &&
		awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms
}

# bp_unavailable: why no breakpoint can be created here, or nothing
bp_unavailable() {
	perf stat -e "mem:$(hex "$(ksym_addrs jiffies_64)")/8:w" -o /dev/null -- true \
		>/dev/null 2>"$1" && return 1
	grep -o 'returned with [0-9]* ([^)]*)' "$1" | head -n 1 ||
		echo "perf stat cannot open a breakpoint"
	return 0
}

# The traced program of the mem:SYMBOL@FILE tests (harness/guests/programs/bp-app.c):
# bp-app is ET_EXEC, bp-app-pie a static PIE (ET_DYN), where the toolchain
# could link one.
BP_APP=${BP_APP:-/usr/bin/bp-app}
BP_APP_PIE=${BP_APP_PIE:-/usr/bin/bp-app-pie}

# app_addr FILE NAME: NAME's address in the "NAME ADDR" lines of bp-app's
# output FILE, as perf prints addresses (0x, lower case, no padding)
app_addr() {
	awk -v n="$2" '$1 == n { print $2 }' "$1" | tr 'A-F' 'a-f' | sed 's/^0x0*/0x/'
}

# app_twins FILE: the two 'twin' symbols' addresses, in address order
app_twins() {
	l=$(app_addr "$1" twin_local) g=$(app_addr "$1" twin_global)
	if [ $((l)) -lt $((g)) ]; then echo "$l $g"; else echo "$g $l"; fi
}

# app_wait APP FILE N: start APP waiting (bp-app wait), its addresses in
# FILE within 60 s (a loaded guest under emulation is slow); sets
# $app_pid. It runs N windows once FILE.go exists, then
# creates FILE.ran and exits once FILE.end exists.
app_wait() {
	rm -f "$2" "$2.go" "$2.ran" "$2.end"
	"$1" wait "$2" "$3" &
	app_pid=$!
	i=0
	while [ ! -s "$2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$2" ]
}

# app_done FILE: let a waiting bp-app run and end, and wait for it
app_done() {
	touch "$1.go" "$1.end"
	wait "$app_pid"
}

# bp_app_setup NAME: for a test of bp-app, skip (exit 2) where bp-app or a
# hardware breakpoint is missing; else make $tmp, a directory of the test's
# own (/tmp/perf-bp-NAME.*) that is removed at exit
bp_app_setup() {
	[ -x "$BP_APP" ] || { echo "Skip: no $BP_APP (harness/guests/programs/bp-app.c)"; exit 2; }
	tmp=$(mktemp -d "/tmp/perf-bp-$1.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	why=$(bp_unavailable "$tmp/probe.err") && {
		echo "Skip: no hardware breakpoint can be created here: $why"; exit 2; }
}
