# Stage "compare" (not in `make check`): upstream's kernel beside ours, on
# the same QEMU, models, initramfs and perf, under the same tests.
# Included by the Makefile at the root; see harness/compare/README.md.

UPSTREAM_KDIR := $(CACHE)/base/$(UPSTREAM_KERNEL_VERSION)
UPSTREAM_BUILD := $(BUILD)/upstream

# The arches whose upstream guest kernel is its bench kernel (the guest
# configuration without lockdep and the sanitizers): 7.2.13 built with
# ppc64le's debug configuration does not boot in our pseries guest (it
# warns in format_decode() from early_setup()'s first printk, and the
# report of it crashes: differences.list). UPSTREAM_BENCH_ARCHES= tries
# the debug kernel there too.
UPSTREAM_BENCH_ARCHES ?= ppc64le
upstream_kernel_target = upstream-kernel-$(if $(filter $(1),$(UPSTREAM_BENCH_ARCHES)),bench-)$(1)
upstream_kernel = $(UPSTREAM_BUILD)/$(1)/kernel$(if $(filter $(1),$(UPSTREAM_BENCH_ARCHES)),-bench)/$(KIMAGE_$(1))

upstream-kernel-source:
	@$(STAGE) "upstream kernel source ($(UPSTREAM_KERNEL_VERSION))" $(H)/compare/fetch-upstream-kernel.sh \
		$(UPSTREAM_KERNEL_PACKAGE) $(UPSTREAM_KERNEL_VERSION) $(UPSTREAM_KERNEL_SHA256) $(CACHE)

# Upstream's guest kernel: the guest configuration of ours (the same
# fragments, lockdep and the sanitizers included), without the options
# upstream does not declare (KCONFIG_KNOWN_ONLY: kconfig.sh drops them),
# with what it needs besides (upstream*.config here).
define compare_arch_rules
upstream-kernel-$(1): upstream-kernel-source tree
	@KCONFIG_KNOWN_ONLY=1 $$(STAGE) "upstream kernel $(1)" $(H)/builds/build-kernel.sh $(UPSTREAM_KDIR) \
		$(UPSTREAM_BUILD)/$(1)/kernel $(KARCH_$(1)) "$(CROSS_$(1))" $(KTARGET_$(1)) \
		$$(call kfrags,$(1)) $(H)/compare/upstream.config $(wildcard $(H)/compare/upstream-$(1).config)

# Upstream's newer tests (upstream-tests.list): the 7.2 tree's kselftests,
# built as ours are, against its UAPI headers; and the guest's initramfs
# with them and that list.
upstream-selftests-$(1): $(call upstream_kernel_target,$(1))
	@$$(STAGE) "upstream selftests $(1)" $(H)/builds/build-selftests.sh $(UPSTREAM_KDIR) \
		$(UPSTREAM_BUILD)/$(1)/selftests $$(dir $(call upstream_kernel,$(1))) $(KSELFTEST_ARCH_$(1)) \
		"$(CROSS_$(1))" perf_events breakpoints
newer-initramfs-$(1): initramfs-$(1) upstream-selftests-$(1)
	@$$(STAGE) "initramfs $(1) (upstream's newer tests)" $(H)/compare/newer-initramfs.sh \
		$(BUILD)/$(1)/initramfs.cpio $(UPSTREAM_BUILD)/$(1)/initramfs-newer.cpio \
		$(UPSTREAM_BUILD)/$(1)/selftests $(H)/compare

# Upstream's bench kernel (`make bench`'s ratios): our bench configuration
# (no lockdep or sanitizers), the same way.
upstream-kernel-bench-$(1): upstream-kernel-source tree
	@KCONFIG_KNOWN_ONLY=1 $$(STAGE) "upstream kernel $(1) (bench)" $(H)/builds/build-kernel.sh $(UPSTREAM_KDIR) \
		$(UPSTREAM_BUILD)/$(1)/kernel-bench $(KARCH_$(1)) "$(CROSS_$(1))" $(KTARGET_$(1)) \
		$$(call kfrags_bench,$(1)) $(H)/compare/upstream.config $(wildcard $(H)/compare/upstream-$(1).config)
endef
$(foreach a,$(ARCHES),$(eval $(call compare_arch_rules,$(a))))

