#!/bin/bash
# Usage: mkinitramfs.sh ROOT OUT ARCH PERF PERF_SHELL_TESTS SELFTESTS_DIR BUSYBOX [SAMPLES_DIR]
# Packs the guest's initramfs: busybox, /init, the harness runner and test
# lists, static perf with its shell tests (/usr/share/perf/tests/shell, where
# `cd /usr/share/perf; perf test` finds them), the static kselftests, and
# the static kernel samples (build-samples.sh: SAMPLES_DIR is laid out as
# the guest's root, e.g. SAMPLES_DIR/usr/bin/aux_consumer).
set -euo pipefail
root=$1 out=$2 arch=$3 perf=$4 perf_tests=$5 kst=$6 busybox=$7 samples=${8:-}
stage=$out.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/share/perf/tests,proc,sys,dev,tmp,harness,kselftests}
cp "$busybox" "$stage/bin/busybox"
# The applet list comes from the host's busybox-static: same Debian version.
for app in $(/bin/busybox --list | grep -vx busybox); do
	ln -sf busybox "$stage/bin/$app"
done
cp "$root/harness/guest/init" "$stage/init"
cp "$root"/harness/guest/* "$stage/harness/"
rm -f "$stage/harness/init"
cp "$root/harness/tests.list" "$root/harness/skips.list" "$stage/harness/"
cp "$perf" "$stage/usr/bin/perf"
cp -r "$perf_tests" "$stage/usr/share/perf/tests/shell"
(cd "$kst" && find . -type f -perm -u+x ! -name '*.sh' -exec cp --parents {} "$stage/kselftests/" \;)
[ -z "$samples" ] || cp -a "$samples"/. "$stage/"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
