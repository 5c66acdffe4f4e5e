#!/bin/bash
# Usage: build-kernel.sh SRC OBJ KARCH CROSS TARGET FRAGMENT...
# Configures (kconfig.sh) and builds the guest kernel in OBJ, and installs
# the UAPI headers in OBJ/usr/include for the selftests.
set -euo pipefail
src=$1 obj=$2 karch=$3 cross=$4 target=$5
shift 5
here=$(dirname "$0")
"$here/kconfig.sh" "$src" "$obj" "$karch" "$cross" "$@"
kmake() {
	make -s -C "$src" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" KBUILD_BUILD_TIMESTAMP='2023-01-01 00:00 UTC' \
		KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness "$@"
}
kmake -j"$(nproc)" ${W:+W=$W} "$target"
kmake headers_install >/dev/null
