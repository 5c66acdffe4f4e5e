#!/bin/bash
# Usage: build-kernel-distro.sh SRC BASE OBJ KARCH CROSS CONFIG "OPTIONS" TARGET...
#
# Builds the series in a distribution's configuration. The guest kernels
# start from allnoconfig, so some code is never compiled there (e.g. with
# DTL off, 64K pages, or options that only a full config turns on). This
# script takes Debian's own config (CONFIG, .xz or plain), switches on the
# series' options, and builds only TARGETs (the directories and objects the
# series touches, e.g. kernel/events/ arch/x86/events/) with W=1.
#
# A W=1 warning located in a file the series touches (one that is new or
# differs from the pristine BASE tree) fails the build. A warning in a
# file the series leaves alone is already in the base: it is listed and
# does not fail. The full log is OBJ/build.log.
set -euo pipefail
# OPTIONS: the series' options for this architecture (all bool; from
# harness/arch/<arch>.mk), switched on; KUNIT too where a KUnit test is
# among them (Debian has it off).
src=$(realpath "$1") base=$2 obj=$(realpath -m "$3") karch=$4 cross=$5 config=$6 opts=$7
shift 7
kmake() {
	make -C "$src" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" "$@"
}

mkdir -p "$obj"
new=$obj/.config.distro
xz -dcf "$config" > "$new"
enabled=()
for opt in $opts; do
	(cd "$src" && grep -rqxE --include='Kconfig*' "(menu)?config $opt" .) ||
		{ echo "distro: no Kconfig defines $opt" >&2; exit 1; }
	"$src/scripts/config" --file "$new" --enable "$opt"
	enabled+=("$opt")
done
# A Debian kernel's own config (/boot/config-*) may name Debian's signing
# certificates (debian/certs/...), which this tree does not have: empty
# them. The partial build never reaches certs/, and linux-config-6.1
# leaves them unset, but CONFIG may come from elsewhere.
"$src/scripts/config" --file "$new" --set-str SYSTEM_TRUSTED_KEYS "" \
	--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY certs/signing_key.pem
kmake -s KCONFIG_CONFIG="$new" olddefconfig >/dev/null
lost=
for opt in "${enabled[@]}"; do
	grep -qx "CONFIG_$opt=y" "$new" || lost+=" $opt"
done
[ -z "$lost" ] || { echo "distro: olddefconfig switched off:$lost" >&2; exit 1; }
# Only a changed config is copied, so an unchanged one rebuilds nothing.
cmp -s "$new" "$obj/.config" || cp "$new" "$obj/.config"
echo "distro: $karch: $config + ${enabled[*]}"

# Recompile the targets' objects every time, so that every run sees (and
# reports) every warning; ccache makes that cheap. `make TARGET` runs
# `prepare` itself.
for t in "$@"; do
	[ ! -e "$obj/$t" ] || find "$obj/$t" -name '*.o' -delete
done
log=$obj/build.log
kmake -j"$(nproc)" W=1 "$@" > "$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; echo "distro: $karch: build failed (log: $log)" >&2; exit 1; }

# Warnings: "FILE:LINE:COL: warning:" (gcc, kernel-doc), "FILE.o: warning:"
# (objtool). FILE is absolute or relative to the source tree.
ours='' known=''
while IFS= read -r w; do
	f=${w%%:*}
	# gcc names a source relative to OBJ when SRC is reached from it by a
	# relative path (e.g. ../../linux/kernel/...); objtool names objects.
	case $f in /* | *.o) ;; *) f=$(realpath -m "$obj/$f") ;; esac
	f=${f#"$src"/}; f=${f#./}
	case $f in *.o) for e in S c; do [ ! -f "$src/${f%.o}.$e" ] || f=${f%.o}.$e; done ;; esac
	if [ -f "$src/$f" ] && [ -f "$base/$f" ] && cmp -s "$src/$f" "$base/$f"; then
		known+="    ${w#"$src"/}"$'\n'
	else
		ours+="    ${w#"$src"/}"$'\n'
	fi
done < <(grep -E '^[^ :]+(:[0-9]+)*: warning:' "$log" | sort -u)
[ -z "$known" ] ||
	printf 'distro: %s: W=1 warnings already in the base (files the series does not touch):\n%s' "$karch" "$known"
if [ -n "$ours" ]; then
	printf 'distro: %s: W=1 warnings in files the series touches (log: %s):\n%s' "$karch" "$log" "$ours" >&2
	exit 1
fi
echo "distro: $karch: no W=1 warning in a file the series touches"
