# Upstream perf next to ours: Debian unstable's linux-perf (7.x), for the
# tests that check that each perf reads the other's recordings. Included by
# the Makefile after harness/arch/*.mk.
#
#   make upstream-perf-fetch   download it for every guest that gets it and
#                              for this host (once, into $(CACHE)/upstream-perf/)
#
# A guest whose UPSTREAM_PERF_<arch> (harness/arch/<arch>.mk) is "yes" gets
# it in its initramfs: the binary, its loader and the closure of its
# libraries at $(UPSTREAM_PERF_PREFIX), and /usr/bin/perf-upstream, which
# runs it with them (upstream-perf-initramfs.sh, right after the fuzz
# payload). Tests call perf-upstream, and skip where there is none.
#
# On the host, $(PERF_UPSTREAM) (exported to every recipe) runs it the same
# way (perf-upstream.sh): `$(PERF_UPSTREAM) script -i perf.data`.

UPSTREAM_PERF_PREFIX ?= /opt/upstream-perf
UPSTREAM_PERF_ARCHES  = $(strip $(foreach a,$(ARCHES),$(if $(filter yes,$(UPSTREAM_PERF_$(a))),$(a))))
UPSTREAM_PERF_HOST   := $(shell dpkg --print-architecture 2>/dev/null)
export PERF_UPSTREAM  = $(H)/builds/perf-upstream.sh --cache $(CACHE) $(UPSTREAM_PERF_HOST)

# The command that adds the payload to build/ARCH/initramfs.cpio, in
# place; `true` for a guest without it.
upstream_perf_payload = $(if $(filter yes,$(UPSTREAM_PERF_$(1))),$(STAGE) "upstream perf payload $(1)" \
	$(H)/builds/upstream-perf-initramfs.sh $(BUILD)/$(1)/initramfs.cpio $(BUILD)/$(1)/initramfs.cpio \
	$(DEB_ARCH_$(1)) $(CACHE) $(UPSTREAM_PERF_PREFIX),true)

.PHONY: upstream-perf-fetch

upstream-perf-fetch:
	@$(STAGE) "upstream perf (Debian unstable)" bash -c '$(foreach d,$(sort $(UPSTREAM_PERF_HOST) \
		$(foreach a,$(UPSTREAM_PERF_ARCHES),$(DEB_ARCH_$(a)))),$(H)/builds/perf-upstream.sh --cache $(CACHE) --tree $(d) &&) true'
