# SPDX-License-Identifier: GPL-2.0
# Shared by the vpa_dtl shell tests: what they need, the hypervisor
# stand-in, and the entries of a 'perf script' output (ours or upstream's).

vpa_dtl_pmu=/sys/bus/event_source/devices/vpa_dtl
vpa_dtl_inj=/sys/kernel/debug/powerpc/vpa_dtl_inject

# Exit with a skip unless the PMU and the hypervisor stand-in are there.
vpa_dtl_require() {
	if [ ! -d $vpa_dtl_pmu ]; then
		echo "Skip: no vpa_dtl PMU (pseries shared-processor LPAR, CONFIG_VPA_DTL)"
		exit 2
	fi
	if [ ! -w $vpa_dtl_inj/cpu-0 ]; then
		echo "Skip: no hypervisor stand-in (CONFIG_VPA_DTL_INJECT) to write entries"
		exit 2
	fi
}

# The online CPUs, one per word.
vpa_dtl_cpus() {
	awk -F, '{ for (i = 1; i <= NF; i++) {
		n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) printf "%d ", c } }' \
		/sys/devices/system/cpu/online
}

# Sets boot_tb and tb_freq from the stand-in.
vpa_dtl_timebase() {
	eval "$(tr ' ' '\n' < $vpa_dtl_inj/timebase | grep -E '^(boot_tb|tb_freq)=')"
	[ "${tb_freq:-0}" -gt 0 ]
}

# vpa_dtl_entries FILE: the vpa-dtl samples of a 'perf script' output, one
# line each, in the order printed: "CPU TEXT", TEXT being the sample's two
# lines of fields (from "timebase:" to "processor_id: N") joined by a space.
vpa_dtl_entries() {
	awk '
	pending != "" {
		line = $0
		sub(/^[ \t]+/, "", line)
		if (match(line, /processor_id: [0-9]+/))
			line = substr(line, 1, RSTART + RLENGTH - 1)
		print pending " " line
		pending = ""
		next
	}
	/ vpa-dtl: +timebase: / {
		cpu = $0
		sub(/^[^[]*\[/, "", cpu); sub(/\].*/, "", cpu)
		text = $0
		sub(/.* vpa-dtl: +/, "", text)
		sub(/[ \t]+$/, "", text)
		pending = (cpu + 0) " " text
	}' "$1"
}
