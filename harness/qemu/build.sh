#!/bin/bash
# Usage: build.sh CACHEDIR LINK
# Builds our QEMU and points LINK (a symbolic link) at the directory that
# holds its two system emulators, qemu-system-x86_64 and qemu-system-ppc64.
#
# The source is Debian 13's QEMU (`apt-get source qemu/trixie`, Debian's own
# patches applied), fetched once through a private apt configuration
# (CACHEDIR/qemu/apt: a deb-src line for trixie that alone may be past its
# Valid-Until; the host's apt sources stay as they are) and kept pristine in
# CACHEDIR/qemu/src/VERSION. Our patches (harness/qemu/patches, in the order
# of harness/qemu/series) go on a copy in CACHEDIR/qemu/work, built there
# with ccache, and the two binaries are kept in CACHEDIR/qemu/VERSION-HASH/bin,
# HASH being that of the series, the patches and this script. A second run
# with the same key only moves LINK. To take a newer trixie QEMU, remove
# CACHEDIR/qemu/src.
set -euo pipefail
me=qemu-build
die() { echo "$me: $*" >&2; exit 1; }
[ $# = 2 ] || die "usage: build.sh CACHEDIR LINK"
cache=$1 link=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$cache/qemu
mapfile -t patches < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/series")

# The source: the newest version fetched, else trixie's current one.
newest() { find "$top/src" -mindepth 1 -maxdepth 1 -type d ! -name '*.tmp' -printf '%f\n' 2>/dev/null | sort -V | tail -n 1 || true; }
version=$(newest)
if [ -z "$version" ]; then
	apt=$top/apt
	mkdir -p "$apt"/{lists/partial,cache/archives/partial}
	echo "deb-src [check-valid-until=no] http://deb.debian.org/debian trixie main" > "$apt/sources.list"
	cat > "$apt/apt.conf" <<-CONF
	// Debian 13's QEMU source for harness/qemu/build.sh, apart from the host's sources.
	Dir::Etc::SourceList "$apt/sources.list";
	Dir::Etc::SourceParts "/nonexistent";
	Dir::State::Lists "$apt/lists";
	Dir::Cache "$apt/cache";
	APT::Sandbox::User "root";
	CONF
	export APT_CONFIG=$apt/apt.conf
	echo "$me: fetching qemu/trixie's source" >&2
	apt-get -q --error-on=any update >&2 || die "apt-get update of trixie's sources failed: see above"
	dl=$top/dl
	rm -rf "$dl"; mkdir -p "$dl" "$top/src"
	(cd "$dl" && apt-get -q source --download-only qemu/trixie >&2) || die "apt-get source qemu/trixie failed"
	dsc=$(ls "$dl"/qemu_*.dsc)
	version=$(sed -n 's/^Version: //p' "$dsc"); version=${version#*:}
	rm -rf "$top/src/$version.tmp"
	dpkg-source -q -x "$dsc" "$top/src/$version.tmp" >&2 || die "dpkg-source -x $dsc failed"
	mv "$top/src/$version.tmp" "$top/src/$version"
	rm -rf "$dl"
fi

key=$version-$(cd "$here" && cat series build.sh "${patches[@]/#/patches/}" | sha256sum | cut -c1-12)
out=$top/$key
bins=(qemu-system-x86_64 qemu-system-ppc64)
if [ ! -x "$out/bin/${bins[0]}" ] || [ ! -x "$out/bin/${bins[1]}" ]; then
	echo "$me: QEMU $key: our ${#patches[@]} patch(es) on Debian's $version" >&2
	work=$top/work
	rm -rf "$work/src"; mkdir -p "$work/build"
	cp -a "$top/src/$version" "$work/src"
	for p in "${patches[@]}"; do
		patch -d "$work/src" -p1 --forward --batch --quiet < "$here/patches/$p" || die "$p does not apply"
	done
	# The copy keeps the pristine times: a file that a patch touches now or
	# touched in the last build must look newer than its objects.
	touched=$work/patched-files
	{ cat "$touched" 2>/dev/null || true
	  (cd "$here/patches" && sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' /dev/null "${patches[@]}"); } |
		sort -u > "$touched.new"
	(cd "$work/src" && while read -r f; do [ ! -e "$f" ] || touch "$f"; done) < "$touched.new"
	(cd "$here/patches" && sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' /dev/null "${patches[@]}") | sort -u > "$touched"
	rm -f "$touched.new"
	# The build tree stays: ninja and ccache redo only what a patch changed.
	# Configured for the two emulators only (no tools, documentation, GUI or
	# firmware blobs), looking for firmware where Debian's QEMU does (its
	# qemu-system-data, seabios and ipxe-qemu packages), with Debian's
	# python3, which has the meson of bookworm-backports (not the first
	# python3 of PATH, which may be another one).
	config=(--python=/usr/bin/python3 --target-list=x86_64-softmmu,ppc64-softmmu
		--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
		--disable-docs --disable-tools --disable-user --disable-gtk --disable-sdl
		--disable-vnc --disable-opengl --disable-spice --disable-curses
		--disable-download --disable-install-blobs --enable-fdt=system --enable-werror)
	cd "$work/build"
	if [ ! -f build.ninja ] || [ "$(cat .configured-with 2>/dev/null)" != "${config[*]}" ]; then
		rm -rf ./* .configured-with
		CC="ccache gcc" ../src/configure "${config[@]}" >&2 || die "configure failed: see above"
		echo "${config[*]}" > .configured-with
	fi
	CCACHE_BASEDIR=$work ninja -j"$(nproc)" "${bins[@]}" >&2 || die "the build failed: see above"
	rm -rf "$out.tmp"; mkdir -p "$out.tmp/bin"
	cp "${bins[@]}" "$out.tmp/bin/"
	rm -rf "$out"; mv "$out.tmp" "$out"
fi
mkdir -p "$(dirname "$link")"
ln -sfn "$out/bin" "$link"
echo "$me: $link -> $out/bin" >&2
