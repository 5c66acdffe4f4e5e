#!/bin/bash
# Usage: fetch-debroot.sh [--suite SUITE] [--with-libs] [--dev] NAME DEB_ARCH CACHEDIR BINARIES PACKAGES
# Prints the path of a directory tree holding Debian binaries of DEB_ARCH
# (amd64, ppc64el) and everything they need to run on a machine that lacks
# their libraries (a guest without glibc, or with another glibc): their
# dynamic loader and the closure of the shared libraries their NEEDED
# entries name, at the paths the binaries and the loader look for them
# (/lib64, /lib/<triplet>, /usr/lib/<triplet>). Nothing else of the
# packages comes along (no documentation, no scripts, no data).
#
#   NAME      the tree's name: it is CACHEDIR/NAME/DEB_ARCH/root, the
#             downloads are in CACHEDIR/NAME/DEB_ARCH/deb
#   BINARIES  the files to take, as the packages install them
#             ("/usr/bin/trinity"), space-separated
#   PACKAGES  the packages to take files from ("trinity libc6"),
#             space-separated; the first one is the tree's subject
#   --with-libs  also every library package (Section libs, of DEB_ARCH)
#             that PACKAGES depend on, recursively (`apt-cache depends
#             --recurse`): the libraries' own packages need not be named
#   --dev     a build sysroot instead: the packages (-dev packages:
#             headers, static archives) are unpacked whole into the tree,
#             with no loader and no NEEDED closure; BINARIES are the files
#             the tree must hold ("/usr/lib/<triplet>/libelf.a")
#   --suite SUITE  download from Debian's SUITE (unstable) through a private
#             apt configuration, CACHEDIR/NAME/apt/ (its own sources.list,
#             package lists and an empty dpkg status, for amd64 and
#             ppc64el), so that the host's apt sources stay as they are;
#             without it, from the host's apt sources (DEB_ARCH must be the
#             host's architecture or an enabled foreign one).
#
# Packages are downloaded once with `apt-get download`, never installed, and
# unpacked with `dpkg-deb -x`. The tree's file .complete says which packages
# (name, version, architecture, one a line) it was made of. A second run
# prints the cached tree at once, without the network; a run with the
# downloads cached but no tree (a changed script) works offline too. To take
# newer packages of SUITE, remove CACHEDIR/NAME.
#
# Used by fetch-trinity.sh (trinity of the host's release, for the fuzzing
# guests), perf-upstream.sh (perf of Debian unstable, next to ours) and,
# with --dev, fetch-devroot.sh (the static libraries of the guests' perf).
set -euo pipefail
me=fetch-debroot
die() { echo "$me: $*" >&2; exit 1; }
suite="" with_libs="" dev=""
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift 2 ;;
	--with-libs) with_libs=1; shift ;;
	--dev) dev=1; shift ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# = 5 ] || die "usage: $me [--suite SUITE] [--with-libs] [--dev] NAME DEB_ARCH CACHEDIR BINARIES PACKAGES"
name=$1 darch=$2 cache=$3
read -r -a bins <<<"$4"
read -r -a pkgs <<<"$5"
if [ ${#bins[@]} = 0 ] || [ ${#pkgs[@]} = 0 ]; then die "$name: no binaries or no packages named"; fi
dir=$cache/$name/$darch
out=$dir/root
me="$me ($name, $darch)"

complete=1
for b in "${bins[@]}"; do
	if [ -n "$dev" ]; then [ -f "$out$b" ] || complete=; else [ -x "$out$b" ] || complete=; fi
done
if [ -n "$complete" ] && [ -f "$out/.complete" ]; then
	echo "$out"
	exit 0
fi

# The private apt configuration of --suite. Only this one trusts a Release
# file past its Valid-Until (an archive snapshot may be older than that).
if [ -n "$suite" ]; then
	apt=$cache/$name/apt
	mkdir -p "$apt"/{lists/partial,cache/archives/partial,sources.list.d}
	[ -f "$apt/status" ] || : > "$apt/status"
	archs=$(printf '%s\n' amd64 ppc64el "$darch" | sort -u | sed 's/.*/"&";/' | tr '\n' ' ')
	cat > "$apt/apt.conf.new" <<-EOF
	// $name: Debian $suite for fetch-debroot.sh, apart from the host's apt sources.
	Dir::Etc::SourceList "$apt/sources.list";
	Dir::Etc::SourceParts "$apt/sources.list.d";
	Dir::State::Lists "$apt/lists";
	Dir::State::status "$apt/status";
	Dir::Cache "$apt/cache";
	APT::Architectures { $archs};
	APT::Sandbox::User "root";
	EOF
	echo "deb [check-valid-until=no] http://deb.debian.org/debian $suite main" > "$apt/sources.list.new"
	# A changed configuration wants its package lists anew.
	if ! cmp -s "$apt/apt.conf.new" "$apt/apt.conf" || ! cmp -s "$apt/sources.list.new" "$apt/sources.list"; then
		rm -f "$apt/updated"
	fi
	mv "$apt/apt.conf.new" "$apt/apt.conf"
	mv "$apt/sources.list.new" "$apt/sources.list"
	export APT_CONFIG=$apt/apt.conf
fi
# apt-get update of the private configuration (once; again when a download
# fails, the lists being older than the archive).
update() {
	[ -n "$suite" ] || return 1
	echo "$me: apt-get update (Debian $suite, private lists in $apt)" >&2
	apt-get -q --error-on=any update >&2 ||
		die "apt-get update of Debian $suite failed (no network, or the archive moved?): see above"
	touch "$apt/updated"
}
if [ -n "$suite" ] && [ ! -f "$apt/updated" ]; then
	update
fi

# The library packages PACKAGES depend on: those of DEB_ARCH in Section
# libs (not the python or perl modules, not Architecture: all).
if [ -n "$with_libs" ]; then
	deps=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "${pkgs[@]/%/:$darch}" | grep -v '^[ <]' | sort -u) ||
		die "apt-cache depends ${pkgs[*]} failed: see above"
	# shellcheck disable=SC2086
	libs=$(apt-cache show --no-all-versions $deps |
		awk -v a="$darch" '/^Package:/ {p = $2} /^Section:/ {s = $2} /^Architecture:/ {r = $2}
			/^$/ {if (p != "" && r == a && s ~ /(^|\/)(old)?libs$/) print p; p = s = r = ""}' |
		sort -u) || die "apt-cache show of the dependencies failed: see above"
	for l in $libs; do
		case " ${pkgs[*]} " in *" $l "*) ;; *) pkgs+=("$l") ;; esac
	done
