// SPDX-License-Identifier: GPL-2.0
/*
 * aux-test.c: recording and decoding of aux_test, the software AUX PMU
 * (kernel/events/aux_test.c). See tools/perf/Documentation/perf-aux-test.txt.
 *
 * Recording works on every architecture. Decoding turns each record into
 * an "aux-test" sample and checks the stream: every gap in a stream's
 * sequence numbers is reported with its explanation, taken from the flags
 * of the PERF_RECORD_AUX that committed the data, and a summary (records,
 * gaps, bytes) ends the output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/perf_aux_test.h>
#include <linux/types.h>
#include <linux/zalloc.h>
#include <internal/lib.h>
#include <perf/cpumap.h>

#include "auxtrace.h"
#include "auxtrace-synth.h"
#include "aux-test.h"
#include "color.h"
#include "debug.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "machine.h"
#include "parse-events.h"
#include "pmu.h"
#include "record.h"
#include "session.h"
#include "synthetic-events.h"
#include "thread.h"
#include "tool.h"

/* ---- recording ---- */

struct aux_test_recording {
	struct auxtrace_record	itr;
	struct perf_pmu		*pmu;
	struct evlist		*evlist;
	bool			snapshot_mode;
	u64			reference;
};

static size_t aux_test_info_priv_size(struct auxtrace_record *itr __maybe_unused,
				      struct evlist *evlist __maybe_unused)
{
	return AUX_TEST_AUXTRACE_PRIV_SIZE;
}

static int aux_test_info_fill(struct auxtrace_record *itr,
			      struct perf_session *session __maybe_unused,
			      struct perf_record_auxtrace_info *auxtrace_info,
			      size_t priv_size)
{
	struct aux_test_recording *atr = container_of(itr, struct aux_test_recording, itr);

	if (priv_size != AUX_TEST_AUXTRACE_PRIV_SIZE)
		return -EINVAL;

	auxtrace_info->type = PERF_AUXTRACE_AUX_TEST;
	auxtrace_info->priv[AUX_TEST_PMU_TYPE] = atr->pmu->type;
	auxtrace_info->priv[AUX_TEST_SNAPSHOT_MODE] = atr->snapshot_mode;
	return 0;
}

static int aux_test_recording_options(struct auxtrace_record *itr,
				      struct evlist *evlist,
				      struct record_opts *opts)
{
	struct aux_test_recording *atr = container_of(itr, struct aux_test_recording, itr);
	const struct perf_cpu_map *cpus = evlist->core.user_requested_cpus;
	bool privileged = perf_event_paranoid_check(-1);
	struct evsel *evsel, *at_evsel = NULL;
	size_t sz;

	if (opts->auxtrace_sample_mode) {
		pr_err(AUX_TEST_PMU_NAME ": AUX area sampling (--aux-sample) is not supported by this tool\n");
		return -EINVAL;
	}

