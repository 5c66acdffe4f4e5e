#!/bin/bash
# Usage: run-guest.sh ARCH[:VARIANT] KERNEL INITRD MODE TIMEOUT LOG [PARAM...]
# Boots one guest under QEMU (software emulation) and writes its console to
# LOG; the PARAMs go on the kernel command line too (harness.fuzz_s=N). A
# guest still running after TIMEOUT seconds is killed and the log says so;
# the verdict counts it as failed.
#
# The QEMU is ours (harness/qemu) when QEMU_BIN names the directory of its
# binaries, as the Makefile does. A VARIANT boots ARCH's guest with one of
# our QEMU's models switched on: QEMU_<arch>_<variant> of harness/arch/ARCH.mk
# instead of QEMU_<arch>, and harness.variant=VARIANT on the kernel command
# line, so that the guest runs the tests of that model (guest/run-tests),
# and APPEND_<arch>_<variant> too if the variant has one.
set -uo pipefail
arch=${1%%:*} variant=
case $1 in *:*) variant=${1#*:} ;; esac
guest=$1 kernel=$2 initrd=$3 mode=$4 tmo=$5 log=$6
shift 6
params=${*:+ $*}${variant:+ harness.variant=$variant}
here=$(cd "$(dirname "$0")" && pwd)
# A make of its own (not a job of the make -j that may run this guest).
eval "$(MAKEFLAGS= MAKELEVEL= make -s -f - <<MK
include $here/../arch/$arch.mk
all: ; @echo 'qemu="\$(QEMU_$arch${variant:+_$variant})" console=\$(CONSOLE_$arch) append="\$(APPEND_$arch${variant:+_$variant})" icount="\$(ICOUNT_$arch${variant:+_$variant})"'
MK
)"
if [ -z "$qemu" ]; then
	echo "run-guest: no QEMU_$arch${variant:+_$variant} in harness/arch/$arch.mk" >&2
	exit 2
fi
if [ -n "${QEMU_BIN:-}" ]; then
	if [ ! -x "$QEMU_BIN/${qemu%% *}" ]; then
		echo "run-guest: no ${qemu%% *} in $QEMU_BIN (make qemu builds ours)" >&2
		exit 2
	fi
	qemu=$QEMU_BIN/$qemu
fi
loglevel=7
case $mode in run|bench*) loglevel=4 ;; esac
# The guests that judge (check and the harness self-tests) keep time by
# the instruction count: 2^ICOUNT_SHIFT ns an instruction (1 ns: a guest
# second is 10^9 instructions of its vCPUs together, about three seconds
# of one core of TCG on our machines), the clock jumping over idle time
# (sleep=off). Every limit in the guest (tests.list's, the
# kselftest harness's, perf test's, the kernel's lockup and RCU stall
# watchdogs) and every "for N seconds" loop is then a number of guest
# instructions, the same on a fast host, a slow one or a busy one: no
# verdict depends on the machine's speed, only TIMEOUT does (the host's
# last resort), and a sleep costs no host time. QEMU runs such a guest's
# vCPUs in one thread (no MTTCG under -icount). `run`, `bench` and `fuzz`
# keep host time: what they print, and how long `make fuzz` fuzzes, is
# meant in real seconds. `bench-pt` (make bench's ratios of two kernels)
# counts instructions: what each kernel's code costs, on any machine. A variant that sets its own -icount (onetb) keeps
# it. ICOUNT_SHIFT=off: host time (to compare).
# ICOUNT_<arch>_<variant> = off in harness/arch/ARCH.mk keeps one guest on
# host time (a known problem of a model under -icount, said there).
ICOUNT_SHIFT=${ICOUNT_SHIFT:-0}
[ "$icount" = off ] && ICOUNT_SHIFT=off
case $mode:$ICOUNT_SHIFT in
run:*|bench:*|fuzz:*|*:off) ;;
*) case " $qemu " in *" -icount "*) ;; *) qemu="$qemu -icount shift=$ICOUNT_SHIFT,sleep=off" ;; esac ;;
esac
# The capture benchmark writes up to a GiB a run into the guest's tmpfs.
[ "$mode" = bench ] && qemu=${qemu/-m 1G/-m 3G}
# The guests that judge get 512 MiB: each kmemleak scan (four a guest,
# in/init) reads the memory that KASAN's shadow and the page structures
# take, which grows with RAM; a scan costs 29 % less guest time at 512 MiB
# than at 1 GiB (harness/README.md). Running out of memory would not pass
# silently: the OOM killer's report is a splat to verdict.py.
case $mode in check|selftest-*) qemu=${qemu/-m 1G/-m 512M} ;; esac
[ "$mode" = bench ] && qemu=${qemu/-cpu max/-cpu max,-erms,-fsrm}
# GUEST_SLOW=FACTOR: the guest gets 1/FACTOR of a CPU (cpu-quota.sh), as on
# a machine FACTOR times slower; check guests must give the same verdict.
cg=
if [ -n "${GUEST_SLOW:-}" ] && [ "$GUEST_SLOW" != 1 ]; then
	cg=$("$here/cpu-quota.sh" create "$GUEST_SLOW") || exit 2
	qemu="$here/cpu-quota.sh enter $cg $qemu"
	echo "run-guest: $guest ($mode) slowed down $GUEST_SLOW times (a CPU quota: $cg)" >&2
