#!/usr/bin/env python3
"""Turn guest console logs into a verdict.

Usage:
  verdict.py [--kunit-dir DIR] [--summary FILE] [--skips SKIPLIST] ARCH=LOG...
             [--selftest NAME:EXPECT=LOG...]
  verdict.py --demo ARCH=LOG...

For each ARCH=LOG (a guest booted in "check" mode) it parses the KTAP
document that in-guest/run-tests printed with the kernel's own parser,
kunit_parser.py from DIR (the assembled tree's tools/testing/kunit; by
default build/linux/tools/testing/kunit of this checkout), counts every leaf
test (a kselftest case, a KUnit case, a perf test case; an entry without
subtests counts as one), and scans the kernel log for splats. A guest that
did not print "HARNESS-EXIT: N" fails, whatever its tests said.

What the kernel's parser does not do is done here, each in one place: the
guest-level checks (guest_checks: killed by the host's timeout, no
HARNESS-EXIT, splats in the kernel log; ktap_results: the test run never
started or did not finish, the plan against the results), the skip policy
(leaf entries of skips.list, apply_skips) and the summary (print_report).

Each --selftest NAME:EXPECT=LOG is a harness self-test: a guest that was
made to go wrong on purpose. It passes only if the log's verdict is red for
the EXPECTed reason (one of: failed-test, timeout, splat).

With --demo ARCH=LOG... (`make run`) it prints each guest's demo output
and fails only if a guest did not finish or its kernel log has a splat.

Prints a per-suite table, every failure and skip with its reason, and the
closing line "N passed, N failed, N skipped". A failure that ran out of time
(run-tests' limit of an entry, the kselftest harness's of a case, the host's
of a guest) is listed as TIME, not FAIL, and a line before the closing one
says how many of the failures did: a test too slow for its limit is told
apart from one that went wrong. Exit status 1 on any failure.
"""

import fnmatch
import io
import os
import re
import sys

SPLATS = re.compile(
    r"BUG:|WARNING:|Oops|KASAN(?! init done$)|UBSAN|possible circular locking|Call Trace|"
    r"RCU stall|rcu: INFO: .*detected stall|self-detected stall|"
    r"Kernel panic|soft lockup|hard LOCKUP|blocked for more than|"
    # An MSR the (emulated) CPU refused: a model or a driver off the manual.
    r"unchecked MSR access error")
# A case that ran out of time, as the kselftest harness says it in the case's
# own log ("# NAME: Test terminated by timeout"); run-tests' entry-level
# timeouts are the directive "timed out after Ns".
KSELFTEST_TIMEOUT = re.compile(r"^\s*# \S+: Test terminated by timeout$")
DEFAULT_KUNIT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 "..", "..", "build", "linux", "tools", "testing", "kunit")


class Outcome:
    def __init__(self, arch):
        self.arch = arch
        self.rows = []          # (suite, test, status, note)
        self.problems = []      # reasons the guest as a whole is red
        self.splat_lines = []

    def add(self, suite, test, status, note=""):
        self.rows.append((suite, test, status, note))


def read_lines(path, out):
    try:
        with open(path, errors="replace") as f:
            return [l.rstrip("\r\n") for l in f]
    except OSError as e:
        out.problems.append(f"no console log ({e})")
        return None


def section(lines, begin, end):
    """Lines strictly between the first BEGIN and the following END."""
    try:
        i = lines.index(begin)
    except ValueError:
        return None
    try:
        j = lines.index(end, i + 1)
    except ValueError:
        return lines[i + 1:]
    return lines[i + 1:j]


