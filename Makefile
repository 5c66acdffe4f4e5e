# perf AUX series: fetch the pinned base, assemble the tree, build the guest
# kernels, perf and the selftests, boot QEMU guests and judge the results.
# README.md explains the layout and the workflow; `make help` lists targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

ROOT    := $(CURDIR)
CACHE   ?= $(HOME)/.cache/perf-aux
BUILD   ?= $(ROOT)/build
SRC     := $(BUILD)/linux
ARCHES  ?= x86_64 ppc64le
# Host-side limit for one guest's whole run, in seconds: the last resort
# for a guest that stops making progress, far above what a slow machine
# needs (the guests' own limits are in guest time: run-guest.sh).
TIMEOUT ?= 3600

include harness/base.mk
include $(wildcard harness/arch/*.mk)
include harness/fuzz.mk
include harness/upstream-perf.mk
include harness/qemu/qemu.mk

BASEDIR := $(CACHE)/base/$(BASE_VERSION)
BASEGIT := $(CACHE)/base/$(BASE_VERSION).git
SERIES  := $(BUILD)/series
H       := $(ROOT)/harness
STAGE   := $(H)/stage.sh
# Every stage's time, for the table at the end of `make check`
# (harness/stage-table.sh); the check target starts it anew.
export STAGE_LOG ?= $(BUILD)/stages.tsv

# ccache lives in the cache so that a fresh clone (CI) reuses it; paths are
# hashed relative to the clone, so the clone's location does not matter.
export CCACHE_DIR      ?= $(CACHE)/ccache
export CCACHE_BASEDIR  := $(ROOT)
export CCACHE_NOHASHDIR := 1
export CCACHE_MAXSIZE  ?= 10G

# Guest kernel configuration: ours, then the `config` of every kselftest
# directory the guest runs (KSELFTEST_DIRS_<arch>). The test kernels add
# debug.config (lockdep and the sanitizers); the bench kernels
# (build/<arch>/kernel-bench) have bench.config instead.
kfrags_base = $(H)/configs/common.config $(H)/configs/$(1).config \
	 $(wildcard $(addprefix $(SRC)/tools/testing/selftests/,$(addsuffix /config,$(KSELFTEST_DIRS_$(1)))))
kfrags = $(H)/configs/debug.config $(call kfrags_base,$(1))
kfrags_bench = $(call kfrags_base,$(1)) $(H)/configs/bench.config

.PHONY: help deps base tree refresh renumber build check check-stages run selftest-harness clean distclean \
	base-versions selftest-logs check-onetb bench checkpatch series series-check bisect verdict-test perf-distro perf-arm64 deb $(foreach a,$(ARCHES),kernel-$(a) kernel-bench-$(a) kernel-distro-$(a) perf-$(a) selftests-$(a) samples-$(a) initramfs-$(a))

help:
	@echo "make run        build everything, boot the guests, show the series at work"
	@echo "make check      build everything, boot the guests, run all tests (exit 0 = all passed)"
	@echo "make check-onetb   the pause/resume stress on one instruction per block (x86_64:onetb; long, not in check)"
	@echo "make tree       assemble $(SRC) (base + sparse tree + patches/)"
	@echo "make refresh    bring edits made in $(SRC) back into the repository"
	@echo "make renumber   number patches/ in the order of patches/series"
	@echo "make build      kernels, perf, selftests and initramfs for: $(ARCHES)"
	@echo "make kernel-ARCH | perf-ARCH | selftests-ARCH | samples-ARCH | initramfs-ARCH   one piece"
	@echo "make kernel-distro-ARCH   what the series touches, W=1, in Debian's own configuration"
	@echo "make perf-distro   host perf with its default features and WERROR=1, as distributions build it"
	@echo "make perf-arm64    perf for arm64 (cross, static, WERROR=1), checked under qemu-user"
	@echo "make qemu       our QEMU (harness/qemu: Debian 13's source, our models and fixes), into the cache"
	@echo "make qemu-checkpatch   QEMU's checkpatch.pl on our QEMU patches"
	@echo "make series     the series as mails in $(SERIES) (cover letter, one mail a patch, series.mbox)"
	@echo "make series-check   git am and quilt import of the mails give the assembled tree"
	@echo "make checkpatch scripts/checkpatch.pl --strict on every mail of the series"
	@echo "make bisect     build every prefix of the series (kernels x86_64/ppc64le, perf); long"
	@echo "make deb        Debian packages of the kernel and perf (DEB_CONFIG=, DEB_TRIM=1); long"
	@echo "make bench      benchmarks (printed, not asserted); BENCH_ARCHES=$(BENCH_ARCHES)"
	@echo "make fuzz       trinity and aux-fuzz in the guests for FUZZ_S seconds (default $(FUZZ_S))"
	@echo "make upstream-perf-fetch   Debian unstable's perf for the guests ($(UPSTREAM_PERF_ARCHES): perf-upstream) and the host (\$$PERF_UPSTREAM)"
	@echo "make selftest-harness   prove that a failure, a hang and a splat turn the verdict red"
	@echo "make base-versions      the $(BASE_PACKAGE) versions the archive offers"
	@echo "make clean      remove $(BUILD) (the cache in $(CACHE) stays)"
	@echo "Variables: ARCHES='$(ARCHES)' CACHE=$(CACHE) TIMEOUT=$(TIMEOUT) W=1"

deps:
	@$(STAGE) "deps (apt-get)" $(H)/deps.sh $(sort $(foreach a,$(ARCHES),$(DEB_ARCH_$(a))) arm64) \
		-- $(foreach a,$(ARCHES),$(DEPS_$(a))) $(DEPS_QEMU) \
		--backports $(foreach a,$(ARCHES),$(DEPS_BACKPORTS_$(a))) $(DEPS_BACKPORTS_QEMU)

base: deps
	@$(STAGE) "base $(BASE_VERSION)" $(H)/fetch-base.sh $(BASE_PACKAGE) $(BASE_VERSION) $(BASE_SHA256) $(CACHE)

base-versions:
	@apt-cache madison $(BASE_PACKAGE)

tree: base
	@$(STAGE) "tree" $(H)/assemble.sh $(ROOT) $(BASEDIR) $(BUILD)

refresh:
	@$(H)/refresh.sh $(ROOT) $(BUILD)

# After a patch is inserted or moved in patches/series: number the files
# in the order the series applies them.
renumber:
	@$(H)/renumber-patches.sh $(ROOT)

define arch_rules
kernel-$(1): tree
	@$$(STAGE) "kernel $(1)" $(H)/build-kernel.sh $(SRC) $(BUILD)/$(1)/kernel \
		$(KARCH_$(1)) "$(CROSS_$(1))" $(KTARGET_$(1)) $$(call kfrags,$(1))

# The bench kernel: as the test kernel, without lockdep and the sanitizers.
kernel-bench-$(1): tree
	@$$(STAGE) "kernel $(1) (bench)" $(H)/build-kernel.sh $(SRC) $(BUILD)/$(1)/kernel-bench \
		$(KARCH_$(1)) "$(CROSS_$(1))" $(KTARGET_$(1)) $$(call kfrags_bench,$(1))

perf-$(1): tree
	@$$(STAGE) "perf $(1)" $(H)/build-perf.sh $(SRC) $(BUILD)/$(1)/perf $(PERF_ARCH_$(1)) "$(CROSS_$(1))" \
		$(if $(CROSS_$(1)),"$$$$($(H)/fetch-devroot.sh $(DEB_ARCH_$(1)) $(CACHE))")

# What the series touches, built W=1 with Debian's own configuration.
kernel-distro-$(1): tree
	@$$(STAGE) "kernel $(1), Debian config, W=1" $(H)/build-kernel-distro.sh $(SRC) $(BASEDIR) \
		$(BUILD)/$(1)/distro $(KARCH_$(1)) "$(CROSS_$(1))" \
		"$$$$($(H)/fetch-distro-config.sh $(DEB_ARCH_$(1)) $(DISTRO_FLAVOUR_$(1)) $(BASE_VERSION) $(CACHE))" \
		"$(DISTRO_OPTS_$(1))" $(DISTRO_TARGETS_$(1))

selftests-$(1): kernel-$(1)
	@$$(STAGE) "selftests $(1)" $(H)/build-selftests.sh $(SRC) $(BUILD)/$(1)/selftests \
		$(BUILD)/$(1)/kernel $(KSELFTEST_ARCH_$(1)) "$(CROSS_$(1))" $(KSELFTEST_DIRS_$(1))

# The kernel samples the guests run (samples/perf/aux_consumer), static,
# against the same UAPI headers as the selftests.
samples-$(1): kernel-$(1)
	@$$(STAGE) "samples $(1)" $(H)/build-samples.sh $(SRC) $(BUILD)/$(1)/samples \
		$(BUILD)/$(1)/kernel "$(CROSS_$(1))" $(1)

initramfs-$(1): perf-$(1) selftests-$(1) samples-$(1)
	@$$(STAGE) "initramfs $(1)" $(H)/mkinitramfs.sh $(ROOT) $(BUILD)/$(1)/initramfs.cpio.gz $(1) \
		$(BUILD)/$(1)/perf/perf $(SRC)/tools/perf/tests/shell $(BUILD)/$(1)/selftests \
		"$$$$($(H)/fetch-busybox.sh $(CACHE) '$(BUSYBOX_$(1))' '$(DEB_ARCH_$(1))')" "$(CROSS_$(1))" \
		$(BUILD)/$(1)/samples
	@$$(call fuzz_payload,$(1))
	@$$(call upstream_perf_payload,$(1))
endef
$(foreach a,$(ARCHES),$(eval $(call arch_rules,$(a))))

build: $(foreach a,$(ARCHES),initramfs-$(a))

# Guests: an architecture (x86_64), or one with a model of our QEMU on
# (ppc64le:dtl, VARIANTS_<arch> of harness/arch/<arch>.mk), which boots the
# architecture's kernel and initramfs. guest_log MODE,GUEST: its console log.
VARIANT_GUESTS = $(strip $(foreach a,$(ARCHES),$(addprefix $(a):,$(VARIANTS_$(a)))))
guest_arch = $(firstword $(subst :, ,$(1)))
guest_log = $(BUILD)/$(call guest_arch,$(2))/$(1)$(if $(findstring :,$(2)),-$(lastword $(subst :, ,$(2)))).log

# Boot the guests at once (they are independent), then judge all logs.
boot = $(foreach g,$(2),$(H)/run-guest.sh $(g) $(BUILD)/$(call guest_arch,$(g))/kernel/$(KIMAGE_$(call guest_arch,$(g))) \
	$(BUILD)/$(call guest_arch,$(g))/initramfs.cpio.gz $(1) $(TIMEOUT) $(call guest_log,$(1),$(g)) &) wait

# The series as outsiders get it (README: "Use it on your kernel").
series: base
	@$(STAGE) "series" bash -c '$(H)/base-git.sh $(BASEDIR) $(BASEGIT) "$(BASE_PACKAGE) $(BASE_VERSION)" && \
		$(H)/series.sh $(ROOT) $(BASEGIT) $(SERIES)'

series-check: series tree
	@$(STAGE) "series: git am, quilt import" $(H)/series-check.sh $(BASEGIT) $(SERIES) $(SRC) $(BUILD)/am-check

# Every prefix of the series builds: both guest kernels, and perf as
# distributions build it wherever a patch touches tools/. Long (not in
# `make check`); see README.
bisect: deps series
	@$(STAGE) "bisect" env $(foreach a,x86_64 ppc64le,KARCH_$(a)=$(KARCH_$(a)) \
		CROSS_$(a)=$(CROSS_$(a)) KTARGET_$(a)=$(KTARGET_$(a)) KSELFTEST_DIRS_$(a)="$(KSELFTEST_DIRS_$(a))") \
		$(H)/bisect.sh $(ROOT) $(SERIES) $(BUILD)/bisect

checkpatch: series
	@$(STAGE) "checkpatch --strict (mails)" $(H)/checkpatch.sh $(BASEDIR) $(SERIES)

# Debian packages of the patched kernel and of perf, for this machine's
# architecture (README: "Debian packages"). Long: not in `make check`.
HOST_ARCH := $(firstword $(foreach a,x86_64 ppc64le,$(if $(filter $(shell dpkg --print-architecture 2>/dev/null),$(DEB_ARCH_$(a))),$(a))))
deb: deps tree
	@$(STAGE) "deb ($(HOST_ARCH))" env DISTRO_FLAVOUR=$(DISTRO_FLAVOUR_$(HOST_ARCH)) \
		BASE_VERSION=$(BASE_VERSION) CACHE=$(CACHE) $(H)/deb.sh $(SRC) $(BUILD)/deb $(DEB_CONFIG)

# perf for one more architecture that overrides auxtrace_record__init():
# arm64, cross and static like the guests' perfs, WERROR=1; under qemu-user,
# 'perf record -e aux_test//' reaching aux_test's recording (perf-arm64.sh).
perf-arm64: tree
	@$(STAGE) "perf arm64 (cross, qemu-user)" $(H)/perf-arm64.sh $(SRC) $(BUILD)/arm64/perf \
		"$$($(H)/fetch-devroot.sh arm64 $(CACHE))"

# perf as distributions build it: the host's, default features, WERROR=1.
perf-distro: tree
	@$(STAGE) "perf, distribution-style" $(H)/build-perf-distro.sh $(SRC) $(BUILD)/perf-distro

# verdict.py's own parts (splat scan, skip policy, guest checks, summary),
# on synthetic console logs.
verdict-test: tree
	@$(STAGE) "verdict.py unit test" python3 $(H)/verdict_test.py --kunit-dir $(SRC)/tools/testing/kunit
	@$(STAGE) "bench-report.py unit test" python3 $(H)/bench_report_test.py
	@$(STAGE) "perftest.awk unit test" python3 $(H)/perftest_awk_test.py
	@$(STAGE) "pt-check unit test" python3 $(H)/pt_check_test.py

# `make check` is check-stages with the table of stage times printed at its
# end, whatever the verdict, so that a stage that got slower shows at once.
check:
	@mkdir -p $(BUILD); rm -f $(STAGE_LOG) $(BUILD)/summary.txt; start=$$(date +%s); \
	$(MAKE) --no-print-directory check-stages; rc=$$?; \
	$(H)/stage-table.sh $(STAGE_LOG) $$start | tee $(BUILD)/stages.txt; \
	[ ! -s $(BUILD)/summary.txt ] || echo "verdict: $$(tail -n 1 $(BUILD)/summary.txt)"; exit $$rc

check-stages: checkpatch series-check verdict-test perf-distro perf-arm64 $(foreach a,$(ARCHES),kernel-distro-$(a)) build qemu qemu-checkpatch
	@$(STAGE) "boot + tests (all guests)" $(H)/busy.sh $(BUSY_LOOPS) \
		$(MAKE) -s --no-print-directory -j$(GUEST_JOBS) check-guests
	@$(H)/verdict.py --kunit-dir $(SRC)/tools/testing/kunit --summary $(BUILD)/summary.txt --skips $(H)/skips.list \
		$(foreach g,$(ARCHES) $(VARIANT_GUESTS),$(g)=$(call guest_log,check,$(g))) \
		$(foreach t,$(SELFTESTS),--selftest $(t)=$(BUILD)/selftest-$(firstword $(subst :, ,$(t))).log)

# The guests of `make check`, as many at a time as the machine has cores:
# each keeps time by its instruction count (run-guest.sh), so QEMU runs its
# vCPUs in one thread, and one guest a core keeps the cores busy to the end.
# The order packs two lanes: x86_64:pmu and ppc64le start together (the two
# longest), x86_64 follows ppc64le and ppc64le:dtl follows x86_64:pmu (the
# host seconds of each are in its log: run-guest.sh), the three harness
# self-test guests (guests that go wrong on purpose) last.
GUEST_JOBS ?= $(shell nproc)
# Knobs that show the verdict does not depend on the machine's speed (README,
# "A slow machine"): GUEST_SLOW=FACTOR gives every guest 1/FACTOR of a CPU
# (run-guest.sh, cpu-quota.sh); BUSY_LOOPS=N runs N busy loops beside the
# guests (busy.sh).
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
	@$(H)/run-guest.sh $(1) $(BUILD)/$(call guest_arch,$(1))/kernel/$(KIMAGE_$(call guest_arch,$(1))) \
		$(BUILD)/$(call guest_arch,$(1))/initramfs.cpio.gz check $(TIMEOUT) $(call guest_log,check,$(1))
endef
$(foreach g,$(CHECK_GUEST_ORDER),$(eval $(call check_guest_rule,$(g))))

# The x86_64:onetb guest (harness/arch/x86_64.mk): the pause/resume stress
# with one instruction per translation block. Long (its boot alone takes
# about 7 minutes): not in `make check`; see README.
ONETB_TIMEOUT ?= 7200
check-onetb: build qemu
	@$(STAGE) "boot + tests (x86_64:onetb)" $(H)/run-guest.sh x86_64:onetb \
		$(BUILD)/x86_64/kernel/$(KIMAGE_x86_64) $(BUILD)/x86_64/initramfs.cpio.gz check \
		$(ONETB_TIMEOUT) $(call guest_log,check,x86_64:onetb)
	@$(H)/verdict.py --kunit-dir $(SRC)/tools/testing/kunit --skips $(H)/skips.list \
		x86_64:onetb=$(call guest_log,check,x86_64:onetb)

# The harness self-test: three x86_64 guests that go wrong on purpose.
SELFTEST_ARCH := $(firstword $(ARCHES))
define selftest_guest_rule
selftest-guest-$(1):
	@$(H)/run-guest.sh $(SELFTEST_ARCH) $(BUILD)/$(SELFTEST_ARCH)/kernel/$(KIMAGE_$(SELFTEST_ARCH)) \
		$(BUILD)/$(SELFTEST_ARCH)/initramfs.cpio.gz selftest-$(1) $(SELFTEST_TIMEOUT_$(1)) $(BUILD)/selftest-$(1).log
endef
$(foreach t,$(SELFTESTS),$(eval $(call selftest_guest_rule,$(firstword $(subst :, ,$(t))))))

selftest-logs: $(foreach t,$(SELFTESTS),selftest-guest-$(firstword $(subst :, ,$(t))))

selftest-harness: initramfs-$(SELFTEST_ARCH) qemu
	@$(MAKE) -s --no-print-directory -j$(GUEST_JOBS) selftest-logs
	@$(H)/verdict.py --kunit-dir $(SRC)/tools/testing/kunit $(foreach t,$(SELFTESTS),--selftest $(t)=$(BUILD)/selftest-$(firstword $(subst :, ,$(t))).log)

run: build qemu
	@$(STAGE) "boot ($(ARCHES))" bash -c '$(call boot,run,$(ARCHES))'
	@$(H)/verdict.py --demo $(foreach a,$(ARCHES),$(a)=$(BUILD)/$(a)/run.log)

# Benchmarks print numbers; they never pass or fail on them. The guests
# run one after the other: each has two vCPUs, as many as this machine's
# cores, and a figure is only worth what the idle machine gives. The
# figures are also written as build/bench/<arch>.json and plotted in
# build/bench/<arch>.png (harness/bench-report.py).
BENCH_ARCHES ?= $(ARCHES)
bench_boot = $(foreach a,$(BENCH_ARCHES),$(H)/run-guest.sh $(a) $(BUILD)/$(a)/kernel-bench/$(KIMAGE_$(a)) \
	$(BUILD)/$(a)/initramfs.cpio.gz bench $(TIMEOUT) $(BUILD)/$(a)/bench.log;)
bench:
	@$(MAKE) --no-print-directory build qemu $(foreach a,$(BENCH_ARCHES),kernel-bench-$(a)) ARCHES="$(BENCH_ARCHES)"
	@$(STAGE) "benchmark ($(BENCH_ARCHES), bench kernels)" bash -c '$(bench_boot)'
	@$(H)/verdict.py --demo $(foreach a,$(BENCH_ARCHES),$(a)=$(BUILD)/$(a)/bench.log)
	@$(H)/bench-report.py $(BUILD)/bench $(foreach a,$(BENCH_ARCHES),$(a)=$(BUILD)/$(a)/bench.log)

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(CACHE)
