#!/bin/bash
# Usage: assemble.sh ROOT BASEDIR BUILD
#
# Assembles BUILD/linux: the pristine base, then the sparse tree's files,
# then the quilt series (patches/ is linked, so quilt works on the repo's
# own patches). The tree is built in BUILD/stage and copied over
# BUILD/linux by content, so files that did not change keep their mtimes
# and the next kernel build only recompiles what the change touched.
set -euo pipefail
root=$1 base=$2 build=$3
src=$build/linux stage=$build/stage
export QUILTRC=$root/harness/tree/quiltrc

files=$("$root/harness/tree/sparse-files.sh" "$root")
# The inputs: the base, then "SHA256  PATH" of every sparse file and of
# the series and its patches. BUILD/linux/.assembled holds their hash (its
# first line, the stamp) and then the inputs themselves, from which
# harness/builds/artifact.sh keys a build on the part of the tree it reads.
inputs=$( { echo "$base"; cd "$root"; [ -z "$files" ] || sha256sum $files;
	    sha256sum patches/series $(grep -v '^#' patches/series | awk 'NF{print "patches/"$1}'); } )
stamp=$(printf '%s\n' "$inputs" | sha256sum | cut -d' ' -f1)
if [ -f "$src/.assembled" ] && [ "$(head -n 1 "$src/.assembled")" = "$stamp" ]; then
	echo "tree: up to date"
	exit 0
fi

# Do not overwrite work that was not brought back with `make refresh`
# (FORCE=1 discards it).
if [ -z "${FORCE:-}" ] && [ -d "$src/.pc" ] && [ -n "$(cd "$src" && quilt --quiltrc "$QUILTRC" diff -z 2>/dev/null)" ]; then
	echo "tree: $src has changes not refreshed into patches/$(cd "$src" && quilt top):" >&2
	echo "tree: run 'make refresh' (or 'quilt refresh' there) first" >&2
	exit 1
fi
if [ -z "${FORCE:-}" ] && [ -f "$src/.assembled" ]; then
	for f in $files; do
		if [ -f "$src/$f" ] && [ "$src/$f" -nt "$src/.assembled" ] && ! cmp -s "$src/$f" "$root/$f"; then
			echo "tree: $src/$f was edited there; run 'make refresh' first" \
			     "(or 'make tree FORCE=1' to discard that edit)" >&2
			exit 1
		fi
	done
fi

mkdir -p "$stage"
rsync -a --delete "$base/" "$stage/"
for f in $files; do
	mkdir -p "$stage/$(dirname "$f")"
	cp "$root/$f" "$stage/$f"
done
ln -sfn "$root/patches" "$stage/patches"
if [ -n "$(grep -v '^#' "$root/patches/series" | awk 'NF')" ]; then
	(cd "$stage" && quilt --quiltrc "$QUILTRC" push -a -q --fuzz=0 >/dev/null) || {
		echo "tree: the series does not apply cleanly (see above)" >&2
		exit 1
	}
fi
mkdir -p "$src"
rsync -a --checksum --delete --exclude=/.assembled "$stage/" "$src/"
printf '%s\n%s\n' "$stamp" "$inputs" > "$src/.assembled"
echo "tree: assembled $src ($(echo "$files" | grep -c . || true) added files, $(grep -cv '^#\|^$' "$root/patches/series" || true) patches)"
