#!/bin/bash
# Usage: deps.sh [FOREIGN_DEB_ARCH...] [-- PACKAGE...] [--backports PACKAGE:MIN_VERSION...]
# Installs what the harness needs from Debian, only if something is missing:
# the packages below, and those of each guest architecture (DEPS_<arch> in
# harness/arch/<arch>.mk: its QEMU, its cross compiler), after enabling the
# foreign Debian architectures named (whose archive gives the guest's
# busybox and Debian's kernel configuration for it). A --backports package
# (DEPS_BACKPORTS_<arch>) comes from bookworm-backports unless the installed
# version is at least MIN_VERSION; the backports source is added if the
# machine has none.
# Runs as root (or through sudo). Safe to run again and again.
set -euo pipefail
foreign=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do foreign+=("$1"); shift; done
[ $# = 0 ] || shift
backports=()
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = --backports ]; then
		shift
		backports=("$@")
		break
	fi
	args+=("$1")
	shift
done
set -- "${args[@]}"
pkgs=(build-essential bc bison flex cpio xz-utils rsync quilt ccache python3
      libelf-dev libssl-dev kmod busybox-static "$@"
      # the distro perf build (build-perf-distro.sh): what its default features find
      libdw-dev libdebuginfod-dev libunwind-dev libslang2-dev libperl-dev
      python3-dev python3-setuptools libzstd-dev liblzma-dev zlib1g-dev
      libcap-dev libnuma-dev libbabeltrace-dev systemtap-sdt-dev
      libiberty-dev binutils-dev
      # the x86_64 guest's pt-check: Intel's libipt packet decoder
      libipt-dev
      # make deb: Debian's configuration has DEBUG_INFO_BTF, which needs pahole
      dwarves
      # make perf-arm64: perf for arm64, cross and static, run under qemu-user
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
      # make bench: the plot of offered against captured rate
      gnuplot-nox)
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

old_backports=()
for pv in "${backports[@]}"; do
	p=${pv%%:*} min=${pv#*:}
	v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
	[ -n "$v" ] && dpkg --compare-versions "$v" ge "$min" || old_backports+=("$p")
done

# A package that comes from backports is not installed from the release first.
if [ ${#old_backports[@]} != 0 ] && [ ${#missing[@]} != 0 ]; then
	rest=()
	for p in "${missing[@]}"; do
		[[ " ${old_backports[*]} " == *" $p "* ]] || rest+=("$p")
	done
	missing=("${rest[@]}")
fi

if [ ${#missing[@]} = 0 ] && [ ${#add[@]} = 0 ] && [ ${#old_backports[@]} = 0 ]; then
	exit 0
fi
if [ ${#old_backports[@]} != 0 ] &&
   ! grep -rqs '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "deps: adding bookworm-backports (for ${old_backports[*]})"
	echo "deb http://deb.debian.org/debian bookworm-backports main" |
		$sudo tee /etc/apt/sources.list.d/perf-aux-backports.list >/dev/null
fi
for a in "${add[@]}"; do $sudo dpkg --add-architecture "$a"; done
echo "deps: installing ${missing[*]:-}${old_backports[*]:+ ${old_backports[*]} (bookworm-backports)}${add[*]:+ (the ${add[*]} architecture index)}"
# A mirror that is mid-sync can fail one index; what we need is usually
# in the others, so carry on and let apt-get install say if it is not.
$sudo apt-get update -qq || echo "deps: apt-get update reported errors (continuing)" >&2
[ ${#missing[@]} = 0 ] ||
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
[ ${#old_backports[@]} = 0 ] ||
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		-t bookworm-backports "${old_backports[@]}"
