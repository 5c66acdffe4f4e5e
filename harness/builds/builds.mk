# Stage "builds": the guest kernels, perf, the selftests, the samples and
# the initramfs of each architecture; perf and the kernel as distributions
# build them; Debian packages. Included by the Makefile at the root; see
# harness/builds/README.md.

# Guest kernel configuration: ours, then the `config` of every kselftest
# directory the guest runs (KSELFTEST_DIRS_<arch>). The test kernels add
# debug.config (lockdep and the sanitizers); the bench kernels
# (build/<arch>/kernel-bench) have bench.config instead. An architecture's
# own additions to debug.config are in debug-<arch>.config.
kfrags_base = $(H)/builds/configs/common.config $(H)/builds/configs/$(1).config \
	 $(wildcard $(addprefix $(SRC)/tools/testing/selftests/,$(addsuffix /config,$(KSELFTEST_DIRS_$(1)))))
kfrags = $(H)/builds/configs/debug.config $(wildcard $(H)/builds/configs/debug-$(1).config) \
	$(call kfrags_base,$(1))
kfrags_bench = $(call kfrags_base,$(1)) $(H)/builds/configs/bench.config

# A build that the cache holds from the same inputs is copied, not redone
# (artifact.sh: --scope KIND NAME OBJ SRC -- COMMAND).
ARTIFACT = $(H)/builds/artifact.sh

define arch_rules
kernel-$(1): tree
	@$$(STAGE) "kernel $(1)" $(ARTIFACT) --scope kernel kernel-$(1) $(BUILD)/$(1)/kernel $(SRC) -- \
		$(H)/builds/build-kernel.sh $(SRC) $(BUILD)/$(1)/kernel \
		$(KARCH_$(1)) "$(CROSS_$(1))" $(KTARGET_$(1)) $$(call kfrags,$(1))

# The bench kernel: as the test kernel, without lockdep and the sanitizers.
kernel-bench-$(1): tree
	@$$(STAGE) "kernel $(1) (bench)" $(H)/builds/build-kernel.sh $(SRC) $(BUILD)/$(1)/kernel-bench \
		$(KARCH_$(1)) "$(CROSS_$(1))" $(KTARGET_$(1)) $$(call kfrags_bench,$(1))

perf-$(1): tree
	@$$(STAGE) "perf $(1)" $(ARTIFACT) --scope perf perf-$(1) $(BUILD)/$(1)/perf $(SRC) -- \
		$(H)/builds/build-perf.sh $(SRC) $(BUILD)/$(1)/perf $(PERF_ARCH_$(1)) "$(CROSS_$(1))" \
		$(if $(CROSS_$(1)),"$$$$($(H)/fetch/fetch-devroot.sh $(DEB_ARCH_$(1)) $(CACHE))")

# What the series touches, built W=1 with Debian's own configuration. A
# build with a warning in a file of ours fails, so is never kept.
kernel-distro-$(1): tree
	@$$(STAGE) "kernel $(1), Debian config, W=1" $(ARTIFACT) --scope kernel kernel-distro-$(1) \
		$(BUILD)/$(1)/distro $(SRC) -- $(H)/builds/build-kernel-distro.sh $(SRC) $(BASEDIR) \
		$(BUILD)/$(1)/distro $(KARCH_$(1)) "$(CROSS_$(1))" \
		"$$$$($(H)/fetch/fetch-distro-config.sh $(DEB_ARCH_$(1)) $(DISTRO_FLAVOUR_$(1)) $(BASE_VERSION) $(CACHE))" \
		"$(DISTRO_OPTS_$(1))" $(DISTRO_TARGETS_$(1))

selftests-$(1): kernel-$(1)
	@$$(STAGE) "selftests $(1)" $(H)/builds/build-selftests.sh $(SRC) $(BUILD)/$(1)/selftests \
		$(BUILD)/$(1)/kernel $(KSELFTEST_ARCH_$(1)) "$(CROSS_$(1))" $(KSELFTEST_DIRS_$(1))

# The kernel samples the guests run (samples/perf/aux_consumer), static,
# against the same UAPI headers as the selftests.
samples-$(1): kernel-$(1)
	@$$(STAGE) "samples $(1)" $(H)/builds/build-samples.sh $(SRC) $(BUILD)/$(1)/samples \
		$(BUILD)/$(1)/kernel "$(CROSS_$(1))" $(1)

initramfs-$(1): perf-$(1) selftests-$(1) samples-$(1)
	@$$(STAGE) "initramfs $(1)" $(H)/builds/mkinitramfs.sh $(ROOT) $(BUILD)/$(1)/initramfs.cpio $(1) \
		$(BUILD)/$(1)/perf/perf $(SRC)/tools/perf/tests/shell $(BUILD)/$(1)/selftests \
		"$$$$($(H)/fetch/fetch-busybox.sh $(CACHE) '$(BUSYBOX_$(1))' '$(DEB_ARCH_$(1))')" "$(CROSS_$(1))" \
		$(BUILD)/$(1)/samples
	@$$(call fuzz_payload,$(1))
	@$$(call upstream_perf_payload,$(1))
endef
$(foreach a,$(ARCHES),$(eval $(call arch_rules,$(a))))

build: $(foreach a,$(ARCHES),initramfs-$(a))

# Debian packages of the patched kernel and of perf, for this machine's
# architecture (harness/README.md: "Debian packages"). Long: not in `make check`.
HOST_ARCH := $(firstword $(foreach a,x86_64 ppc64le,$(if $(filter $(shell dpkg --print-architecture 2>/dev/null),$(DEB_ARCH_$(a))),$(a))))
deb: deps tree
	@$(STAGE) "deb ($(HOST_ARCH))" env DISTRO_FLAVOUR=$(DISTRO_FLAVOUR_$(HOST_ARCH)) \
		BASE_VERSION=$(BASE_VERSION) CACHE=$(CACHE) $(H)/builds/deb.sh $(SRC) $(BUILD)/deb $(DEB_CONFIG)

# perf for one more architecture that overrides auxtrace_record__init():
# arm64, cross and static like the guests' perfs, WERROR=1; under qemu-user,
# 'perf record -e aux_test//' reaching aux_test's recording (perf-arm64.sh).
perf-arm64: tree
	@$(STAGE) "perf arm64 (cross, qemu-user)" $(H)/builds/perf-arm64.sh $(SRC) $(BUILD)/arm64/perf \
		"$$($(H)/fetch/fetch-devroot.sh arm64 $(CACHE))"

# perf as distributions build it: the host's, default features, WERROR=1.
perf-distro: tree
	@$(STAGE) "perf, distribution-style" $(H)/builds/build-perf-distro.sh $(SRC) $(BUILD)/perf-distro
