#!/bin/bash
# Usage: fetch-devroot.sh DEB_ARCH CACHEDIR
# Prints the path of a build sysroot for the guests' static perf of
# DEB_ARCH (ppc64el, and arm64 for make perf-arm64: the host is amd64 and
# cross-compiles): the headers and
# static archives of Debian's libelf-dev, zlib1g-dev and libzstd-dev of
# DEB_ARCH (libelf.a needs zlib; bookworm's elfutils 0.188 libelf.a needs
# no zstd, perf record -z does),
# unpacked under CACHEDIR/perf-devroot/DEB_ARCH/root. build-perf.sh takes it
# as its SYSROOT. The packages are those of the host's Debian release (12),
# downloaded once with `apt-get download` and never installed; DEB_ARCH must
# be the host's architecture or an enabled foreign one (the deps stage
# enables ppc64el and arm64). The work is fetch-debroot.sh --dev's.
set -euo pipefail
[ $# = 2 ] || { echo "usage: fetch-devroot.sh DEB_ARCH CACHEDIR" >&2; exit 1; }
case $1 in
amd64)   t=x86_64-linux-gnu ;;
ppc64el) t=powerpc64le-linux-gnu ;;
arm64)   t=aarch64-linux-gnu ;;
*)       echo "fetch-devroot: unknown Debian architecture $1" >&2; exit 1 ;;
esac
files="/usr/lib/$t/libelf.a /usr/lib/$t/libz.a /usr/lib/$t/libzstd.a"
files="$files /usr/include/gelf.h /usr/include/zlib.h /usr/include/zstd.h"
exec "$(dirname "$0")/fetch-debroot.sh" --dev perf-devroot "$1" "$2" "$files" \
	"libelf-dev zlib1g-dev libzstd-dev"
