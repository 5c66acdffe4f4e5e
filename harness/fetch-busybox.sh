#!/bin/bash
# Usage: fetch-busybox.sh ARCH CACHEDIR
# Prints the path of a static busybox for the guest architecture: the
# host's own for x86_64, Debian's ppc64el busybox-static for ppc64le
# (downloaded once into the cache, not installed).
set -euo pipefail
arch=$1 cache=$2
case $arch in
x86_64) echo /bin/busybox; exit 0 ;;
ppc64le) darch=ppc64el ;;
*) echo "busybox: no guest architecture $arch" >&2; exit 1 ;;
esac
dir=$cache/dl/busybox-$darch
if [ ! -x "$dir/bin/busybox" ]; then
	mkdir -p "$cache/dl"
	(cd "$cache/dl" && apt-get -q -o APT::Sandbox::User=root download "busybox-static:$darch" >&2)
	rm -rf "$dir.tmp"
	dpkg-deb -x "$(ls -t "$cache"/dl/busybox-static_*_"$darch".deb | head -n 1)" "$dir.tmp"
	rm -rf "$dir"; mv "$dir.tmp" "$dir"
fi
echo "$dir/bin/busybox"
