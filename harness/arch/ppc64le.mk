# ppc64le guest: QEMU "pseries" under TCG (SLOF firmware, hvc console).
# The kernel is an SPLPAR guest, so vpa_dtl registers there.
KARCH_ppc64le     := powerpc
PERF_ARCH_ppc64le := powerpc
CROSS_ppc64le     := powerpc64le-linux-gnu-
KIMAGE_ppc64le    := vmlinux
KTARGET_ppc64le   := vmlinux
CONSOLE_ppc64le   := hvc0
# POWER10: QEMU 10 (bookworm-backports) emulates its DAWR, so the guest has
# a data breakpoint (QEMU 7.2's POWER9 has none, and Linux keeps DAWR off on
# POWER9).
QEMU_MACHINE_ppc64le := pseries,cap-htm=off
QEMU_ppc64le      := qemu-system-ppc64 -M $(QEMU_MACHINE_ppc64le) -cpu power10 -smp 2 -m 1G
# Variant guests of `make check` (run-guest.sh ppc64le:VARIANT): the same
# kernel and initramfs on our QEMU with one model on, running the tests that
# name ppc64le:VARIANT in tests.list. dtl: the hypervisor writes the
# Dispatch Trace Log (harness/qemu/patches/0001-spapr-dtl-model.patch).
VARIANTS_ppc64le  := dtl
ppc64le_comma     := ,
QEMU_ppc64le_dtl  := $(patsubst $(QEMU_MACHINE_ppc64le),$(QEMU_MACHINE_ppc64le)$(ppc64le_comma)dtl=on,$(QEMU_ppc64le))
# The dtl guest keeps instruction-counted time like the others (run-guest.sh)
# since our QEMU's 0012: a priority hint no longer counts as a preemption,
# which under -icount made the model refuse the boot CPU's DTL registration
# ("DTL registration of cpu 0 (hw 0) failed with -4", perf-vpa/boot_registration).
# The distribution-configuration build (build-kernel-distro.sh): Debian's
# config (linux-config-6.1, of DEB_ARCH and this flavour), our options, and what
# the series touches on this architecture.
DISTRO_FLAVOUR_ppc64le := powerpc64le
DISTRO_OPTS_ppc64le    := KUNIT PERF_AUX_TEST_PMU PERF_AUX_PAUSE_KUNIT_TEST VPA_DTL VPA_DTL_INJECT VPA_DTL_KUNIT_TEST
DISTRO_TARGETS_ppc64le := kernel/events/ arch/powerpc/perf/ arch/powerpc/kernel/time.o \
	arch/powerpc/kernel/hw_breakpoint.o arch/powerpc/kernel/process.o
# kselftests: the selftests' ARCH, and the directories built and run (their
# `config` fragments go into the guest kernel).
KSELFTEST_ARCH_ppc64le := powerpc
KSELFTEST_DIRS_ppc64le := perf_events breakpoints
# The guest's static busybox: no BUSYBOX_ppc64le, so Debian's busybox-static
# of DEB_ARCH_ppc64le, downloaded once into the cache (fetch-busybox.sh).
# Debian: the architecture's name (enabled as a foreign architecture: the
# guest's busybox and Debian's kernel configuration come from its archive),
# and what the host needs for this guest.
DEB_ARCH_ppc64le := ppc64el
DEPS_ppc64le     := qemu-system-ppc gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
# From bookworm-backports, at least this version (PACKAGE:VERSION): QEMU 10
# for POWER10's DAWR (it brings qemu-system-x86 10 along).
DEPS_BACKPORTS_ppc64le := qemu-system-ppc:1:10.0
# Upstream perf (Debian unstable's linux-perf of DEB_ARCH) in the guest as
# /usr/bin/perf-upstream, next to ours (harness/builds/upstream-perf.mk): the
# vpa_dtl tests decode with both and record with it.
UPSTREAM_PERF_ppc64le := yes
