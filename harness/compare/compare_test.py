#!/usr/bin/env python3
"""Unit test of compare.py, on verdict_test.py's synthetic console logs.

Usage: compare_test.py [--kunit-dir DIR] [unittest options]

DIR is the assembled tree's tools/testing/kunit (as for verdict_test.py).
"""

import contextlib
import io
import os
import sys
import unittest

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "verdict"))
import compare  # noqa: E402
import verdict_test  # noqa: E402
from verdict_test import GREEN, LogFiles, edit  # noqa: E402

# Upstream's run of the same guest: kunit/hw_breakpoint's second case is
# not there, and perf_events.two fails.
UPSTREAM = edit(GREEN,
                ("        1..2\n        ok 1 test_one_cpu\n        ok 2 test_many_cpus\n",
                 "        1..1\n        ok 1 test_one_cpu\n"),
                ("    ok 2 perf_events.two\n", "    not ok 2 perf_events.two\n"))
SPLAT = edit(GREEN, ("[    1.000000] Run /init", "[    0.900000] WARNING: CPU: 0 at x\n"
                     "[    1.000000] Run /init"))


class CompareTest(LogFiles, unittest.TestCase):

    def run_main(self, ours, upstream, explained):
        """compare.main: (exit status, printed text)."""
        argv = ["--kunit-dir", verdict_test.KUNIT_DIR,
                "--explained", self.write("explained.list", explained),
                "x86_64=" + self.write("ours.log", ours) + "," + self.write("up.log", upstream)]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = compare.main(argv)
        return rc, buf.getvalue()

    def test_same_logs_no_difference(self):
        rc, text = self.run_main(GREEN, GREEN, "")
        self.assertEqual(rc, 0)
        self.assertIn("0 explained difference(s)", text)
        self.assertIn("compare: every difference explained", text)

    def test_unexplained_differences_fail(self):
        rc, text = self.run_main(GREEN, UPSTREAM, "")
        self.assertEqual(rc, 1)
        self.assertIn("2 UNEXPLAINED", text)
        self.assertIn("kunit/hw_breakpoint: test_many_cpus: ours pass, upstream -", text)
        self.assertIn("perf_events/mmap: perf_events.two: ours pass, upstream fail", text)

    def test_explained_differences_pass_and_stale_lines_show(self):
        rc, text = self.run_main(GREEN, UPSTREAM, (
            "# a comment\n"
            "x86_64 | kunit/hw_breakpoint: test_many_* | pass - | upstream lacks it\n"
            "* | perf_events/mmap: perf_events.two | pass fail | a bug of upstream's\n"
            "* | pt/* | * * | nothing of the kind here\n"))
        self.assertEqual(rc, 0, text)
        self.assertIn("2 explained difference(s)", text)
        self.assertIn("upstream lacks it", text)
        self.assertIn("line 4: * | pt/* | * *", text)

    def test_statuses_must_match(self):
        # The line explains pass/-, not pass/fail.
        rc, text = self.run_main(GREEN, UPSTREAM, (
            "* | kunit/* | pass - | upstream lacks it\n"
            "* | perf_events/* | pass - | wrong statuses\n"))
        self.assertEqual(rc, 1)
        self.assertIn("1 UNEXPLAINED", text)

    def test_guest_problem_is_a_row(self):
        rc, text = self.run_main(GREEN, SPLAT, "")
        self.assertEqual(rc, 1)
        self.assertIn("guest/splat: WARNING: CPU: 0 at x: ours -, upstream fail", text)
        self.assertNotIn("guest/problems: ours pass", text)

    def test_unfinished_guest_is_a_problem(self):
        rc, text = self.run_main(GREEN, edit(GREEN, ("HARNESS-EXIT: 0\n", "")), "")
        self.assertEqual(rc, 1)
        self.assertIn("guest/problems: ours pass, upstream fail (guest did not finish", text)

    def test_malformed_line_is_refused(self):
        with self.assertRaises(ValueError):
            self.run_main(GREEN, GREEN, "* | kunit/* | pass | no second status\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--kunit-dir"]:
        verdict_test.KUNIT_DIR = args[1]
        args = args[2:]
    unittest.main(argv=[sys.argv[0]] + args)
