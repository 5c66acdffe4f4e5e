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
kernel=$2 initrd=$3 mode=$4 tmo=$5 log=$6
shift 6
params=${*:+ $*}${variant:+ harness.variant=$variant}
here=$(cd "$(dirname "$0")" && pwd)
eval "$(make -s -f - <<MK
include $here/arch/$arch.mk
all: ; @echo 'qemu="\$(QEMU_$arch${variant:+_$variant})" console=\$(CONSOLE_$arch) append="\$(APPEND_$arch${variant:+_$variant})"'
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
case $mode in run|bench) loglevel=4 ;; esac
# The capture benchmark writes up to a GiB a run into the guest's tmpfs.
[ "$mode" = bench ] && qemu=${qemu/-m 1G/-m 3G}
[ "$mode" = bench ] && qemu=${qemu/-cpu max/-cpu max,-erms,-fsrm}
start=$(date +%s)
# shellcheck disable=SC2086
timeout -k 10 "$tmo" $qemu -nographic -no-reboot -vga none \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=$console loglevel=$loglevel panic=-1 harness.mode=$mode$params${append:+ $append}" \
	</dev/null >"$log" 2>&1
rc=$?
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "HARNESS-HOST: guest killed after ${tmo}s timeout" >>"$log"
fi
echo "HARNESS-HOST: qemu exit status $rc after $(( $(date +%s) - start ))s" >>"$log"
exit 0
