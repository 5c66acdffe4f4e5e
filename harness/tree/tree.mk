# Stage "tree": the assembled kernel tree (base + sparse tree + patches/)
# and the series as outsiders get it (mails, git am, checkpatch, bisect).
# Included by the Makefile at the root; see harness/tree/README.md.

tree: base
	@$(STAGE) "tree" $(H)/tree/assemble.sh $(ROOT) $(BASEDIR) $(BUILD)

refresh:
	@$(H)/tree/refresh.sh $(ROOT) $(BUILD)

# After a patch is inserted or moved in patches/series: number the files
# in the order the series applies them.
renumber:
	@$(H)/tree/renumber-patches.sh $(ROOT)


# The series as outsiders get it (README: "Use it on your kernel"). Its
# checks (git am, quilt import, checkpatch) are not run again once they
# passed on the same inputs (passed.sh; PASSED=off runs them): the mails
# carry the time of their export (Date, Message-Id), so the inputs are
# what they are made of, patches/ and the assembled tree (the sparse
# files, the base), with harness/tree's scripts (series.sh).
series: base
	@$(STAGE) "series" bash -c '$(H)/tree/base-git.sh $(BASEDIR) $(BASEGIT) "$(BASE_PACKAGE) $(BASE_VERSION)" && \
		$(H)/tree/series.sh $(ROOT) $(BASEGIT) $(SERIES)'

series-check: series tree
	@$(STAGE) "series: git am, quilt import" $(H)/tree/passed.sh series-check $(ROOT)/patches $(SRC) -- \
		$(H)/tree/series-check.sh $(BASEGIT) $(SERIES) $(SRC) $(BUILD)/am-check

# Every prefix of the series builds: both guest kernels, and perf as
# distributions build it wherever a patch touches tools/. Long (not in
# `make check`); see harness/README.md.
bisect: deps series
	@$(STAGE) "bisect" env $(foreach a,x86_64 ppc64le,KARCH_$(a)=$(KARCH_$(a)) \
		CROSS_$(a)=$(CROSS_$(a)) KTARGET_$(a)=$(KTARGET_$(a)) KSELFTEST_DIRS_$(a)="$(KSELFTEST_DIRS_$(a))") \
		$(H)/tree/bisect.sh $(ROOT) $(SERIES) $(BUILD)/bisect

checkpatch: series tree
	@$(STAGE) "checkpatch --strict (mails)" $(H)/tree/passed.sh checkpatch $(ROOT)/patches $(SRC) -- \
		$(H)/tree/checkpatch.sh $(BASEDIR) $(SERIES)
