#!/bin/bash
# Usage: perf-arm64.sh SRC OBJ SYSROOT
# perf for one more architecture that overrides auxtrace_record__init()
# (arm64: cs_etm, arm_spe, hisi_ptt), cross-compiled and static like the
# guests' perfs (build-perf.sh, WERROR=1, libelf from SYSROOT: Debian's
# arm64 libelf-dev and zlib1g-dev, fetch-devroot.sh), into OBJ/perf. No guest runs
# it: there is no arm64 guest. Then, where qemu-user can run it, it shows
# that 'perf record -e aux_test//' reaches aux_test's recording there.
#
# This host's kernel has no aux_test PMU, so the binary runs in a mount
# namespace whose /sys/bus/event_source/devices has, next to the host's
# PMUs, a stand-in aux_test and arm_spe_0: a 'type' file (a number no
# kernel PMU has) and aux_test's format files. perf parses the events and
# sets up the recording as on a machine with those PMUs; only the
# perf_event_open() of the event fails, so what is checked is what comes
# before it:
#  - 'perf record -S -e aux_test//': aux_test's recording is registered
#    (without it: "No AUX area tracing to snapshot");
#  - aux_test with arm_spe_0 in one session is refused, with its message.
# What this cannot show: aux_test's events opened, traced and decoded on
# arm64 (no arm64 kernel with aux_test runs here).
set -euo pipefail
src=$1 obj=$2 sysroot=$3
H=$(dirname "$(readlink -f "$0")")
"$H/artifact.sh" --scope perf perf-arm64 "$obj" "$src" -- "$H/build-perf.sh" "$src" "$obj" arm64 aarch64-linux-gnu- "$sysroot"
perf=$obj/perf

qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
if [ -z "$qemu" ]; then
	echo "perf arm64: built; not run (no qemu-aarch64 here)"
	exit 0
fi
sudo=
[ "$(id -u)" = 0 ] || sudo="sudo -n"
devices=/sys/bus/event_source/devices
if ! $sudo unshare -m true 2>/dev/null || [ ! -d $devices ]; then
	echo "perf arm64: built; not run (needs root for a mount namespace, and $devices)"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The host's PMUs (relative symlinks into /sys/devices, which still
# resolve once this directory is mounted over $devices), and the stand-ins.
cp -a $devices/. "$tmp/"
for p in aux_test:32123 arm_spe_0:32124; do
	mkdir -p "$tmp/${p%:*}/format"
	echo "${p#*:}" >"$tmp/${p%:*}/type"
done
echo config:0-31 >"$tmp/aux_test/format/period"
echo config:32-47 >"$tmp/aux_test/format/burst"
echo config:48-63 >"$tmp/aux_test/format/drop"

run() {
	$sudo unshare -m --propagation private \
		sh -c 'mount --bind "$1" "$2" && shift 2 && cd "$1" && shift && exec "$@"' \
		sh "$tmp" $devices "$tmp" "$qemu" "$perf" "$@" 2>&1 || true
}
fail=0
expect() {
	local what=$1 want=$2 out=$3
	if grep -q -- "$want" <<<"$out"; then
		echo "perf arm64: ok: $what: $(grep -m1 -- "$want" <<<"$out")"
	else
		echo "perf arm64: FAILED: $what: no '$want' in:"
		sed 's/^/    /' <<<"$out"
		fail=1
	fi
}
# Without aux_test's recording, -S stops at "No AUX area tracing to
# snapshot"; with it, perf goes on to open the event, which fails here
# (qemu-user has no perf_event_open(), or the host has no such PMU).
out=$(run record -S -o perf.data -e aux_test// -- true)
expect "aux_test's recording registered (record -S gets to opening the event)" \
	"sys_perf_event_open() syscall returned .* for event (aux_test//)" "$out"
out=$(run record -o perf.data -e aux_test// -e arm_spe_0// -- true)
expect "aux_test with arm_spe_0 refused" \
	"aux_test and arm_spe_0 may not be used together" "$out"
exit $fail
