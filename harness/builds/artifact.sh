#!/bin/bash
# Usage: artifact.sh NAME OBJ SRC -- COMMAND...
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
#   - SRC's stamp (harness/tree/assemble.sh: the base, the sparse tree and
#     patches/); if any file of SRC is newer than that stamp (an edit made
#     there, not yet refreshed), COMMAND runs and nothing is saved;
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
if [ $# -lt 5 ] || [ "$4" != -- ]; then
	echo "usage: artifact.sh NAME OBJ SRC -- COMMAND..." >&2
	exit 2
fi
name=$1 obj=$2 src=$3
shift 4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
store=${ARTIFACTS_DIR:-$HOME/.cache/perf-aux/artifacts}/$name

if [ "${ARTIFACTS:-}" = off ] || [ ! -f "$src/.assembled" ] ||
   [ -n "$(find "$src" -newer "$src/.assembled" ! -type d -print -quit)" ]; then
	exec "$@"
fi

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
	cat "$src/.assembled"
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
