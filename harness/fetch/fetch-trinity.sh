#!/bin/bash
# Usage: fetch-trinity.sh DEB_ARCH CACHEDIR
# Prints the path of a directory tree holding Debian's trinity (the system
# call fuzzer) for DEB_ARCH (amd64, ppc64el) and everything it needs to run
# in a guest without glibc: the dynamic loader and the shared libraries its
# NEEDED entries name, at the paths the binary and the loader look for them
# (/lib64, /lib/<triplet>, /usr/lib/<triplet>). The tree is meant to be
# copied into the guest's initramfs as it is (fuzz-initramfs.sh).
#
# The packages (trinity and libc6 of the host's Debian release, 12
# "bookworm") are downloaded once into CACHEDIR/trinity/DEB_ARCH/ with
# `apt-get download`, never installed; DEB_ARCH must be the host's
# architecture or an enabled foreign one (`make check`'s deps stage enables
# ppc64el). A second run prints the cached tree at once. The work is
# fetch-debroot.sh's; its NEEDED closure names a library that a future
# trinity needs from another package instead of failing in the guest.
set -euo pipefail
[ $# = 2 ] || { echo "usage: fetch-trinity.sh DEB_ARCH CACHEDIR" >&2; exit 1; }
exec "$(dirname "$0")/fetch-debroot.sh" trinity "$1" "$2" /usr/bin/trinity "trinity libc6"
