// SPDX-License-Identifier: GPL-2.0
/*
 * AUX area tracing on powerpc: vpa_dtl, the hypervisor's Dispatch Trace
 * Log (util/vpa-dtl.c), and aux_test, the software AUX PMU, elsewhere.
 */
#include <stddef.h>

#include "../../../util/auxtrace.h"
#include "../../../util/aux-test.h"
#include "../../../util/vpa-dtl.h"

struct auxtrace_record *auxtrace_record__init(struct evlist *evlist, int *err)
{
	struct auxtrace_record *itr = vpa_dtl_recording_init(evlist, err);

	if (itr || *err)
		return itr;
	return aux_test_recording_init(evlist, err);
}
