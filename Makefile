# perf AUX series: fetch the pinned base, assemble the tree, build the guest
# kernels, perf and the selftests, boot QEMU guests and judge the results.
# README.md is for users of the series; harness/README.md explains the
# harness, its layout and the workflow. `make help` lists the targets.

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

include harness/fetch/base.mk
include $(wildcard harness/arch/*.mk)
include harness/guests/fuzz.mk
include harness/builds/upstream-perf.mk
include harness/qemu/qemu.mk

BASEDIR := $(CACHE)/base/$(BASE_VERSION)
BASEGIT := $(CACHE)/base/$(BASE_VERSION).git
SERIES  := $(BUILD)/series
H       := $(ROOT)/harness
STAGE   := $(H)/stage.sh
# Every stage's time, for the table at the end of `make check`
# (harness/verdict/stage-table.sh); the check target starts it anew.
export STAGE_LOG ?= $(BUILD)/stages.tsv

# ccache lives in the cache so that a fresh clone (CI) reuses it; paths are
# hashed relative to the clone, so the clone's location does not matter.
export CCACHE_DIR      ?= $(CACHE)/ccache
export CCACHE_BASEDIR  := $(ROOT)
export CCACHE_NOHASHDIR := 1
export CCACHE_MAXSIZE  ?= 10G
# Whole builds (the kernels, perf), by their inputs: harness/builds/artifact.sh.
export ARTIFACTS_DIR   ?= $(CACHE)/artifacts
# The last pass of each check of the series as outsiders take it, by the
# hash of its inputs (harness/tree/passed.sh).
export PASSED_DIR      ?= $(CACHE)/passed

# The stages, one fragment each, beside their scripts (harness/README.md).
include harness/fetch/fetch.mk
include harness/tree/tree.mk
include harness/builds/builds.mk
include harness/guests/guests.mk
include harness/verdict/verdict.mk
include harness/compare/compare.mk


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
	@echo "make compare    upstream's kernel ($(UPSTREAM_KERNEL_VERSION)) beside ours: both in every guest, one table (harness/compare)"
	@echo "make upstream-perf-fetch   Debian unstable's perf for the guests ($(UPSTREAM_PERF_ARCHES): perf-upstream) and the host (\$$PERF_UPSTREAM)"
	@echo "make selftest-harness   prove that a failure, a hang and a splat turn the verdict red"
	@echo "make base-versions      the $(BASE_PACKAGE) versions the archive offers"
	@echo "make clean      remove $(BUILD) (the cache in $(CACHE) stays)"
	@echo "Variables: ARCHES='$(ARCHES)' CACHE=$(CACHE) TIMEOUT=$(TIMEOUT) W=1"

# `make check` is check-stages with the table of stage times printed at its
# end, whatever the verdict, so that a stage that got slower shows at once.
# Under make -n this line still runs (it names $(MAKE)): then it only hands
# on to the dry run of check-stages, leaving the last run's records alone.
check:
	@case "$${MAKEFLAGS%% *}" in -*) ;; *n*) exec $(MAKE) --no-print-directory check-stages ;; esac; \
	mkdir -p $(BUILD); rm -f $(STAGE_LOG) $(BUILD)/summary.txt; start=$$(date +%s); \
	$(MAKE) --no-print-directory check-stages; rc=$$?; \
	$(H)/verdict/stage-table.sh $(STAGE_LOG) $$start | tee $(BUILD)/stages.txt; \
	[ ! -s $(BUILD)/summary.txt ] || echo "verdict: $$(tail -n 1 $(BUILD)/summary.txt)"; exit $$rc

check-stages: checkpatch series-check verdict-test perf-distro perf-arm64 $(foreach a,$(ARCHES),kernel-distro-$(a)) build qemu qemu-checkpatch
	@$(STAGE) "boot + tests (all guests)" $(H)/guests/busy.sh $(BUSY_LOOPS) \
		$(MAKE) -s --no-print-directory -j$(GUEST_JOBS) check-guests
	@$(H)/verdict/verdict.py --kunit-dir $(SRC)/tools/testing/kunit --summary $(BUILD)/summary.txt --skips $(H)/guests/skips.list \
		$(foreach g,$(ARCHES) $(VARIANT_GUESTS),$(g)=$(call guest_log,check,$(g))) \
		$(foreach t,$(SELFTESTS),--selftest $(t)=$(BUILD)/selftest-$(firstword $(subst :, ,$(t))).log)

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(CACHE)
