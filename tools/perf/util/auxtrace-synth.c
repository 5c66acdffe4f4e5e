// SPDX-License-Identifier: GPL-2.0
/*
 * The PERF_TYPE_SYNTH event that an AUX decoder delivers its decoded
 * records as: one attr synthesized into the session, named after the
 * decoder, with a sample id of its own.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>

#include "auxtrace-synth.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "session.h"
#include "synthetic-events.h"
#include "tool.h"

/* Far above the ids of the recorded events, which count from theirs. */
#define AUXTRACE_SYNTH_ID_OFFSET	1000000000

struct auxtrace_synth {
	struct perf_tool	dummy_tool;
	struct perf_session	*session;
};

static int auxtrace_synth__deliver(struct perf_tool *tool, union perf_event *event,
				   struct perf_sample *sample __maybe_unused,
				   struct machine *machine __maybe_unused)
{
	struct auxtrace_synth *as = container_of(tool, struct auxtrace_synth, dummy_tool);

	return perf_session__deliver_synth_event(as->session, event, NULL);
}

int auxtrace_synth__add_event(struct perf_session *session, u32 pmu_type,
			      u64 config, const char *name, u64 *id)
{
	struct auxtrace_synth as = { .session = session };
	struct perf_event_attr attr;
	struct evsel *evsel;
	int err;

	evlist__for_each_entry(session->evlist, evsel) {
		if (evsel->core.attr.type == pmu_type && evsel->core.ids)
			break;
	}
	if (!evsel || evsel->core.attr.type != pmu_type || !evsel->core.ids)
		return 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SYNTH;
	attr.config = config;
	/* perf script wants an IP for its default fields (0 if a record has none). */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	attr.sample_id_all = evsel->core.attr.sample_id_all;
	*id = evsel->core.id[0] + AUXTRACE_SYNTH_ID_OFFSET;

	err = perf_event__synthesize_attr(&as.dummy_tool, &attr, 1, id,
					  auxtrace_synth__deliver);
	if (err)
		return err;
	evlist__for_each_entry(session->evlist, evsel) {
		if (evsel->core.id && evsel->core.id[0] == *id) {
			free(evsel->name);
			evsel->name = strdup(name);
		}
	}
	return 1;
}
