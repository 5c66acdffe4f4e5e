#!/bin/bash
# Usage: build-perf.sh SRC OBJ PERF_ARCH CROSS [SYSROOT]
# The guests' perf: one static binary from the assembled tree's tools/perf,
# cross-compiled for ppc64le, built with WERROR=1 like every perf we build.
#
# The guest has no shared libraries, so perf is linked statically against
# the static archives of the libraries it uses: for a cross build, those of
# SYSROOT (the target's Debian -dev packages unpacked by fetch-debroot.sh
# --dev, see fetch-devroot.sh), for a native one the host's. It uses:
#  - libelf (with zlib, which libelf.a needs: bookworm's elfutils 0.188
#    libelf.a needs no zstd): mem:SYMBOL@FILE breakpoints read the symbol
#    tables of the traced programs (util/bp-symbol.c), and perf's symbol
#    code reads ELF files instead of its minimal fallback;
#  - libzstd: perf record -z, which make bench measures on AUX captures;
# and leaves the others out, each for its reason:
#  - the guests' tests need the core tool, auxtrace, the parsers, libelf
#    and 'perf test', none of which needs the rest;
#  - NO_DWARF, NO_LIBDW_DWARF_UNWIND: libdw's static archive needs libebl,
#    lzma, bz2 and zstd archives too, and only 'perf probe' and DWARF
#    unwinding (neither tested in the guests) use it; NO_LIBBPF: BPF
#    events and skeletons are not tested here, and libbpf would be one
#    more static library to cross-build; NO_LIBUNWIND: DWARF unwinding
#    again;
#  - TUI (slang), GTK, perl and python scripting, demangling, numa, audit,
#    libcrypto, lzma compression, libcap, babeltrace, debuginfod,
#    libpfm4, SDT: user interfaces and extras the tests do not use.
# perf's feature checks link each test with -lelf alone, which a static
# link cannot resolve (libelf.a needs -lz after it): FEATURE_CHECK_LDFLAGS
# of the libelf checks add "-lelf -lz". The host perf that distributions
# would build, with all of them and WERROR=1, is build-perf-distro.sh. (The
# dlfilters .so cannot be linked statically, so only the perf binary
# target is built.)
set -euo pipefail
src=$1 obj=$2 parch=$3 cross=$4 sysroot=${5:-}
mkdir -p "$obj"
cflags="" ldflags=-static
if [ -n "$cross" ] && [ -z "$sysroot" ]; then
	echo "build-perf: a cross build needs the target's SYSROOT (fetch-devroot.sh)" >&2
	exit 1
fi
if [ -n "$sysroot" ]; then
	triplet=$(${cross}gcc -dumpmachine)
	[ -f "$sysroot/usr/lib/$triplet/libelf.a" ] ||
		{ echo "build-perf: no $sysroot/usr/lib/$triplet/libelf.a" >&2; exit 1; }
	cflags="-I$sysroot/usr/include -I$sysroot/usr/include/$triplet"
	ldflags="$ldflags -L$sysroot/usr/lib/$triplet"
fi
elf="-lelf -lz"
make -s -C "$src/tools/perf" O="$obj" ARCH="$parch" CROSS_COMPILE="$cross" \
	CC="ccache ${cross}gcc" EXTRA_CFLAGS="$cflags" LDFLAGS="$ldflags" WERROR=1 \
	FEATURE_CHECK_LDFLAGS-libelf="$elf" \
	FEATURE_CHECK_LDFLAGS-libelf-getphdrnum="$elf" \
	FEATURE_CHECK_LDFLAGS-libelf-gelf_getnote="$elf" \
	FEATURE_CHECK_LDFLAGS-libelf-getshdrstrndx="$elf" \
	FEATURE_CHECK_LDFLAGS-libzstd=-lzstd \
	NO_DWARF=1 NO_LIBPERL=1 NO_LIBPYTHON=1 NO_SLANG=1 NO_GTK2=1 \
	NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DEMANGLE=1 NO_LIBNUMA=1 \
	NO_LIBAUDIT=1 NO_LIBCRYPTO=1 NO_LZMA=1 NO_LIBBPF=1 \
	NO_JVMTI=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_LIBDEBUGINFOD=1 \
	NO_LIBPFM4=1 NO_SDT=1 NO_AUXTRACE= \
	-j"$(nproc)" "$obj/perf"
# Without libelf, perf would build and refuse mem:SYMBOL@FILE: fail here.
grep -qx 'feature-libelf=1' "$obj/FEATURE-DUMP" ||
	{ echo "build-perf: perf found no static libelf (libelf.a, libz.a): see $obj/FEATURE-DUMP" >&2; exit 1; }
# Nor would it take -z without libzstd.
grep -qx 'feature-libzstd=1' "$obj/FEATURE-DUMP" ||
	{ echo "build-perf: perf found no static libzstd (libzstd.a): see $obj/FEATURE-DUMP" >&2; exit 1; }
