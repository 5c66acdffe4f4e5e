#!/bin/bash
# Usage: sparse-files.sh ROOT
# Lists the files of the sparse kernel tree: everything under the kernel
# directories at the repository root that git tracks or would track.
cd "$1"
git ls-files --cached --others --exclude-standard -- \
	arch include kernel tools Documentation lib mm drivers scripts init samples | sort -u |
	while read -r f; do [ -f "$f" ] && echo "$f"; done