fi
# stamp: the host's clock at the console lines that end a phase of the
# guest (its boot, each entry of run-tests, the kmemleak scan, the dmesg
# dump), one "SECONDS LINE" each, for the host-cost table below. Guest
# seconds (icount) say what a test does; host seconds say what it costs.
stamp() {
	local line
	grep --line-buffered -aE '^(Run /init |HARNESS: (tests begin|tests end|kmemleak end|dmesg end)|# [^ ]+: [0-9]+ s.?$)' |
		while IFS= read -r line; do
			printf '%(%s)T %s\n' -1 "${line%$'\r'}"
		done
}
start=$(date +%s)
printf '%s start\n' "$start" >"$log.host"
# shellcheck disable=SC2086
timeout -k 10 "$tmo" $qemu -nographic -no-reboot -vga none \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=$console loglevel=$loglevel panic=-1 harness.mode=$mode$params${append:+ $append}" \
	</dev/null 2>&1 | tee "$log" | stamp >>"$log.host"
rc=${PIPESTATUS[0]}
[ -z "$cg" ] || "$here/cpu-quota.sh" remove "$cg" || true
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "HARNESS-HOST: guest killed after ${tmo}s timeout" >>"$log"
fi
secs=$(( $(date +%s) - start ))
echo "HARNESS-HOST: qemu exit status $rc after ${secs}s" >>"$log"
# This machine's speed, as the guest saw it: guest seconds per host second.
gsecs=$(sed -n 's/^HARNESS: guest time \([0-9.]*\) s.*/\1/p' "$log" | tail -n 1)
if [ -n "$gsecs" ] && [ "$secs" -gt 0 ]; then
	echo "HARNESS-HOST: $gsecs s of guest time in ${secs} s: $(awk -v g="$gsecs" -v h="$secs" \
		'BEGIN { printf "%.2f", g / h }') guest s a host s" >>"$log"
fi
# What each phase cost in host seconds (stamp above), the costliest first:
# where the guest's share of `make check` goes, and the first place to look
# when it grows.
awk 'NR == 1 { t = $1; next }
	{ d = $1 - t; t = $1 }
	/ Run \/init / { if (!boot++) printf "boot %d\n", d; next }
	/ HARNESS: tests begin/ { printf "setup %d\n", d; next }
	/ HARNESS: tests end/ { next }
	/ HARNESS: kmemleak end/ { printf "kmemleak-scan %d\n", d; next }
	/ HARNESS: dmesg end/ { printf "dmesg %d\n", d; next }
	{ sub(/:$/, "", $3); printf "%s %d\n", $3, d }' "$log.host" | sort -k2,2nr |
	awk '{ s = s sep $1 " " $2 "s"; sep = ", " } END {
		if (s != "") print "HARNESS-HOST: host seconds, costliest first: " s }' >>"$log"
rm -f "$log.host"
# One line in the table of stage times (stage.sh, stage-table.sh).
if [ -n "${STAGE_LOG:-}" ]; then
	printf '%s\t%d\t%d\t%s\n' "$(date +%s)" "$secs" "$rc" "  guest $guest ($mode)" >> "$STAGE_LOG"
fi
exit 0
