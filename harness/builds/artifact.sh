#!/bin/bash
# Usage: artifact.sh [--scope kernel|perf] NAME OBJ SRC -- COMMAND...
#
# Runs COMMAND, a build of the assembled tree SRC into the directory OBJ,
# unless the cache holds the OBJ that a build with the same inputs left:
# then OBJ becomes a copy of that, and COMMAND does not run. ccache at the
# level of a whole build: a fresh clone (CI) gets the perfs and kernels
# that the last run built from the same inputs in seconds, where ccache
# alone still spent about 100 s on each perf (feature tests, links,
# generated sources) on the slower machine of our kind.
#
# The inputs, all hashed into the key (so a change to any of them builds):
#   - the inputs of SRC (harness/tree/assemble.sh: the base, the hash of
#     each file of the sparse tree and of each patch, in the series' order)
#     but those that the build does not read, by its --scope: a file under
#     one of the scope's directories below, and a patch that touches only
#     such files. A change to perf's shell tests or to a selftest builds
#     no kernel and no perf (a selftest's config fragment, a word of the
#     kernel's COMMAND, still counts); without --scope every input does.
#     If any file of SRC is newer than its stamp (an edit made there, not
#     yet refreshed), COMMAND runs and nothing is saved;
#   - COMMAND's words, with the clone's path taken out; the content of
#     every word that names a file; the file names and sizes under every
#     word that names a directory outside the clone (a fetched sysroot;
#     not SRC, which its stamp stands for, nor OBJ);
#   - every script and configuration fragment of harness/builds and
#     harness/arch, the versions of every installed Debian package (the
#     compilers, the libraries linked), and W.
# The cache keeps one build per NAME: ARTIFACTS_DIR/NAME (the Makefile's
# CACHE/artifacts).
# ARTIFACTS=off runs COMMAND always (and saves nothing).
set -euo pipefail
usage() { echo "usage: artifact.sh [--scope kernel|perf] NAME OBJ SRC -- COMMAND..." >&2; exit 2; }
# What a scope's builds do not read (prefixes of paths). The kernel's:
# perf, the selftests, the documentation (kernel-doc reads the sources),
# MAINTAINERS. perf's: the selftests, the kernel's documentation,
# MAINTAINERS, and perf's shell tests and their lib/, which the guests'
# initramfs takes from SRC itself (not tests/shell/coresight, whose
# programs `make all` builds; nor perf's Documentation, from which
# common-cmds.h is made).
ignore=()
if [ "${1:-}" = --scope ]; then
	case ${2:-} in
	kernel) ignore=(tools/perf/ tools/testing/ Documentation/ MAINTAINERS) ;;
	perf) ignore=(tools/perf/tests/shell/test_ tools/perf/tests/shell/lib/ tools/testing/
		      Documentation/ MAINTAINERS) ;;
	*) usage ;;
	esac
	shift 2
fi
if [ $# -lt 5 ] || [ "$4" != -- ]; then usage; fi
name=$1 obj=$2 src=$3
shift 4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
store=${ARTIFACTS_DIR:-$HOME/.cache/perf-aux/artifacts}/$name

if [ "${ARTIFACTS:-}" = off ] || [ ! -f "$src/.assembled" ] ||
   [ -n "$(find "$src" -newer "$src/.assembled" ! -type d -print -quit)" ]; then
	exec "$@"
fi

ignored() {	# PATH (of the tree) is one that the scope's builds do not read
	local p
	for p in "${ignore[@]}"; do
		case $1 in "$p"*) return 0 ;; esac
	done
	return 1
}
tree_key() {	# the inputs of SRC that the build reads (above)
	local sum path f read
	if [ "$(wc -l < "$src/.assembled")" -lt 2 ]; then
		cat "$src/.assembled"	# a tree assembled before the inputs were kept
		return
	fi
	sed -n 2p "$src/.assembled"	# the base
	tail -n +3 "$src/.assembled" | while read -r sum path; do
		case $path in
		patches/series) continue ;;	# the order is the lines' own
		patches/*)
			read=0
			while read -r f; do
				ignored "$f" || read=1
			done < <(sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p; s,^--- a/\([^[:space:]]*\).*,\1,p' "$root/$path")
			[ $read = 0 ] && continue ;;
		*) ignored "$path" && continue ;;
		esac
		echo "$sum $path"
	done
}
word_key() {	# what a word of COMMAND contributes to the key
	printf '%s\n' "${1//"$root"/@ROOT@}"
	if [ -f "$1" ]; then
		sha256sum < "$1"
	elif [ -d "$1" ] && [ "${1#"$root"/}" = "$1" ]; then
		(cd "$1" && find . -printf '%P %s\n' | LC_ALL=C sort | sha256sum)
	fi
}
key=$( {
	echo "$name"
	tree_key
	for w in "$@"; do word_key "$w"; done
	(cd "$root" && find harness/builds harness/arch -type f \( -name '*.sh' -o -name '*.config' -o -name '*.mk' \) |
		LC_ALL=C sort | xargs sha256sum)
	dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' | LC_ALL=C sort
	echo "W=${W:-}"
} | sha256sum | cut -d' ' -f1)

if [ -f "$store/key" ] && [ "$(cat "$store/key")" = "$key" ] && [ -d "$store/obj" ]; then
	rm -rf "$obj"
	mkdir -p "$(dirname "$obj")"
	cp -a "$store/obj" "$obj"
	echo "artifact: $name from the cache (the same inputs as its last build)"
	exit 0
fi

"$@"
rm -rf "$store.new"
mkdir -p "$store.new"
cp -a "$obj" "$store.new/obj"
echo "$key" > "$store.new/key"
rm -rf "$store"
mv "$store.new" "$store"