	atr->evlist = evlist;
	atr->snapshot_mode = opts->auxtrace_snapshot_mode;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->core.attr.type != atr->pmu->type)
			continue;
		if (at_evsel) {
			pr_err("There may be only one " AUX_TEST_PMU_NAME " event\n");
			return -EINVAL;
		}
		/* Not a sampling event: keep the core's frequency logic off it. */
		evsel->core.attr.freq = 0;
		evsel->core.attr.sample_period = 1;
		evsel->needs_auxtrace_mmap = true;
		at_evsel = evsel;
		opts->full_auxtrace = true;
	}

	if (opts->auxtrace_snapshot_mode && !opts->full_auxtrace) {
		pr_err("Snapshot mode (-S option) requires an %s event (-e %s//)\n",
		       AUX_TEST_PMU_NAME, AUX_TEST_PMU_NAME);
		return -EINVAL;
	}
	if (!opts->full_auxtrace)
		return 0;

	if (!opts->auxtrace_mmap_pages) {
		size_t want = opts->auxtrace_snapshot_size;

		if (opts->auxtrace_snapshot_mode && want)
			opts->auxtrace_mmap_pages =
				roundup_pow_of_two(round_up(want, page_size) / page_size);
		else
			opts->auxtrace_mmap_pages = (privileged ? 4 * 1024 * 1024 : 128 * 1024) /
						    page_size;
		if (!privileged && opts->mmap_pages == UINT_MAX)
			opts->mmap_pages = 256 * 1024 / page_size;
	}
	sz = opts->auxtrace_mmap_pages * (size_t)page_size;
	if (!is_power_of_2(opts->auxtrace_mmap_pages)) {
		pr_err(AUX_TEST_PMU_NAME ": the AUX area size (-m ,N) must be a power of 2 pages\n");
		return -EINVAL;
	}
	if (opts->auxtrace_snapshot_mode) {
		if (!opts->auxtrace_snapshot_size)
			opts->auxtrace_snapshot_size = sz;
		if (opts->auxtrace_snapshot_size > sz) {
			pr_err(AUX_TEST_PMU_NAME ": snapshot size %zu is larger than the AUX area (%zu)\n",
			       opts->auxtrace_snapshot_size, sz);
			return -EINVAL;
		}
	}

	/* The AUX event comes first, to own the AUX area's file descriptor. */
	evlist__to_front(evlist, at_evsel);
	evsel__set_sample_bit(at_evsel, TIME);
	evsel__set_sample_bit(at_evsel, TID);
	if (!perf_cpu_map__empty(cpus))
		evsel__set_sample_bit(at_evsel, CPU);

	/* A dummy event keeps track of tasks (comm, mmap, fork, exit). */
	if (parse_event(evlist, "dummy:u"))
		return -EINVAL;
	evlist__set_tracking_event(evlist, evlist__last(evlist));
	evlist__last(evlist)->core.attr.freq = 0;
	evlist__last(evlist)->core.attr.sample_period = 1;

	return 0;
}

static int aux_test_parse_snapshot_options(struct auxtrace_record *itr,
					   struct record_opts *opts,
					   const char *str)
{
	struct aux_test_recording *atr = container_of(itr, struct aux_test_recording, itr);
	unsigned long long size = 0;
	char *end;

	if (str) {
		size = strtoull(str, &end, 0);
		if (*end || size > SIZE_MAX)
			return -1;
	}
	opts->auxtrace_snapshot_mode = true;
	opts->auxtrace_snapshot_size = size;
	atr->snapshot_mode = true;
	return 0;
}

static int aux_test_snapshot_toggle(struct auxtrace_record *itr, bool enable)
{
	struct aux_test_recording *atr = container_of(itr, struct aux_test_recording, itr);
	struct evsel *evsel;

	evlist__for_each_entry(atr->evlist, evsel) {
		if (evsel->core.attr.type == atr->pmu->type)
			return enable ? evsel__enable(evsel) : evsel__disable(evsel);
	}
	return -EINVAL;
}

static int aux_test_snapshot_start(struct auxtrace_record *itr)
{
	return aux_test_snapshot_toggle(itr, false);
}

static int aux_test_snapshot_finish(struct auxtrace_record *itr)
{
	return aux_test_snapshot_toggle(itr, true);
}

/*
 * In snapshot mode the kernel's aux_head runs free, so the newest data is
 * the last mm->len bytes before it; what was taken by an earlier snapshot
 * (before *old) is not taken again.
 */
static int aux_test_find_snapshot(struct auxtrace_record *itr __maybe_unused,
				  int idx __maybe_unused, struct auxtrace_mmap *mm,
				  unsigned char *data __maybe_unused,
				  u64 *head, u64 *old)
{
	if (*head - *old > mm->len)
		*old = *head - mm->len;
	return 0;
}

static u64 aux_test_reference(struct auxtrace_record *itr)
{
	struct aux_test_recording *atr = container_of(itr, struct aux_test_recording, itr);

	return ++atr->reference;
}

static void aux_test_recording_free(struct auxtrace_record *itr)
{
	free(container_of(itr, struct aux_test_recording, itr));
}

/*
 * Returns the auxtrace_record for an aux_test event in @evlist, or NULL
 * with *err = 0 if there is none.
 */
