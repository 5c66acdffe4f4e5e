#!/bin/bash
# Usage: fetch-busybox.sh CACHEDIR BUSYBOX DEB_ARCH
# Prints the path of a static busybox for the guest: BUSYBOX if given (a
# path: x86_64 uses the host's own), else Debian's busybox-static of the
# Debian architecture DEB_ARCH (ppc64el for ppc64le), downloaded once into
# the cache, not installed. Both come from harness/arch/<arch>.mk
# (BUSYBOX_<arch>, DEB_ARCH_<arch>) through the Makefile.
set -euo pipefail
cache=$1 busybox=$2 darch=$3
if [ -n "$busybox" ]; then
	echo "$busybox"
	exit 0
fi
[ -n "$darch" ] || { echo "busybox: neither BUSYBOX_<arch> nor DEB_ARCH_<arch> is set" >&2; exit 1; }
dir=$cache/dl/busybox-$darch
if [ ! -x "$dir/bin/busybox" ]; then
	mkdir -p "$cache/dl"
	(cd "$cache/dl" && apt-get -q -o APT::Sandbox::User=root download "busybox-static:$darch" >&2)
	rm -rf "$dir.tmp"
	dpkg-deb -x "$(ls -t "$cache"/dl/busybox-static_*_"$darch".deb | head -n 1)" "$dir.tmp"
	rm -rf "$dir"; mv "$dir.tmp" "$dir"
fi
echo "$dir/bin/busybox"
