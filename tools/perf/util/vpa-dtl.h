/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpa-dtl.h: perf support for vpa_dtl, the powerpc hypervisor's Dispatch
 * Trace Log as a perf PMU (arch/powerpc/perf/vpa-dtl.c). The record
 * layout is the kernel's: include/uapi/linux/perf_vpa_dtl.h.
 */
#ifndef INCLUDE__PERF_VPA_DTL_H__
#define INCLUDE__PERF_VPA_DTL_H__

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#define VPA_DTL_PMU_NAME	"vpa_dtl"

/*
 * auxtrace_info private area: as upstream's, one u64. Ours holds the PMU
 * type; upstream's perf leaves it 0, so the decoder never relies on it.
 */
enum {
	VPA_DTL_PMU_TYPE,
	VPA_DTL_AUXTRACE_PRIV_MAX,
};

#define VPA_DTL_AUXTRACE_PRIV_SIZE (VPA_DTL_AUXTRACE_PRIV_MAX * sizeof(u64))

/* The code of the error events (--itrace=e) that report lost entries. */
#define VPA_DTL_ERR_LOST	1

/* perf script --vpa-dtl-summary */
extern bool vpa_dtl_summary;

struct auxtrace_record;
struct evlist;
struct perf_session;
union perf_event;

struct auxtrace_record *vpa_dtl_recording_init(struct evlist *evlist, int *err);
int vpa_dtl_process_auxtrace_info(union perf_event *event,
				  struct perf_session *session);

#define VPA_DTL_NR_DISPATCH_REASONS	11
#define VPA_DTL_NR_PREEMPT_REASONS	10

/* The reason's name, or "unknown(N)" in @buf for a value out of the table. */
static inline const char *vpa_dtl__dispatch_reason(unsigned int r, char *buf, size_t sz)
{
	static const char * const names[VPA_DTL_NR_DISPATCH_REASONS] = {
		"external_interrupt", "firmware_internal_event", "H_PROD",
		"decrementer_interrupt", "system_reset", "firmware_internal_event",
		"conferred_cycles", "time_slice", "virtual_memory_page_fault",
		"expropriated_adjunct", "priv_doorbell",
	};

	if (r < VPA_DTL_NR_DISPATCH_REASONS)
		return names[r];
	snprintf(buf, sz, "unknown(%u)", r);
	return buf;
}

static inline const char *vpa_dtl__preempt_reason(unsigned int r, char *buf, size_t sz)
{
	static const char * const names[VPA_DTL_NR_PREEMPT_REASONS] = {
		"unused", "firmware_internal_event", "H_CEDE", "H_CONFER",
		"time_slice", "migration_hibernation_page_fault",
		"virtual_memory_page_fault", "H_CONFER_ADJUNCT", "hcall_adjunct",
		"HDEC_adjunct",
	};

	if (r < VPA_DTL_NR_PREEMPT_REASONS)
		return names[r];
	snprintf(buf, sz, "unknown(%u)", r);
	return buf;
}

#endif
