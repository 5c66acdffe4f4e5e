#!/bin/bash
# Usage: run-guest.sh ARCH KERNEL INITRD MODE TIMEOUT LOG [PARAM...]
# Boots one guest under QEMU (software emulation) and writes its console to
# LOG; the PARAMs go on the kernel command line too (harness.fuzz_s=N). A
# guest still running after TIMEOUT seconds is killed and the log says so;
# the verdict counts it as failed.
set -uo pipefail
arch=$1 kernel=$2 initrd=$3 mode=$4 tmo=$5 log=$6
shift 6
params=${*:+ $*}
here=$(cd "$(dirname "$0")" && pwd)
eval "$(make -s -f - <<MK
include $here/arch/$arch.mk
all: ; @echo 'qemu="\$(QEMU_$arch)" console=\$(CONSOLE_$arch)'
MK
)"
loglevel=7
case $mode in run|bench) loglevel=4 ;; esac
# The capture benchmark writes up to a GiB a run into the guest's tmpfs.
[ "$mode" = bench ] && qemu=${qemu/-m 1G/-m 3G}
[ "$mode" = bench ] && qemu=${qemu/-cpu max/-cpu max,-erms,-fsrm}
start=$(date +%s)
# shellcheck disable=SC2086
timeout -k 10 "$tmo" $qemu -nographic -no-reboot -vga none \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=$console loglevel=$loglevel panic=-1 harness.mode=$mode$params" \
	</dev/null >"$log" 2>&1
rc=$?
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "HARNESS-HOST: guest killed after ${tmo}s timeout" >>"$log"
fi
echo "HARNESS-HOST: qemu exit status $rc after $(( $(date +%s) - start ))s" >>"$log"
exit 0
