#!/usr/bin/env python3
"""Unit test of verdict.py's own parts, on small synthetic console logs.

Usage: verdict_test.py [--kunit-dir DIR] [unittest options]

DIR is the assembled tree's tools/testing/kunit (verdict.py parses KTAP with
its kunit_parser.py); the default is verdict.py's. No network, no guest.
"""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict  # noqa: E402

KUNIT_DIR = verdict.DEFAULT_KUNIT_DIR

# A green x86_64 "check" console, as in-guest/init and in-guest/run-tests print it:
# a kselftest (with a skip of its own), an entry skipped by skips.list, a
# KUnit suite (debugfs results) and a perf test suite.
GREEN = """\
HARNESS: arch=x86_64 kernel=6.1.0 cpus=2 mode=check
HARNESS: tests begin
KTAP version 1
1..4
# perf_events/mmap: kselftest perf_events/mmap
    TAP version 13
    # Subtest: perf_events/mmap
    1..3
    # Starting 3 tests from 1 test cases.
    #  RUN           perf_events.one ...
    #            OK  perf_events.one
    ok 1 perf_events.one
    #  RUN           perf_events.two ...
    #            OK  perf_events.two
    ok 2 perf_events.two
    #  RUN           perf_events.aux ...
    #      SKIP      No AUX event found.
    #            OK  perf_events.aux
    ok 3 perf_events.aux # SKIP No AUX event found.
    # PASSED: 3 / 3 tests passed.
    # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0
ok 1 perf_events/mmap
ok 2 perf_events/remove_on_exec # SKIP no hardware PMU under emulation
# kunit/hw_breakpoint: kunit hw_breakpoint
    KTAP version 1
    # Subtest: kunit/hw_breakpoint
    1..1
        KTAP version 1
        # Subtest: hw_breakpoint
        1..2
        ok 1 test_one_cpu
        ok 2 test_many_cpus
    ok 1 hw_breakpoint
ok 3 kunit/hw_breakpoint
# perf-test/wp: perftest "Watchpoint"
    # 22: Watchpoint                                                      :
    # 22.1: Read Only Watchpoint                                          : Ok
    # 22.2: Write Only Watchpoint                                         : Ok
    KTAP version 1
    # Subtest: perf-test/wp
    1..2
    ok 1 Read Only Watchpoint
    ok 2 Write Only Watchpoint
ok 4 perf-test/wp
HARNESS: tests end
HARNESS: dmesg begin
[    0.000000] Linux version 6.1.0 (harness@host)
[    1.000000] Run /init as init process
HARNESS: dmesg end
HARNESS-EXIT: 0
HARNESS-HOST: qemu exit status 0 after 31s
"""
GREEN_COUNTS = (7, 0, 2)    # passed (6 cases + the guest), failed, skipped


def edit(text, *pairs):
    """TEXT with each (old, new) replaced; OLD must be there exactly once."""
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


class LogFiles:
    """A test case's temporary directory, and write() of a file into it
    (also compare_test.py's)."""
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path


