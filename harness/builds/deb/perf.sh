#!/bin/bash
# Usage: deb/perf.sh SRC OUT VERSION MAINTAINER
# The perf half of `make deb`: perf from the assembled tree SRC, built by
# build-perf-distro.sh (default features, WERROR=1) in OUT/perf-obj,
# installed into OUT/staging with the layout of Debian's linux-perf
# (/usr/lib/perf-core, /usr/lib/traceevent/plugins, bash completion,
# python binding; no /usr/bin/trace), wrapped by dpkg-deb into
# OUT/linux-perf-aux_VERSION_ARCH.deb. It replaces Debian's linux-perf
# (Provides, Conflicts, Replaces). Man pages need asciidoc and xmlto; the
# package has them only if both are installed.
set -euo pipefail
src=$1 out=$2 ver=$3 maint=$4
here=$(dirname "$0")
obj=$out/perf-obj stage=$out/staging pkg=linux-perf-aux
arch=$(dpkg --print-architecture)
doc=usr/share/doc/$pkg
# The paths perf compiles in, so build and install must get the same ones.
paths=(prefix=/usr lib=lib perfexecdir=lib/perf-core perf_include_dir=include/perf
       tipdir="share/doc/$pkg" perf_examples_dir="share/doc/$pkg/examples" DESTDIR="$stage")
"$here/../build-perf-distro.sh" "$src" "$obj" "${paths[@]}"

# The same variables as build-perf-distro.sh's build, so nothing rebuilds.
before=$(stat -c %Y "$obj/perf")
rm -rf "$stage"
make -s -C "$src/tools/perf" -f Makefile.perf O="$obj" CC="ccache gcc" \
	PYTHON=/usr/bin/python3 WERROR=1 "${paths[@]}" install-bin > "$obj/install.log" 2>&1 ||
	{ tail -n 20 "$obj/install.log" >&2; echo "deb/perf: install-bin failed" >&2; exit 1; }
[ "$(stat -c %Y "$obj/perf")" = "$before" ] ||
	echo "deb/perf: install-bin relinked perf (its variables differ from build-perf-distro.sh's)"
if command -v asciidoc >/dev/null && command -v xmlto >/dev/null; then
	make -s -C "$src/tools/perf" -f Makefile.perf O="$obj" "${paths[@]}" mandir=share/man install-man
	find "$stage/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
else
	echo "deb/perf: no asciidoc/xmlto: the package has no man pages (perf help CMD needs them)"
fi
rm -f "$stage/usr/bin/trace"
mkdir -p "$stage/usr/share/bash-completion/completions" "$stage/usr/lib/python3/dist-packages" "$stage/$doc"
mv "$stage/etc/bash_completion.d/perf" "$stage/usr/share/bash-completion/completions/perf"
rm -rf "${stage:?}/etc"
cp "$obj"/python/perf*.so "$stage/usr/lib/python3/dist-packages/"
printf '%s\n\n%s\n' "perf from Linux $(make -s -C "$src" kernelversion) with the perf AUX series." \
	'License: GPL-2 (/usr/share/common-licenses/GPL-2).' > "$stage/$doc/copyright"
elves=()
while IFS= read -r -d '' f; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = 177ELF ] || continue
	strip --remove-section=.comment --remove-section=.note --strip-unneeded "$f"
	elves+=("-e$f")
done < <(find "$stage" -type f -print0)

# dpkg-shlibdeps wants a debian/control; it reads nothing else from it.
work=$out/perf-deb
rm -rf "$work"; mkdir -p "$work/debian" "$stage/DEBIAN"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' $pkg $pkg > "$work/debian/control"
deps=$(cd "$work" && dpkg-shlibdeps -O "${elves[@]}" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p')
[ -n "$deps" ] || { cat "$work/shlibdeps.log" >&2; echo "deb/perf: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
cat > "$stage/DEBIAN/control" <<EOF
Package: $pkg
Version: $ver
Architecture: $arch
Maintainer: $maint
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $deps, perl:any, python3:any
Provides: linux-perf
Conflicts: linux-perf
Replaces: linux-perf
Section: devel
Priority: optional
Description: perf with the AUX area series (pause/resume, aux-action=)
 Linux's perf tool from the patched $(make -s -C "$src" kernelversion) tree, in place of Debian's
 linux-perf, with the same default features. It knows the series'
 additions: the aux-action=start-paused|pause|resume term (Intel PT,
 Intel BTS), the aux_test and vpa_dtl PMUs, and mem:SYMBOL breakpoints.
 Pause/resume needs a kernel with the series (the linux-image-*-perf-aux
 package built with this one).
EOF
# Debian's linux-perf diverts these to *.wrapper (for the wrapper of an
# old linux-base, which bookworm's no longer has): while it is installed,
# our files would be unpacked under the .wrapper names, and its removal
# would then fail. Drop its diversions first, as its postrm would.
cat > "$stage/DEBIAN/preinst" <<'PREINST'
#!/bin/sh
set -e
if [ "$1" = install ] || [ "$1" = upgrade ]; then
	for f in /usr/bin/perf /usr/share/bash-completion/completions/perf /usr/share/man/man1/perf.1.gz; do
		d="${f%/perf*}/perf.wrapper${f#*/perf}"
		if [ "$(dpkg-divert --listpackage "$f")" = linux-perf ] && [ ! -e "$DPKG_ROOT$d" ]; then
			dpkg-divert --package linux-perf --divert "$d" --rename --remove "$f"
		fi
	done
fi
PREINST
chmod 755 "$stage/DEBIAN/preinst"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum > DEBIAN/md5sums)
chmod -R go-w,a+rX "$stage"
deb=$out/${pkg}_${ver}_$arch.deb
rm -f "$out/${pkg}"_*.deb
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null

# The package as dpkg sees it, and the staged binary.
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
dpkg-deb --contents "$deb" > "$work/contents.txt"
echo "deb/perf: $(grep -vc '/$' "$work/contents.txt") files (list: $work/contents.txt), e.g.:"
grep -E ' \./usr/(bin/perf|lib/perf-core/perf-archive|lib/python3/.*\.so|lib/traceevent/plugins/plugin_sched_switch\.so)$' "$work/contents.txt"
"$stage/usr/bin/perf" version --build-options | head -n 1
grep -qa 'aux-action' "$stage/usr/bin/perf" || { echo "deb/perf: the perf binary does not know aux-action" >&2; exit 1; }
