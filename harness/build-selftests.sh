#!/bin/bash
# Usage: build-selftests.sh SRC OBJ KOBJ ARCH CROSS
# Static kselftest binaries for the guest, built against the kernel's
# installed UAPI headers (KOBJ/usr/include). The directories built are the
# ones whose `config` fragments the guest kernel includes (see Makefile).
set -euo pipefail
src=$1 obj=$2 kobj=$3 arch=$4 cross=$5
sarch=$arch
case $arch in x86_64) sarch=x86 ;; ppc64le) sarch=powerpc ;; esac
for dir in perf_events breakpoints; do
	mkdir -p "$obj/$dir"
	CFLAGS="-static -O2" LDFLAGS="-static" \
	make -s -C "$src/tools/testing/selftests/$dir" OUTPUT="$obj/$dir" \
		ARCH="$sarch" CROSS_COMPILE="$cross" CC="${cross}gcc" \
		KHDR_INCLUDES="-isystem $kobj/usr/include" \
		all
done
