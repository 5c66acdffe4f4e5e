#!/bin/bash
# Usage: series-check.sh BASEGIT SERIES SRC WORK
#
# Proves that the exported series is what the harness builds and tests:
# on a clean checkout of the pristine base (WORK, a clone of BASEGIT kept
# between runs, so only the files the series touches are rewritten),
#  1. `git am` of SERIES/series.mbox, and
#  2. `quilt import` of the same mails, one by one, then `quilt push -a`,
# must each give a tree byte for byte the same as the assembled tree SRC
# (its quilt bookkeeping, .pc/ and patches/, aside). Trees are compared
# by their git tree ids, SRC's through an index kept in WORK so that a
# second run only reads the files that changed.
set -euo pipefail
basegit=$(realpath "$1") series=$(realpath "$2") src=$(realpath "$3") work=$(realpath -m "$4")
export GIT_AUTHOR_NAME=check GIT_AUTHOR_EMAIL=check@localhost
export GIT_COMMITTER_NAME=check GIT_COMMITTER_EMAIL=check@localhost
mails=$(ls "$series"/[0-9]*.patch | grep -v /0000-cover-letter.patch)

if [ ! -d "$work/.git" ]; then
	rm -rf "$work"
	git clone -q --shared --no-checkout "$basegit" "$work"
fi
cd "$work"
clean() {
	git am --abort >/dev/null 2>&1 || true
	rm -rf .pc patches
	git checkout -q -f --detach base
	git clean -q -f -d -x
}

# The tree of SRC, as git would store it.
src_tree=$(GIT_INDEX_FILE=$work/.git/src.index git --work-tree="$src" \
	add -A -f -- . ':!.pc' ':!patches' ':!.assembled' &&
	GIT_INDEX_FILE=$work/.git/src.index git write-tree)

same() {	# same WHAT TREE
	if [ "$2" = "$src_tree" ]; then
		echo "series-check: $1 gives the assembled tree ($(git diff --shortstat base "$2"))"
		return 0
	fi
	echo "series-check: $1 differs from the assembled tree $src:" >&2
	git diff --stat "$src_tree" "$2" >&2
	return 1
}

clean
git am -q --whitespace=error-all "$series/series.mbox"
[ "$(git rev-list --count base..HEAD)" = "$(wc -l <<<"$mails")" ] ||
	{ echo "series-check: git am made $(git rev-list --count base..HEAD) commits of $(wc -l <<<"$mails") mails" >&2; exit 1; }
same "git am of series.mbox ($(wc -l <<<"$mails") mails)" "$(git rev-parse HEAD^{tree})"

clean
# quilt looks for patches/ in the parent directories too, when the tree has
# none: give it its own, or it would import into an enclosing one.
mkdir patches
QUILT_PATCHES=patches quilt import $mails >/dev/null	# one call: the series keeps their order
[ "$(cat patches/series)" = "$(for m in $mails; do basename "$m"; done)" ] ||
	{ echo "series-check: quilt import changed the order of the mails" >&2; exit 1; }
QUILT_PATCHES=patches quilt push -a -q --fuzz=0 >/dev/null
quilt_tree=$(GIT_INDEX_FILE=$work/.git/quilt.index git add -A -f -- . ':!.pc' ':!patches' &&
	GIT_INDEX_FILE=$work/.git/quilt.index git write-tree)
rm -f "$work/.git/quilt.index"
same "quilt import of the mails, then quilt push -a" "$quilt_tree"
clean
