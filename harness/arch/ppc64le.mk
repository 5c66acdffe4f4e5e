# ppc64le guest: QEMU "pseries" under TCG (SLOF firmware, hvc console).
# The kernel is an SPLPAR guest, so vpa_dtl registers there.
KARCH_ppc64le     := powerpc
PERF_ARCH_ppc64le := powerpc
CROSS_ppc64le     := powerpc64le-linux-gnu-
KIMAGE_ppc64le    := vmlinux
KTARGET_ppc64le   := vmlinux
CONSOLE_ppc64le   := hvc0
QEMU_ppc64le      := qemu-system-ppc64 -M pseries,cap-htm=off -cpu power9 -smp 2 -m 1G