def load_kunit_parser(kunit_dir):
    """The kernel's KTAP parser (tools/testing/kunit/kunit_parser.py, with
    kunit_printer.py next to it), silenced: its own report goes nowhere."""
    if not os.path.isfile(os.path.join(kunit_dir, "kunit_parser.py")):
        sys.exit(f"verdict.py: no kunit_parser.py in {kunit_dir} "
                 "(--kunit-dir: the assembled tree's tools/testing/kunit)")
    sys.dont_write_bytecode = True      # the tree is not ours to write to
    sys.path.insert(0, os.path.abspath(kunit_dir))
    import kunit_parser
    import kunit_printer
    kunit_parser.stdout = kunit_printer.Printer(io.StringIO())
    if not hasattr(kunit_parser, "verdict_keeps_directives"):
        # kunit_parser keeps a result's status, not the text of its
        # directive ("# SKIP why", "# exit status 1"), which the summary
        # shows: keep it as Test.directive. A test without it printed no
        # result line (kunit_parser's stand-in for a missing subtest, or a
        # test cut short). At the end of the input there is no result line
        # to parse (kunit_parser would pop past the end).
        parse = kunit_parser.parse_test_result

        def parse_test_result(lines, test, expected_num):
            if not lines:
                return False
            line = lines.peek()
            if not parse(lines, test, expected_num):
                return False
            skip = kunit_parser.TEST_RESULT_SKIP.match(line)
            if skip:
                test.directive = skip.group(5).strip()
            else:
                rest = kunit_parser.TEST_RESULT.match(line).group(5) or ""
                test.directive = rest.strip()[1:].strip()
            return True
        kunit_parser.parse_test_result = parse_test_result
        kunit_parser.verdict_keeps_directives = True
    return kunit_parser


def guest_checks(out, lines):
    """The guest as a whole: killed by the host, never finished, splats."""
    for l in lines:
        if l.startswith("HARNESS-HOST: guest killed"):
            out.problems.append("guest hung: " + l.split(": ", 1)[1])
    # The guest's own status only says whether its job ran to the end; the
    # results themselves are judged from the KTAP (a failing entry makes it
    # non-zero, and is counted there).
    if not any(l.startswith("HARNESS-EXIT: ") for l in lines):
        out.problems.append("guest did not finish (crash, panic or hang)")
    kernel_log = section(lines, "HARNESS: dmesg begin", "HARNESS: dmesg end")
    for l in (kernel_log if kernel_log is not None else lines):
        if SPLATS.search(l) and l not in out.splat_lines:
            out.splat_lines.append(l)
    # in-guest/init asks kmemleak for a scan after the job; every object it
    # reports is a leak, and fails the run like a splat.
    leaks = [l for l in section(lines, "HARNESS: kmemleak begin", "HARNESS: kmemleak end") or []
             if l.startswith("unreferenced object")]
    out.splat_lines.extend("kmemleak: " + l for l in leaks)
    if out.splat_lines:
        out.problems.append(f"{len(out.splat_lines)} splat line(s) in the kernel log")


def judge(kp, test, parent_note=""):
    """(status, note) of one test as kunit_parser left it."""
    directive = getattr(test, "directive", None)
    if directive is None:       # crashed, hung or stopped early
        return "fail", f"no result; {parent_note}" if parent_note else "no result"
    if test.status == kp.TestStatus.SKIPPED:
        return "skip", directive or "skipped"
    if test.status == kp.TestStatus.SUCCESS:
        return "pass", ""
    if test.status == kp.TestStatus.NO_TESTS:
        return "fail", "no tests run"
    if any(KSELFTEST_TIMEOUT.match(l) for l in getattr(test, "log", [])):
        return "fail", "timed out (the kselftest harness's limit of the case)"
    return "fail", directive


def is_timeout(note):
    """Whether a failure's NOTE says it ran out of time (judge, run-tests,
    the host's limit): such failures are counted apart in the summary, as
    a test that was too slow is not one that went wrong."""
    return note.startswith("timed out") or note.startswith("no result; timed out") \
        or note.startswith("guest hung")


def leaf_rows(kp, test, name, parent_note=""):
    """(name, status, note) for every leaf below TEST (NAME is TEST's own
    name in the rows). A parent that failed while none of its leaves did
    (a test binary that crashed after its last result) is a failure too."""
    status, note = judge(kp, test, parent_note)
    if not test.subtests:
        return [(name, status, note)]
    rows = []
    for i, sub in enumerate(test.subtests, 1):
        rows += leaf_rows(kp, sub, sub.name or f"#{i}", getattr(test, "directive", ""))
    if status == "fail" and all(s != "fail" for _, s, _ in rows):
        rows.append((name, "fail", note or "failed"))
    return rows


