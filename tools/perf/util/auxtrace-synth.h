/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PERF_TYPE_SYNTH event that an AUX decoder delivers its decoded
 * records as (aux_test, vpa_dtl).
 */
#ifndef __PERF_AUXTRACE_SYNTH_H
#define __PERF_AUXTRACE_SYNTH_H

#include <linux/types.h>

struct perf_session;

/*
 * Add to @session a PERF_TYPE_SYNTH event of @config called @name, for
 * the records decoded from the recorded event of PMU @pmu_type: samples
 * with ip, tid, time, cpu, id, period and raw data. Returns 1 with its
 * sample id in *@id, 0 if the session holds no such recorded event
 * (nothing to deliver), or a negative error.
 */
int auxtrace_synth__add_event(struct perf_session *session, u32 pmu_type,
			      u64 config, const char *name, u64 *id);

#endif /* __PERF_AUXTRACE_SYNTH_H */
