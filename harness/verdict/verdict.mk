# Stage "verdict": the unit tests of what judges the guests' logs and
# reports (verdict.py, bench-report.py, perftest.awk, pt-check). Included
# by the Makefile at the root; see harness/verdict/README.md.

# verdict.py's own parts (splat scan, skip policy, guest checks, summary),
# on synthetic console logs.
verdict-test: tree
	@$(STAGE) "verdict.py unit test" python3 $(H)/verdict/verdict_test.py --kunit-dir $(SRC)/tools/testing/kunit
	@$(STAGE) "bench-report.py unit test" python3 $(H)/verdict/bench_report_test.py
	@$(STAGE) "perftest.awk unit test" python3 $(H)/verdict/perftest_awk_test.py
	@$(STAGE) "pt-check unit test" python3 $(H)/verdict/pt_check_test.py
	@$(STAGE) "compare.py unit test" python3 $(H)/compare/compare_test.py --kunit-dir $(SRC)/tools/testing/kunit