def ktap_results(out, lines, kp):
    """The KTAP document between "HARNESS: tests begin" and "... end": one
    entry (suite/name) per test of the top level, its leaves as rows."""
    body = section(lines, "HARNESS: tests begin", "HARNESS: tests end")
    if body is None:
        out.problems.append("the test run never started")
        return
    if "HARNESS: tests end" not in lines:
        out.problems.append("the test run did not finish")
    try:
        main = kp.parse_run_tests(body)
    except ValueError as e:     # kunit_parser's LineStream: past the end
        out.problems.append(f"the KTAP parser gave up ({e})")
        return
    if main.status == kp.TestStatus.FAILURE_TO_PARSE_TESTS:
        out.problems.append("no KTAP document printed")
        return
    seen = 0
    for entry in main.subtests:
        if hasattr(entry, "directive"):
            seen += 1
        elif not entry.subtests:
            continue            # a planned entry that printed nothing
        suite, _, test = (entry.name or "?").partition("/")
        for name, status, note in leaf_rows(kp, entry, None):
            out.add(suite, test if name is None else f"{test}: {name}", status, note)
    plan = main.expected_count
    if plan is None:
        out.problems.append("no test plan printed")
    elif seen != plan:
        out.problems.append(f"{plan - seen} of {plan} tests printed no result")


def load_skips(path):
    """Leaf-level entries of skips.list ("arch | suite/name: case | reason",
    the case may be a glob): such a case runs, but whatever its result, it
    is reported as skipped with the reason. Entry-level ones are handled
    in the guest (the entry does not run)."""
    skips = []
    try:
        with open(path) as f:
            for line in f:
                if line.lstrip().startswith("#") or line.count("|") < 2:
                    continue
                arch, test, reason = (x.strip() for x in line.split("|", 2))
                if ": " in test:
                    skips.append((arch, test, reason))
    except OSError:
        pass
    return skips


def apply_skips(out, skips):
    rows = []
    for suite, test, status, note in out.rows:
        full = f"{suite}/{test}"
        for arch, pattern, reason in skips:
            if arch in (out.arch, "all") and fnmatch.fnmatchcase(full, pattern):
                status, note = "skip", reason
                break
        rows.append((suite, test, status, note))
    out.rows = rows


def check_log(arch, path, kp, skips=()):
    out = Outcome(arch)
    lines = read_lines(path, out)
    if lines is None:
        return out
    guest_checks(out, lines)
    ktap_results(out, lines, kp)
    apply_skips(out, skips)
    return out


def red_reasons(out):
    reasons = set()
    if any(s == "fail" for _, _, s, _ in out.rows):
        reasons.add("failed-test")
    if any(p.startswith("guest hung") for p in out.problems):
        reasons.add("timeout")
    if out.splat_lines:
        reasons.add("splat")
    if out.problems:
        reasons.add("problem")
    return reasons


