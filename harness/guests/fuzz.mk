# Fuzzing in the guests: Debian's trinity and aux-fuzz (harness/guests/in-guest/fuzz),
# included by the Makefile after harness/arch/*.mk.
#
#   make fuzz FUZZ_S=3600    boot the guests in harness.mode=fuzz for FUZZ_S
#                            seconds of fuzzing (default 600), then judge:
#                            the counts printed, no splat, the run completed
#
# `make check` runs a short fuzz too: the tests.list entry "fuzz/trinity_aux"
# (`fuzz 120`), in the same initramfs.
#
# The payload (trinity with its loader and libc, aux-fuzz, the guest script)
# is appended to each guest's initramfs by fuzz-initramfs.sh, right after
# mkinitramfs.sh made it: the recipe of initramfs-ARCH runs
# $(call fuzz_payload,ARCH) as its last command. Trinity and libc6 of
# Debian's DEB_ARCH_<arch> are downloaded once into $(CACHE)/trinity/.

FUZZ_S      ?= 600
FUZZ_ARCHES ?= $(ARCHES)
# Host-side limit of a fuzz guest: boot (slow under TCG on ppc64le), the
# run, trinity's and aux-fuzz's shutdown, the kernel log.
FUZZ_TIMEOUT ?= $(shell echo $$(( $(FUZZ_S) + 900 )))

# The command that adds the payload to build/ARCH/initramfs.cpio, in place.
fuzz_payload = $(STAGE) "fuzz payload $(1)" $(H)/builds/fuzz-initramfs.sh \
	$(BUILD)/$(1)/initramfs.cpio $(BUILD)/$(1)/initramfs.cpio $(1) \
	"$(CROSS_$(1))" $(DEB_ARCH_$(1)) $(CACHE)

.PHONY: fuzz fuzz-fetch

# Only the downloads (trinity and libc6 for every guest), e.g. to warm the cache.
fuzz-fetch: deps
	@$(foreach a,$(ARCHES),$(H)/fetch/fetch-trinity.sh $(DEB_ARCH_$(a)) $(CACHE) >/dev/null &&) true

fuzz: $(foreach a,$(FUZZ_ARCHES),initramfs-$(a)) qemu
	@$(STAGE) "fuzz $(FUZZ_S)s ($(FUZZ_ARCHES))" bash -c '$(foreach a,$(FUZZ_ARCHES),\
		$(H)/guests/run-guest.sh $(a) $(BUILD)/$(a)/kernel/$(KIMAGE_$(a)) $(BUILD)/$(a)/initramfs.cpio \
		fuzz $(FUZZ_TIMEOUT) $(BUILD)/$(a)/fuzz.log harness.fuzz_s=$(FUZZ_S) &) wait'
	@ok=1; $(H)/verdict/verdict.py --demo $(foreach a,$(FUZZ_ARCHES),$(a)=$(BUILD)/$(a)/fuzz.log) || ok=0; \
	for a in $(FUZZ_ARCHES); do \
		grep -qx 'HARNESS-EXIT: 0' $(BUILD)/$$a/fuzz.log || \
			{ echo "!! $$a: the fuzzers did not both run to the end (see $(BUILD)/$$a/fuzz.log)"; ok=0; }; \
	done; \
	[ $$ok = 1 ] && echo "fuzz: $(FUZZ_S)s per guest, no splat ($(FUZZ_ARCHES))"; [ $$ok = 1 ]