# Each guest of `make check` (CHECK_GUEST_ORDER: harness/guests/guests.mk)
# twice: ours (the targets of `make check`, logs in build/<arch>/) and
# upstream's, with the same initramfs and QEMU command line (logs in
# build/upstream/<arch>/). The pairs go in `make check`'s order, as many
# guests at a time as the machine has cores (GUEST_JOBS).
upstream_log = $(UPSTREAM_BUILD)/$(call guest_arch,$(1))/check$(if $(findstring :,$(1)),-$(lastword $(subst :, ,$(1)))).log
upstream_guest_target = upstream-guest-$(subst :,-,$(1))
define compare_guest_rule
$(call upstream_guest_target,$(1)):
	@$(H)/guests/run-guest.sh $(1) $(call upstream_kernel,$(call guest_arch,$(1))) \
		$(BUILD)/$(call guest_arch,$(1))/initramfs.cpio check $(TIMEOUT) $(call upstream_log,$(1))
endef
$(foreach g,$(CHECK_GUEST_ORDER),$(eval $(call compare_guest_rule,$(g))))
compare-guests: $(foreach g,$(CHECK_GUEST_ORDER),$(call guest_target,$(g)) $(call upstream_guest_target,$(g)))

# Upstream's newer tests in NEWER_GUESTS, on each kernel: logs
# build/<arch>/newer[-variant].log (ours) and build/upstream/<arch>/ (its).
# Upstream perf's whole perf test is long: NEWER_TIMEOUT host seconds.
NEWER_GUESTS ?= x86_64:pmu ppc64le
NEWER_TIMEOUT ?= 14400
newer_log = $(if $(filter upstream,$(2)),$(UPSTREAM_BUILD),$(BUILD))/$(call guest_arch,$(1))/newer$(if $(findstring :,$(1)),-$(lastword $(subst :, ,$(1)))).log
newer_kernel = $(if $(filter upstream,$(2)),$(call upstream_kernel,$(call guest_arch,$(1))),$(BUILD)/$(call guest_arch,$(1))/kernel/$(KIMAGE_$(call guest_arch,$(1))))
define newer_guest_rule
newer-guest-$(2)-$(subst :,-,$(1)):
	@$(H)/guests/run-guest.sh $(1) $(call newer_kernel,$(1),$(2)) \
		$(UPSTREAM_BUILD)/$(call guest_arch,$(1))/initramfs-newer.cpio check $(NEWER_TIMEOUT) $(call newer_log,$(1),$(2))
endef
$(foreach g,$(NEWER_GUESTS),$(foreach k,ours upstream,$(eval $(call newer_guest_rule,$(g),$(k)))))
newer_guest_targets = $(foreach g,$(NEWER_GUESTS),$(if $(filter upstream,$(COMPARE_GUESTS)),,newer-guest-ours-$(subst :,-,$(g))) \
	newer-guest-upstream-$(subst :,-,$(g)))

# COMPARE_GUESTS=upstream boots only upstream's, and compares with the logs
# ours left (the last `make check`): half the cost, for work on this stage.
COMPARE_GUESTS ?= both
compare: build qemu $(foreach a,$(ARCHES),$(call upstream_kernel_target,$(a)))
	@$(MAKE) --no-print-directory $(foreach a,$(sort $(foreach g,$(NEWER_GUESTS),$(call guest_arch,$(g)))),newer-initramfs-$(a))
	@$(STAGE) "boot + tests (ours and upstream's kernel)" $(MAKE) -s --no-print-directory -j$(GUEST_JOBS) \
		$(if $(filter upstream,$(COMPARE_GUESTS)),$(foreach g,$(CHECK_GUEST_ORDER),$(call upstream_guest_target,$(g))),compare-guests)
	@$(STAGE) "boot + upstream's newer tests (ours and upstream's kernel)" $(MAKE) -s --no-print-directory \
		-j$(GUEST_JOBS) $(newer_guest_targets)
	@$(STAGE) "compare" python3 $(H)/compare/compare.py --kunit-dir $(SRC)/tools/testing/kunit \
		--skips $(H)/guests/skips.list --explained $(H)/compare/differences.list --table $(BUILD)/compare.txt \
		$(foreach g,$(CHECK_GUEST_ORDER),$(g)=$(call guest_log,check,$(g)),$(call upstream_log,$(g))) \
		$(foreach g,$(NEWER_GUESTS),$(g)+newer=$(call newer_log,$(g),ours),$(call newer_log,$(g),upstream))

