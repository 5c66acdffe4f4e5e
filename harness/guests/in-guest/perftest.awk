# Turns the output of `perf test -v NAME` (or of `perf test NAME`) into a
# KTAP document (its lines as "# " diagnostics, then version line, plan and
# one result per case; the version line right before the plan, where the
# KTAP parser wants it) and sets the exit status: 1 if any case failed, 4 if
# every case skipped, else 0. Without -v a case is one line:
#   " 22: Watchpoint        :"           (a suite with cases follows)
#   " 22.1: Read Only Watchpoint : Skip (missing hardware support)"
#   " 21: Breakpoint accounting : Ok"
#   "109: the longest description: Ok"   (no padding before the colon)
# With -v the case's output comes between its header and its result:
#   " 21: Breakpoint accounting :"
#   "--- start ---"  ...  "---- end ----"
#   "Breakpoint accounting: Ok"          (a suite's case: "SUITE subtest N: Ok")
# and a shell test says why it skipped in a line "Skip: REASON", the reason a
# skip without one takes.
function result(desc, verdict, reason,    r) {
	n++
	gsub(/[ \t]+$/, "", desc)
	if (verdict ~ /^Ok/) { ok++; print "ok " n " " desc }
	else if (verdict ~ /^Skip/) {
		skip++
		r = verdict; sub(/^Skip */, "", r); gsub(/[()]/, "", r)
		if (r == "") r = reason
		print "ok " n " " desc " # SKIP " (r == "" ? "skipped by perf test" : r)
	} else { fail++; print "not ok " n " " desc " # " verdict }
}
function verdict_of(line,    i) {
	i = match(line, / *: *(Ok|Skip.*|FAILED!.*)$/)
	if (!i) return ""
	return substr(line, i)
}
{ print "# " $0 }
/^--- start ---$/ { inside = 1; next }
inside && /^---- end ----$/ { inside = 0; ended = 1; next }
inside && /^Skip: / { r = $0; sub(/^Skip: /, "", r); if (reason == "") reason = r }
inside { next }
# -v: the result line after "---- end ----" belongs to the last header
ended {
	ended = 0
	v = verdict_of($0)
	if (v != "") {
		sub(/^ *: */, "", v)
		res[++m] = head; ver[m] = v; why[m] = reason; reason = ""
		next
	}
}
/^ *[0-9]+(\.[0-9]+)?: .*: *(Ok|Skip.*|FAILED!.*)$/ {
	line = $0
	sub(/^ *[0-9]+(\.[0-9]+)?: /, "", line)
	v = verdict_of(line)
	i = length(line) - length(v)
	sub(/^ *: */, "", v)
	res[++m] = substr(line, 1, i); ver[m] = v; why[m] = reason; reason = ""
	next
}
/^ *[0-9]+(\.[0-9]+)?: .*: *$/ {
	head = $0
	sub(/^ *[0-9]+(\.[0-9]+)?: /, "", head)
	sub(/ *: *$/, "", head)
}
END {
	print "KTAP version 1"
	print "1.." m + 0
	for (k = 1; k <= m; k++) result(res[k], ver[k], why[k])
	if (m == 0) { print "# perf test printed no result"; exit 1 }
	if (fail) exit 1
	if (skip == m) exit 4
	exit 0
}
