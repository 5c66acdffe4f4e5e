# Stage "fetch": the Debian packages the harness needs, the pinned base
# (base.mk) and what else is downloaded once into $(CACHE). Included by the
# Makefile at the root; harness/fetch/README.md says what each script does.

deps:
	@$(STAGE) "deps (apt-get)" $(H)/fetch/deps.sh $(sort $(foreach a,$(ARCHES),$(DEB_ARCH_$(a))) arm64) \
		-- $(foreach a,$(ARCHES),$(DEPS_$(a))) $(DEPS_QEMU) \
		--backports $(foreach a,$(ARCHES),$(DEPS_BACKPORTS_$(a))) $(DEPS_BACKPORTS_QEMU)

base: deps
	@$(STAGE) "base $(BASE_VERSION)" $(H)/fetch/fetch-base.sh $(BASE_PACKAGE) $(BASE_VERSION) $(BASE_SHA256) $(CACHE)

base-versions:
	@apt-cache madison $(BASE_PACKAGE)
