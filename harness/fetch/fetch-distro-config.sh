#!/bin/bash
# Usage: fetch-distro-config.sh DEBARCH FLAVOUR VERSION CACHEDIR
# Prints the path of Debian's own kernel configuration for DEBARCH and
# FLAVOUR (config.DEBARCH_none_FLAVOUR.xz of linux-config-6.1, e.g.
# "amd64 amd64" or "ppc64el powerpc64le"), downloaded once into
# CACHEDIR/distro-config (not installed). VERSION (the base's) is taken
# when the archive has it for DEBARCH, else the version apt offers; the
# version used is said on stderr.
set -euo pipefail
darch=$1 flavour=$2 ver=$3 cache=$4
pkg=linux-config-6.1
dir=$cache/distro-config
debs() { ls -t "$dir"/${pkg}_$1_"$darch".deb 2>/dev/null | head -n 1 || true; }
mkdir -p "$dir"
get() { (cd "$dir" && apt-get -q -o APT::Sandbox::User=root download "$pkg:$darch$1" >&2); }
deb=$(debs "$ver")
[ -n "$deb" ] || { get "=$ver" 2>/dev/null || true; deb=$(debs "$ver"); }
[ -n "$deb" ] || deb=$(debs '*')
[ -n "$deb" ] || { get ""; deb=$(debs '*'); }
out=${deb%.deb}
cfg=$out/usr/src/$pkg/config.${darch}_none_$flavour.xz
if [ ! -f "$cfg" ]; then
	rm -rf "$out.tmp"; dpkg-deb -x "$deb" "$out.tmp"
	rm -rf "$out"; mv "$out.tmp" "$out"
fi
[ -f "$cfg" ] || { echo "distro-config: no $cfg in $deb" >&2; exit 1; }
got=${deb##*/"$pkg"_}; got=${got%%_*}
[ "$got" = "$ver" ] || echo "distro-config: $pkg $ver is not available for $darch; using $got" >&2
echo "$cfg"
