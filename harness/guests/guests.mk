# Stage "guests": booting the guests on our QEMU, in every mode (check,
# run, bench, the harness self-test, onetb). Included by the Makefile at the
# root; see harness/guests/README.md.

# Guests: an architecture (x86_64), or one with a model of our QEMU on
# (ppc64le:dtl, VARIANTS_<arch> of harness/arch/<arch>.mk), which boots the
# architecture's kernel and initramfs. guest_log MODE,GUEST: its console log.
VARIANT_GUESTS = $(strip $(foreach a,$(ARCHES),$(addprefix $(a):,$(VARIANTS_$(a)))))
guest_arch = $(firstword $(subst :, ,$(1)))
guest_log = $(BUILD)/$(call guest_arch,$(2))/$(1)$(if $(findstring :,$(2)),-$(lastword $(subst :, ,$(2)))).log

# Boot the guests at once (they are independent), then judge all logs.
boot = $(foreach g,$(2),$(H)/guests/run-guest.sh $(g) $(BUILD)/$(call guest_arch,$(g))/kernel/$(KIMAGE_$(call guest_arch,$(g))) \
	$(BUILD)/$(call guest_arch,$(g))/initramfs.cpio $(1) $(TIMEOUT) $(call guest_log,$(1),$(g)) &) wait


# The guests of `make check`, as many at a time as the machine has cores:
# each keeps time by its instruction count (run-guest.sh), so QEMU runs its
# vCPUs in one thread, and one guest a core keeps the cores busy to the end.
# The order packs two lanes: x86_64:pmu and ppc64le start together (the two
# longest), x86_64 follows ppc64le and ppc64le:dtl follows x86_64:pmu (the
# host seconds of each are in its log: run-guest.sh), the three harness
# self-test guests (guests that go wrong on purpose) last.
GUEST_JOBS ?= $(shell nproc)
# Knobs that show the verdict does not depend on the machine's speed
# (harness/README.md, "Time in the guests, and a slow machine"):
# GUEST_SLOW=FACTOR gives every guest 1/FACTOR of a CPU (run-guest.sh,
# cpu-quota.sh); BUSY_LOOPS=N runs N busy loops beside the guests (busy.sh).
BUSY_LOOPS ?= 0
export GUEST_SLOW
SELFTESTS := fail:failed-test hang:timeout warn:splat
SELFTEST_TIMEOUT_fail := 600
SELFTEST_TIMEOUT_hang := 30
SELFTEST_TIMEOUT_warn := 600
guest_target = guest-check-$(subst :,-,$(1))
CHECK_GUEST_ORDER = $(filter $(ARCHES) $(VARIANT_GUESTS),x86_64:pmu ppc64le x86_64 ppc64le:dtl) \
	$(filter-out x86_64:pmu ppc64le x86_64 ppc64le:dtl,$(ARCHES) $(VARIANT_GUESTS))
.PHONY: check-guests $(foreach g,$(CHECK_GUEST_ORDER),$(call guest_target,$(g))) \
	$(foreach t,$(SELFTESTS),selftest-guest-$(firstword $(subst :, ,$(t))))
check-guests: $(foreach g,$(CHECK_GUEST_ORDER),$(call guest_target,$(g))) \
	$(foreach t,$(SELFTESTS),selftest-guest-$(firstword $(subst :, ,$(t))))
define check_guest_rule
$(call guest_target,$(1)):
	@$(H)/guests/run-guest.sh $(1) $(BUILD)/$(call guest_arch,$(1))/kernel/$(KIMAGE_$(call guest_arch,$(1))) \
		$(BUILD)/$(call guest_arch,$(1))/initramfs.cpio check $(TIMEOUT) $(call guest_log,check,$(1))
endef
$(foreach g,$(CHECK_GUEST_ORDER),$(eval $(call check_guest_rule,$(g))))

