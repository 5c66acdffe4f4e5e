/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aux-action=start-paused|pause|resume: AUX area pause/resume from the
 * perf tool (Documentation/admin-guide/perf/aux-pause-resume.rst).
 */
#ifndef __PERF_AUX_ACTION_H
#define __PERF_AUX_ACTION_H

#include <linux/types.h>

struct evlist;
struct evsel;

/* The attr.aux_action bits for an aux-action value, 0 if it is not one. */
u32 aux_action__bits(const char *value);

/* "start-paused, pause or resume", for messages */
extern const char *aux_action__values;

/*
 * An aux-action=pause/resume event that is not in a group yet: it is to
 * join the group of the nearest AUX area event before it, as aux-output
 * events do (auxtrace_regroup_aux_output()).
 */
bool aux_action__wants_group(struct evsel *evsel);

/*
 * Check each aux-action against where it is, once the events are
 * grouped; prints what is wrong and returns -EINVAL.
 */
int aux_action__setup(struct evlist *evlist);

/*
 * Explain why the kernel refused @evsel, which has an aux-action
 * (errno @err); returns the length written, 0 to fall back to the
 * generic message.
 */
int aux_action__strerror(struct evsel *evsel, int err, char *msg, size_t size);

#endif /* __PERF_AUX_ACTION_H */
