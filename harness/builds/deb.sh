#!/bin/bash
# Usage: deb.sh SRC OUT [CONFIG]
# Debian packages of the patched kernel and of perf for this machine's
# architecture, so that a Debian 12 user can install the series and use it
# (`perf record -e intel_pt/aux-action=start-paused/...`) after a reboot:
#  - linux-image-KREL and linux-headers-KREL, KREL = 6.1.N-perf-aux: the
#    kernel's own `make bindeb-pkg` of the assembled tree SRC, built out of
#    tree in OUT/obj (log OUT/kernel.log); they sit next to Debian's
#    linux-image-6.1.0-* packages, whose names they do not take;
#  - linux-perf-aux: perf, built and packaged by deb/perf.sh; it replaces
#    Debian's linux-perf.
# All three land in OUT, so that `apt install ./OUT/*.deb` installs them.
# The other packages bindeb-pkg writes go to OUT/extra: linux-libc-dev
# (installing it would replace Debian's own) and, with DEBUG_INFO,
# linux-image-KREL-dbg (the kernel's debug symbols, about 1 GB).
#
# The kernel's configuration is CONFIG (.xz or plain; e.g.
# /boot/config-$(uname -r)), by default Debian's own for this architecture
# (fetch-distro-config.sh for `dpkg --print-architecture` and
# DISTRO_FLAVOUR, e.g. amd64 or powerpc64le, which the Makefile takes from
# the harness/arch/*.mk of this DEB_ARCH), with:
#  - CONFIG_LOCALVERSION=-perf-aux (DEB_LOCALVERSION);
#  - the series' options for users (VPA_DTL) where the architecture has
#    them; pause/resume needs no option. The test-only ones (the aux_test
#    PMU, vpa_dtl's hypervisor stand-in) stay off unless DEB_TEST=1: aux_test
#    lets anyone allowed to use perf make the kernel write data at any rate;
#  - signing-key settings that name files this tree lacks (a /boot/config
#    names Debian's certificates) emptied; modules signed with a key that
#    the build makes (MODULE_SIG_ALL), so loading them taints nothing.
# Trimming, for a faster build (DEB_TRIM, words):
#  - debug: DEBUG_INFO off: no -dbg package, no BTF (/sys/kernel/btf, which
#    BPF CO-RE tools use), a smaller, much faster build;
#  - modules: `make localmodconfig`: only the modules that LSMOD lists (a
#    file of `lsmod` output, from the machine that will run the kernel;
#    default: this machine's lsmod). A module not loaded then (a USB disk
#    not plugged in) is not built;
#  - 1: both.
# DEB_VERSION is the packages' version (default: the base's Debian version,
# BASE_VERSION, +auxN.gHASH from this repository's git, .dirty if it has
# uncommitted changes).
set -euo pipefail
src=$(realpath "$1") out=$(realpath -m "$2") config=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
obj=$out/obj work=$out/kconfig log=$out/kernel.log
localver=${DEB_LOCALVERSION--perf-aux}
trim=${DEB_TRIM:-}
[ "$trim" != 1 ] || trim="debug modules"
user_opts="VPA_DTL"
test_opts="PERF_AUX_TEST_PMU VPA_DTL_INJECT"
for t in $trim; do
	case $t in debug|modules) ;; *) echo "deb: DEB_TRIM: unknown word '$t' (debug, modules, 1)" >&2; exit 1 ;; esac
done
for c in dpkg-buildpackage dpkg-shlibdeps; do
	command -v $c >/dev/null || { echo "deb: $c is missing (apt-get install dpkg-dev)" >&2; exit 1; }
done

base=${BASE_VERSION:-$(sed -n 's/^BASE_VERSION *?*= *//p' "$root/harness/fetch/base.mk")}
if [ -z "${DEB_VERSION:-}" ] && git -C "$root" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	DEB_VERSION=$base+aux$(git -C "$root" rev-list --count HEAD).g$(git -C "$root" rev-parse --short=7 HEAD)
	[ -z "$(git -C "$root" status --porcelain)" ] || DEB_VERSION+=.dirty
fi
ver=${DEB_VERSION:-$base+aux}
if [ -z "$config" ]; then
	[ -n "${DISTRO_FLAVOUR:-}" ] || { echo "deb: no Debian flavour known for $(dpkg --print-architecture): give CONFIG (make deb DEB_CONFIG=...)" >&2; exit 1; }
	config=$("$here/../fetch/fetch-distro-config.sh" "$(dpkg --print-architecture)" "$DISTRO_FLAVOUR" "$base" "${CACHE:-$HOME/.cache/perf-aux}")
fi
[ -f "$config" ] || { echo "deb: no configuration $config" >&2; exit 1; }
kmake() { make -C "$src" CC="ccache gcc" LOCALVERSION= "$@"; }

# The configuration, made in OUT/kconfig; OUT/obj/.config changes only
# when the result does, so an unchanged one rebuilds nothing.
mkdir -p "$work" "$obj" "$out/extra"
cfg=$work/.config
xz -dcf "$config" > "$cfg"
sc() { "$src/scripts/config" --file "$cfg" "$@"; }
sc --set-str LOCALVERSION "$localver" --disable LOCALVERSION_AUTO
for k in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS MODULE_SIG_KEY; do
	v=$(sc --state $k)
	case $v in undef|""|pkcs11:*|certs/signing_key.pem) continue ;; esac
	[ -e "$src/$v" ] || [ -e "$v" ] || {
		echo "deb: $k names $v, which this tree does not have: emptied"
		if [ $k = MODULE_SIG_KEY ]; then sc --set-str $k certs/signing_key.pem; else sc --set-str $k ""; fi
	}