# The x86_64:onetb guest (harness/arch/x86_64.mk): the pause/resume stress
# with one instruction per translation block. Long (its boot alone takes
# about 7 minutes): not in `make check`; see harness/README.md.
ONETB_TIMEOUT ?= 7200
check-onetb: build qemu
	@$(STAGE) "boot + tests (x86_64:onetb)" $(H)/guests/run-guest.sh x86_64:onetb \
		$(BUILD)/x86_64/kernel/$(KIMAGE_x86_64) $(BUILD)/x86_64/initramfs.cpio check \
		$(ONETB_TIMEOUT) $(call guest_log,check,x86_64:onetb)
	@$(H)/verdict/verdict.py --kunit-dir $(SRC)/tools/testing/kunit --skips $(H)/guests/skips.list \
		x86_64:onetb=$(call guest_log,check,x86_64:onetb)

# The harness self-test: three x86_64 guests that go wrong on purpose.
SELFTEST_ARCH := $(firstword $(ARCHES))
define selftest_guest_rule
selftest-guest-$(1):
	@$(H)/guests/run-guest.sh $(SELFTEST_ARCH) $(BUILD)/$(SELFTEST_ARCH)/kernel/$(KIMAGE_$(SELFTEST_ARCH)) \
		$(BUILD)/$(SELFTEST_ARCH)/initramfs.cpio selftest-$(1) $(SELFTEST_TIMEOUT_$(1)) $(BUILD)/selftest-$(1).log
endef
$(foreach t,$(SELFTESTS),$(eval $(call selftest_guest_rule,$(firstword $(subst :, ,$(t))))))

selftest-logs: $(foreach t,$(SELFTESTS),selftest-guest-$(firstword $(subst :, ,$(t))))

selftest-harness: initramfs-$(SELFTEST_ARCH) qemu
	@$(MAKE) -s --no-print-directory -j$(GUEST_JOBS) selftest-logs
	@$(H)/verdict/verdict.py --kunit-dir $(SRC)/tools/testing/kunit $(foreach t,$(SELFTESTS),--selftest $(t)=$(BUILD)/selftest-$(firstword $(subst :, ,$(t))).log)

run: build qemu
	@$(STAGE) "boot ($(ARCHES))" bash -c '$(call boot,run,$(ARCHES))'
	@$(H)/verdict/verdict.py --demo $(foreach a,$(ARCHES),$(a)=$(BUILD)/$(a)/run.log)

# Benchmarks print numbers; they never pass or fail on them. The guests
# run one after the other: each has two vCPUs, as many as this machine's
# cores, and a figure is only worth what the idle machine gives. The
# figures are also written as build/bench/<arch>.json and plotted in
# build/bench/<arch>.png (harness/verdict/bench-report.py).
BENCH_ARCHES ?= $(ARCHES)
# BENCH_VERSUS=1: then the ratios of ours to upstream's kernel on Intel PT
# (bench-versus, harness/compare/compare.mk), when x86_64 is benched, and
# on the DTL model (bench-versus-dtl), when ppc64le is.
BENCH_VERSUS ?= 1
bench_boot = $(foreach a,$(BENCH_ARCHES),$(H)/guests/run-guest.sh $(a) $(BUILD)/$(a)/kernel-bench/$(KIMAGE_$(a)) \
	$(BUILD)/$(a)/initramfs.cpio bench $(TIMEOUT) $(BUILD)/$(a)/bench.log;)
bench:
	@$(MAKE) --no-print-directory build qemu $(foreach a,$(BENCH_ARCHES),kernel-bench-$(a)) ARCHES="$(BENCH_ARCHES)"
	@$(STAGE) "benchmark ($(BENCH_ARCHES), bench kernels)" bash -c '$(bench_boot)'
	@$(H)/verdict/verdict.py --demo $(foreach a,$(BENCH_ARCHES),$(a)=$(BUILD)/$(a)/bench.log)
	@$(H)/verdict/bench-report.py $(BUILD)/bench $(foreach a,$(BENCH_ARCHES),$(a)=$(BUILD)/$(a)/bench.log)
	$(if $(filter 1,$(BENCH_VERSUS)),$(if $(filter x86_64,$(BENCH_ARCHES)),@$(MAKE) --no-print-directory bench-versus))
	$(if $(filter 1,$(BENCH_VERSUS)),$(if $(filter ppc64le,$(BENCH_ARCHES)),@$(MAKE) --no-print-directory bench-versus-dtl))
