#!/bin/bash
# Usage: build-samples.sh SRC OUT KOBJ CROSS ARCH
# The kernel samples the guests run, static, against the kernel's installed
# UAPI headers (KOBJ/usr/include) as build-selftests.sh builds the
# kselftests, with the warnings of the kernel's userprogs and -Werror, into
# OUT laid out as the guest's root (OUT/usr/bin/...): mkinitramfs.sh copies
# OUT over the initramfs. A program is rebuilt when one of its sources or
# of the headers next to them, the UAPI headers or this script are newer
# than it.
#
#   samples/perf/aux_consumer.c     /usr/bin/aux_consumer
#   + aux_consumer_opts.c,          (harness/guests/in-guest/aux-consumer-test runs it)
#     aux_consumer_report.c
set -euo pipefail
src=$1 out=$2 kobj=$3 cross=$4 arch=$5
inc=$kobj/usr/include
[ -f "$inc/linux/perf_event.h" ] ||
	{ echo "samples: no UAPI headers in $inc (build the kernel first)" >&2; exit 1; }
case $arch in
x86_64)  want=X86-64 ;;
ppc64le) want=PowerPC64 ;;
*)       want= ;;
esac
mkdir -p "$out/usr/bin"
# One line a program: its name, then its sources, compiled together.
while read -r -a prog; do
	bin=$out/usr/bin/${prog[0]}
	srcs=("${prog[@]:1}")
	srcs=("${srcs[@]/#/$src/}")
	if [ -f "$bin" ] && [ "$bin" -nt "$0" ] &&
	   [ -z "$(find "${srcs[@]%/*}" -maxdepth 1 -name '*.[ch]' -newer "$bin" -print -quit)" ] &&
	   [ -z "$(find "$inc" -newer "$bin" -print -quit)" ]; then
		continue
	fi
	"${cross}gcc" -std=gnu11 -O2 -Wall -Wmissing-prototypes -Wstrict-prototypes \
		-Wdeclaration-after-statement -Werror -static -isystem "$inc" \
		-o "$bin.tmp" "${srcs[@]}"
	[ -z "$want" ] || readelf -h "$bin.tmp" | grep -q "Machine:.*$want" ||
		{ echo "samples: $bin is not a $arch binary" >&2; exit 1; }
	mv "$bin.tmp" "$bin"
done <<'EOF'
aux_consumer samples/perf/aux_consumer.c samples/perf/aux_consumer_opts.c samples/perf/aux_consumer_report.c
EOF
