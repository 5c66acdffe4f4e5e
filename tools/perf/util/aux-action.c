// SPDX-License-Identifier: GPL-2.0
/*
 * aux-action=start-paused|pause|resume: the config term that sets
 * attr.aux_action, its auto-grouping, its checks and its error messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bits.h>
#include <linux/perf_event.h>

#include "aux-action.h"
#include "debug.h"
#include "evlist.h"
#include "evsel.h"
#include "evsel_config.h"
#include "pmu.h"

#define AUX_START_PAUSED	BIT(0)
#define AUX_PAUSE		BIT(1)
#define AUX_RESUME		BIT(2)

const char *aux_action__values = "start-paused, pause or resume";

static const struct {
	const char *name;
	u32 bits;
} aux_actions[] = {
	{ "start-paused",	AUX_START_PAUSED },
	{ "pause",		AUX_PAUSE },
	{ "resume",		AUX_RESUME },
};

u32 aux_action__bits(const char *value)
{
	size_t i;

	for (i = 0; value && i < ARRAY_SIZE(aux_actions); i++) {
		if (!strcmp(value, aux_actions[i].name))
			return aux_actions[i].bits;
	}
	return 0;
}

static const char *aux_action__term(struct evsel *evsel)
{
	struct evsel_config_term *term = evsel__get_config_term(evsel, AUX_ACTION);

	return term ? term->val.str : NULL;
}

bool aux_action__wants_group(struct evsel *evsel)
{
	u32 bits = aux_action__bits(aux_action__term(evsel));

	return (bits & (AUX_PAUSE | AUX_RESUME)) && evsel__is_group_leader(evsel) &&
	       evsel->core.nr_members <= 1 && !evsel__is_aux_event(evsel);
}

int aux_action__setup(struct evlist *evlist)
{
	struct evsel *evsel, *leader;
	const char *action;

	evlist__for_each_entry(evlist, evsel) {
		bool is_aux = evsel__is_aux_event(evsel);

		action = aux_action__term(evsel);
		if (!action)
			continue;

		if (aux_action__bits(action) == AUX_START_PAUSED) {
			if (!is_aux) {
				pr_err("aux-action=start-paused: %s is not an AUX area event (start-paused is for the AUX area event itself)\n",
				       evsel__name(evsel));
				return -EINVAL;
			}
			continue;
		}

		if (is_aux) {
			pr_err("aux-action=%s: %s is an AUX area event; %s is for the events that switch its tracing, in its group\n",
			       action, evsel__name(evsel), action);
			return -EINVAL;
		}
		leader = evsel__leader(evsel);
		if (leader == evsel || !evsel__is_aux_event(leader)) {
			pr_err("aux-action=%s: %s needs an AUX area event as its group leader: put one before it, or group them with {}\n",
			       action, evsel__name(evsel));
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Does the running kernel know attr.aux_action? One that does refuses
 * aux_start_paused on a software event with EOPNOTSUPP; one that does not
 * sees a reserved field set and says EINVAL.
 */
static bool kernel_has_aux_action(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd;

	attr.aux_start_paused = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return errno != EINVAL;
}

int aux_action__strerror(struct evsel *evsel, int err, char *msg, size_t size)
{
	struct evsel *leader = evsel__leader(evsel);
	const char *action = aux_action__term(evsel);
	u32 bits = evsel->core.attr.aux_action;

	if (err != EINVAL && err != EOPNOTSUPP)
		return 0;
	if (!action)
		action = bits & AUX_START_PAUSED ? "start-paused" :
			 bits & AUX_PAUSE ? "pause" : "resume";

	if (!kernel_has_aux_action())
		return scnprintf(msg, size,
			"%s: the kernel does not support aux_action (AUX area pause/resume, aux-action=%s).",
			evsel__name(evsel), action);

	if (bits & AUX_START_PAUSED)
		return scnprintf(msg, size,
			"%s: its PMU does not support aux-action=start-paused: it is not an AUX area PMU, or it cannot pause its tracing.",
			evsel__name(evsel));

	if (evsel->core.attr.aux_output)
		return scnprintf(msg, size,
			"%s: aux-output cannot be combined with aux-action=%s.",
			evsel__name(evsel), action);

	if (leader == evsel || !evsel__is_aux_event(leader))
		return scnprintf(msg, size,
			"%s: aux-action=%s needs an AUX area event as its group leader.",
			evsel__name(evsel), action);

	return scnprintf(msg, size,
		"%s: aux-action=%s refused: the PMU of its group leader %s does not support AUX area pause/resume.",
		evsel__name(evsel), action, evsel__name(leader));
}
