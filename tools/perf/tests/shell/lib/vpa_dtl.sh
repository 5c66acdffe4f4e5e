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

# Exit with a skip unless the PMU is there and this shell may open its
# events (CAP_PERFMON or CAP_SYS_ADMIN): for the tests that read what the
# hypervisor itself writes, and need no stand-in.
vpa_dtl_require_pmu() {
	if [ ! -d $vpa_dtl_pmu ]; then
		echo "Skip: no vpa_dtl PMU (pseries shared-processor LPAR, CONFIG_VPA_DTL)"
		exit 2
	fi
	_cap=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/$$/status)
	if [ $(( (0x${_cap:-0} >> 38 | 0x${_cap:-0} >> 21) & 1 )) = 0 ]; then
		echo "Skip: no access to vpa_dtl events (CAP_PERFMON or CAP_SYS_ADMIN)"
		exit 2
	fi
}

# vpa_dtl_fields FILE: the entries of a 'perf script' output, as
# vpa_dtl_entries gives them, in columns: "CPU timebase dispatch_reason
# preempt_reason enqueue_to_dispatch_time ready_to_enqueue_time
# waiting_to_ready_time processor_id". An entry in another form is left out.
vpa_dtl_fields() {
	_n='\(-\{0,1\}[0-9][0-9]*\)'
	_re='^\([0-9][0-9]*\) timebase: \([0-9][0-9]*\) dispatch_reason:\([^ ,]*\),'
	_re="$_re preempt_reason:\([^ ,]*\), enqueue_to_dispatch_time:$_n,"
	_re="$_re ready_to_enqueue_time:$_n, *waiting_to_ready_time:$_n,"
	_re="$_re processor_id: \([0-9][0-9]*\)\$"
	vpa_dtl_entries "$1" | sed -n "s/$_re/\1 \2 \3 \4 \5 \6 \7 \8/p"
}

# vpa_dtl_lost FILE: the losses that the error events of a 'perf script'
# output report, one "CPU N" line each.
vpa_dtl_lost() {
	_re='.* error type [0-9]* .* cpu \([0-9]*\) .*: vpa_dtl: \([0-9]*\) entries lost$'
	sed -n "s/$_re/\1 \2/p" "$1"
}

# vpa_dtl_summaries FILE: the per-CPU lines of 'perf script
# --vpa-dtl-summary', as "CPU ENTRIES LOST".
vpa_dtl_summaries() {
	_re='^vpa-dtl summary: cpu \([0-9]*\): \([0-9]*\) dispatches, \([0-9]*\) lost$'
	sed -n "s/$_re/\1 \2 \3/p" "$1"
}

# The dispatches that /proc/powerpc/lparcfg counts (the sum of the vCPUs'
# lppaca yield_count: 2 per dispatch cycle), or nothing without that line.
vpa_dtl_dispatches() {
	awk -F= '$1 == "dispatches" { print $2; exit }' /proc/powerpc/lparcfg 2>/dev/null
}

# vpa_dtl_pin CPU: the words that run a command on CPU only (taskset, in
# busybox too, with a hex mask as both take it), none without taskset:
# '$(vpa_dtl_pin 1) CMD &' leaves $! the pid of CMD.
vpa_dtl_pin() {
	if command -v taskset > /dev/null; then
		printf 'taskset %x\n' $((1 << $1))
	fi
}
