// SPDX-License-Identifier: GPL-2.0
/*
 * vpa-dtl.c: recording and decoding of vpa_dtl, the powerpc hypervisor's
 * Dispatch Trace Log (arch/powerpc/perf/vpa-dtl.c). See
 * tools/perf/Documentation/perf-vpa-dtl.txt.
 *
 * The AUX data of each CPU is a stream of 48-byte records: a native-endian
 * header { boot_tb, tb_freq, timebase = 0, pad[3] }, then the hypervisor's
 * struct dtl_entry records, big-endian. A header record whose pad[0] is
 * VPA_DTL_LOST_MAGIC says that pad[1] entries were lost at that point.
 * Each entry becomes a "vpa-dtl" sample on its CPU, at its time on perf's
 * clock, with ip = srr0.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/zalloc.h>
#include <internal/lib.h>
#include <perf/cpumap.h>

#include "auxtrace.h"
#include "auxtrace-synth.h"
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
#include "tool.h"
#include "vpa-dtl.h"

bool vpa_dtl_summary;

/* ---- recording ---- */

struct vpa_dtl_recording {
	struct auxtrace_record	itr;
	struct perf_pmu		*pmu;
};

static size_t vpa_dtl_info_priv_size(struct auxtrace_record *itr __maybe_unused,
				     struct evlist *evlist __maybe_unused)
{
	return VPA_DTL_AUXTRACE_PRIV_SIZE;
}

static int vpa_dtl_info_fill(struct auxtrace_record *itr,
			     struct perf_session *session __maybe_unused,
			     struct perf_record_auxtrace_info *auxtrace_info,
			     size_t priv_size)
{
	struct vpa_dtl_recording *vr = container_of(itr, struct vpa_dtl_recording, itr);

	if (priv_size != VPA_DTL_AUXTRACE_PRIV_SIZE)
		return -EINVAL;
	auxtrace_info->type = PERF_AUXTRACE_VPA_DTL;
	auxtrace_info->priv[VPA_DTL_PMU_TYPE] = vr->pmu->type;
	return 0;
}

static int vpa_dtl_recording_options(struct auxtrace_record *itr,
				     struct evlist *evlist,
				     struct record_opts *opts)
{
	struct vpa_dtl_recording *vr = container_of(itr, struct vpa_dtl_recording, itr);
	struct evsel *evsel, *vpa_evsel = NULL;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->core.attr.type != vr->pmu->type)
			continue;
		if (vpa_evsel) {
			pr_err("There may be only one " VPA_DTL_PMU_NAME " event\n");
			return -EINVAL;
		}
		/* The PMU has no exclude_* (PERF_PMU_CAP_NO_EXCLUDE). */
		evsel->core.attr.exclude_guest = 0;
		evsel->core.attr.exclude_host = 0;
		evsel->needs_auxtrace_mmap = true;
		vpa_evsel = evsel;
		opts->full_auxtrace = true;
	}
	if (!vpa_evsel)
		return 0;

	if (opts->auxtrace_snapshot_mode || opts->auxtrace_sample_mode) {
		pr_err(VPA_DTL_PMU_NAME ": snapshot (-S) and AUX sampling are not supported\n");
		return -EINVAL;
	}
	if (perf_cpu_map__empty(evlist->core.user_requested_cpus)) {
		pr_err(VPA_DTL_PMU_NAME ": the DTL belongs to CPUs: record with -a or -C\n");
		return -EINVAL;
	}
	if (!opts->auxtrace_mmap_pages)
		opts->auxtrace_mmap_pages = 128 * 1024 / page_size;

	evlist__to_front(evlist, vpa_evsel);
	evsel__set_sample_bit(vpa_evsel, TIME);
	evsel__set_sample_bit(vpa_evsel, CPU);

	/* A dummy event keeps track of tasks and of the kernel's maps. */
	if (parse_event(evlist, "dummy:u"))
		return -EINVAL;
	evlist__set_tracking_event(evlist, evlist__last(evlist));
	evlist__last(evlist)->core.attr.freq = 0;
	evlist__last(evlist)->core.attr.sample_period = 1;
	return 0;
}

static u64 vpa_dtl_reference(struct auxtrace_record *itr __maybe_unused)
{
	return 0;
}

