# Usage: awk -v id=SUITE/NAME -f ktap-entry.awk
# Turns the output of one tests.list entry into the subtests of the entry's
# KTAP result line, which run-tests prints after it, in the form that the
# kernel's KTAP parser (tools/testing/kunit/kunit_parser.py, verdict.py's)
# reads:
#  - every line is indented by 4 spaces;
#  - "# Subtest: ID" follows the first "KTAP version" or "TAP version" line,
#    so that the parser ends this test at the entry's result line, even if
#    the command stopped before its plan was done;
#  - a result line without a description (kselftest_harness's skips:
#    "ok 3 # SKIP why") gets the test name that its "#  RUN" line gave: the
#    parser does not read such a line as a result at all.
/^#  RUN / { run = $3 }
/^(not )?ok [0-9]+ #/ { sub(/ #/, " " (run == "" ? "(unnamed)" : run) " #") }
{ print "    " $0 }
!named && /^[ \t]*K?TAP version [0-9]+$/ { print "    # Subtest: " id; named = 1 }
