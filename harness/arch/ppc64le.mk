# ppc64le guest: QEMU "pseries" under TCG (SLOF firmware, hvc console).
# The kernel is an SPLPAR guest, so vpa_dtl registers there.
KARCH_ppc64le     := powerpc
PERF_ARCH_ppc64le := powerpc
CROSS_ppc64le     := powerpc64le-linux-gnu-
KIMAGE_ppc64le    := vmlinux
KTARGET_ppc64le   := vmlinux
CONSOLE_ppc64le   := hvc0
QEMU_ppc64le      := qemu-system-ppc64 -M pseries,cap-htm=off -cpu power9 -smp 2 -m 1G
# The distribution-configuration build (build-kernel-distro.sh): Debian's
# config (linux-config-6.1: architecture, flavour), our options, and what
# the series touches on this architecture.
DISTRO_CONFIG_ppc64le  := ppc64el powerpc64le
DISTRO_OPTS_ppc64le    := KUNIT PERF_AUX_TEST_PMU PERF_AUX_PAUSE_KUNIT_TEST VPA_DTL VPA_DTL_INJECT VPA_DTL_KUNIT_TEST
DISTRO_TARGETS_ppc64le := kernel/events/ arch/powerpc/perf/ arch/powerpc/kernel/time.o
# kselftests: the selftests' ARCH, and the directories built and run (their
# `config` fragments go into the guest kernel).
KSELFTEST_ARCH_ppc64le := powerpc
KSELFTEST_DIRS_ppc64le := perf_events breakpoints
# The guest's static busybox: Debian's busybox-static for this Debian
# architecture, downloaded once into the cache (fetch-busybox.sh).
BUSYBOX_DEB_ARCH_ppc64le := ppc64el
