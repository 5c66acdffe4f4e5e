# x86_64 guest: QEMU "pc" under TCG. "-cpu max" exposes the debug registers
# (DR0-DR7) that hardware breakpoints need.
KARCH_x86_64      := x86_64
PERF_ARCH_x86_64  := x86
CROSS_x86_64      :=
KIMAGE_x86_64     := arch/x86/boot/bzImage
KTARGET_x86_64    := bzImage
CONSOLE_x86_64    := ttyS0
QEMU_x86_64       := qemu-system-x86_64 -M pc -cpu max -smp 2 -m 1G
# Variant guests of `make check` (run-guest.sh x86_64:VARIANT), which run the
# entries that name x86_64:VARIANT in tests.list. pmu: our QEMU's models of
# architectural performance monitoring version 2 (harness/qemu/patches/
# 0004-i386-pmu-model.patch) and of the branch trace store, whose interrupt
# is that PMU's (0005-i386-bts-model.patch), and of Intel Processor Trace
# (0007-i386-pt-registers.patch: enumeration and MSRs; 0008-i386-pt-output
# .patch: ToPA output, the packets at the edges of tracing and of control
# flow, with one PAD byte of filler for every traced instruction,
# tcg-pt-fill=1, so that buffers fill within a test; 0009-i386-pt-pip
# .patch: PIP; 0010-i386-pt-timing.patch: MTC, TMA and CPUID leaf 15H),
# on an Intel CPU that Linux's Intel PMU driver
# knows by no model number (family 6, model 255: "generic architected
# perfmon"), so that the stock guest stays as it is.
# Its Intel PT takes, wherever the manual leaves the processor a choice,
# the one least convenient to software (0013-i386-pt-buffer.patch: a 1 KiB
# internal buffer that reaches memory up to 16 blocks late, output MSRs
# that read stale while tracing, ToPA entries cached from TraceEn's
# setting, a ToPA PMI 16 blocks late; 0014-i386-pt-compress.patch: IP
# and RET compression). ovf: the same, with an internal buffer overflow
# (OVF) every 16th time the buffer would drain, for the tests of lost
# trace (pt/overflow); every other PT test runs in the pmu guest, without.
VARIANTS_x86_64   := pmu ovf
x86_64_comma      := ,
QEMU_x86_64_pmu   := $(subst -cpu max,-cpu max$(x86_64_comma)vendor=GenuineIntel$(x86_64_comma)family=6$(x86_64_comma)model=255$(x86_64_comma)tcg-pmu=on$(x86_64_comma)tcg-bts=on$(x86_64_comma)tcg-pt=on$(x86_64_comma)tcg-pt-fill=1$(x86_64_comma)tcg-pt-buffer=1024$(x86_64_comma)tcg-pt-compress=on,$(QEMU_x86_64))
QEMU_x86_64_ovf   := $(subst tcg-pt-compress=on,tcg-pt-compress=on$(x86_64_comma)tcg-pt-ovf=16,$(QEMU_x86_64_pmu))
# ptbench (not in `make check`: make bench's ratios to upstream's kernel,
# harness/compare/compare.mk): the pmu guest without the filler PAD bytes
# (tcg-pt-fill), so that the trace is what a program's branches make.
QEMU_x86_64_ptbench := $(subst tcg-pt-fill=1$(x86_64_comma),,$(QEMU_x86_64_pmu))
# onetb (not in `make check`: `make check-onetb`, harness/README.md): the pmu guest with
# one guest instruction per translation block, so that an interrupt (the
# PMI of a counter or of BTS, an NMI) can come between any two instructions,
# as on silicon, not only between blocks. Guest time follows the instruction
# count (-icount, 2 ns an instruction, no sleeping), so that timers, RCU and
# the watchdogs see a slow CPU rather than a stalled one (with host time the
# boot stalls and soft-locks); kmemleak's scans of the whole memory, which
# would take longer than the tests, are off there (the pmu guest runs them).
QEMU_x86_64_onetb := $(QEMU_x86_64_pmu) -accel tcg,one-insn-per-tb=on -icount shift=1,sleep=off
APPEND_x86_64_onetb := kmemleak=off
# The distribution-configuration build (build-kernel-distro.sh): Debian's
# config (linux-config-6.1, of DEB_ARCH and this flavour), our options, and what
# the series touches on this architecture.
DISTRO_FLAVOUR_x86_64 := amd64
DISTRO_OPTS_x86_64    := KUNIT PERF_AUX_TEST_PMU PERF_AUX_PAUSE_KUNIT_TEST
DISTRO_TARGETS_x86_64 := kernel/events/ arch/x86/events/
# kselftests: the selftests' ARCH, and the directories built and run (their
# `config` fragments go into the guest kernel).
KSELFTEST_ARCH_x86_64 := x86
KSELFTEST_DIRS_x86_64 := perf_events breakpoints
# The guest's static busybox: the host's own (busybox-static, deps.sh).
BUSYBOX_x86_64    := /bin/busybox
# Debian: the architecture's name, and what the host needs for this guest.
DEB_ARCH_x86_64 := amd64
DEPS_x86_64     := qemu-system-x86
# Upstream perf in the guest as /usr/bin/perf-upstream (harness/builds/upstream-perf.mk):
# upstream's own Intel PT test (pt/perf_tests) and the comparisons (about 20 MB
# more initramfs).
UPSTREAM_PERF_x86_64 := yes
