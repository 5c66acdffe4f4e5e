#!/bin/bash
# Usage: series.sh ROOT BASEGIT OUT
#
# Exports the series as mails, the way kernel people take a series:
# OUT/0000-cover-letter.patch, one `git format-patch` mail per patch of
# patches/series (in order), and OUT/series.mbox (the patches, without the
# cover letter, for `git am`).
#
# Each mail is the quilt patch plus, whole, every file of the sparse tree
# that patches/files gives to it, so that a mail is self-contained. The
# commits are made with git plumbing on the base commit of BASEGIT (no
# work tree), in OUT/.git, which the identity check (series-check.sh)
# reuses. The author and Signed-off-by come from SERIES_AUTHOR
# ("Name <address>"), by default git's user.name and user.email; the
# Signed-off-by of a patch's quilt header is replaced by it.
set -euo pipefail
root=$(realpath "$1") basegit=$(realpath "$2") out=$(realpath -m "$3")
cd "$root"

die() { echo "series: $*" >&2; exit 1; }

# --- the author -----------------------------------------------------------
author=${SERIES_AUTHOR:-}
if [ -z "$author" ]; then
	name=$(git config user.name || true) mail=$(git config user.email || true)
	[ -n "$name" ] && [ -n "$mail" ] ||
		die "no author: set SERIES_AUTHOR='Name <address>' or git's user.name and user.email"
	author="$name <$mail>"
fi
[[ $author =~ ^([^<>]*[^<> ])\ +\<([^<> @]+@[^<> @]+\.[^<> @]+)\>$ ]] ||
	die "SERIES_AUTHOR '$author' is not 'Name <address>'"
export GIT_AUTHOR_NAME=${BASH_REMATCH[1]} GIT_AUTHOR_EMAIL=${BASH_REMATCH[2]}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
case ${GIT_AUTHOR_EMAIL##*@} in
example|example.*|*.example|invalid|*.invalid|localhost|*.localhost|test|*.test)
	echo "series: warning: $GIT_AUTHOR_EMAIL is a reserved, undeliverable" \
	     "address; set SERIES_AUTHOR before mailing the series" >&2 ;;
esac
# The same input gives the same mails: the date is that of the repository's
# last commit.
date=$(git log -1 --format=%cI 2>/dev/null || echo 2000-01-01T00:00:00Z)
export GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date

# --- which patch creates which file ---------------------------------------
patches=$(grep -v '^#' patches/series | awk 'NF { print $1 }')
owners=$(grep -v '^#' patches/files | awk 'NF')
bad=0
while read -r f p rest; do
	[ -z "$rest" ] || { echo "series: patches/files: '$f $p $rest': one file and one patch a line" >&2; bad=1; }
	[ -f "$f" ] || { echo "series: patches/files names $f, which the tree does not have" >&2; bad=1; }
	grep -qxF "$p" <<<"$patches" ||
		{ echo "series: patches/files gives $f to $p, which patches/series does not list" >&2; bad=1; }
done <<<"$owners"
for f in $(awk '{ print $1 }' <<<"$owners" | sort | uniq -d); do
	echo "series: $f has two owners in patches/files:" $(awk -v f="$f" '$1 == f { print $2 }' <<<"$owners") >&2
	bad=1
done
for f in $(harness/tree/sparse-files.sh "$root"); do
	awk -v f="$f" '$1 == f { found = 1 } END { exit !found }' <<<"$owners" ||
		{ echo "series: $f is in the tree but in no patch: give it one in patches/files" >&2; bad=1; }
done
[ $bad = 0 ] || die "fix patches/files"

# --- one commit per patch -------------------------------------------------
rm -rf "$out"
mkdir -p "$out"
git clone -q --bare --shared "$basegit" "$out/.git"
export GIT_DIR=$out/.git GIT_INDEX_FILE=$out/.git/series.index
git read-tree base
head=$(git rev-parse base)
tmp=$out/.git/msg
n=0
for p in $patches; do
	n=$((n + 1))
	file=patches/$p
	[ -f "$file" ] || die "patches/series lists $p, which is not in patches/"
	# The header is the commit message: "Subject: [PATCH] summary", a
	# blank line, the body; it ends at "---" or at the first diff.
	awk '
		/^(--- |diff |Index: )/ || /^---$/ { exit }
		NR == 1 { if (!sub(/^Subject: (\[PATCH[^]]*\] )?/, "")) exit 2; print; next }
		/^(From|Origin): / { exit 3 }
		/^Signed-off-by: / { next }	# replaced by SERIES_AUTHOR'"'"'s below
		{ print }
	' "$file" >"$tmp" || die "$p: the header must start with 'Subject:' and carry no From: or Origin: (make series adds the author)"
	[ "$(sed -n 2p "$tmp")" = "" ] && [ -n "$(sed -n '3,$p' "$tmp" | tr -d '[:space:]')" ] ||
		die "$p: the commit message needs a body that says why, after a blank line"
	sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$tmp"
	printf '\nSigned-off-by: %s <%s>\n' "$GIT_AUTHOR_NAME" "$GIT_AUTHOR_EMAIL" >>"$tmp"

	if grep -q '^+++ ' "$file"; then
		git apply --cached --whitespace=nowarn "$file" || die "$p does not apply to the tree before it"
	fi
	for f in $(awk -v p="$p" '$2 == p { print $1 }' <<<"$owners"); do
		mode=100644
		[ -x "$f" ] && mode=100755
		git update-index --add --cacheinfo "$mode,$(git hash-object -w "$f"),$f"
	done
	head=$(git commit-tree "$(git write-tree)" -p "$head" -F "$tmp")
done
git update-ref refs/heads/series "$head"
rm -f "$tmp" "$GIT_INDEX_FILE"

# --- the mails ------------------------------------------------------------
git format-patch -q --cover-letter --no-signature --thread=shallow \
	-o "$out" base..series >/dev/null
cover=$out/0000-cover-letter.patch
subject=$(sed -n 's/^Subject: //p;q' patches/cover-letter)
awk -v subject="$subject" -v blurb=patches/cover-letter '
	/^\*\*\* BLURB HERE \*\*\*$/ {
		getline line < blurb	# its Subject line and the blank after it
		getline line < blurb
		while ((getline line < blurb) > 0) print line
		next
	}
	{ sub(/\*\*\* SUBJECT HERE \*\*\*/, subject); print }
' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
cat $(ls "$out"/[0-9]*.patch | grep -v /0000-cover-letter.patch) >"$out/series.mbox"

! grep -qi 'example\.org\|perf-aux@' "$out"/*.patch ||
	die "a placeholder address is left in the mails: $(grep -li 'example\.org\|perf-aux@' "$out"/*.patch | head -1)"
echo "series: $n patches by $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>, $(wc -l <<<"$owners") added files, in $out"