def print_report(outs, selftests, summary):
    lines = []
    p = lines.append
    totals = {"pass": 0, "fail": 0, "skip": 0}
    suites = {}
    for out in outs:
        for suite, _, status, _ in out.rows:
            suites.setdefault(suite, {}).setdefault(out.arch, {"pass": 0, "fail": 0, "skip": 0})
            suites[suite][out.arch][status] += 1
            totals[status] += 1
        for problem in out.problems:
            suites.setdefault("guest", {}).setdefault(out.arch, {"pass": 0, "fail": 0, "skip": 0})
            suites["guest"][out.arch]["fail"] += 1
            totals["fail"] += 1
        if not out.problems:
            suites.setdefault("guest", {}).setdefault(out.arch, {"pass": 0, "fail": 0, "skip": 0})
            suites["guest"][out.arch]["pass"] += 1
            totals["pass"] += 1
    for name, expect, out in selftests:
        ok = expect in red_reasons(out)
        suites.setdefault("harness-selftest", {}).setdefault("host", {"pass": 0, "fail": 0, "skip": 0})
        suites["harness-selftest"]["host"]["pass" if ok else "fail"] += 1
        totals["pass" if ok else "fail"] += 1

    arches = [o.arch for o in outs] + (["host"] if selftests else [])
    p("")
    p("%-18s" % "suite" + "".join("%-24s" % a for a in arches))
    for suite in sorted(suites):
        row = "%-18s" % suite
        for a in arches:
            c = suites[suite].get(a)
            row += "%-24s" % ("-" if not c else
                              "%d pass %d fail %d skip" % (c["pass"], c["fail"], c["skip"]))
        p(row)

    fails = [(o.arch, s, t, n) for o in outs for s, t, st, n in o.rows if st == "fail"]
    skips = [(o.arch, s, t, n) for o in outs for s, t, st, n in o.rows if st == "skip"]
    if fails or any(o.problems for o in outs) or selftests:
        p("")
    for arch, s, t, n in fails:
        p(f"{'TIME' if is_timeout(n) else 'FAIL'}  {arch}  {s}/{t}" + (f"  ({n})" if n else ""))
    for o in outs:
        for prob in o.problems:
            p(f"{'TIME' if is_timeout(prob) else 'FAIL'}  {o.arch}  guest: {prob}")
        for l in o.splat_lines[:20]:
            p(f"      {o.arch}  | {l}")
    for name, expect, out in selftests:
        got = red_reasons(out)
        verdict = "PASS" if expect in got else "FAIL"
        p(f"{verdict}  host  harness-selftest/{name}: expected a red verdict for "
          f"'{expect}', got {', '.join(sorted(got)) or 'green'}")
    if skips:
        p("")
    groups = {}
    for arch, s, t, n in skips:
        groups.setdefault((arch, s, n), []).append(t)
    for (arch, s, n), tests in groups.items():
        what = f"{s}/{tests[0]}" if len(tests) == 1 else \
            f"{len(tests)} cases of {s}/{tests[0].split(':')[0]} (e.g. {tests[0]})"
        p(f"SKIP  {arch}  {what}: {n}")
    timeouts = sum(is_timeout(n) for _, _, _, n in fails) + \
        sum(is_timeout(prob) for o in outs for prob in o.problems)
    p("")
    if totals["fail"]:
        p(f"of the {totals['fail']} failed, {timeouts} ran out of time (TIME above), "
          f"{totals['fail'] - timeouts} went wrong (FAIL above)")
    p(f"{totals['pass']} passed, {totals['fail']} failed, {totals['skip']} skipped")
    text = "\n".join(lines)
    print(text)
    if summary:
        with open(summary, "w") as f:
            f.write(text + "\n")
    return totals["fail"] == 0


def show_demo(specs):
    """`make run`: print what each guest's demo printed, then judge only
    the guest itself (it finished, its kernel log is clean)."""
    good = True
    for spec in specs:
        arch, _, log = spec.partition("=")
        out = Outcome(arch)
        lines = read_lines(log, out)
        if lines is not None:
            guest_checks(out, lines)
        print(f"\n==================== {arch} guest ====================")
        for l in section(lines or [], "HARNESS: demo begin", "HARNESS: demo end") or []:
            # make bench's figures as data, for bench-report.py: not for people
            if not l.startswith("BENCH-DATA "):
                print(l)
        for prob in out.problems:
            print(f"!! {arch}: {prob}")
            good = False
        for l in out.splat_lines[:20]:
            print(f"!! {arch} | {l}")
    return 0 if good else 1


def main(argv):
    if argv and argv[0] == "--demo":
        return show_demo(argv[1:])
    summary = None
    skips = []
    kunit_dir = DEFAULT_KUNIT_DIR
    logs, selftest_logs = [], []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--summary":
            summary = args.pop(0)
        elif a == "--skips":
            skips = load_skips(args.pop(0))
        elif a == "--kunit-dir":
            kunit_dir = args.pop(0)
        elif a == "--selftest":
            spec, _, log = args.pop(0).partition("=")
            name, _, expect = spec.partition(":")
            selftest_logs.append((name, expect, log))
        else:
            arch, _, log = a.partition("=")
            logs.append((arch, log))
    if not logs and not selftest_logs:
        print(__doc__, file=sys.stderr)
        return 2
    kp = load_kunit_parser(kunit_dir)
    outs = [check_log(arch, log, kp, skips) for arch, log in logs]
    selftests = [(name, expect, check_log("selftest", log, kp))
                 for name, expect, log in selftest_logs]
    return 0 if print_report(outs, selftests, summary) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