class VerdictTest(LogFiles, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kp = verdict.load_kunit_parser(KUNIT_DIR)

    def check(self, text, skips=""):
        """check_log on TEXT: (outcome, red reasons)."""
        log = self.write("check.log", text)
        out = verdict.check_log("x86_64", log, self.kp,
                                verdict.load_skips(self.write("skips.list", skips)))
        return out, verdict.red_reasons(out)

    def run_main(self, argv):
        """verdict.main(ARGV): (exit status, printed text, (passed, failed, skipped))."""
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = verdict.main(["--kunit-dir", KUNIT_DIR] + argv)
        text = buf.getvalue()
        last = text.strip().splitlines()[-1]
        words = last.replace(",", "").split()
        counts = None
        if len(words) == 6 and words[1::2] == ["passed", "failed", "skipped"]:
            counts = tuple(int(w) for w in words[0::2])
        return rc, text, counts

    def status(self, out, test):
        return [(s, n) for suite, t, s, n in out.rows if f"{suite}/{t}" == test]

    # The cases.

    def test_green(self):
        out, reasons = self.check(GREEN)
        self.assertEqual(reasons, set())
        self.assertEqual(out.problems, [])
        self.assertEqual(self.status(out, "perf_events/mmap: perf_events.aux"),
                         [("skip", "No AUX event found.")])
        self.assertEqual(self.status(out, "perf_events/remove_on_exec"),
                         [("skip", "no hardware PMU under emulation")])
        self.assertEqual(self.status(out, "kunit/hw_breakpoint: test_many_cpus"), [("pass", "")])
        summary = os.path.join(self.dir.name, "summary.txt")
        rc, text, counts = self.run_main(["--summary", summary, "x86_64=" + self.write("g.log", GREEN)])
        self.assertEqual((rc, counts), (0, GREEN_COUNTS))
        self.assertIn("perf-test         2 pass 0 fail 0 skip", text)
        self.assertIn("guest             1 pass 0 fail 0 skip", text)
        self.assertIn("SKIP  x86_64  perf_events/remove_on_exec: no hardware PMU under emulation", text)
        with open(summary) as f:
            self.assertEqual(f.read(), text)

    def test_failing_case(self):
        log = edit(GREEN, ("    ok 2 perf_events.two", "    not ok 2 perf_events.two"),
                   ("ok 1 perf_events/mmap", "not ok 1 perf_events/mmap # exit status 1"))
        out, reasons = self.check(log)
        self.assertEqual(reasons, {"failed-test"})
        self.assertEqual(self.status(out, "perf_events/mmap: perf_events.two"), [("fail", "")])
        # The entry's own "not ok" is not counted again over its failed case.
        self.assertEqual(self.status(out, "perf_events/mmap"), [])
        rc, text, counts = self.run_main(["x86_64=" + self.write("f.log", log)])
        self.assertEqual((rc, counts), (1, (6, 1, 2)))
        self.assertIn("FAIL  x86_64  perf_events/mmap: perf_events.two\n", text)

    def test_failing_entry_whose_cases_passed(self):
        # A test binary that crashed after its last result: the entry fails.
        log = edit(GREEN, ("ok 1 perf_events/mmap", "not ok 1 perf_events/mmap # exit status 139"))
        out, reasons = self.check(log)
        self.assertEqual(reasons, {"failed-test"})
        self.assertEqual(self.status(out, "perf_events/mmap"), [("fail", "exit status 139")])
        self.assertEqual(self.run_main(["x86_64=" + self.write("f.log", log)])[2], (7, 1, 2))

    def test_entry_stopped_before_its_plan(self):
        # The kselftest died after its first case: the cases it never ran
        # fail, and the entries after it are still read as they were.
        start = GREEN.index("    #  RUN           perf_events.two")
        end = GREEN.index("ok 1 perf_events/mmap")
        log = GREEN[:start] + "not ok 1 perf_events/mmap # exit status 139\n" + \
            GREEN[end + len("ok 1 perf_events/mmap\n"):]
        out, reasons = self.check(log)
        self.assertEqual(reasons, {"failed-test"})
        self.assertEqual([s for suite, t, s, n in out.rows if suite == "perf_events"],
                         ["pass", "fail", "fail", "skip"])
        self.assertEqual(self.status(out, "perf_events/mmap: #2"), [("fail", "no result; exit status 139")])
        self.assertEqual(self.status(out, "kunit/hw_breakpoint: test_one_cpu"), [("pass", "")])
        self.assertEqual(out.problems, [])

    def test_kselftest_case_timeout(self):
        # The kselftest harness killed a case at its own limit: a failure,
        # told apart as a timeout in the list and in the counts.
        log = edit(GREEN, ("    #            OK  perf_events.two\n    ok 2 perf_events.two",
                           "    # two: Test terminated by timeout\n"
                           "    #          FAIL  perf_events.two\n    not ok 2 perf_events.two"),
                   ("ok 1 perf_events/mmap", "not ok 1 perf_events/mmap # exit status 1"))
        out, reasons = self.check(log)
        self.assertEqual(reasons, {"failed-test"})
        self.assertEqual(self.status(out, "perf_events/mmap: perf_events.two"),
                         [("fail", "timed out (the kselftest harness's limit of the case)")])
        rc, text, counts = self.run_main(["x86_64=" + self.write("t.log", log)])
        self.assertEqual((rc, counts), (1, (6, 1, 2)))
        self.assertIn("TIME  x86_64  perf_events/mmap: perf_events.two  (timed out", text)
        self.assertIn("of the 1 failed, 1 ran out of time (TIME above), 0 went wrong", text)

    def test_entry_timeout_apart_from_failure(self):
        # run-tests' limit stopped one entry in its second case, and another
        # entry failed: one of each in the summary.
        start = GREEN.index("    #  RUN           perf_events.two")
        end = GREEN.index("ok 1 perf_events/mmap")
        log = GREEN[:start] + "not ok 1 perf_events/mmap # timed out after 120s\n" + \
            GREEN[end + len("ok 1 perf_events/mmap\n"):]
        log = edit(log, ("    ok 2 Write Only Watchpoint", "    not ok 2 Write Only Watchpoint"),
                   ("ok 4 perf-test/wp", "not ok 4 perf-test/wp # exit status 1"))
        rc, text, counts = self.run_main(["x86_64=" + self.write("t.log", log)])
        self.assertEqual((rc, counts), (1, (5, 3, 1)))
        self.assertIn("TIME  x86_64  perf_events/mmap: #2  (no result; timed out after 120s)", text)
        self.assertIn("FAIL  x86_64  perf-test/wp: Write Only Watchpoint\n", text)
        self.assertIn("of the 3 failed, 2 ran out of time (TIME above), 1 went wrong", text)

    def test_kselftest_that_skipped_itself(self):
        start = GREEN.index("    1..3\n")
        end = GREEN.index("ok 1 perf_events/mmap")
        log = GREEN[:start] + "    1..0 # SKIP perf not available.\n" \
            "ok 1 perf_events/mmap # SKIP (the test skipped itself, see its output)\n" + \
            GREEN[end + len("ok 1 perf_events/mmap\n"):]
        out, reasons = self.check(log)
        self.assertEqual(reasons, set())
        self.assertEqual(self.status(out, "perf_events/mmap"),
                         [("skip", "(the test skipped itself, see its output)")])

    def test_hang(self):
        # Killed by the host's timeout in the middle of the run.
        cut = GREEN.index("# kunit/hw_breakpoint")
        log = GREEN[:cut] + "HARNESS-HOST: guest killed after 1500s timeout\n" \
            "HARNESS-HOST: qemu exit status 124 after 1500s\n"
        out, reasons = self.check(log)
        self.assertIn("timeout", reasons)
        self.assertEqual(out.problems, [
            "guest hung: guest killed after 1500s timeout",
            "guest did not finish (crash, panic or hang)",
            "the test run did not finish",
            "2 of 4 tests printed no result"])
        rc, text, counts = self.run_main(["x86_64=" + self.write("h.log", log)])
        self.assertEqual((rc, counts), (1, (2, 4, 2)))
        self.assertIn("TIME  x86_64  guest: guest hung: guest killed after 1500s timeout", text)

    def test_hang_before_the_tests(self):
        log = "HARNESS: arch=x86_64 kernel=6.1.0 cpus=2 mode=selftest-hang\n" \
            "HARNESS: hanging on purpose\n" \
            "HARNESS-HOST: guest killed after 30s timeout\n"
        out, reasons = self.check(log)
        self.assertIn("timeout", reasons)
        self.assertIn("the test run never started", out.problems)

    def test_splat(self):
        log = edit(GREEN, ("[    1.000000] Run /init", "[    2.000000] WARNING: CPU: 0 PID: 1 at "
                           "kernel/events/core.c:1 x\n[    1.000000] Run /init"))
        out, reasons = self.check(log)
        self.assertEqual(reasons, {"splat", "problem"})
        self.assertEqual(out.splat_lines, ["[    2.000000] WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1 x"])
        rc, text, counts = self.run_main(["x86_64=" + self.write("s.log", log)])
        self.assertEqual((rc, counts), (1, (6, 1, 2)))
        self.assertIn("FAIL  x86_64  guest: 1 splat line(s) in the kernel log", text)

    def test_ubsan_report_is_a_splat(self):
        log = edit(GREEN, ("[    1.000000] Run /init", "[    2.000000] UBSAN: shift-out-of-bounds in "
                           "kernel/events/core.c:1:2\n[    1.000000] Run /init"))
        self.assertEqual(self.check(log)[1], {"splat", "problem"})

    def test_unchecked_msr_access_is_a_splat(self):
        log = edit(GREEN, ("[    1.000000] Run /init", "[    2.000000] unchecked MSR access error: "
                           "WRMSR to 0x1d9 (tried to write 0x00000000000000c0) at rIP: 0xffffffff81001234"
                           "\n[    1.000000] Run /init"))
        self.assertEqual(self.check(log)[1], {"splat", "problem"})

    def test_kasan_boot_line_is_not_a_splat(self):
        # ppc64le prints it when KASAN is on; "not enabled" is a splat.
        ok = edit(GREEN, ("[    1.000000] Run /init", "[    0.000000] KASAN init done\n[    1.000000] Run /init"))
        self.assertEqual(self.check(ok)[1], set())
        off = edit(GREEN, ("[    1.000000] Run /init",
                           "[    0.000000] KASAN not enabled as it requires radix!\n[    1.000000] Run /init"))
        self.assertEqual(self.check(off)[1], {"splat", "problem"})

    def test_kmemleak_report_is_a_splat(self):
        leak = ("HARNESS: kmemleak begin\nunreferenced object 0xffff888003a1c000 (size 1024):\n"
                "  comm \"aux_stress\", pid 99, jiffies 4294937296 (age 12.130s)\n"
                "HARNESS: kmemleak end\nHARNESS-EXIT: 0\n")
        out, reasons = self.check(edit(GREEN, ("HARNESS-EXIT: 0\n", leak)))
        self.assertEqual(reasons, {"splat", "problem"})
        self.assertEqual(out.splat_lines,
                         ["kmemleak: unreferenced object 0xffff888003a1c000 (size 1024):"])
        # An empty scan is green.
        empty = "HARNESS: kmemleak begin\nHARNESS: kmemleak end\nHARNESS-EXIT: 0\n"
        self.assertEqual(self.check(edit(GREEN, ("HARNESS-EXIT: 0\n", empty)))[1], set())

    def test_splat_words_in_test_output_are_not_splats(self):
        # Only the kernel log counts once the guest dumped it.
        log = edit(GREEN, ("    # Starting 3", "    # WARNING: this test is slow\n    # Starting 3"))
        self.assertEqual(self.check(log)[1], set())

    def test_missing_exit(self):
        log = edit(GREEN, ("HARNESS-EXIT: 0\n", ""))
        out, reasons = self.check(log)
        self.assertEqual(out.problems, ["guest did not finish (crash, panic or hang)"])
        self.assertEqual(self.run_main(["x86_64=" + self.write("m.log", log)])[:1], (1,))

    def test_skip_policy(self):
        log = edit(GREEN, ("    ok 2 perf_events.two", "    not ok 2 perf_events.two"),
                   ("ok 1 perf_events/mmap", "not ok 1 perf_events/mmap # exit status 1"))
        skips = "# arch | test | reason\n" \
            "ppc64le | perf_events/mmap: * | another architecture\n" \
            "all     | perf_events/remove_on_exec | entry level: the guest does not run it\n" \
            "x86_64  | perf_events/mmap: perf_events.t?o | flaky under TCG\n"
        out, reasons = self.check(log, skips)
        self.assertEqual(reasons, set())
        self.assertEqual(self.status(out, "perf_events/mmap: perf_events.two"),
                         [("skip", "flaky under TCG")])
        rc, text, counts = self.run_main(["--skips", self.write("sk.list", skips),
                                          "x86_64=" + self.write("p.log", log)])
        self.assertEqual((rc, counts), (0, (6, 0, 3)))
        self.assertIn("SKIP  x86_64  perf_events/mmap: perf_events.two: flaky under TCG", text)

    def test_plan_mismatch(self):
        log = edit(GREEN, ("1..4\n", "1..5\n"))
        out, reasons = self.check(log)
        self.assertEqual(out.problems, ["1 of 5 tests printed no result"])
        self.assertEqual(self.run_main(["x86_64=" + self.write("n.log", log)])[::2], (1, (6, 1, 2)))

    def test_no_plan(self):
        out, _ = self.check(edit(GREEN, ("1..4\n", "")))
        self.assertEqual(out.problems, ["no test plan printed"])

    def test_selftest_mode(self):
        failing = edit(GREEN, ("ok 3 kunit/hw_breakpoint", "not ok 3 kunit/hw_breakpoint # exit status 1"))
        rc, text, counts = self.run_main(["--selftest", "fail:failed-test=" + self.write("f.log", failing),
                                          "--selftest", "warn:splat=" + self.write("g.log", GREEN)])
        self.assertEqual((rc, counts), (1, (1, 1, 0)))
        self.assertIn("PASS  host  harness-selftest/fail: expected a red verdict for 'failed-test', "
                      "got failed-test\n", text)
        self.assertIn("FAIL  host  harness-selftest/warn: expected a red verdict for 'splat', got green", text)

    def test_demo(self):
        demo = "HARNESS: demo begin\nhello from the demo\nHARNESS: demo end\n" \
            "HARNESS: dmesg begin\nHARNESS: dmesg end\nHARNESS-EXIT: 0\n"
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            self.assertEqual(verdict.main(["--demo", "x86_64=" + self.write("d.log", demo)]), 0)
            self.assertEqual(verdict.main(["--demo", "x86_64=" + self.write(
                "w.log", edit(demo, ("HARNESS: dmesg end", "BUG: sleeping function called\nHARNESS: dmesg end")))]), 1)
        self.assertIn("hello from the demo", buf.getvalue())
        self.assertIn("!! x86_64 | BUG: sleeping function called", buf.getvalue())


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--kunit-dir"]:
        KUNIT_DIR = args[1]
        args = args[2:]
    unittest.main(argv=[sys.argv[0]] + args)
