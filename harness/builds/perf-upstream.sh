#!/bin/bash
# Usage: perf-upstream.sh [--cache DIR] DEB_ARCH [PERF ARGS...]
#        perf-upstream.sh [--cache DIR] --tree DEB_ARCH
#        perf-upstream.sh [--cache DIR] --wrapper PREFIX [PROGRAM] DEB_ARCH
#        perf-upstream.sh [--cache DIR] --tests DEB_ARCH
# Upstream perf next to ours: Debian unstable's linux-perf (perf as its
# maintainers release it today, 7.x), so that tests can check that both
# perfs read each other's recordings. The first form runs it on this host
# (DEB_ARCH must be the host's: amd64 here), with its own dynamic loader and
# libraries: unstable's glibc is newer than the host's, so the binary runs as
#   TREE/usr/libexec/perf-upstream/perf --library-path TREE/usr/lib/<triplet> TREE/usr/bin/perf ARGS
# where the first is a link to the tree's loader (/lib64/ld-linux-x86-64.so.2),
# and nothing of the host's libraries or files is used or changed.
#
#   --tree          only fetch, and print the tree (TREE/usr/bin/perf; the
#                   bash, uname and taskset of the same release, the GNU
#                   userland that perf's test scripts are written for; the
#                   loader, the NEEDED closure of libraries; TREE/.complete
#                   names the packages, linux-perf first, with versions)
#   --wrapper PREFIX [PROGRAM]  print a /bin/sh script that runs PROGRAM
#                   (perf, the default, bash, uname or taskset) of the tree copied to
#                   PREFIX (upstream-perf-initramfs.sh puts perf's in a
#                   guest as /usr/bin/perf-upstream, the tree at
#                   /opt/upstream-perf)
#   --tests         print the directory of upstream's own `perf test` shell
#                   scripts as linux-perf ships them (its
#                   /usr/lib/perf-core/tests/shell: test_intel_pt.sh, lib/),
#                   unpacked once next to the tree
#   --cache DIR     the harness's cache (default: $CACHE, else
#                   ~/.cache/perf-aux); the tree is DIR/upstream-perf/DEB_ARCH/root
#
# The packages come once from Debian unstable through a private apt
# configuration in DIR/upstream-perf/apt (fetch-debroot.sh --suite: the
# host's apt sources are not touched); afterwards everything runs offline.
# Remove DIR/upstream-perf to take a newer upstream perf.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${CACHE:-$HOME/.cache/perf-aux}
mode=run prefix="" prog=perf
while [ $# -gt 0 ]; do
	case $1 in
	--cache) cache=$2; shift 2 ;;
	--tree) mode=tree; shift ;;
	--tests) mode=tests; shift ;;
	--wrapper)
		mode=wrapper prefix=$2; shift 2
		case ${1-} in perf|bash|uname|taskset) prog=$1; shift ;; esac ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: perf-upstream.sh [--cache DIR] [--tree | --tests | --wrapper PREFIX [perf|bash]] DEB_ARCH [PERF ARGS...]" >&2; exit 1; }
darch=$1; shift

tree=$("$here/../fetch/fetch-debroot.sh" --suite unstable --with-libs upstream-perf "$darch" "$cache" \
	"/usr/bin/perf /usr/bin/bash /usr/bin/uname /usr/bin/taskset" "linux-perf bash coreutils util-linux")

# The loader the binary names, and the tree's library directories.
interp=$(readelf -l "$tree/usr/bin/perf" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
libdirs=$(cd "$tree" && find . -name '*.so*' -type f -printf '%h\n' | sed 's|^\.||' | sort -u -r)
# The loader is run through a link named after the program (perf, bash, ...):
# the kernel names a process after the file it executes, so perf's own
# samples and COMM events say "perf", as they do where the loader is the
# binary's interpreter, not "ld64.so.2".
for p in perf bash uname taskset; do
	run=/usr/libexec/perf-upstream/$p
	if [ ! -L "$tree$run" ]; then
		mkdir -p "$tree$(dirname "$run")"
		ln -s "$(realpath -m -s --relative-to="$(dirname "$run")" "$interp")" "$tree$run"
	fi
done
# launcher ROOT [PROGRAM]: the command line that runs PROGRAM (perf) of the
# tree at ROOT.
launcher() {
	local path="" d p=${2:-perf}
	for d in $libdirs; do path=${path:+$path:}$1$d; done
	printf '%s --library-path %s %s/usr/bin/%s' "$1/usr/libexec/perf-upstream/$p" "$path" "$1" "$p"
}

case $mode in
tree)
	echo "$tree"
	;;
tests)
	# Unpacked from the very linux-perf package of the tree (named first
	# in its .complete), again when the tree is newer.
	tests=$(dirname "$tree")/tests
	if [ ! -f "$tests/.complete" ] || [ "$tests/.complete" -ot "$tree/.complete" ]; then
		read -r _ _ _ version _ < "$tree/.complete"
		deb=$(dirname "$tree")/deb/linux-perf_${version//:/%3a}_$darch.deb
		[ -f "$deb" ] || { echo "perf-upstream: no $deb" >&2; exit 1; }
		rm -rf "$tests" "$tests.tmp"
		mkdir -p "$tests.tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tests.tmp" ./usr/lib/perf-core/tests/shell
		mv "$tests.tmp/usr/lib/perf-core/tests/shell" "$tests"
		rm -rf "$tests.tmp"
		[ -f "$tests/test_intel_pt.sh" ] || { echo "perf-upstream: $deb has no test_intel_pt.sh" >&2; exit 1; }
		awk '{print; exit}' "$tree/.complete" > "$tests/.complete"
	fi
	echo "$tests"
	;;
wrapper)
	cat <<-EOF
	#!/bin/sh
	# $prog of upstream perf's tree, next to this system's own: Debian
	# unstable's $(awk '{print $2, $4, $6; exit}' "$tree/.complete") and what it needs,
	# run with its own loader and libraries from $prefix.
	exec $(launcher "$prefix" "$prog") "\$@"
	EOF
	;;
run)
	host=$(dpkg --print-architecture)
	[ "$darch" = "$host" ] ||
		{ echo "perf-upstream: $darch perf does not run on this $host host (copy $tree into a $darch machine)" >&2; exit 1; }
	# shellcheck disable=SC2046
	exec $(launcher "$tree") "$@"
	;;
esac