struct auxtrace_record *aux_test_recording_init(struct evlist *evlist, int *err)
{
	struct perf_pmu *pmu = auxtrace_record__evlist_pmu(evlist, AUX_TEST_PMU_NAME);
	struct aux_test_recording *atr;

	*err = 0;
	if (!pmu)
		return NULL;

	atr = zalloc(sizeof(*atr));
	if (!atr) {
		*err = -ENOMEM;
		return NULL;
	}
	atr->pmu = pmu;
	atr->itr.pmu = pmu;
	atr->itr.recording_options = aux_test_recording_options;
	atr->itr.info_priv_size = aux_test_info_priv_size;
	atr->itr.info_fill = aux_test_info_fill;
	atr->itr.free = aux_test_recording_free;
	atr->itr.snapshot_start = aux_test_snapshot_start;
	atr->itr.snapshot_finish = aux_test_snapshot_finish;
	atr->itr.find_snapshot = aux_test_find_snapshot;
	atr->itr.parse_snapshot_options = aux_test_parse_snapshot_options;
	atr->itr.reference = aux_test_reference;
	atr->itr.alignment = AUX_TEST_RECORD_SIZE;
	return &atr->itr;
}

/* ---- decoding ---- */

struct aux_test_stream {
	u32	id;
	u64	next_seq;
	u64	chunk;		/* the chunk its last record came in */
	u64	flags;		/* and that chunk's PERF_RECORD_AUX flags */
	int	paused;		/* -1 until its first PAUSE/RESUME record */
	/* the trace window open in this stream, from its RESUME record */
	bool	in_window;
	u64	win_start;	/* the RESUME record's time */
	u64	win_bytes;	/* AUX bytes since, the RESUME record included */
	u64	last_time;	/* the stream's last record's time */
};

/* The closed (and, at the end, still open) trace windows of all streams. */
struct aux_test_windows {
	u64	*duration;	/* ns, from RESUME to PAUSE */
	u64	*bytes;
	size_t	nr, alloc;
	u64	open;		/* still open when the data ended */
	u64	lost;		/* records lost inside windows */
};

/* A committed range of a queue's AUX data waiting for its data to arrive. */
struct aux_test_range {
	u64	offset;
	u64	size;
	u64	flags;
};

struct aux_test_queue {
	struct aux_test_range	*pending;
	unsigned int		nr_pending;
	u64			snapshot_end;	/* snapshot mode: end of the last buffer */
};

struct aux_test {
	struct auxtrace		auxtrace;
	struct auxtrace_queues	queues;
	struct perf_session	*session;
	u32			pmu_type;
	bool			snapshot_mode;
	bool			data_queued;
	bool			synth;
	bool			summary_done;
	u64			synth_id;
	u64			chunk;		/* chunks decoded so far */
	struct aux_test_stream	*streams;
	unsigned int		nr_streams;
	struct {
		u64 records, bytes, bad, aux_records, truncated, partial, overwrite;
		u64 gaps[AUX_TEST_GAP_MAX], lost[AUX_TEST_GAP_MAX];
		/* pause/resume: RESUME and PAUSE records, DATA by state */
		u64 resumes, pauses, data_in, data_paused, data_before;
	} st;
	struct aux_test_windows	windows;
};

static struct aux_test *to_at(struct perf_session *session)
{
	return container_of(session->auxtrace, struct aux_test, auxtrace);
}

static struct aux_test_stream *aux_test_stream(struct aux_test *at, u32 id)
{
	struct aux_test_stream *s;
	unsigned int i;

	for (i = 0; i < at->nr_streams; i++) {
		if (at->streams[i].id == id)
			return &at->streams[i];
	}
	s = realloc(at->streams, (at->nr_streams + 1) * sizeof(*s));
	if (!s)
		return NULL;
	at->streams = s;
	s = &at->streams[at->nr_streams++];
	s->id = id;
	s->next_seq = 0;
	s->chunk = 0;
	s->flags = 0;
	s->paused = -1;
	s->in_window = false;
	return s;
}

