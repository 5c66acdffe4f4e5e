#!/usr/bin/env python3
"""Our kernel's results beside upstream's, every difference explained.

Usage:
  compare.py [--kunit-dir DIR] [--skips SKIPLIST] --explained LIST
             [--table FILE] GUEST=OURS_LOG,UPSTREAM_LOG...

Each GUEST (x86_64, x86_64:pmu, ppc64le:dtl...) was booted in "check" mode
twice, on the same QEMU, models, initramfs and perf: once with our kernel
(OURS_LOG) and once with upstream's (UPSTREAM_LOG). Both logs are judged
by harness/verdict/verdict.py (check_log: the KTAP leaves, the skip list,
the guest-level checks), and every test of either is one row: GUEST,
SUITE/TEST, our status, upstream's (pass, fail, skip, or "-" where that
kernel's run has no such test). A guest-level problem is a row of its own:
each splat line of the kernel log (verdict.py's SPLATS, a kmemleak
report) "guest/splat: LINE", failed on the side that has it; the others
(a guest that did not finish, a test run that never started)
"guest/problems", with the problems as its note; a guest whose run had
none has "pass".

A row whose statuses differ is a difference. LIST explains them, one line
each (blank lines and lines starting with # are ignored):

  GUEST | SUITE/TEST | OURS UPSTREAM | why

GUEST and SUITE/TEST are shell patterns (fnmatch), OURS and UPSTREAM
statuses or "*". The first line that matches explains the row. A
difference that no line explains fails the comparison (exit status 1); a
line that explains nothing is reported as stale (it does not fail: a
difference may come and go with the machine, as a skip may).

Prints the table (also to FILE with --table), then the totals by pair of
statuses, the differences with their reasons, the unexplained ones and the
stale lines.
"""

import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verdict"))
import verdict  # noqa: E402  (harness/verdict/verdict.py)

MISSING = "-"


def load_explained(path):
    """[(guest, test, ours, upstream, why, lineno)] of LIST."""
    rules = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|", 3)]
            if len(parts) != 4 or len(parts[2].split()) != 2 or not parts[3]:
                raise ValueError(f"{path}:{n}: not 'GUEST | SUITE/TEST | OURS UPSTREAM | why'")
            ours, upstream = parts[2].split()
            rules.append((parts[0], parts[1], ours, upstream, parts[3], n))
    return rules


def results(out):
    """{suite/test: (status, note)} of one judged log: each splat line of
    the kernel log a row "guest/splat: LINE" (without its timestamp), the
    guest's other problems the row guest/problems."""
    res = {}
    for suite, test, status, note in out.rows:
        res[f"{suite}/{test}"] = (status, note)
    for line in out.splat_lines:
        line = re.sub(r"^\[\s*[0-9.]+\]\s*", "", line).strip()
        if line != "Call Trace:":   # the trace of the line before
            res["guest/splat: " + line] = ("fail", "")
    problems = "; ".join(p for p in out.problems if not p.endswith("splat line(s) in the kernel log"))
    res["guest/problems"] = ("fail", problems) if problems else ("pass", "")
    return res


def rows_of(guest, ours, upstream):
    """[(guest, test, ours_status, upstream_status, ours_note, upstream_note)]"""
    rows = []
    for test in sorted(set(ours) | set(upstream)):
        o, on = ours.get(test, (MISSING, ""))
        u, un = upstream.get(test, (MISSING, ""))
        rows.append((guest, test, o, u, on, un))
    return rows


def explain(row, rules, used):
    guest, test, o, u = row[:4]
    for rg, rt, ro, ru, why, n in rules:
        if fnmatch.fnmatchcase(guest, rg) and fnmatch.fnmatchcase(test, rt) \
                and ro in ("*", o) and ru in ("*", u):
            used.add(n)
            return why
    return None


def compare(pairs, rules):
    """(rows, differences, unexplained, stale rules) of PAIRS, a list of
    (guest, ours Outcome, upstream Outcome)."""
    rows, diffs, unexplained, used = [], [], [], set()
    for guest, ours, upstream in pairs:
        for row in rows_of(guest, results(ours), results(upstream)):
            rows.append(row)
            if row[2] == row[3]:
                continue
            why = explain(row, rules, used)
            if why is None:
                unexplained.append(row)
            else:
                diffs.append((row, why))
    stale = [r for r in rules if r[5] not in used]
    return rows, diffs, unexplained, stale


def report(rows, diffs, unexplained, stale, table_file=None):
    width = max([len(f"{g}  {t}") for g, t, *_ in rows] + [20])
    table = [f"{'guest  test':<{width}}  {'ours':<5} upstream"]
    for g, t, o, u, _, _ in rows:
        mark = "" if o == u else "   *"
        table.append(f"{g + '  ' + t:<{width}}  {o:<5} {u}{mark}")
    text = "\n".join(table) + "\n"
    if table_file:
        with open(table_file, "w") as f:
            f.write(text)
    print(text)
    pairs = {}
    for _, _, o, u, _, _ in rows:
        pairs[(o, u)] = pairs.get((o, u), 0) + 1
    print("totals (ours / upstream): " + ", ".join(
        f"{o}/{u} {n}" for (o, u), n in sorted(pairs.items())))
    print(f"\n{len(diffs)} explained difference(s):")
    for (g, t, o, u, on, un), why in diffs:
        print(f"  {g}  {t}: ours {o}, upstream {u}: {why}")
    if unexplained:
        print(f"\n{len(unexplained)} UNEXPLAINED difference(s):")
        for g, t, o, u, on, un in unexplained:
            print(f"  {g}  {t}: ours {o}{' (' + on + ')' if on else ''}, "
                  f"upstream {u}{' (' + un + ')' if un else ''}")
    if stale:
        print(f"\n{len(stale)} line(s) of the list explained nothing this time:")
        for g, t, o, u, why, n in stale:
            print(f"  line {n}: {g} | {t} | {o} {u}")
    verdict_line = "compare: " + ("every difference explained" if not unexplained
                                  else f"{len(unexplained)} difference(s) unexplained")
    print("\n" + verdict_line)
    return not unexplained


def main(argv):
    kunit_dir = verdict.DEFAULT_KUNIT_DIR
    skips, explained, table_file, specs = [], None, None, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--kunit-dir":
            kunit_dir = args.pop(0)
        elif a == "--skips":
            skips = verdict.load_skips(args.pop(0))
        elif a == "--explained":
            explained = args.pop(0)
        elif a == "--table":
            table_file = args.pop(0)
        else:
            guest, _, logs = a.partition("=")
            ours, _, upstream = logs.partition(",")
            if not guest or not ours or not upstream:
                print(__doc__, file=sys.stderr)
                return 2
            specs.append((guest, ours, upstream))
    if not specs or not explained:
        print(__doc__, file=sys.stderr)
        return 2
    rules = load_explained(explained)
    kp = verdict.load_kunit_parser(kunit_dir)
    pairs = [(g, verdict.check_log(g, o, kp, skips), verdict.check_log(g, u, kp, skips))
             for g, o, u in specs]
    return 0 if report(*compare(pairs, rules), table_file=table_file) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
