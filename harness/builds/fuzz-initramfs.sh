#!/bin/bash
# Usage: fuzz-initramfs.sh IN OUT ARCH CROSS_COMPILE DEB_ARCH CACHEDIR
# Adds the fuzzing payload to a guest initramfs made by mkinitramfs.sh:
# aux-fuzz (harness/guests/programs/aux-fuzz.c, built static with
# ${CROSS_COMPILE}gcc) as /usr/bin/aux-fuzz, the guest script
# harness/guests/in-guest/fuzz as /harness/fuzz, and Debian's trinity of DEB_ARCH
# with its dynamic loader and libraries (fetch-trinity.sh DEB_ARCH CACHEDIR:
# downloaded once into the cache).
#
# The payload is a second newc cpio archive appended to IN: the
# kernel unpacks concatenated archives one after the other, later entries
# over earlier ones, so IN stays as mkinitramfs.sh made it. OUT may be IN
# (appended in place: run it once after each mkinitramfs.sh).
set -euo pipefail
in=$1 out=$2 arch=$3 cross=$4 darch=$5 cache=$6
here=$(cd "$(dirname "$0")" && pwd)
stage=$out.fuzz.d
[ -f "$in" ] || { echo "fuzz-initramfs: no initramfs $in" >&2; exit 1; }
trinity=$("$here/../fetch/fetch-trinity.sh" "$darch" "$cache")

rm -rf "$stage"
mkdir -p "$stage"/{usr/bin,harness}
"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/aux-fuzz" "$here/../guests/programs/aux-fuzz.c"
# Both built for the guest's architecture, or the guest could not run them.
case $arch in
x86_64)  want=X86-64 ;;
ppc64le) want=PowerPC64 ;;
*)       want= ;;
esac
for b in "$stage/usr/bin/aux-fuzz" "$trinity/usr/bin/trinity"; do
	[ -z "$want" ] || readelf -h "$b" | grep -q "Machine:.*$want" ||
		{ echo "fuzz-initramfs: $b is not a $arch binary" >&2; exit 1; }
done
cp "$here/../guests/in-guest/fuzz" "$stage/harness/fuzz"
cp -a "$trinity"/. "$stage/"
rm -f "$stage/.complete"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$stage.cpio"
cat "$in" "$stage.cpio" > "$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$stage" "$stage.cpio"