static void vpa_dtl_recording_free(struct auxtrace_record *itr)
{
	free(container_of(itr, struct vpa_dtl_recording, itr));
}

/* The auxtrace_record for a vpa_dtl event of @evlist, or NULL (*err = 0). */
struct auxtrace_record *vpa_dtl_recording_init(struct evlist *evlist, int *err)
{
	struct perf_pmu *pmu = perf_pmu__find(VPA_DTL_PMU_NAME);
	struct vpa_dtl_recording *vr;
	struct evsel *evsel;
	bool found = false;

	*err = 0;
	if (!pmu || !evlist)
		return NULL;
	pmu->auxtrace = true;
	evlist__for_each_entry(evlist, evsel)
		found |= evsel->core.attr.type == pmu->type;
	if (!found)
		return NULL;

	vr = zalloc(sizeof(*vr));
	if (!vr) {
		*err = -ENOMEM;
		return NULL;
	}
	vr->pmu = pmu;
	vr->itr.pmu = pmu;
	vr->itr.recording_options = vpa_dtl_recording_options;
	vr->itr.info_priv_size = vpa_dtl_info_priv_size;
	vr->itr.info_fill = vpa_dtl_info_fill;
	vr->itr.free = vpa_dtl_recording_free;
	vr->itr.reference = vpa_dtl_reference;
	return &vr->itr;
}

/* ---- decoding ---- */

/* What a person wants to know of one CPU's dispatches. */
struct vpa_dtl_stats {
	u64	entries;
	u64	lost;
	u64	dispatch[VPA_DTL_NR_DISPATCH_REASONS + 1];	/* last: unknown */
	u64	preempt[VPA_DTL_NR_PREEMPT_REASONS + 1];
	u64	total[3];	/* enqueue_to_dispatch, ready_to_enqueue, waiting_to_ready */
	u64	max[3];
};

/* One CPU's stream. */
struct vpa_dtl_queue {
	unsigned char		carry[VPA_DTL_RECORD_SIZE];
	unsigned int		carry_len;
	bool			have_header;
	u64			boot_tb;
	u64			tb_freq;
	u64			last_time;
	int			cpu;
	struct vpa_dtl_stats	st;
};

struct vpa_dtl {
	struct auxtrace		auxtrace;
	struct auxtrace_queues	queues;
	struct perf_session	*session;
	u32			pmu_type;
	bool			data_queued;
	bool			synth;
	bool			done;
	u64			synth_id;
	u64			bad;	/* records seen before any header */
};

static struct vpa_dtl *to_vd(struct perf_session *session)
{
	return container_of(session->auxtrace, struct vpa_dtl, auxtrace);
}