static int aux_test_synth(struct aux_test *at, const struct aux_test_record *r,
			  u64 lost, u32 gap)
{
	struct perf_synth_aux_test raw = {
		.type	= r->type,
		.stream	= r->stream,
		.seq	= r->seq,
		.gap	= gap,
		.lost	= lost,
	};
	struct perf_sample sample = {
		.tid		= r->tid,
		.pid		= r->tid,
		.time		= r->time,
		.cpu		= r->cpu,
		.id		= at->synth_id,
		.stream_id	= at->synth_id,
		.period		= 1,
		.cpumode	= PERF_RECORD_MISC_KERNEL,
		.raw_data	= perf_synth__raw_data(&raw),
		.raw_size	= perf_synth__raw_size(raw),
	};
	union perf_event event = {
		.sample.header = {
			.type	= PERF_RECORD_SAMPLE,
			.misc	= PERF_RECORD_MISC_KERNEL,
			.size	= sizeof(struct perf_event_header),
		},
	};
	struct thread *thread;

	thread = machine__find_thread(&at->session->machines.host, -1, r->tid);
	if (thread) {
		sample.pid = thread->pid_;
		thread__put(thread);
	}
	return perf_session__deliver_synth_event(at->session, &event, &sample);
}

/*
 * Explain the records missing before @r in stream @s, @r coming in a chunk
 * with PERF_RECORD_AUX @flags. Inside one chunk only the PMU's own drops
 * (PARTIAL) can make a gap. Between chunks: a truncated chunk lost its
 * tail; a START follows records lost while the event could not write;
 * a drop may also fall on the last or first record of a chunk.
 */
static u32 aux_test_explain(struct aux_test *at, struct aux_test_stream *s,
			    const struct aux_test_record *r, u64 flags)
{
	if (at->snapshot_mode)
		return AUX_TEST_GAP_OVERWRITTEN;
	if (s->chunk == at->chunk)
		return flags & PERF_AUX_FLAG_PARTIAL ? AUX_TEST_GAP_PARTIAL :
						       AUX_TEST_GAP_UNEXPLAINED;
	if (s->flags & PERF_AUX_FLAG_TRUNCATED)
		return AUX_TEST_GAP_TRUNCATED;
	if (r->type == AUX_TEST_RECORD_START)
		return AUX_TEST_GAP_STOPPED;
	if ((flags | s->flags) & PERF_AUX_FLAG_PARTIAL)
		return AUX_TEST_GAP_PARTIAL;
	return AUX_TEST_GAP_UNEXPLAINED;
}

