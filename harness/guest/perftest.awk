# Turns the output of `perf test NAME` into a KTAP document (its lines as
# "# " diagnostics, then version line, plan and one result per case; the
# version line right before the plan, where the KTAP parser wants it) and
# sets the exit status: 1 if any case failed, 4 if every case skipped, else 0.
#   " 22: Watchpoint        :"           (a suite with cases follows)
#   " 22.1: Read Only Watchpoint : Skip (missing hardware support)"
#   " 21: Breakpoint accounting : Ok"
#   "109: the longest description: Ok"   (no padding before the colon)
# A skip without a reason takes the one in `why` (a shell test's "Skip: ...").
function result(desc, verdict,    r) {
	n++
	gsub(/[ \t]+$/, "", desc)
	if (verdict ~ /^Ok/) { ok++; print "ok " n " " desc }
	else if (verdict ~ /^Skip/) {
		skip++
		r = verdict; sub(/^Skip */, "", r); gsub(/[()]/, "", r)
		if (r == "") r = why
		print "ok " n " " desc " # SKIP " (r == "" ? "skipped by perf test" : r)
	} else { fail++; print "not ok " n " " desc " # " verdict }
}
{ print "# " $0 }
/^ *[0-9]+(\.[0-9]+)?: .*: *(Ok|Skip.*|FAILED!.*)$/ {
	line = $0
	sub(/^ *[0-9]+(\.[0-9]+)?: /, "", line)
	# the longest description has no padding before its colon
	i = match(line, / *: *(Ok|Skip.*|FAILED!.*)$/)
	v = substr(line, i); sub(/^ *: */, "", v)
	res[++m] = substr(line, 1, i - 1); ver[m] = v
}
END {
	print "KTAP version 1"
	print "1.." m
	for (k = 1; k <= m; k++) result(res[k], ver[k])
	if (m == 0) { print "# perf test printed no result"; exit 1 }
	if (fail) exit 1
	if (skip == m) exit 4
	exit 0
}