static u64 get_be64(const unsigned char *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static u32 get_be32(const unsigned char *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static u64 get_native64(const unsigned char *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A timebase on perf's clock: (timebase - boot_tb) / tb_freq seconds, in ns. */
static u64 vpa_dtl_time(const struct vpa_dtl_queue *q, u64 tb)
{
	u64 d;

	if (!q->tb_freq || tb < q->boot_tb)
		return 0;
	d = tb - q->boot_tb;
	return d / q->tb_freq * 1000000000ULL + d % q->tb_freq * 1000000000ULL / q->tb_freq;
}

static int vpa_dtl_deliver(struct vpa_dtl *vd, struct vpa_dtl_queue *q,
			   struct perf_synth_vpa_dtl *raw, u64 time)
{
	struct perf_sample sample = {
		.ip		= raw->srr0,
		.pid		= -1,
		.tid		= -1,
		.time		= time,
		.cpu		= q->cpu,
		.id		= vd->synth_id,
		.stream_id	= vd->synth_id,
		.period		= 1,
		.raw_data	= perf_synth__raw_data(raw),
		.raw_size	= perf_synth__raw_size(*raw),
	};
	union perf_event event = {
		.sample.header = {
			.type	= PERF_RECORD_SAMPLE,
			.size	= sizeof(struct perf_event_header),
		},
	};

	/* ppc64 kernel addresses are at 0xc000000000000000 and above. */
	sample.cpumode = raw->srr0 >> 60 == 0xc ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	event.sample.header.misc = sample.cpumode;
	return perf_session__deliver_synth_event(vd->session, &event, &sample);
}

static void vpa_dtl_dump_entry(const struct perf_synth_vpa_dtl *e, int cpu, u64 time)
{
	char b1[24], b2[24];

	color_fprintf(stdout, PERF_COLOR_BLUE, ". vpa-dtl cpu %d timebase %" PRIu64,
		      cpu, (u64)e->timebase);
	color_fprintf(stdout, PERF_COLOR_BLUE, " time %" PRIu64 " dispatch %s preempt %s",
		      time, vpa_dtl__dispatch_reason(e->dispatch_reason, b1, sizeof(b1)),
		      vpa_dtl__preempt_reason(e->preempt_reason, b2, sizeof(b2)));
	color_fprintf(stdout, PERF_COLOR_BLUE, " e2d %u r2e %u w2r %u proc %u",
		      e->enqueue_to_dispatch_time, e->ready_to_enqueue_time,
		      e->waiting_to_ready_time, e->processor_id);
	color_fprintf(stdout, PERF_COLOR_BLUE, " fault %#" PRIx64 " srr0 %#" PRIx64
		      " srr1 %#" PRIx64 "\n", (u64)e->fault_addr, (u64)e->srr0, (u64)e->srr1);
}

static void vpa_dtl_account(struct vpa_dtl_stats *st, const struct perf_synth_vpa_dtl *e)
{
	u32 w[3] = {
		e->enqueue_to_dispatch_time, e->ready_to_enqueue_time, e->waiting_to_ready_time,
	};
	int i;

	st->entries++;
	st->dispatch[min_t(unsigned int, e->dispatch_reason, VPA_DTL_NR_DISPATCH_REASONS)]++;
	st->preempt[min_t(unsigned int, e->preempt_reason, VPA_DTL_NR_PREEMPT_REASONS)]++;
	for (i = 0; i < 3; i++) {
		st->total[i] += w[i];
		st->max[i] = max_t(u64, st->max[i], w[i]);
	}
}

/* One 48-byte record of @q's stream. */
static int vpa_dtl_record(struct vpa_dtl *vd, struct vpa_dtl_queue *q, const unsigned char *r)
{
	struct perf_synth_vpa_dtl e = { .flags = 0 };
	u64 time;

	if (!get_be64(r + 16)) {	/* a zero timebase: header or lost entries */
		q->boot_tb = get_native64(r);
		q->tb_freq = get_native64(r + 8);
		q->have_header = true;
		if (get_native64(r + 24) != VPA_DTL_LOST_MAGIC)
			return 0;
		e.flags = VPA_DTL_SYNTH_LOST;
		e.lost = get_native64(r + 32);
		q->st.lost += e.lost;
		if (dump_trace) {
			color_fprintf(stdout, PERF_COLOR_RED, ". vpa-dtl cpu %d: %" PRIu64
				      " entries lost\n", q->cpu, (u64)e.lost);
			return 0;
		}
		return vd->synth ? vpa_dtl_deliver(vd, q, &e, q->last_time) : 0;
	}
	if (!q->have_header)
		vd->bad++;

	e.dispatch_reason = r[0];
	e.preempt_reason = r[1];
	e.processor_id = (r[2] << 8) | r[3];
	e.enqueue_to_dispatch_time = get_be32(r + 4);
	e.ready_to_enqueue_time = get_be32(r + 8);
	e.waiting_to_ready_time = get_be32(r + 12);
	e.timebase = get_be64(r + 16);
	e.fault_addr = get_be64(r + 24);
	e.srr0 = get_be64(r + 32);
	e.srr1 = get_be64(r + 40);
	time = vpa_dtl_time(q, e.timebase);
	q->last_time = time;
	vpa_dtl_account(&q->st, &e);

	if (dump_trace) {
		vpa_dtl_dump_entry(&e, q->cpu, time);
		return 0;
	}
	return vd->synth ? vpa_dtl_deliver(vd, q, &e, time) : 0;
}

/* Feed @size bytes of @q's stream; a record may span two buffers. */
static int vpa_dtl_feed(struct vpa_dtl *vd, struct vpa_dtl_queue *q,
			const unsigned char *data, size_t size)
{
	size_t n;
	int err;

	if (q->carry_len) {
		n = min_t(size_t, size, VPA_DTL_RECORD_SIZE - q->carry_len);
		memcpy(q->carry + q->carry_len, data, n);
		q->carry_len += n;
		data += n;
		size -= n;
		if (q->carry_len < VPA_DTL_RECORD_SIZE)
			return 0;
		q->carry_len = 0;
		err = vpa_dtl_record(vd, q, q->carry);
		if (err)
			return err;
	}
	for (; size >= VPA_DTL_RECORD_SIZE; data += VPA_DTL_RECORD_SIZE,
	     size -= VPA_DTL_RECORD_SIZE) {
		err = vpa_dtl_record(vd, q, data);
		if (err)
			return err;
	}
	memcpy(q->carry, data, size);
	q->carry_len = size;
	return 0;
}

static struct vpa_dtl_queue *vpa_dtl_queue(struct auxtrace_queue *queue)
{
	struct vpa_dtl_queue *q = queue->priv;

	if (!q) {
		q = zalloc(sizeof(*q));
		if (!q)
			return NULL;
		q->cpu = queue->cpu;
		queue->priv = q;
	}
	return q;
}

static void vpa_dtl_print_summary(struct vpa_dtl *vd)
{
	static const char * const waits[3] = {
		"enqueue_to_dispatch_time", "ready_to_enqueue_time", "waiting_to_ready_time",
	};
	unsigned int i, r;
	char buf[24];
	int j;

	for (i = 0; i < vd->queues.nr_queues; i++) {
		struct vpa_dtl_queue *q = vd->queues.queue_array[i].priv;

		if (!q)
			continue;
		printf("vpa-dtl summary: cpu %d: %" PRIu64 " dispatches, %" PRIu64 " lost\n",
		       q->cpu, q->st.entries, q->st.lost);
		printf("  dispatch_reason:");
		for (r = 0; r <= VPA_DTL_NR_DISPATCH_REASONS; r++) {
			if (q->st.dispatch[r])
				printf(" %s %" PRIu64, r < VPA_DTL_NR_DISPATCH_REASONS ?
				       vpa_dtl__dispatch_reason(r, buf, sizeof(buf)) : "unknown",
				       q->st.dispatch[r]);
		}
		printf("\n  preempt_reason:");
		for (r = 0; r <= VPA_DTL_NR_PREEMPT_REASONS; r++) {
			if (q->st.preempt[r])
				printf(" %s %" PRIu64, r < VPA_DTL_NR_PREEMPT_REASONS ?
				       vpa_dtl__preempt_reason(r, buf, sizeof(buf)) : "unknown",
				       q->st.preempt[r]);
		}
		printf("\n");
		for (j = 0; j < 3; j++)
			printf("  %s: total %" PRIu64 " max %" PRIu64 " (timebase ticks)\n",
			       waits[j], q->st.total[j], q->st.max[j]);
	}
}

static int vpa_dtl_flush(struct perf_session *session, struct perf_tool *tool __maybe_unused)
{
	struct vpa_dtl *vd = to_vd(session);
	int fd = perf_data__fd(session->data);
	unsigned int i;
	int err = 0;

	if (vd->done || dump_trace)
		return 0;
	vd->done = true;
	for (i = 0; i < vd->queues.nr_queues && !err; i++) {
		struct auxtrace_queue *queue = &vd->queues.queue_array[i];
		struct auxtrace_buffer *buffer;
		struct vpa_dtl_queue *q;

		if (list_empty(&queue->head))
			continue;
		q = vpa_dtl_queue(queue);
		if (!q)
			return -ENOMEM;
		list_for_each_entry(buffer, &queue->head, list) {
			if (!auxtrace_buffer__get_data(buffer, fd))
				return -EIO;
			err = vpa_dtl_feed(vd, q, buffer->data, buffer->size);
			auxtrace_buffer__drop_data(buffer);
			if (err)
				break;
		}
	}
	if (vd->bad)
		pr_err(VPA_DTL_PMU_NAME ": %" PRIu64 " entries before any header record\n",
		       vd->bad);
	if (vpa_dtl_summary)
		vpa_dtl_print_summary(vd);
	return err;
}

static int vpa_dtl_process_event(struct perf_session *session __maybe_unused,
				 union perf_event *event __maybe_unused,
				 struct perf_sample *sample __maybe_unused,
				 struct perf_tool *tool __maybe_unused)
{
	return 0;
}

static int vpa_dtl_process_auxtrace_event(struct perf_session *session,
					  union perf_event *event,
					  struct perf_tool *tool __maybe_unused)
{
	struct vpa_dtl *vd = to_vd(session);
	int fd = perf_data__fd(session->data);
	struct auxtrace_buffer *buffer;
	struct vpa_dtl_queue *q;
	off_t data_offset = 0;
	int err;

	if (vd->data_queued)
		return 0;
	if (!perf_data__is_pipe(session->data)) {
		data_offset = lseek(fd, 0, SEEK_CUR);
		if (data_offset == -1)
			return -errno;
	}
	err = auxtrace_queues__add_event(&vd->queues, session, event, data_offset, &buffer);
	if (err || !dump_trace)
		return err;

	if (event->auxtrace.idx >= vd->queues.nr_queues)
		return -EINVAL;
	q = vpa_dtl_queue(&vd->queues.queue_array[event->auxtrace.idx]);
	if (!q)
		return -ENOMEM;
	if (auxtrace_buffer__get_data(buffer, fd)) {
		printf(". " VPA_DTL_PMU_NAME " data: %zu bytes at AUX offset %#" PRIx64 "\n",
		       buffer->size, (u64)buffer->offset);
		err = vpa_dtl_feed(vd, q, buffer->data, buffer->size);
		auxtrace_buffer__put_data(buffer);
	}
	return err;
}

static void vpa_dtl_free_events(struct perf_session *session)
{
	struct vpa_dtl *vd = to_vd(session);
	unsigned int i;

	for (i = 0; i < vd->queues.nr_queues; i++)
		zfree(&vd->queues.queue_array[i].priv);
	auxtrace_queues__free(&vd->queues);
}

static void vpa_dtl_free(struct perf_session *session)
{
	struct vpa_dtl *vd = to_vd(session);

	vpa_dtl_free_events(session);
	session->auxtrace = NULL;
	free(vd);
}

static bool vpa_dtl_evsel_is_auxtrace(struct perf_session *session, struct evsel *evsel)
{
	return evsel->core.attr.type == to_vd(session)->pmu_type;
}

/* The "vpa-dtl" event that the entries are delivered as. */
static int vpa_dtl_synth_event(struct vpa_dtl *vd)
{
	int ret = auxtrace_synth__add_event(vd->session, vd->pmu_type, PERF_SYNTH_VPA_DTL,
					    "vpa-dtl", &vd->synth_id);

	if (ret < 0)
		return ret;
	vd->synth = ret > 0;
	return 0;
}

int vpa_dtl_process_auxtrace_info(union perf_event *event, struct perf_session *session)
{
	struct perf_record_auxtrace_info *info = &event->auxtrace_info;
	struct vpa_dtl *vd;
	int err;

	if (info->header.size < sizeof(*info) + VPA_DTL_AUXTRACE_PRIV_SIZE)
		return -EINVAL;

	vd = zalloc(sizeof(*vd));
	if (!vd)
		return -ENOMEM;
	err = auxtrace_queues__init(&vd->queues);
	if (err) {
		free(vd);
		return err;
	}
	vd->session = session;
	vd->pmu_type = info->priv[VPA_DTL_PMU_TYPE];
	vd->auxtrace.process_event = vpa_dtl_process_event;
	vd->auxtrace.process_auxtrace_event = vpa_dtl_process_auxtrace_event;
	vd->auxtrace.flush_events = vpa_dtl_flush;
	vd->auxtrace.free_events = vpa_dtl_free_events;
	vd->auxtrace.free = vpa_dtl_free;
	vd->auxtrace.evsel_is_auxtrace = vpa_dtl_evsel_is_auxtrace;
	session->auxtrace = &vd->auxtrace;

	if (dump_trace) {
		printf("  PMU Type           %" PRIu64 "\n", (u64)info->priv[VPA_DTL_PMU_TYPE]);
		return 0;
	}

	err = vpa_dtl_synth_event(vd);
	if (!err)
		err = auxtrace_queues__process_index(&vd->queues, session);
	if (err) {
		auxtrace_queues__free(&vd->queues);
		session->auxtrace = NULL;
		free(vd);
		return err;
	}
	vd->data_queued = vd->queues.populated;
	return 0;
}
