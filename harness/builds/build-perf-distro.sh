#!/bin/bash
# Usage: build-perf-distro.sh SRC OBJ [VAR=VALUE...]
# A host perf built the way a distribution builds it: dynamic, with perf's
# own feature detection (no NO_*=1 and no opt-in flags, so the in-tree libbpf
# and libtraceevent) finding the libraries of Debian 12's -dev packages
# (deps.sh), and WERROR=1. PYTHON names Debian's python3, as Debian's rules
# do, in case another one comes first in PATH. The guests' perf
# (build-perf.sh) turns all of that off; this build shows whether the series
# breaks a distribution's perf. It fails on a build error, on any warning in
# the build log, on an expected feature that is OFF, if the python binding
# does not load, or if `perf list` fails. VAR=VALUE go to perf's make (to try
# a distribution's opt-ins, e.g. Debian's CORESIGHT=1).
set -euo pipefail
# Features `perf version --build-options` must show "on".
features="dwarf dwarf_getlocations glibc syscall_table libbfd debuginfod libelf
	libnuma numa_num_possible_cpus libperl libpython libslang libcrypto libunwind
	libdw-dwarf-unwind zlib lzma get_cpuid bpf aio zstd"
# Features it does not report, as $OBJ/.config-detected has them (CONFIG_*).
detected="LIBCAP LIBBABELTRACE SDT_EVENT"
# --build SRC OBJ [VAR=VALUE...]: the build alone, which artifact.sh runs
# unless the cache holds one from the same inputs (a build with a warning
# fails, so is never kept); the checks below run on every call.
if [ "${1:-}" = --build ]; then
	src=$2 obj=$3
	shift 3
	mkdir -p "$obj"
	log=$obj/build.log
	SECONDS=0
	rc=0
	make -s -C "$src/tools/perf" -f Makefile.perf O="$obj" CC="ccache gcc" \
		"$@" PYTHON=/usr/bin/python3 WERROR=1 -j"$(nproc)" all 2>&1 |
		tee "$log" || rc=$?
	echo "perf-distro: build took $((SECONDS / 60))m$((SECONDS % 60))s (exit $rc)"
	[ $rc = 0 ] || { echo "perf-distro: build FAILED, see $log" >&2; exit 1; }
	if grep -n 'warning:' "$log"; then
		echo "perf-distro: the build printed the warnings above" >&2
		exit 1
	fi
	exit 0
fi
src=$1 obj=$2
"$(dirname "$0")/artifact.sh" --scope perf perf-distro "$obj" "$src" -- "$0" --build "$@"

opts=$("$obj/perf" version --build-options)
echo "$opts"
bad=
for f in $features; do
	grep -qE "^ *$f: \[ on  \]" <<<"$opts" || bad+=" $f"
done
for c in $detected; do
	grep -qx "CONFIG_$c=y" "$obj/.config-detected" || bad+=" $c"
done
[ -z "$bad" ] || { echo "perf-distro: expected but OFF:$bad" >&2; exit 1; }

# Distributions ship the python binding; an undefined symbol shows only here.
PYTHONPATH="$obj/python" /usr/bin/python3 -c 'import perf' ||
	{ echo "perf-distro: the python binding does not load" >&2; exit 1; }

list=$("$obj/perf" list 2>&1) || { echo "$list" | tail; echo "perf-distro: perf list FAILED" >&2; exit 1; }
echo "perf-distro: perf list printed $(wc -l <<<"$list") lines"
