#!/bin/bash
# Usage: refresh.sh ROOT BUILD
# Brings work done in the assembled tree back to the repository: edited
# files of the sparse tree are copied back, and the topmost applied quilt
# patch is refreshed (with the fixed options of harness/tree/quiltrc).
set -euo pipefail
root=$1 src=$2/linux
export QUILTRC=$root/harness/tree/quiltrc
[ -d "$src" ] || { echo "refresh: no assembled tree; run 'make tree'" >&2; exit 1; }
n=0
for f in $("$root/harness/tree/sparse-files.sh" "$root"); do
	if [ -f "$src/$f" ] && ! cmp -s "$src/$f" "$root/$f"; then
		cp "$src/$f" "$root/$f"; echo "refresh: $f"; n=$((n + 1))
	fi
done
cd "$src"
if top=$(quilt --quiltrc "$QUILTRC" top 2>/dev/null) && [ -n "$(quilt --quiltrc "$QUILTRC" diff -z)" ]; then
	quilt --quiltrc "$QUILTRC" refresh
	echo "refresh: $top"
	n=$((n + 1))
fi
echo "refresh: $n change(s) brought back"
