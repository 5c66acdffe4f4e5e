#!/bin/bash
# Usage: kconfig.sh SRCDIR OBJDIR ARCH CROSS_COMPILE FRAGMENT...
#
# Builds OBJDIR/.config from allnoconfig plus the fragments, runs
# olddefconfig, then checks that every option a fragment asks for survived.
# A lost option (an unmet dependency, a typo) fails the build and is named.
# The .config is only rewritten when the result differs, so an unchanged
# configuration does not trigger a rebuild.
#
# KCONFIG_KNOWN_ONLY=1 (make bisect) drops the requests for options that no
# Kconfig file of SRC declares: an early prefix of the series does not have
# the options that later patches add.
set -euo pipefail
src=$1 obj=$2 arch=$3 cross=$4
shift 4
mkdir -p "$obj"
merged=$obj/.fragments
cat "$@" > "$merged.new"
if [ -n "${KCONFIG_KNOWN_ONLY:-}" ]; then
	known=$(cd "$src" && find . -name 'Kconfig*' -exec sed -n 's/^\(menu\)\?config[ \t]\+\([A-Za-z0-9_]\+\).*/CONFIG_\2/p' {} + | sort -u)
	while IFS= read -r line; do
		opt=$(sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p; s/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' <<<"$line")
		[ -z "$opt" ] || grep -qxF "$opt" <<<"$known" || continue
		printf '%s\n' "$line"
	done < "$merged.new" > "$merged.known"
	mv "$merged.known" "$merged.new"
fi

tmp=$obj/.kconfig-tmp
rm -rf "$tmp"; mkdir -p "$tmp"
make -s -C "$src" O="$tmp" ARCH="$arch" CROSS_COMPILE="$cross" \
	KCONFIG_ALLCONFIG="$merged.new" allnoconfig >/dev/null
make -s -C "$src" O="$tmp" ARCH="$arch" CROSS_COMPILE="$cross" olddefconfig >/dev/null

bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		opt=${line%%=*}
		want=${line#*=}
		[ "$want" = n ] && want=
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		want=
		;;
	*) continue ;;
	esac
	got=$(sed -n "s/^$opt=//p" "$tmp/.config")
	if [ "$got" != "$want" ]; then
		echo "kconfig: $opt requested '${want:-n}' but got '${got:-n}' after olddefconfig" >&2
		bad=1
	fi
done < "$merged.new"
[ $bad = 0 ] || { echo "kconfig: fix the fragments ($*)" >&2; exit 1; }

if ! cmp -s "$tmp/.config" "$obj/.config"; then
	cp "$tmp/.config" "$obj/.config"
	echo "kconfig: $arch configuration updated"
fi
mv "$merged.new" "$merged"
rm -rf "$tmp"
