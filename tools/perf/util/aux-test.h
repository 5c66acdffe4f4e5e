/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aux-test.h: perf support for aux_test, the software AUX PMU
 */
#ifndef INCLUDE__PERF_AUX_TEST_H__
#define INCLUDE__PERF_AUX_TEST_H__

#include <linux/types.h>
#include <linux/perf_aux_test.h>

#define AUX_TEST_PMU_NAME "aux_test"

/* auxtrace_info private area */
enum {
	AUX_TEST_PMU_TYPE,
	AUX_TEST_SNAPSHOT_MODE,
	AUX_TEST_AUXTRACE_PRIV_MAX,
};

#define AUX_TEST_AUXTRACE_PRIV_SIZE (AUX_TEST_AUXTRACE_PRIV_MAX * sizeof(u64))

/* Why records are missing before a record (perf_synth_aux_test.gap) */
enum aux_test_gap {
	AUX_TEST_GAP_NONE,
	AUX_TEST_GAP_TRUNCATED,		/* the AUX area filled up */
	AUX_TEST_GAP_STOPPED,		/* no room or no area: the event stopped */
	AUX_TEST_GAP_PARTIAL,		/* the PMU dropped them (PARTIAL) */
	AUX_TEST_GAP_OVERWRITTEN,	/* snapshot mode: overwritten */
	AUX_TEST_GAP_UNEXPLAINED,
	AUX_TEST_GAP_MAX,
};

struct auxtrace_record;
struct evlist;
struct perf_pmu;
struct perf_session;
union perf_event;

struct auxtrace_record *aux_test_recording_init(struct evlist *evlist, int *err);
int aux_test_process_auxtrace_info(union perf_event *event,
				   struct perf_session *session);

static inline const char *aux_test__record_name(u32 type)
{
	static const char * const names[] = {
		[AUX_TEST_RECORD_DATA]		= "DATA",
		[AUX_TEST_RECORD_START]		= "START",
		[AUX_TEST_RECORD_PAUSE]		= "PAUSE",
		[AUX_TEST_RECORD_RESUME]	= "RESUME",
	};

	return type < AUX_TEST_RECORD_MAX && names[type] ? names[type] : "BAD";
}

static inline const char *aux_test__gap_name(u32 gap)
{
	static const char * const names[] = {
		[AUX_TEST_GAP_NONE]		= "none",
		[AUX_TEST_GAP_TRUNCATED]	= "truncated",
		[AUX_TEST_GAP_STOPPED]		= "stopped",
		[AUX_TEST_GAP_PARTIAL]		= "partial",
		[AUX_TEST_GAP_OVERWRITTEN]	= "overwritten",
		[AUX_TEST_GAP_UNEXPLAINED]	= "UNEXPLAINED",
	};

	return gap < AUX_TEST_GAP_MAX ? names[gap] : "?";
}

#endif
