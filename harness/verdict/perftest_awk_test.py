#!/usr/bin/env python3
"""Unit test of in-guest/perftest.awk, which turns `perf test` output into KTAP.

Usage: perftest_awk_test.py [unittest options]

The inputs are perf 6.1's own output (from `perf test` and `perf test -v`
runs), cut short. Each case runs on the host's awk and, if installed, on
busybox's (the guest's).
"""

import os
import shutil
import subprocess
import unittest

AWK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "guests", "in-guest", "perftest.awk")


AWKS = [["awk"]] + ([["busybox", "awk"]] if shutil.which("busybox") else [])


def run_all(text):
    """[(exit status, stdout)] of perftest.awk on TEXT, one per awk."""
    out = []
    for awk in AWKS:
        p = subprocess.run(awk + ["-f", AWK], input=text, capture_output=True,
                           text=True, check=False)
        out.append((p.returncode, p.stdout))
    return out


def run(text):
    """(exit status, KTAP result lines) of perftest.awk on TEXT; every awk
    must give the same."""
    outs = run_all(text)
    for o in outs[1:]:
        assert o == outs[0], f"awks differ: {outs}"
    rc, stdout = outs[0]
    return rc, [l for l in stdout.splitlines() if not l.startswith("# ")]


VERBOSE_SUITE = """\
 23: Watchpoint                                                             :
 23.1: Read Only Watchpoint                                                 :
--- start ---
test child forked, pid 11174
test child finished with -2
---- end ----
Watchpoint subtest 1: Skip (missing hardware support)
 23.2: Write Only Watchpoint                                                :
--- start ---
test child forked, pid 11175
test child finished with 0
---- end ----
Watchpoint subtest 2: Ok
"""

VERBOSE_SHELL_SKIP = """\
115: aux_test record and script round trip                                  :
--- start ---
test child forked, pid 11189
Skip: no aux_test PMU
test child finished with -2
---- end ----
aux_test record and script round trip: Skip
"""

VERBOSE_SHELL_FAIL = """\
116: intel_bts pause/resume: one window per uname call                      :
--- start ---
test child forked, pid 200
Skip: not a result line: ok
FAIL: 3 records outside the windows
 99: not a header either : Ok
test child finished with -1
---- end ----
intel_bts pause/resume: one window per uname call: FAILED!
"""

PLAIN = """\
 21: Breakpoint accounting                                          : Ok
 22: Watchpoint                                                     :
 22.1: Read Only Watchpoint                                         : Skip (missing hardware support)
 22.2: Write Only Watchpoint                                        : FAILED!
109: the longest description: Ok
"""


class PerftestAwk(unittest.TestCase):
    def test_plain_output(self):
        rc, lines = run(PLAIN)
        self.assertEqual(rc, 1)
        self.assertEqual(lines, [
            "KTAP version 1", "1..4",
            "ok 1 Breakpoint accounting",
            "ok 2 Read Only Watchpoint # SKIP missing hardware support",
            "not ok 3 Write Only Watchpoint # FAILED!",
            "ok 4 the longest description"])

    def test_verbose_suite(self):
        rc, lines = run(VERBOSE_SUITE)
        self.assertEqual(rc, 0)
        self.assertEqual(lines, [
            "KTAP version 1", "1..2",
            "ok 1 Read Only Watchpoint # SKIP missing hardware support",
            "ok 2 Write Only Watchpoint"])

    def test_verbose_shell_skip_takes_its_reason(self):
        rc, lines = run(VERBOSE_SHELL_SKIP)
        self.assertEqual(rc, 4)
        self.assertEqual(lines[2], "ok 1 aux_test record and script round trip"
                         " # SKIP no aux_test PMU")

    def test_verbose_failure_keeps_its_output(self):
        for rc, stdout in run_all(VERBOSE_SHELL_FAIL):
            self.assertEqual(rc, 1)
            self.assertIn("# FAIL: 3 records outside the windows", stdout)
        # lines inside start/end are output, never results
        _, lines = run(VERBOSE_SHELL_FAIL)
        self.assertEqual(lines, [
            "KTAP version 1", "1..1",
            "not ok 1 intel_bts pause/resume: one window per uname call # FAILED!"])

    def test_no_result_fails(self):
        rc, lines = run("perf: 'test' is not a perf-command\n")
        self.assertEqual(rc, 1)
        self.assertEqual(lines, ["KTAP version 1", "1..0"])


if __name__ == "__main__":
    unittest.main()
