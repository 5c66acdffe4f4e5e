#!/bin/bash
# Usage: build-selftests.sh SRC OBJ KOBJ SELFTEST_ARCH CROSS DIR...
# Static kselftest binaries for the guest, built against the kernel's
# installed UAPI headers (KOBJ/usr/include): the selftests directories
# DIR... (KSELFTEST_DIRS_<arch>, whose `config` fragments the guest kernel
# includes too) with the selftests' ARCH=SELFTEST_ARCH (KSELFTEST_ARCH_<arch>);
# both come from harness/arch/<arch>.mk through the Makefile.
set -euo pipefail
src=$1 obj=$2 kobj=$3 sarch=$4 cross=$5
shift 5
[ -n "$sarch" ] && [ $# -gt 0 ] ||
	{ echo "selftests: KSELFTEST_ARCH_<arch> or KSELFTEST_DIRS_<arch> is not set" >&2; exit 1; }
for dir in "$@"; do
	mkdir -p "$obj/$dir"
	# breakpoints: as its Makefile builds it, unoptimised. breakpoint_test's
	# child learns that it trapped only through a variable that the tracer
	# writes with PTRACE_POKEDATA, which it does not declare volatile: at
	# -O2 the child reads it before its watched store and its read tests
	# read nothing, so it falls out of step with the tracer on any CPU.
	opt=-O2
	[ "$dir" != breakpoints ] || opt=
	CFLAGS="-static${opt:+ $opt}" LDFLAGS="-static" \
	make -s -C "$src/tools/testing/selftests/$dir" OUTPUT="$obj/$dir" \
		ARCH="$sarch" CROSS_COMPILE="$cross" CC="${cross}gcc" \
		KHDR_INCLUDES="-isystem $kobj/usr/include" \
		all
done
