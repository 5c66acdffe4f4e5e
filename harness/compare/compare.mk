# Stage "compare" (not in `make check`): upstream's kernel beside ours, on
# the same QEMU, models, initramfs and perf, under the same tests.
# Included by the Makefile at the root; see harness/compare/README.md.

UPSTREAM_KDIR := $(CACHE)/base/$(UPSTREAM_KERNEL_VERSION)
UPSTREAM_BUILD := $(BUILD)/upstream

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
	@$(H)/guests/run-guest.sh $(1) $(UPSTREAM_BUILD)/$(call guest_arch,$(1))/kernel/$(KIMAGE_$(call guest_arch,$(1))) \
		$(BUILD)/$(call guest_arch,$(1))/initramfs.cpio.gz check $(TIMEOUT) $(call upstream_log,$(1))
endef
$(foreach g,$(CHECK_GUEST_ORDER),$(eval $(call compare_guest_rule,$(g))))
compare-guests: $(foreach g,$(CHECK_GUEST_ORDER),$(call guest_target,$(g)) $(call upstream_guest_target,$(g)))

# COMPARE_GUESTS=upstream boots only upstream's, and compares with the logs
# ours left (the last `make check`): half the cost, for work on this stage.
COMPARE_GUESTS ?= both
compare: build qemu $(foreach a,$(ARCHES),upstream-kernel-$(a))
	@$(STAGE) "boot + tests (ours and upstream's kernel)" $(MAKE) -s --no-print-directory -j$(GUEST_JOBS) \
		$(if $(filter upstream,$(COMPARE_GUESTS)),$(foreach g,$(CHECK_GUEST_ORDER),$(call upstream_guest_target,$(g))),compare-guests)
	@$(STAGE) "compare" python3 $(H)/compare/compare.py --kunit-dir $(SRC)/tools/testing/kunit \
		--skips $(H)/guests/skips.list --explained $(H)/compare/differences.list --table $(BUILD)/compare.txt \
		$(foreach g,$(CHECK_GUEST_ORDER),$(g)=$(call guest_log,check,$(g)),$(call upstream_log,$(g)))

.PHONY: upstream-kernel-source $(foreach a,$(ARCHES),upstream-kernel-$(a)) compare compare-guests \
	$(foreach g,$(CHECK_GUEST_ORDER),$(call upstream_guest_target,$(g)))
