#!/bin/bash
# Usage: renumber-patches.sh ROOT
#
# Numbers the quilt patches of ROOT/patches in the order patches/series
# applies them (0001, 0002, ...), so that the folder reads in that order.
# Renames the files with git mv, and rewrites patches/series,
# patches/files and the README's map of pieces ("`0012`") to match. Run it
# after inserting or moving a patch in patches/series (a new patch may be
# added under any number, or none: it gets its place from the series). A
# patch's name after its number is kept. Does nothing if the numbers
# already agree.
set -euo pipefail
root=$1
cd "$root"

mapfile -t old < <(grep -v '^#' patches/series | awk 'NF{print $1}')
declare -A map=()
i=0
for p in "${old[@]}"; do
	i=$((i + 1))
	stem=$(echo "$p" | sed -E 's/^[0-9]+[a-z]?-//')
	new=$(printf '%04d-%s' "$i" "$stem")
	[ "$p" = "$new" ] || map[$p]=$new
done
if [ ${#map[@]} = 0 ]; then
	echo "renumber: patches/ already in series order"
	exit 0
fi

# Two passes through temporary names: a new name may be an old one.
for p in "${!map[@]}"; do git mv "patches/$p" "patches/$p.renumber"; done
for p in "${!map[@]}"; do git mv "patches/$p.renumber" "patches/${map[$p]}"; done

sedargs=() readme=()
for p in "${!map[@]}"; do
	sedargs+=(-e "s|\\b$p\\b|${map[$p]}.renumbered|g")
	readme+=(-e "s|\`${p%%-*}\`|\`${map[$p]%%-*}.renumbered\`|g")
done
sed -i "${sedargs[@]}" -e 's|\.renumbered||g' patches/series patches/files
# The README's map names patches by number, in backquotes ("`0016`",
# "`0019`-`0023`").
sed -i "${readme[@]}" -e 's|\.renumbered`|`|g' README.md
echo "renumber: ${#map[@]} patch(es) renamed"
