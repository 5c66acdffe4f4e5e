#!/bin/bash
# Usage: fetch-upstream-kernel.sh PACKAGE VERSION SHA256 CACHEDIR
# Leaves upstream's kernel tree (Debian unstable's linux-source-7.x, the
# peer of `make compare`) in CACHEDIR/base/VERSION/, as fetch-base.sh
# leaves the base: the package once, its tarball checked against SHA256.
# The package comes through the private apt configuration of Debian
# unstable that upstream perf's fetch keeps in CACHEDIR/upstream-perf/apt
# (harness/fetch/fetch-debroot.sh --suite): the host's apt sources stay as
# they are.
set -euo pipefail
pkg=$1 ver=$2 sha=$3 cache=$4
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$cache/base/$ver/.complete" ] && exit 0
# Makes (or reuses) the private configuration of unstable.
"$here/../builds/perf-upstream.sh" --cache "$cache" --tree amd64 > /dev/null
export APT_CONFIG=$cache/upstream-perf/apt/apt.conf
exec "$here/../fetch/fetch-base.sh" "$pkg" "$ver" "$sha" "$cache"