fi

# deb PACKAGE: the cached download of PACKAGE (the newest, if several).
deb() {
	# shellcheck disable=SC2012
	ls -t "$dir"/deb/"$1"_*_"$darch".deb 2>/dev/null | head -n 1
}
mkdir -p "$dir/deb"
missing=()
for p in "${pkgs[@]}"; do
	[ -n "$(deb "$p")" ] || missing+=("$p:$darch")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "$me: downloading ${#missing[@]} package(s) into $dir/deb" >&2
	(cd "$dir/deb" && apt-get -q -o APT::Sandbox::User=root download "${missing[@]}" >&2) || {
		[ -n "$suite" ] && update &&
			(cd "$dir/deb" && apt-get -q -o APT::Sandbox::User=root download "${missing[@]}" >&2)
	} || die "apt-get download ${missing[*]} failed${suite:+ (Debian $suite)}: see above"
fi

rm -rf "$dir/x" "$out.tmp"
mkdir -p "$dir/x" "$out.tmp"
for p in "${pkgs[@]}"; do
	dpkg-deb -x "$(deb "$p")" "$dir/x"
done
# Packages of a merged-/usr release (trixie on) ship /usr/lib64/ld64.so.2,
# and the binaries ask for /lib64/ld64.so.2: alias the top directories as
# such a system does.
# The tree gets the same aliases, and the files under /usr.
aliases=" "
for d in bin sbin lib lib64; do
	if [ ! -e "$dir/x/$d" ] && [ -d "$dir/x/usr/$d" ]; then
		ln -s "usr/$d" "$dir/x/$d"
		aliases="$aliases$d "
	fi
done

if [ -n "$dev" ]; then
	for b in "${bins[@]}"; do
		[ -f "$dir/x$b" ] || die "$b is not in the packages (${pkgs[*]})"
	done
	rm -rf "$dir/x/usr/share/doc" "$dir/x/usr/share/man"
	cp -a "$dir/x/." "$out.tmp/"
	bins=()
fi
for b in "${bins[@]}"; do
	[ -f "$dir/x$b" ] || die "$b is not in ${pkgs[0]}"
	install -D -m 0755 "$dir/x$b" "$out.tmp$b"
done

# copy PATH: one file of the extracted packages, with the symlinks on the way
# (/lib64/ld-linux-x86-64.so.2 is a symlink into /lib/<triplet>/); sets
# $file to the copy of the file at the end of them.
copy() {
	local p=$1 t top
	while :; do
		top=${p#/}; top=${top%%/*}
		case $aliases in *" $top "*)
			[ -L "$out.tmp/$top" ] || ln -s "usr/$top" "$out.tmp/$top"
			p=/usr$p ;;
		esac
		mkdir -p "$out.tmp$(dirname "$p")"
		if [ -L "$dir/x$p" ]; then
			t=$(readlink "$dir/x$p")
			[ -L "$out.tmp$p" ] || ln -s "$t" "$out.tmp$p"
			case $t in /*) p=$t ;; *) p=$(realpath -m -s "$(dirname "$p")/$t") ;; esac
		elif [ -f "$dir/x$p" ]; then
			[ -f "$out.tmp$p" ] || cp -p "$dir/x$p" "$out.tmp$p"
			file=$out.tmp$p
			return 0
		else
			die "$p is not in the packages (${pkgs[*]})"
		fi
	done
}

# Each binary's loader, then the NEEDED closure of the binaries and the
# libraries: a library that none of the packages has is named here, not
# found missing when the tree runs.
todo=()
for b in ${bins[@]+"${bins[@]}"}; do
	interp=$(readelf -l "$out.tmp$b" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -n "$interp" ] || die "$b names no interpreter"
	copy "$interp"
	todo+=("$out.tmp$b")
done
# Library directories the loader searches by default on Debian.
libdirs=$(cd "$dir/x" && find lib usr/lib -maxdepth 1 -mindepth 1 -type d -name '*-linux-gnu*' 2>/dev/null | sed 's|^|/|')
seen=" "
while [ ${#todo[@]} -gt 0 ] && [ -z "$dev" ]; do
	f=${todo[0]}; todo=("${todo[@]:1}")
	for so in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		case $seen in *" $so "*) continue ;; esac
		seen="$seen$so "
		found=
		for d in $libdirs /lib64 /lib /usr/lib; do
			if [ -e "$dir/x$d/$so" ]; then found=$d/$so; break; fi
		done
		[ -n "$found" ] || die "$so (needed by $(basename "$f")) is in none of the packages: ${pkgs[*]}"
		copy "$found"
		todo+=("$file")
	done
done

for p in "${pkgs[@]}"; do
	dpkg-deb -f "$(deb "$p")" Package Version Architecture | tr '\n' ' '
	echo
done > "$out.tmp/.complete"
rm -rf "$out" "$dir/x"
mv "$out.tmp" "$out"
echo "$out"
