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
	# As their Makefiles build them: unoptimised. Upstream's tests count on
	# it: breakpoint_test's child reads a flag that its tracer writes with
	# PTRACE_POKEDATA, and sigtrap_threads reads its signal count right
	# after a watched write, neither volatile; at -O2 GCC moves those loads
	# before the writes, and the tests fail on any CPU.
	CFLAGS="-static" LDFLAGS="-static" \
	make -s -C "$src/tools/testing/selftests/$dir" OUTPUT="$obj/$dir" \
		ARCH="$sarch" CROSS_COMPILE="$cross" CC="${cross}gcc" \
		KHDR_INCLUDES="-isystem $kobj/usr/include" \
		all
done
