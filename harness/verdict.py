#!/usr/bin/env python3
"""Turn guest console logs into a verdict.

Usage:
  verdict.py [--summary FILE] [--skips SKIPLIST] ARCH=LOG... [--selftest NAME:EXPECT=LOG...]

For each ARCH=LOG (a guest booted in "check" mode) it parses the KTAP
document that guest/run-tests printed, counts every leaf test (a kselftest
case, a KUnit case, a perf test case; an entry without subtests counts as
one), and scans the kernel log for splats. A guest that did not print
"HARNESS-EXIT: N" fails, whatever its tests said.

Each --selftest NAME:EXPECT=LOG is a harness self-test: a guest that was
made to go wrong on purpose. It passes only if the log's verdict is red for
the EXPECTed reason (one of: failed-test, timeout, splat).

With --demo ARCH=LOG... (`make run`) it prints each guest's demo output
and fails only if a guest did not finish or its kernel log has a splat.

Prints a per-suite table, every failure and skip with its reason, and the
closing line "N passed, N failed, N skipped". Exit status 1 on any failure.
"""

import fnmatch
import re
import sys

SPLATS = re.compile(
    r"BUG:|WARNING:|Oops|KASAN|possible circular locking|Call Trace|"
    r"RCU stall|rcu: INFO: .*detected stall|self-detected stall|"
    r"Kernel panic|soft lockup|hard LOCKUP|blocked for more than")
RESULT = re.compile(
    r"^(?P<indent>\s*)(?P<not>not )?ok (?P<num>\d+)(?: -)?\s*(?P<desc>[^#]*?)"
    r"\s*(?:#\s*(?P<directive>.*))?$")


class Outcome:
    def __init__(self, arch):
        self.arch = arch
        self.rows = []          # (suite, test, status, note)
        self.problems = []      # reasons the guest as a whole is red
        self.splat_lines = []

    def add(self, suite, test, status, note=""):
        self.rows.append((suite, test, status, note))


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


def status_of(m):
    directive = (m.group("directive") or "").strip()
    if m.group("not"):
        return "fail", directive
    if directive.upper().startswith("SKIP"):
        return "skip", directive[4:].strip() or "skipped"
    return "pass", ""


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


def parse_tests(out, lines):
    body = section(lines, "HARNESS: tests begin", "HARNESS: tests end")
    if body is None:
        out.problems.append("the test run never started")
        return
    if "HARNESS: tests end" not in lines:
        out.problems.append("the test run did not finish")
    plan = None
    seen = 0
    items = []      # leaves of the current entry: (status, desc, note)
    marks = []      # (indent, len(items)) after each result line
    for raw in body:
        line = raw.replace("\t", "    ")
        if plan is None and re.match(r"^1\.\.\d+", line):
            plan = int(line.split("..")[1].split()[0])
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent = len(m.group("indent"))
        status, note = status_of(m)
        desc = m.group("desc").strip()
        # KTAP prints subtests before their parent's result: a line is a
        # parent when the result just before it was nested deeper.
        if marks and marks[-1][0] > indent:
            start = next((pos for ind, pos in reversed(marks) if ind <= indent), 0)
            if status == "fail" and all(s != "fail" for s, _, _ in items[start:]):
                items.append(("fail", desc, note or "failed"))
        else:
            items.append((status, desc, note))
        marks.append((indent, len(items)))
        if indent:
            continue
        seen += 1
        suite, _, test = desc.partition("/")
        if len(items) == 1 and items[0][1] == desc:
            out.add(suite, test, status, note)
        else:
            for s, d, n in items:
                out.add(suite, test if d == desc else f"{test}: {d}", s, n)
        items, marks = [], []
    if plan is None:
        out.problems.append("no test plan printed")
    elif seen != plan:
        out.problems.append(f"{plan - seen} of {plan} tests printed no result")


def parse_log(arch, path):
    out = Outcome(arch)
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip("\r\n") for l in f]
    except OSError as e:
        out.problems.append(f"no console log ({e})")
        return out
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
    if out.splat_lines:
        out.problems.append(f"{len(out.splat_lines)} splat line(s) in the kernel log")
    return out


def check_log(arch, path):
    out = parse_log(arch, path)
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip("\r\n") for l in f]
    except OSError:
        lines = []
    parse_tests(out, lines)
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
        p(f"FAIL  {arch}  {s}/{t}" + (f"  ({n})" if n else ""))
    for o in outs:
        for prob in o.problems:
            p(f"FAIL  {o.arch}  guest: {prob}")
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
    p("")
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
        out = parse_log(arch, log)
        try:
            with open(log, errors="replace") as f:
                lines = [l.rstrip("\r\n") for l in f]
        except OSError:
            lines = []
        print(f"\n==================== {arch} guest ====================")
        for l in section(lines, "HARNESS: demo begin", "HARNESS: demo end") or []:
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
    outs, selftests = [], []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--summary":
            summary = args.pop(0)
        elif a == "--skips":
            skips = load_skips(args.pop(0))
        elif a == "--selftest":
            spec, _, log = args.pop(0).partition("=")
            name, _, expect = spec.partition(":")
            selftests.append((name, expect, check_log("selftest", log)))
        else:
            arch, _, log = a.partition("=")
            outs.append(check_log(arch, log))
            apply_skips(outs[-1], skips)
    if not outs and not selftests:
        print(__doc__, file=sys.stderr)
        return 2
    return 0 if print_report(outs, selftests, summary) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
