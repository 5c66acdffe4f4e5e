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
# ppc64el). A second run prints the cached tree at once.
set -euo pipefail
darch=$1 cache=$2
dir=$cache/trinity/$darch
out=$dir/root
# Packages whose files the tree may take libraries from. The NEEDED closure
# below checks that nothing is missing, so a new dependency of a future
# trinity is named instead of failing in the guest.
pkgs=(trinity libc6)

if [ -x "$out/usr/bin/trinity" ] && [ -f "$out/.complete" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$dir/deb"
for p in "${pkgs[@]}"; do
	ls "$dir"/deb/"${p}"_*_"$darch".deb >/dev/null 2>&1 ||
		(cd "$dir/deb" && apt-get -q -o APT::Sandbox::User=root download "$p:$darch" >&2)
done

rm -rf "$dir/x" "$out.tmp"
mkdir -p "$dir/x" "$out.tmp"
for p in "${pkgs[@]}"; do
	dpkg-deb -x "$(ls -t "$dir"/deb/"${p}"_*_"$darch".deb | head -n 1)" "$dir/x"
done

# The trinity binary, then its loader and the NEEDED closure of both.
install -D -m 0755 "$dir/x/usr/bin/trinity" "$out.tmp/usr/bin/trinity"

# copy PATH: one file of the extracted packages, with the symlinks on the way
# (/lib64/ld-linux-x86-64.so.2 is a symlink into /lib/<triplet>/); sets
# $file to the copy of the file at the end of them.
copy() {
	local p=$1 t
	while :; do
		mkdir -p "$out.tmp$(dirname "$p")"
		if [ -L "$dir/x$p" ]; then
			t=$(readlink "$dir/x$p")
			[ -L "$out.tmp$p" ] || ln -s "$t" "$out.tmp$p"
			case $t in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
		elif [ -f "$dir/x$p" ]; then
			[ -f "$out.tmp$p" ] || cp -p "$dir/x$p" "$out.tmp$p"
			file=$out.tmp$p
			return 0
		else
			echo "fetch-trinity: $p is not in ${pkgs[*]} ($darch)" >&2
			return 1
		fi
	done
}

interp=$(readelf -l "$out.tmp/usr/bin/trinity" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
[ -n "$interp" ] || { echo "fetch-trinity: trinity ($darch) names no interpreter" >&2; exit 1; }
copy "$interp"

# Library directories the loader searches by default on Debian.
libdirs=$(cd "$dir/x" && find lib usr/lib -maxdepth 1 -mindepth 1 -type d -name '*-linux-gnu*' 2>/dev/null | sed 's|^|/|')
todo=("$out.tmp/usr/bin/trinity")
seen=" "
while [ ${#todo[@]} -gt 0 ]; do
	f=${todo[0]}; todo=("${todo[@]:1}")
	for so in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		case $seen in *" $so "*) continue ;; esac
		seen="$seen$so "
		found=
		for d in $libdirs /lib64 /lib /usr/lib; do
			if [ -e "$dir/x$d/$so" ]; then found=$d/$so; break; fi
		done
		[ -n "$found" ] || { echo "fetch-trinity: $so (needed by $(basename "$f"), $darch) not found in ${pkgs[*]}" >&2; exit 1; }
		copy "$found"
		todo+=("$file")
	done
done

for p in "${pkgs[@]}"; do
	dpkg-deb -f "$(ls -t "$dir"/deb/"${p}"_*_"$darch".deb | head -n 1)" Package Version Architecture | tr '\n' ' '
	echo
done > "$out.tmp/.complete"
rm -rf "$out" "$dir/x"
mv "$out.tmp" "$out"
echo "$out"