done
[ "$(sc --state MODULE_SIG)" != y ] || sc --enable MODULE_SIG_ALL
opts=$user_opts
if [ -n "${DEB_TEST:-}" ]; then opts+=" $test_opts"; else for o in $test_opts; do sc --disable "$o"; done; fi
for o in $opts; do sc --enable "$o"; done
case " $trim " in *" debug "*)
	sc --enable DEBUG_INFO_NONE --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		--disable DEBUG_INFO_DWARF4 --disable DEBUG_INFO_DWARF5 --disable DEBUG_INFO ;;
esac
kmake -s O="$work" olddefconfig >/dev/null
case " $trim " in *" modules "*)
	if [ -z "${LSMOD:-}" ]; then
		[ -r /proc/modules ] || { echo "deb: this machine lists no modules (no /proc/modules): give LSMOD=FILE, \`lsmod\` output of the machine that will run the kernel" >&2; exit 1; }
		lsmod > "$out/lsmod.txt"
		LSMOD=$out/lsmod.txt
	fi
	echo "deb: localmodconfig: $(tail -n +2 "$LSMOD" | wc -l) modules listed in $LSMOD"
	LSMOD=$(realpath "$LSMOD") kmake -s O="$work" localmodconfig </dev/null >"$work/localmodconfig.log" 2>&1 ||
		{ cat "$work/localmodconfig.log" >&2; echo "deb: localmodconfig failed" >&2; exit 1; }
	;;
esac
bad=
for o in $opts; do
	if grep -qx "CONFIG_$o=y" "$cfg"; then echo "deb: CONFIG_$o=y"
	elif grep -q "CONFIG_${o}[= ]" "$cfg"; then bad+=" $o"
	else echo "deb: CONFIG_$o: not on this architecture"; fi
done
[ -z "$bad" ] || { echo "deb: olddefconfig switched off:$bad (their dependencies are off in $config)" >&2; exit 1; }
if grep -qx CONFIG_DEBUG_INFO_BTF=y "$cfg" && ! command -v pahole >/dev/null; then
	echo "deb: the configuration has DEBUG_INFO_BTF, which needs pahole: apt-get install dwarves, or DEB_TRIM=debug" >&2
	exit 1
fi
cmp -s "$cfg" "$obj/.config" || cp "$cfg" "$obj/.config"
krel=$(kmake -s kernelversion)$localver
echo "deb: kernel $krel, package version $ver, from $config${trim:+ (trimmed: $trim)}:" \
	"$(grep -c '=y$' "$cfg") built-in options, $(grep -c '=m$' "$cfg") modular"

# perf first: it is the shorter build, and it fails on a warning.
SECONDS=0
maint="${DEBFULLNAME:-$(id -nu)} <${DEBEMAIL:-$(id -nu)@$(hostname -f 2>/dev/null || hostname)}>"
"$here/deb/perf.sh" "$src" "$out" "$ver" "$maint"
echo "deb: perf package took $((SECONDS / 60))m$((SECONDS % 60))s"

SECONDS=0
rm -f "$out"/linux-image-*.deb "$out"/linux-headers-*.deb "$out"/extra/*.deb \
	"$out"/linux-libc-dev_*.deb "$out"/linux-perf-aux_*.buildinfo "$out"/linux-perf-aux_*.changes
# shellcheck disable=SC1091
dist=$(. /etc/os-release && echo "${VERSION_CODENAME:-unstable}")
KDEB_PKGVERSION=$ver KDEB_SOURCENAME=linux-perf-aux KDEB_CHANGELOG_DIST=$dist \
	DEBEMAIL="$maint" kmake O="$obj" -j"$(nproc)" bindeb-pkg > "$log" 2>&1 ||
	{ grep -E 'error|Error' "$log" | head -n 20 >&2; tail -n 20 "$log" >&2; echo "deb: kernel build failed (log: $log)" >&2; exit 1; }
echo "deb: kernel packages took $((SECONDS / 60))m$((SECONDS % 60))s ($(grep -c 'warning:' "$log" || true) warnings in $log)"
mv "$out"/linux-libc-dev_*.deb "$out"/linux-image-*-dbg_*.deb "$out"/linux-perf-aux_*.buildinfo \
	"$out"/linux-perf-aux_*.changes "$out/extra/" 2>/dev/null || true

# The image has the series' kernel and the options asked for.
image=$(ls "$out"/linux-image-"$krel"_*.deb)
dpkg-deb --info "$image" | sed -n '/Package:/,/Description:/p'
kcfg=$(dpkg-deb --fsys-tarfile "$image" | tar -xOf - "./boot/config-$krel")
for o in $opts; do
	grep -qx "CONFIG_$o=y" <<<"$kcfg" || ! grep -q "CONFIG_${o}[= ]" "$cfg" ||
		{ echo "deb: CONFIG_$o is not in the packaged kernel" >&2; exit 1; }
done
echo "deb: packages in $out:"
for f in "$out"/*.deb "$out"/extra/*.deb; do
	[ ! -e "$f" ] || printf '    %6s  %s\n' "$(du -h "$f" | cut -f1)" "${f#"$out"/}"
done
cat <<EOF
deb: to install on Debian 12 (as root), then reboot into $krel:
    apt install $(printf '%s ' "$out"/*.deb)
  (or dpkg -i, then apt-get -f install for perf's libraries). Secure Boot
  must be off: the kernel is not signed with a key that shim trusts.
EOF
