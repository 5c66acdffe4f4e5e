#!/bin/bash
# Usage: mkinitramfs.sh ROOT OUT ARCH PERF PERF_SHELL_TESTS SELFTESTS_DIR BUSYBOX CROSS [SAMPLES_DIR]
# Packs the guest's initramfs: busybox, /init, the harness runner and test
# lists, static perf with its shell tests (/usr/share/perf/tests/shell, where
# `cd /usr/share/perf; perf test` finds them), the static kselftests, the
# traced program of the mem:SYMBOL@FILE tests (harness/guests/programs/bp-app.c,
# built with ${CROSS}gcc): /usr/bin/bp-app (static, ET_EXEC) and, where the
# toolchain links static PIEs, /usr/bin/bp-app-pie (static-pie, ET_DYN;
# Debian's ppc64el glibc has no rcrt1.o, so ppc64le has none and its tests
# of it skip), make bench's vpa_dtl pacer (harness/guests/programs/dtl-pace.c,
# /usr/bin/dtl-pace), and the static kernel samples (build-samples.sh: SAMPLES_DIR
# is laid out as the guest's root, e.g. SAMPLES_DIR/usr/bin/aux_consumer).
set -euo pipefail
root=$1 out=$2 arch=$3 perf=$4 perf_tests=$5 kst=$6 busybox=$7 cross=${8:-} samples=${9:-}
stage=$out.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/share/perf/tests,proc,sys,dev,tmp,harness,kselftests}
cp "$busybox" "$stage/bin/busybox"
# The applet list comes from the host's busybox-static: same Debian version.
for app in $(/bin/busybox --list | grep -vx busybox); do
	ln -sf busybox "$stage/bin/$app"
done
cp "$root/harness/guests/in-guest/init" "$stage/init"
cp "$root"/harness/guests/in-guest/* "$stage/harness/"
rm -f "$stage/harness/init"
cp "$root/harness/guests/tests.list" "$root/harness/guests/skips.list" "$stage/harness/"
cp "$perf" "$stage/usr/bin/perf"
cp -r "$perf_tests" "$stage/usr/share/perf/tests/shell"
app=("$root/harness/guests/programs/bp-app.c" "$root/harness/guests/programs/bp-app-twin.c")
"${cross}gcc" -O2 -Wall -static -no-pie -o "$stage/usr/bin/bp-app" "${app[@]}"
if ! "${cross}gcc" -O2 -Wall -static-pie -o "$stage/usr/bin/bp-app-pie" "${app[@]}" 2>/dev/null; then
	rm -f "$stage/usr/bin/bp-app-pie"
	echo "mkinitramfs: ${cross}gcc links no static PIE: no bp-app-pie in the $arch guest" >&2
fi
# The x86_64:pmu guest's programs of a known instruction count
# (pmu-model-test) and of a known branch count (test_intel_bts*.sh)
if [ "$arch" = x86_64 ]; then
	"${cross}gcc" -nostdlib -static -o "$stage/usr/bin/insn-loop" "$root/harness/guests/programs/insn-loop.S"
	"${cross}gcc" -nostdlib -static -DLOOPS=1000 -o "$stage/usr/bin/branch-loop" \
		"$root/harness/guests/programs/insn-loop.S"
	"${cross}gcc" -nostdlib -static -DLOOPS=100000 -DWAIT -o "$stage/usr/bin/branch-wait" \
		"$root/harness/guests/programs/insn-loop.S"
	# PTRACE_SINGLEBLOCK and PTRACE_SINGLESTEP on step-loop (harness/qemu's
	# 0006, the model of IA32_DEBUGCTL.BTF)
	"${cross}gcc" -nostdlib -static -DLOOPS=200 -o "$stage/usr/bin/step-loop" \
		"$root/harness/guests/programs/insn-loop.S"
	"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/singleblock" "$root/harness/guests/programs/singleblock.c"
	# REP string instructions and RDPMC of a known count (pmu-model-test)
	"${cross}gcc" -nostdlib -static -o "$stage/usr/bin/rep-loop" "$root/harness/guests/programs/rep-loop.S"
	"${cross}gcc" -nostdlib -static -o "$stage/usr/bin/rdpmc-self" "$root/harness/guests/programs/rdpmc-self.S"
	# nested CALLs and RETs of a known count (pt-trace-test: RET compression)
	"${cross}gcc" -nostdlib -static -o "$stage/usr/bin/call-loop" "$root/harness/guests/programs/call-loop.S"
	# a fixed branch workload to capture (harness/guests/in-guest/bench-pt)
	"${cross}gcc" -nostdlib -static -DLOOPS=10000000 -o "$stage/usr/bin/call-loop-bench" \
		"$root/harness/guests/programs/call-loop.S"
	# the RFLAGS.RF an interrupt saves, and breakpoint hits under interrupts
	# (tests.list's x86/rf_interrupt and x86/bp_overflow_trials: harness/qemu's 0016)
	"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/rf-interrupt" "$root/harness/guests/programs/rf-interrupt.c"
	"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/bp-overflow-probe" \
		"$root/harness/guests/programs/bp-overflow-probe.c"
	# MSR accesses through /dev/cpu/N/msr (pt-model-test: the #GP rules)
	"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/msr-poke" "$root/harness/guests/programs/msr-poke.c"
	# pt-check (harness/guests/in-guest/pt-trace-test): Intel's libipt, which Debian
	# ships as a shared library only; the program goes in with the host's
	# dynamic loader and the libraries it needs, at the paths ldd names.
	gcc -O2 -Wall -Wl,-rpath,/lib/x86_64-linux-gnu -o "$stage/usr/bin/pt-check" \
		"$root/harness/guests/programs/pt-check.c" -lipt
	ldd "$stage/usr/bin/pt-check" | awk '/=> \// { print $3 } /^\t\// { print $1 }' |
		while read -r lib; do cp -L --parents "$lib" "$stage/"; done
fi
# make bench's vpa_dtl load (harness/guests/in-guest/bench-dtl); needs the pseries stand-in
"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/dtl-pace" "$root/harness/guests/programs/dtl-pace.c"
(cd "$kst" && find . -type f -perm -u+x ! -name '*.sh' -exec cp --parents {} "$stage/kselftests/" \;)
[ -z "$samples" ] || cp -a "$samples"/. "$stage/"
# Uncompressed: the guest kernel's inflate, under KASAN, cost about 12 s of
# guest time for each boot of a 42 MB gzip'ed archive (harness/README.md).
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
