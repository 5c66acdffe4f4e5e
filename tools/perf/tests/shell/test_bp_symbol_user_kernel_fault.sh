#!/bin/sh
# mem: write breakpoints on a page that the kernel's write faults in
# SPDX-License-Identifier: GPL-2.0
#
# bp-app read-fresh reads 8 bytes from a pipe into 'fresh', whose page
# nothing has touched (bp-app fails with 4 if it is mapped before): the
# kernel's store (copy_to_user()) is what faults it in. A write breakpoint
# there must count that store (at least once) and the bytes must land,
# with no kernel warning. On powerpc the kernel emulates a store that hit,
# in its exception handler, with page faults disabled; the fault that
# maps the page comes first (on our QEMU, whose TLB fill precedes its
# watchpoint check), so the emulation finds the page present.

. "$(dirname "$0")"/lib/bp_symbol.sh

bp_app_setup kfault
"$BP_APP" addrs > "$tmp/addrs" || { echo "FAIL: $BP_APP addrs"; exit 1; }
addr=$(app_addr "$tmp/addrs" fresh)
[ -n "$addr" ] || { echo "FAIL: no address of fresh"; cat "$tmp/addrs"; exit 1; }

# warnings: the kernel log's WARNING lines so far
warnings() {
	dmesg | grep -c 'WARNING:'
}

before=$(warnings)
ev="mem:$addr/8:w"
perf stat -x, -o "$tmp/stat.csv" -e "$ev" -- "$BP_APP" read-fresh 2> "$tmp/stat.err"
rc=$?
after=$(warnings)
count=$(grep -v '^#' "$tmp/stat.csv" | grep . | cut -d, -f1)
echo "$ev (fresh): $count, exit status $rc, kernel warnings $before -> $after"
dmesg | grep 'Breakpoint at .*page fault' | tail -n 1
fail=0
[ "$rc" = 4 ] && {
	echo "FAIL: fresh's page was present before the read: nothing was faulted in"; exit 1; }
[ "$rc" = 0 ] || {
	cat "$tmp/stat.err"; echo "FAIL: the 8 bytes did not land in fresh (exit $rc)"; fail=1; }
case $count in
''|*[!0-9]*|0) echo "FAIL: the kernel's store was not counted"; fail=1 ;;
esac
[ "$after" = "$before" ] || {
	dmesg | grep -A 3 'WARNING:' | tail -n 8
	echo "FAIL: the kernel warned"; fail=1; }
exit $fail
