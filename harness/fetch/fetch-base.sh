#!/bin/bash
# Usage: fetch-base.sh PACKAGE VERSION SHA256 CACHEDIR
# Leaves the pristine base tree in CACHEDIR/base/VERSION/.
set -euo pipefail
pkg=$1 ver=$2 sha=$3 cache=$4
dest=$cache/base/$ver
if [ -f "$dest/.complete" ]; then
	exit 0
fi
mkdir -p "$cache/dl"
deb=$cache/dl/${pkg}_${ver}_all.deb
tarball=$cache/dl/$pkg-$ver.tar.xz
if [ ! -f "$deb" ]; then
	if ! (cd "$cache/dl" && apt-get -q -o APT::Sandbox::User=root download "$pkg=$ver" >&2); then
		{
		echo "base: $pkg $ver is not available from the configured archives."
		echo "base: versions apt can fetch now:"
		apt-cache madison "$pkg" | sed 's/^/    /'
		echo "base: to build on another one, override the pin (harness/fetch/base.mk):"
		echo "    make check BASE_VERSION=<version> BASE_SHA256=<sha256 of /usr/src/$pkg.tar.xz in it>"
		} >&2
		exit 1
	fi
fi
if [ ! -f "$tarball" ]; then
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" > "$tarball.tmp"
	mv "$tarball.tmp" "$tarball"
fi
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$sha" ]; then
	echo "base: sha256 mismatch for $tarball" >&2
	echo "base:   expected $sha" >&2
	echo "base:   got      $got" >&2
	echo "base: refusing to build on an unverified base (delete the file to fetch again)" >&2
	exit 1
fi
rm -rf "$dest.tmp"; mkdir -p "$dest.tmp"
tar -xf "$tarball" -C "$dest.tmp" --strip-components=1
touch "$dest.tmp/.complete"
rm -rf "$dest"; mv "$dest.tmp" "$dest"

