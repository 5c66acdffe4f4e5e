#!/bin/bash
# Usage: build-perf.sh SRC OBJ PERF_ARCH CROSS
# The guests' perf: one static binary from the assembled tree's tools/perf,
# cross-compiled for ppc64le, built with WERROR=1 like every perf we build.
#
# The guest has no shared libraries, so perf is linked statically, and the
# optional libraries are left out by choice, each for its reason:
#  - the guests' tests need the core tool, auxtrace, the parsers and
#    'perf test', none of which needs a library;
#  - NO_LIBELF (and with it libdw, DWARF unwinding, libbpf and BPF, which
#    need it): symbols come from /proc/kallsyms, which is what the guests
#    test; a static libelf would need Debian's ppc64el libelf and zlib
#    static archives cross-installed;
#  - TUI (slang), GTK, perl and python scripting, demangling, numa, audit,
#    libcrypto, compression (zstd, lzma), libcap, babeltrace, debuginfod,
#    libpfm4, SDT: user interfaces and extras the tests do not use.
# The host perf that distributions would build, with all of them and
# WERROR=1, is build-perf-distro.sh. (The dlfilters .so cannot be linked
# statically, so only the perf binary target is built.)
set -euo pipefail
src=$1 obj=$2 parch=$3 cross=$4
mkdir -p "$obj"
make -s -C "$src/tools/perf" O="$obj" ARCH="$parch" CROSS_COMPILE="$cross" \
	CC="ccache ${cross}gcc" LDFLAGS=-static WERROR=1 \
	NO_LIBELF=1 NO_LIBPERL=1 NO_LIBPYTHON=1 NO_SLANG=1 NO_GTK2=1 \
	NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DEMANGLE=1 NO_LIBNUMA=1 \
	NO_LIBAUDIT=1 NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LZMA=1 NO_LIBBPF=1 \
	NO_JVMTI=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_LIBDEBUGINFOD=1 \
	NO_LIBPFM4=1 NO_SDT=1 NO_AUXTRACE= \
	-j"$(nproc)" "$obj/perf"