static int aux_test_window_close(struct aux_test_windows *w, struct aux_test_stream *s,
				 u64 end)
{
	if (w->nr == w->alloc) {
		size_t alloc = w->alloc ? 2 * w->alloc : 64;
		u64 *v = realloc(w->duration, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->duration = v;
		v = realloc(w->bytes, alloc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		w->bytes = v;
		w->alloc = alloc;
	}
	w->duration[w->nr] = end > s->win_start ? end - s->win_start : 0;
	w->bytes[w->nr] = s->win_bytes;
	w->nr++;
	s->in_window = false;
	return 0;
}

/*
 * Pause/resume accounting of record @r of stream @s, @lost records missing
 * before it: where each DATA record falls, and the trace windows. A window
 * opens at a RESUME record and closes at the next PAUSE record; its bytes
 * are the AUX data from the one to the other, both included.
 */
static int aux_test_count_window(struct aux_test *at, struct aux_test_stream *s,
				 const struct aux_test_record *r, u64 lost)
{
	struct aux_test_windows *w = &at->windows;
	int err = 0;

	if (s->in_window) {
		s->win_bytes += AUX_TEST_RECORD_SIZE;
		w->lost += lost;
	}
	s->last_time = r->time;
	switch (r->type) {
	case AUX_TEST_RECORD_PAUSE:
		at->st.pauses++;
		s->paused = 1;
		if (s->in_window)
			err = aux_test_window_close(w, s, r->time);
		break;
	case AUX_TEST_RECORD_RESUME:
		at->st.resumes++;
		s->paused = 0;
		if (!s->in_window) {
			s->in_window = true;
			s->win_start = r->time;
			s->win_bytes = AUX_TEST_RECORD_SIZE;
		}
		break;
	case AUX_TEST_RECORD_DATA:
		if (s->paused < 0)
			at->st.data_before++;
		else if (s->paused)
			at->st.data_paused++;
		else
			at->st.data_in++;
		break;
	default:
		break;
	}
	return err;
}

/* Check and deliver the records of one committed chunk of AUX data. */
static int aux_test_decode(struct aux_test *at, const unsigned char *data,
			   size_t size, u64 flags)
{
	size_t off;
	int err;

	if (size % AUX_TEST_RECORD_SIZE) {
		pr_err(AUX_TEST_PMU_NAME ": %zu bytes of AUX data is not whole records\n", size);
		at->st.bad++;
	}
	at->chunk++;
	for (off = 0; off + AUX_TEST_RECORD_SIZE <= size; off += AUX_TEST_RECORD_SIZE) {
		const struct aux_test_record *r = (const void *)(data + off);
		struct aux_test_stream *s;
		u64 lost = 0;
		u32 gap = AUX_TEST_GAP_NONE;

		if (r->magic != AUX_TEST_MAGIC || !r->type || r->type >= AUX_TEST_RECORD_MAX) {
			at->st.bad++;
			continue;
		}
		s = aux_test_stream(at, r->stream);
		if (!s)
			return -ENOMEM;
		at->st.records++;
		at->st.bytes += AUX_TEST_RECORD_SIZE;
		if (r->seq != s->next_seq) {
			gap = r->seq > s->next_seq ? aux_test_explain(at, s, r, flags) :
						     AUX_TEST_GAP_UNEXPLAINED;
			lost = r->seq > s->next_seq ? r->seq - s->next_seq : 0;
			at->st.gaps[gap]++;
			at->st.lost[gap] += lost;
		}
		s->next_seq = r->seq + 1;
		s->chunk = at->chunk;
		s->flags = flags;
		err = aux_test_count_window(at, s, r, lost);
		if (err)
			return err;

		if (dump_trace) {
			color_fprintf(stdout, PERF_COLOR_BLUE,
				      ". %6s seq %" PRIu64 " stream %u cpu %u tid %u time %" PRIu64,
				      aux_test__record_name(r->type), (u64)r->seq, r->stream,
				      r->cpu, r->tid, (u64)r->time);
			if (gap)
				color_fprintf(stdout, PERF_COLOR_RED,
					      "  [gap: %" PRIu64 " lost, %s]",
					      lost, aux_test__gap_name(gap));
			fputc('\n', stdout);
		} else if (at->synth) {
			err = aux_test_synth(at, r, lost, gap);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * Copy the AUX data [offset, offset + size) of @queue out of its buffers.
 * Returns false if part of it has not arrived (yet).
 */
static bool aux_test_copy(struct aux_test *at, struct auxtrace_queue *queue,
			  u64 offset, u64 size, unsigned char *out)
{
	int fd = perf_data__fd(at->session->data);
	struct auxtrace_buffer *buffer;
	u64 covered = 0;

	list_for_each_entry(buffer, &queue->head, list) {
		u64 from = max_t(u64, offset, buffer->offset);
		u64 to = min_t(u64, offset + size, buffer->offset + buffer->size);

		if (from >= to)
			continue;
		if (!buffer->data && !auxtrace_buffer__get_data(buffer, fd))
			return false;
		memcpy(out + (from - offset), buffer->data + (from - buffer->offset), to - from);
		covered += to - from;
	}
	return covered == size;
}

static int aux_test_decode_range(struct aux_test *at, struct auxtrace_queue *queue,
				 const struct aux_test_range *range, bool *done)
{
	unsigned char *buf;
	int err = 0;

	*done = false;
	if (!range->size) {
		*done = true;
		return 0;
	}
	buf = malloc(range->size);
	if (!buf)
		return -ENOMEM;
	if (aux_test_copy(at, queue, range->offset, range->size, buf)) {
		err = aux_test_decode(at, buf, range->size, range->flags);
		*done = true;
	}
	free(buf);
	return err;
}

/* Decode what can be decoded of a queue's pending ranges, in order. */
static int aux_test_run_pending(struct aux_test *at, struct auxtrace_queue *queue)
{
	struct aux_test_queue *atq = queue->priv;
	unsigned int i;
	bool done = true;
	int err = 0;

	if (!atq)
		return 0;
	for (i = 0; i < atq->nr_pending && done; i++) {
		err = aux_test_decode_range(at, queue, &atq->pending[i], &done);
		if (err)
			return err;
	}
	if (!done)
		i--;
	memmove(atq->pending, atq->pending + i, (atq->nr_pending - i) * sizeof(*atq->pending));
	atq->nr_pending -= i;
	return 0;
}

static struct auxtrace_queue *aux_test_find_queue(struct aux_test *at,
						  struct perf_sample *sample)
{
	unsigned int i;

	for (i = 0; i < at->queues.nr_queues; i++) {
		struct auxtrace_queue *q = &at->queues.queue_array[i];

		if (!q->set)
			continue;
		if (q->cpu != -1 ? q->cpu == (int)sample->cpu : q->tid == (pid_t)sample->tid)
			return q;
	}
	return NULL;
}

/* A PERF_RECORD_AUX: decode the chunk it committed, once its data is here. */
static int aux_test_process_aux(struct aux_test *at, union perf_event *event,
				struct perf_sample *sample)
{
	struct auxtrace_queue *queue = aux_test_find_queue(at, sample);
	struct aux_test_queue *atq;
	struct aux_test_range *p;

	at->st.aux_records++;
	at->st.truncated += !!(event->aux.flags & PERF_AUX_FLAG_TRUNCATED);
	at->st.partial += !!(event->aux.flags & PERF_AUX_FLAG_PARTIAL);
	at->st.overwrite += !!(event->aux.flags & PERF_AUX_FLAG_OVERWRITE);
	if (at->snapshot_mode)
		return 0;	/* snapshots are decoded buffer by buffer */
	if (!queue) {
		pr_debug(AUX_TEST_PMU_NAME ": PERF_RECORD_AUX with no AUX data queue (cpu %u tid %d)\n",
			 sample->cpu, sample->tid);
		return 0;
	}
	if (!queue->priv) {
		queue->priv = zalloc(sizeof(struct aux_test_queue));
		if (!queue->priv)
			return -ENOMEM;
	}
	atq = queue->priv;
	p = realloc(atq->pending, (atq->nr_pending + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	atq->pending = p;
	p[atq->nr_pending].offset = event->aux.aux_offset;
	p[atq->nr_pending].size = event->aux.aux_size;
	p[atq->nr_pending].flags = event->aux.flags;
	atq->nr_pending++;
	return aux_test_run_pending(at, queue);
}

static int aux_test_process_event(struct perf_session *session,
				  union perf_event *event,
				  struct perf_sample *sample,
				  struct perf_tool *tool __maybe_unused)
{
	struct aux_test *at = to_at(session);

	if (dump_trace)
		return 0;
	if (event->header.type == PERF_RECORD_AUX)
		return aux_test_process_aux(at, event, sample);
	return 0;
}

static int aux_test_process_auxtrace_event(struct perf_session *session,
					   union perf_event *event,
					   struct perf_tool *tool __maybe_unused)
{
	struct aux_test *at = to_at(session);
	int fd = perf_data__fd(session->data);
	struct auxtrace_buffer *buffer;
	int err;

	if (at->data_queued)
		return 0;
	err = auxtrace_queues__add_event_here(&at->queues, session, event, &buffer);
	if (err)
		return err;
	if (dump_trace) {
		if (auxtrace_buffer__get_data(buffer, fd)) {
			printf(". %s data: %zu bytes at AUX offset %#" PRIx64 "\n",
			       AUX_TEST_PMU_NAME, buffer->size, (u64)buffer->offset);
			err = aux_test_decode(at, buffer->data, buffer->size, 0);
			auxtrace_buffer__put_data(buffer);
		}
		return err;
	}
	return 0;
}

/* Snapshot mode: each buffer is one snapshot of the newest data. */
static int aux_test_decode_snapshots(struct aux_test *at)
{
	int fd = perf_data__fd(at->session->data);
	unsigned int i;
	int err;

	for (i = 0; i < at->queues.nr_queues; i++) {
		struct auxtrace_queue *queue = &at->queues.queue_array[i];
		struct auxtrace_buffer *buffer, *n;

		list_for_each_entry_safe(buffer, n, &queue->head, list) {
			if (!auxtrace_buffer__get_data(buffer, fd))
				return -EIO;
			err = aux_test_decode(at, buffer->data, buffer->size, 0);
			auxtrace_buffer__drop_data(buffer);
			list_del_init(&buffer->list);
			free(buffer);
			if (err)
				return err;
		}
	}
	return 0;
}

static int aux_test_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v in place: its minimum, median and maximum. */
static void aux_test_spread(u64 *v, size_t n, u64 *min, u64 *median, u64 *max)
{
	qsort(v, n, sizeof(*v), aux_test_cmp_u64);
	*min = v[0];
	*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*max = v[n - 1];
}

/*
 * The trace windows: how many, their durations (µs) and bytes. Windows
 * still open when the data ended close at their stream's last record.
 */
static void aux_test_print_windows(struct aux_test *at)
{
	struct aux_test_windows *w = &at->windows;
	u64 min, median, max;
	unsigned int i;

	for (i = 0; i < at->nr_streams; i++) {
		struct aux_test_stream *s = &at->streams[i];

		if (s->in_window) {
			if (aux_test_window_close(w, s, s->last_time))
				return;
			w->open++;
		}
	}
	fprintf(stderr, AUX_TEST_PMU_NAME ": windows: %zu (%" PRIu64 " open at the end)", w->nr,
		w->open);
	if (w->nr) {
		aux_test_spread(w->duration, w->nr, &min, &median, &max);
		fprintf(stderr, "; duration us min %.3f median %.3f max %.3f",
			min / 1000.0, median / 1000.0, max / 1000.0);
		aux_test_spread(w->bytes, w->nr, &min, &median, &max);
		fprintf(stderr, "; bytes min %" PRIu64 " median %" PRIu64 " max %" PRIu64,
			min, median, max);
	}
	fprintf(stderr, "; records lost in windows: %" PRIu64 "\n", w->lost);
}

/*
 * The end-of-run summary goes to stderr: stdout carries the samples, for
 * a pipe that expects nothing else.
 */
static void aux_test_print_summary(struct aux_test *at)
{
	u64 gaps = 0, lost = 0;
	int i;

	if (at->summary_done)
		return;
	at->summary_done = true;
	for (i = AUX_TEST_GAP_TRUNCATED; i < AUX_TEST_GAP_MAX; i++) {
		gaps += at->st.gaps[i];
		lost += at->st.lost[i];
	}
	fprintf(stderr, AUX_TEST_PMU_NAME ": %" PRIu64 " records, %" PRIu64 " bytes, %u streams; %"
		PRIu64 " AUX records (truncated %" PRIu64 ", partial %" PRIu64 ", overwrite %"
		PRIu64 "); %" PRIu64 " gaps, %" PRIu64 " records lost",
		at->st.records, at->st.bytes, at->nr_streams, at->st.aux_records,
		at->st.truncated, at->st.partial, at->st.overwrite, gaps, lost);
	for (i = AUX_TEST_GAP_TRUNCATED; i < AUX_TEST_GAP_UNEXPLAINED; i++)
		fprintf(stderr, "%s%s %" PRIu64 "/%" PRIu64,
			i == AUX_TEST_GAP_TRUNCATED ? " (" : ", ",
			aux_test__gap_name(i), at->st.gaps[i], at->st.lost[i]);
	fprintf(stderr, "); unexplained gaps: %" PRIu64 "; bad records: %" PRIu64 "\n",
		at->st.gaps[AUX_TEST_GAP_UNEXPLAINED], at->st.bad);
	if (!at->st.resumes && !at->st.pauses)
		return;
	fprintf(stderr, AUX_TEST_PMU_NAME ": pause/resume: %" PRIu64 " resume and %" PRIu64
		" pause records; data records: %" PRIu64 " in windows, %" PRIu64
		" while paused, %" PRIu64 " before the first pause/resume\n",
		at->st.resumes, at->st.pauses, at->st.data_in, at->st.data_paused,
		at->st.data_before);
	aux_test_print_windows(at);
}

static int aux_test_flush(struct perf_session *session, struct perf_tool *tool __maybe_unused)
{
	struct aux_test *at = to_at(session);
	unsigned int i;
	int err = 0;

	if (at->snapshot_mode && !dump_trace)
		err = aux_test_decode_snapshots(at);
	for (i = 0; i < at->queues.nr_queues && !err; i++) {
		struct auxtrace_queue *queue = &at->queues.queue_array[i];
		struct aux_test_queue *atq = queue->priv;

		err = aux_test_run_pending(at, queue);
		if (!err && atq && atq->nr_pending) {
			pr_err(AUX_TEST_PMU_NAME ": %u committed AUX ranges have no data (cpu %d tid %d)\n",
			       atq->nr_pending, queue->cpu, queue->tid);
			at->st.bad += atq->nr_pending;
			atq->nr_pending = 0;
		}
	}
	aux_test_print_summary(at);
	return err;
}

static void aux_test_free_events(struct perf_session *session)
{
	struct aux_test *at = to_at(session);
	unsigned int i;

	for (i = 0; i < at->queues.nr_queues; i++) {
		struct aux_test_queue *atq = at->queues.queue_array[i].priv;

		if (atq)
			free(atq->pending);
		zfree(&at->queues.queue_array[i].priv);
	}
	auxtrace_queues__free(&at->queues);
}

static void aux_test_free(struct perf_session *session)
{
	struct aux_test *at = to_at(session);

	aux_test_free_events(session);
	session->auxtrace = NULL;
	free(at->streams);
	free(at->windows.duration);
	free(at->windows.bytes);
	free(at);
}

static bool aux_test_evsel_is_auxtrace(struct perf_session *session, struct evsel *evsel)
{
	return evsel->core.attr.type == to_at(session)->pmu_type;
}

/* The "aux-test" event that the decoded records are delivered as. */
static int aux_test_synth_event(struct aux_test *at)
{
	int ret = auxtrace_synth__add_event(at->session, at->pmu_type, PERF_SYNTH_AUX_TEST,
					    "aux-test", &at->synth_id);

	if (ret < 0)
		return ret;
	at->synth = ret > 0;
	return 0;
}

int aux_test_process_auxtrace_info(union perf_event *event, struct perf_session *session)
{
	struct perf_record_auxtrace_info *info = &event->auxtrace_info;
	struct aux_test *at;
	int err;

	if (info->header.size < sizeof(*info) + AUX_TEST_AUXTRACE_PRIV_SIZE)
		return -EINVAL;

	at = zalloc(sizeof(*at));
	if (!at)
		return -ENOMEM;
	err = auxtrace_queues__init(&at->queues);
	if (err) {
		free(at);
		return err;
	}
	at->session = session;
	at->pmu_type = info->priv[AUX_TEST_PMU_TYPE];
	at->snapshot_mode = info->priv[AUX_TEST_SNAPSHOT_MODE];
	at->auxtrace.process_event = aux_test_process_event;
	at->auxtrace.process_auxtrace_event = aux_test_process_auxtrace_event;
	at->auxtrace.flush_events = aux_test_flush;
	at->auxtrace.free_events = aux_test_free_events;
	at->auxtrace.free = aux_test_free;
	at->auxtrace.evsel_is_auxtrace = aux_test_evsel_is_auxtrace;
	session->auxtrace = &at->auxtrace;

	if (dump_trace) {
		printf("  PMU Type           %" PRIu64 "\n", (u64)info->priv[AUX_TEST_PMU_TYPE]);
		printf("  Snapshot mode      %" PRIu64 "\n",
		       (u64)info->priv[AUX_TEST_SNAPSHOT_MODE]);
		return 0;
	}

	err = aux_test_synth_event(at);
	if (!err)
		err = auxtrace_queues__process_index(&at->queues, session);
	if (err) {
		auxtrace_queues__free(&at->queues);
		session->auxtrace = NULL;
		free(at);
		return err;
	}
	at->data_queued = at->queues.populated;
	return 0;
}
