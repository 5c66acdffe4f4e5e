// SPDX-License-Identifier: GPL-2.0
/*
 * AUX area tracing on powerpc: vpa_dtl, the hypervisor's Dispatch Trace
 * Log (util/vpa-dtl.c). aux_test, which every architecture has, is tried
 * before this by auxtrace_record__init_any().
 */
#include <stddef.h>

#include "../../../util/auxtrace.h"
#include "../../../util/vpa-dtl.h"

struct auxtrace_record *auxtrace_record__init(struct evlist *evlist, int *err)
{
	return vpa_dtl_recording_init(evlist, err);
}
