#!/bin/bash
# Installs what the harness needs from Debian, only if something is missing.
# Runs as root (or through sudo). Safe to run again and again.
set -euo pipefail
pkgs=(build-essential bc bison flex cpio xz-utils rsync quilt ccache python3
      libelf-dev libssl-dev kmod busybox-static
      qemu-system-x86 qemu-system-ppc
      gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
      # the distro perf build (build-perf-distro.sh): what its default features find
      libdw-dev libdebuginfod-dev libunwind-dev libslang2-dev libperl-dev
      python3-dev python3-setuptools libzstd-dev liblzma-dev zlib1g-dev
      libcap-dev libnuma-dev libbabeltrace-dev systemtap-sdt-dev
      libiberty-dev binutils-dev)
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done
# The ppc64le guest's busybox comes from Debian's ppc64el archive.
need_foreign=0
dpkg --print-foreign-architectures | grep -qx ppc64el || need_foreign=1

if [ ${#missing[@]} = 0 ] && [ $need_foreign = 0 ]; then
	exit 0
fi
[ $need_foreign = 0 ] || $sudo dpkg --add-architecture ppc64el
echo "deps: installing ${missing[*]:-(ppc64el architecture index)}"
# A mirror that is mid-sync can fail one index; what we need is usually
# in the others, so carry on and let apt-get install say if it is not.
$sudo apt-get update -qq || echo "deps: apt-get update reported errors (continuing)" >&2
[ ${#missing[@]} = 0 ] ||
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
