#!/bin/bash
# Usage: build-perf.sh SRC OBJ PERF_ARCH CROSS
# A static perf binary from the assembled tree's tools/perf. Optional
# libraries are off: the guests need the core tool, auxtrace and perf test,
# not a TUI, scripting or DWARF. (The dlfilters .so cannot be linked
# statically, so only the perf binary target is built.)
set -euo pipefail
src=$1 obj=$2 parch=$3 cross=$4
mkdir -p "$obj"
make -s -C "$src/tools/perf" O="$obj" ARCH="$parch" CROSS_COMPILE="$cross" \
	CC="ccache ${cross}gcc" LDFLAGS=-static WERROR=0 \
	NO_LIBELF=1 NO_LIBPERL=1 NO_LIBPYTHON=1 NO_SLANG=1 NO_GTK2=1 \
	NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DEMANGLE=1 NO_LIBNUMA=1 \
	NO_LIBAUDIT=1 NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LZMA=1 NO_LIBBPF=1 \
	NO_JVMTI=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_LIBDEBUGINFOD=1 \
	NO_LIBPFM4=1 NO_SDT=1 NO_AUXTRACE= \
	-j"$(nproc)" "$obj/perf"
