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