# make bench's ratios, ours to upstream's, on Intel PT: the x86_64:ptbench
# guest (our QEMU's PT model, harness/arch/x86_64.mk) in mode bench-pt
# (harness/guests/in-guest/bench-pt) with our bench kernel and upstream's
# in turn, BENCH_VERSUS_BOOTS times each (ours, upstream's, ours,
# upstream's), with the same QEMU, CPU flags, initramfs and perf. Unlike
# make bench's other figures, these are in guest time, which follows the
# instruction count (run-guest.sh): what each kernel's code costs, the same
# on a fast machine, a slow or a busy one; the boots show how much it
# varies all the same.
BENCH_VERSUS_BOOTS ?= 2
compare_comma := ,
compare_space := $(subst ,, )
bench_versus_n = $(shell seq $(BENCH_VERSUS_BOOTS))
# versus_log SIDE ARCH MODE I: the log of boot I of that side's bench kernel
versus_log = $(if $(filter upstream,$(1)),$(UPSTREAM_BUILD),$(BUILD))/$(2)/$(3)-$(4).log
versus_logs = $(subst $(compare_space),$(compare_comma),$(foreach i,$(bench_versus_n),$(call versus_log,$(1),$(2),$(3),$(i))))
# versus_boots GUEST MODE: the shell commands that boot ours, upstream's,
# ours, upstream's... in GUEST, in MODE
versus_boots = $(foreach i,$(bench_versus_n), \
	$(H)/guests/run-guest.sh $(1) $(BUILD)/$(call guest_arch,$(1))/kernel-bench/$(KIMAGE_$(call guest_arch,$(1))) \
		$(BUILD)/$(call guest_arch,$(1))/initramfs.cpio $(2) $(TIMEOUT) $(call versus_log,ours,$(call guest_arch,$(1)),$(2),$(i)) && \
	$(H)/guests/run-guest.sh $(1) $(UPSTREAM_BUILD)/$(call guest_arch,$(1))/kernel-bench/$(KIMAGE_$(call guest_arch,$(1))) \
		$(BUILD)/$(call guest_arch,$(1))/initramfs.cpio $(2) $(TIMEOUT) $(call versus_log,upstream,$(call guest_arch,$(1)),$(2),$(i)) &&) true
bench-versus: upstream-kernel-bench-x86_64
	@$(MAKE) --no-print-directory qemu initramfs-x86_64 kernel-bench-x86_64 ARCHES=x86_64
	@$(STAGE) "benchmark versus upstream (x86_64:ptbench, $(BENCH_VERSUS_BOOTS) boots of each bench kernel)" \
		bash -c '$(call versus_boots,x86_64:ptbench,bench-pt)'
	@$(H)/verdict/bench-report.py --versus $(BUILD)/bench x86_64 \
		$(call versus_logs,ours,x86_64,bench-pt) $(call versus_logs,upstream,x86_64,bench-pt)

# The same for vpa_dtl: the ppc64le:dtl guest (our QEMU's DTL model) in
# mode bench-dtl-hv (harness/guests/in-guest/bench-dtl-hv): the poll's
# share of CPU 0 on each kernel, and their ratio.
bench-versus-dtl: upstream-kernel-bench-ppc64le
	@$(MAKE) --no-print-directory qemu initramfs-ppc64le kernel-bench-ppc64le ARCHES=ppc64le
	@$(STAGE) "benchmark versus upstream (ppc64le:dtl, $(BENCH_VERSUS_BOOTS) boots of each bench kernel)" \
		bash -c '$(call versus_boots,ppc64le:dtl,bench-dtl-hv)'
	@$(H)/verdict/bench-report.py --versus $(BUILD)/bench ppc64le \
		$(call versus_logs,ours,ppc64le,bench-dtl-hv) $(call versus_logs,upstream,ppc64le,bench-dtl-hv)

.PHONY: bench-versus bench-versus-dtl upstream-kernel-source $(foreach a,$(ARCHES),upstream-kernel-$(a) upstream-kernel-bench-$(a) \
	upstream-selftests-$(a) newer-initramfs-$(a)) $(newer_guest_targets) compare compare-guests \
	$(foreach g,$(CHECK_GUEST_ORDER),$(call upstream_guest_target,$(g)))
