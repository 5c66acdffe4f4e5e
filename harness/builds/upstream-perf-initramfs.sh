#!/bin/bash
# Usage: upstream-perf-initramfs.sh IN OUT DEB_ARCH CACHEDIR [PREFIX]
# Adds upstream perf (Debian unstable's linux-perf, perf-upstream.sh --tree
# DEB_ARCH: the binary, its loader and the NEEDED closure of its libraries)
# to a guest initramfs made by mkinitramfs.sh, so that tests run it next to
# the guest's own /usr/bin/perf: the tree goes to PREFIX (default
# /opt/upstream-perf) and a wrapper to /usr/bin/perf-upstream, which runs
#   PREFIX/lib64/ld64.so.2 --library-path PREFIX/usr/lib/<triplet> PREFIX/usr/bin/perf "$@"
# (unstable's glibc, not the guest's). Upstream's own `perf test` shell
# scripts, as the same linux-perf package ships them, go to PREFIX/tests
# (test_intel_pt.sh, lib/), and PREFIX/bin holds `perf` (the same wrapper),
# `bash`, `uname` and `taskset` (unstable's: the scripts are written for
# bash and GNU tools, taskset --cpu-list, and count the instructions of a
# dynamically linked GNU uname, where busybox's is static and runs fewer
# than 50,000), so that
#   PATH=PREFIX/bin:$PATH bash PREFIX/tests/SCRIPT
# runs an upstream test with upstream perf. Nothing else of the guest
# changes: the archive holds only PREFIX and the wrapper. Tests that find no
# /usr/bin/perf-upstream skip.
#
# The payload is a second newc cpio archive appended to IN, as
# fuzz-initramfs.sh does (the kernel unpacks concatenated archives one after
# the other); OUT may be IN. It is packed once (uncompressed, as the rest:
# mkinitramfs.sh; about 51 MB) and kept next to the tree,
# CACHEDIR/upstream-perf/DEB_ARCH/, so that each new initramfs only appends it.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: upstream-perf-initramfs.sh IN OUT DEB_ARCH CACHEDIR [PREFIX]" >&2; exit 1; }
in=$1 out=$2 darch=$3 cache=$4 prefix=${5:-/opt/upstream-perf}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$in" ] || { echo "upstream-perf-initramfs: no initramfs $in" >&2; exit 1; }
tree=$("$here/perf-upstream.sh" --cache "$cache" --tree "$darch")
wrapper=$("$here/perf-upstream.sh" --cache "$cache" --wrapper "$prefix" perf "$darch")
bash_wrapper=$("$here/perf-upstream.sh" --cache "$cache" --wrapper "$prefix" bash "$darch")
uname_wrapper=$("$here/perf-upstream.sh" --cache "$cache" --wrapper "$prefix" uname "$darch")
taskset_wrapper=$("$here/perf-upstream.sh" --cache "$cache" --wrapper "$prefix" taskset "$darch")
tests=$("$here/perf-upstream.sh" --cache "$cache" --tests "$darch")

payload=$cache/upstream-perf/$darch/initramfs.cpio
# The payload is that of this tree (its .complete is written last), its
# tests and the wrappers.
key=$(printf '%s\n' "$(stat -c %Y "$tree/.complete" "$tests/.complete")" "$prefix" "$wrapper" \
	"$bash_wrapper" "$uname_wrapper" "$taskset_wrapper" | sha256sum)
if [ ! -f "$payload" ] || [ "$(cat "$payload.key" 2>/dev/null)" != "$key" ]; then
	stage=$payload.d
	rm -rf "$stage"
	mkdir -p "$stage$prefix" "$stage/usr/bin"
	cp -a "$tree"/. "$stage$prefix/"
	cp -a "$tests" "$stage$prefix/tests"
	mkdir -p "$stage$prefix/bin"
	printf '%s\n' "$wrapper" > "$stage$prefix/bin/perf"
	printf '%s\n' "$bash_wrapper" > "$stage$prefix/bin/bash"
	printf '%s\n' "$uname_wrapper" > "$stage$prefix/bin/uname"
	printf '%s\n' "$taskset_wrapper" > "$stage$prefix/bin/taskset"
	chmod 0755 "$stage$prefix/bin/perf" "$stage$prefix/bin/bash" "$stage$prefix/bin/uname" \
		"$stage$prefix/bin/taskset"
	cp -p "$stage$prefix/bin/perf" "$stage/usr/bin/perf-upstream"
	# PREFIX and the directories above it (/opt), the wrapper, and nothing
	# else: not /, /usr, /usr/bin, whose entries would set the guest's own.
	d=${prefix#/} parents=""
	while d=$(dirname "$d") && [ "$d" != . ]; do parents="$d $parents"; done
	# shellcheck disable=SC2086
	(cd "$stage" && { for d in $parents; do echo "$d"; done; find "${prefix#/}"; echo usr/bin/perf-upstream; } |
		LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$payload.tmp"
	mv "$payload.tmp" "$payload"
	echo "$key" > "$payload.key"
	rm -rf "$stage"
fi
cat "$in" "$payload" > "$out.tmp"
mv "$out.tmp" "$out"
