#!/bin/bash
# Usage: deps.sh [FOREIGN_DEB_ARCH...] [-- PACKAGE...]
# Installs what the harness needs from Debian, only if something is missing:
# the packages below, and those of each guest architecture (DEPS_<arch> in
# harness/arch/<arch>.mk: its QEMU, its cross compiler), after enabling the
# foreign Debian architectures named (whose archive gives the guest's
# busybox and Debian's kernel configuration for it).
# Runs as root (or through sudo). Safe to run again and again.
set -euo pipefail
foreign=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do foreign+=("$1"); shift; done
[ $# = 0 ] || shift
pkgs=(build-essential bc bison flex cpio xz-utils rsync quilt ccache python3
      libelf-dev libssl-dev kmod busybox-static "$@"
      # the distro perf build (build-perf-distro.sh): what its default features find
      libdw-dev libdebuginfod-dev libunwind-dev libslang2-dev libperl-dev
      python3-dev python3-setuptools libzstd-dev liblzma-dev zlib1g-dev
      libcap-dev libnuma-dev libbabeltrace-dev systemtap-sdt-dev
      libiberty-dev binutils-dev
      # make deb: Debian's configuration has DEBUG_INFO_BTF, which needs pahole
      dwarves)
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done
add=()
for a in "${foreign[@]}"; do
	[ "$a" = "$(dpkg --print-architecture)" ] ||
		dpkg --print-foreign-architectures | grep -qx "$a" || add+=("$a")
done

if [ ${#missing[@]} = 0 ] && [ ${#add[@]} = 0 ]; then
	exit 0
fi
for a in "${add[@]}"; do $sudo dpkg --add-architecture "$a"; done
echo "deps: installing ${missing[*]:-(the ${add[*]} architecture index)}"
# A mirror that is mid-sync can fail one index; what we need is usually
# in the others, so carry on and let apt-get install say if it is not.
$sudo apt-get update -qq || echo "deps: apt-get update reported errors (continuing)" >&2
[ ${#missing[@]} = 0 ] ||
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
