#!/bin/bash
# Usage: base-git.sh BASEDIR GITDIR LABEL
# A bare git repository holding the pristine base as one commit, tagged
# "base": what `make series` builds the series on, and what the `git am`
# check applies the mails to. Made once per base (a minute or two), then
# kept in the cache.
set -euo pipefail
base=$1 gitdir=$2 label=$3
if git --git-dir="$gitdir" rev-parse -q --verify base^{commit} >/dev/null 2>&1; then
	exit 0
fi
tmp=$gitdir.tmp
rm -rf "$tmp"
git init -q --bare "$tmp"
export GIT_DIR=$tmp GIT_INDEX_FILE=$tmp/base.index
# Everything the tarball has, .gitignore'd names included (-f).
git -c core.compression=1 -c core.looseCompression=1 --work-tree="$base" add -A -f .
tree=$(git write-tree)
commit=$(GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' \
	GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
	git commit-tree "$tree" -m "$label")
git tag base "$commit"
rm -f "$GIT_INDEX_FILE"
mv "$tmp" "$gitdir"
echo "base-git: $label as $(git --git-dir="$gitdir" rev-parse --short base) in $gitdir"
