// SPDX-License-Identifier: GPL-2.0
/*
 * vpa-dtl.c: recording and decoding of vpa_dtl, the powerpc hypervisor's
 * Dispatch Trace Log (arch/powerpc/perf/vpa-dtl.c). See
 * tools/perf/Documentation/perf-vpa-dtl.txt.
 *
 * The AUX data of each CPU is a stream of 48-byte records
 * (include/uapi/linux/perf_vpa_dtl.h): a header { boot_tb, tb_freq,
 * timebase = 0 } in the recording CPU's byte order, then the hypervisor's
 * entries, big-endian. Each entry becomes a "vpa-dtl" sample on its CPU,
 * at its time on perf's clock, with ip = srr0, delivered in time order
 * with the session's other events: each CPU's stream is a queue, and the
 * queues wait on a heap, keyed by the time of their next entry, until the
 * session reaches that time. Entries the kernel lost are reported by a
 * PERF_RECORD_LOST_SAMPLES of the vpa_dtl event, which becomes an error
 * event (--itrace=e) at its time.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/perf_vpa_dtl.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/zalloc.h>
#include <internal/lib.h>
#include <perf/cpumap.h>

#include "auxtrace.h"
#include "auxtrace-synth.h"
#include "color.h"
#include "debug.h"
#include "env.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "machine.h"
#include "parse-events.h"
#include "pmu.h"
#include "record.h"
#include "session.h"
#include "thread.h"
#include "tool.h"

/* perf record's polling interval of vpa_dtl: see vpa_dtl_recording_options() */
#define VPA_DTL_DEFAULT_POLL_NS	10000000ULL
#include "vpa-dtl.h"

bool vpa_dtl_summary;

static_assert(sizeof(struct vpa_dtl_header) == VPA_DTL_RECORD_SIZE, "header size");
static_assert(sizeof(struct vpa_dtl_entry) == VPA_DTL_RECORD_SIZE, "entry size");

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
	struct evsel *evsel, *vpa_evsel = NULL, *tracking;

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

	/*
	 * The period is the kernel's polling interval. perf's default
	 * frequency would make it the PMU's 1 ms minimum: a poll (an hrtimer
	 * interrupt) 1000 times a second per CPU for a log that holds 85
	 * entries. Unless -F, -c or a period/freq term says otherwise, poll
	 * every VPA_DTL_DEFAULT_POLL_NS: no loss below 8500 dispatches a
	 * second per CPU, at a tenth of the cost.
	 */
	if (opts->user_freq == UINT_MAX && opts->user_interval == ULLONG_MAX &&
	    !vpa_evsel->core.attr.freq && !vpa_evsel->core.attr.sample_period)
		vpa_evsel->core.attr.sample_period = VPA_DTL_DEFAULT_POLL_NS;

	/*
	 * A dummy event keeps track of tasks and of the kernel's maps, and
	 * of context switches: they tell the task each entry happened in.
	 */
	if (parse_event(evlist, "dummy:u"))
		return -EINVAL;
	tracking = evlist__last(evlist);
	evlist__set_tracking_event(evlist, tracking);
	tracking->core.attr.freq = 0;
	tracking->core.attr.sample_period = 1;
	tracking->core.attr.context_switch = 1;
	evsel__set_sample_bit(tracking, TIME);
	evsel__set_sample_bit(tracking, CPU);
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
	struct perf_pmu *pmu = auxtrace_record__evlist_pmu(evlist, VPA_DTL_PMU_NAME);
	struct vpa_dtl_recording *vr;

	*err = 0;
	if (!pmu)
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

#define VPA_DTL_NR_WAITS	3

static const char * const vpa_dtl_wait_names[VPA_DTL_NR_WAITS] = {
	"enqueue_to_dispatch_time", "ready_to_enqueue_time", "waiting_to_ready_time",
};

/* The enqueue_to_dispatch_time of one CPU's dispatches of one reason. */
struct vpa_dtl_waits {
	u32		*v;
	size_t		nr;
	size_t		alloc;
};

/* What a person wants to know of one CPU's dispatches. */
struct vpa_dtl_stats {
	u64			entries;
	u64			lost;
	u64			dispatch[VPA_DTL_NR_DISPATCH_REASONS + 1];	/* last: unknown */
	u64			preempt[VPA_DTL_NR_PREEMPT_REASONS + 1];
	u64			total[VPA_DTL_NR_WAITS];
	u64			max[VPA_DTL_NR_WAITS];
	struct vpa_dtl_waits	by_reason[VPA_DTL_NR_DISPATCH_REASONS + 1];
};

/* One CPU's stream, read record by record across its buffers. */
struct vpa_dtl_queue {
	unsigned int		queue_nr;
	int			cpu;
	struct auxtrace_buffer	*buffer;	/* being read, its data loaded */
	size_t			pos;		/* next byte of it */
	bool			have_header;
	u64			boot_tb;
	u64			tb_freq;
	struct vpa_dtl_entry	next;		/* the next entry to deliver */
	u64			next_time;
	struct vpa_dtl_stats	st;
};

struct vpa_dtl {
	struct auxtrace			auxtrace;
	struct auxtrace_queues		queues;
	struct auxtrace_heap		heap;
	struct itrace_synth_opts	synth_opts;
	struct perf_session		*session;
	struct machine			*machine;
	struct evsel			*evsel;		/* the recorded vpa_dtl event */
	u32				pmu_type;
	bool				needs_swap;	/* header not in our byte order */
	bool				data_queued;
	bool				synth;
	u64				synth_id;
	u64				bad;		/* entries before any header */
};

static struct vpa_dtl *to_vd(struct perf_session *session)
{
	return container_of(session->auxtrace, struct vpa_dtl, auxtrace);
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

static u64 vpa_dtl_ticks_to_ns(const struct vpa_dtl_queue *q, u64 ticks)
{
	if (!q->tb_freq)
		return 0;
	return ticks / q->tb_freq * 1000000000ULL + ticks % q->tb_freq * 1000000000ULL / q->tb_freq;
}

static void vpa_dtl_dump_record(const void *rec, size_t pos, bool needs_swap)
{
	const struct vpa_dtl_entry *e = rec;
	char b1[24], b2[24];

	printf(".");
	color_fprintf(stdout, PERF_COLOR_BLUE, "  %08zx: ", pos);
	if (!e->timebase) {
		const struct vpa_dtl_header *h = rec;
		u64 boot_tb = needs_swap ? bswap_64(h->boot_tb) : h->boot_tb;
		u64 tb_freq = needs_swap ? bswap_64(h->tb_freq) : h->tb_freq;

		printf("boot_tb: %" PRIu64 ", tb_freq: %" PRIu64 "\n", boot_tb, tb_freq);
		return;
	}
	fprintf(stdout,
		"dispatch_reason:%s, preempt_reason:%s, enqueue_to_dispatch_time:%u, ready_to_enqueue_time:%u, waiting_to_ready_time:%u\n",
		vpa_dtl__dispatch_reason(e->dispatch_reason, b1, sizeof(b1)),
		vpa_dtl__preempt_reason(e->preempt_reason, b2, sizeof(b2)),
		be32toh(e->enqueue_to_dispatch_time), be32toh(e->ready_to_enqueue_time),
		be32toh(e->waiting_to_ready_time));
}

/* perf report -D: every record of one buffer, as upstream's perf prints it. */
static void vpa_dtl_dump(struct vpa_dtl *vd, const unsigned char *buf, size_t len)
{
	size_t pos;

	printf(".\n");
	color_fprintf(stdout, PERF_COLOR_BLUE,
		      ". ... VPA DTL PMU data: size %zu bytes, entries is %zu\n",
		      len, len / VPA_DTL_RECORD_SIZE);
	for (pos = 0; pos + VPA_DTL_RECORD_SIZE <= len; pos += VPA_DTL_RECORD_SIZE)
		vpa_dtl_dump_record(buf + pos, pos, vd->needs_swap);
}

static int vpa_dtl_waits_add(struct vpa_dtl_waits *w, u32 v)
{
	if (w->nr == w->alloc) {
		size_t alloc = w->alloc ? w->alloc * 2 : 64;
		u32 *nv = realloc(w->v, alloc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		w->v = nv;
		w->alloc = alloc;
	}
	w->v[w->nr++] = v;
	return 0;
}

static int vpa_dtl_account(struct vpa_dtl_stats *st, const struct vpa_dtl_entry *e)
{
	u32 w[VPA_DTL_NR_WAITS] = {
		be32toh(e->enqueue_to_dispatch_time), be32toh(e->ready_to_enqueue_time),
		be32toh(e->waiting_to_ready_time),
	};
	unsigned int d = min_t(unsigned int, e->dispatch_reason, VPA_DTL_NR_DISPATCH_REASONS);
	int i;

	st->entries++;
	st->dispatch[d]++;
	st->preempt[min_t(unsigned int, e->preempt_reason, VPA_DTL_NR_PREEMPT_REASONS)]++;
	for (i = 0; i < VPA_DTL_NR_WAITS; i++) {
		st->total[i] += w[i];
		st->max[i] = max_t(u64, st->max[i], w[i]);
	}
	return vpa_dtl_summary ? vpa_dtl_waits_add(&st->by_reason[d], w[0]) : 0;
}

/* The task running on @cpu, as the session's context switches say. */
static void vpa_dtl_task(struct vpa_dtl *vd, int cpu, pid_t *pid, pid_t *tid)
{
	struct thread *thread;

	*pid = -1;
	*tid = machine__get_current_tid(vd->machine, cpu);
	if (*tid < 0)
		return;
	thread = machine__find_thread(vd->machine, -1, *tid);
	if (thread) {
		*pid = thread->pid_;
		thread__put(thread);
	}
}

static int vpa_dtl_deliver(struct vpa_dtl *vd, struct vpa_dtl_queue *q)
{
	struct perf_synth_vpa_dtl raw = { .entry = q->next };
	u64 srr0 = be64toh(q->next.srr0);
	pid_t pid, tid;
	struct perf_sample sample = {
		.ip		= srr0,
		.time		= q->next_time,
		.cpu		= q->cpu,
		.id		= vd->synth_id,
		.stream_id	= vd->synth_id,
		.period		= 1,
		.raw_data	= perf_synth__raw_data(&raw),
		.raw_size	= perf_synth__raw_size(raw),
	};
	union perf_event event = {
		.sample.header = {
			.type	= PERF_RECORD_SAMPLE,
			.size	= sizeof(struct perf_event_header),
		},
	};

	vpa_dtl_task(vd, q->cpu, &pid, &tid);
	sample.pid = pid;
	sample.tid = tid;
	/* ppc64 kernel addresses are at 0xc000000000000000 and above. */
	sample.cpumode = srr0 >> 60 == 0xc ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	event.sample.header.misc = sample.cpumode;
	return perf_session__deliver_synth_event(vd->session, &event, &sample);
}

/*
 * Copy the next 48-byte record of @q's stream to @rec: 1, or 0 at its end.
 * The kernel writes whole records, and perf record copies whole polls, so
 * a record never spans two buffers; a buffer's tail shorter than a record
 * is skipped as upstream's decoder skips it.
 */
static int vpa_dtl_next_record(struct vpa_dtl *vd, struct vpa_dtl_queue *q, void *rec)
{
	struct auxtrace_queue *queue = &vd->queues.queue_array[q->queue_nr];
	int fd = perf_data__fd(vd->session->data);

	while (!q->buffer || q->pos + VPA_DTL_RECORD_SIZE > q->buffer->size) {
		struct auxtrace_buffer *next = auxtrace_buffer__next(queue, q->buffer);

		if (q->buffer)
			auxtrace_buffer__drop_data(q->buffer);
		q->buffer = next;
		q->pos = 0;
		if (!next)
			return 0;
		if (!auxtrace_buffer__get_data(next, fd))
			return -ENOMEM;
	}
	memcpy(rec, q->buffer->data + q->pos, VPA_DTL_RECORD_SIZE);
	q->pos += VPA_DTL_RECORD_SIZE;
	return 1;
}

/* Read up to @q's next entry into q->next: 1, or 0 at the end of the stream. */
static int vpa_dtl_advance(struct vpa_dtl *vd, struct vpa_dtl_queue *q)
{
	union {
		struct vpa_dtl_header	h;
		struct vpa_dtl_entry	e;
	} rec;
	int ret;

	while ((ret = vpa_dtl_next_record(vd, q, &rec)) > 0) {
		if (rec.e.timebase) {
			if (!q->have_header)
				vd->bad++;
			q->next = rec.e;
			q->next_time = vpa_dtl_time(q, be64toh(rec.e.timebase));
			return 1;
		}
		q->boot_tb = vd->needs_swap ? bswap_64(rec.h.boot_tb) : rec.h.boot_tb;
		q->tb_freq = vd->needs_swap ? bswap_64(rec.h.tb_freq) : rec.h.tb_freq;
		q->have_header = true;
	}
	return ret;
}

/* Queue up @q on the heap at its next entry, if it has one. */
static int vpa_dtl_queue_next(struct vpa_dtl *vd, struct vpa_dtl_queue *q)
{
	int ret = vpa_dtl_advance(vd, q);

	if (ret <= 0)
		return ret;
	return auxtrace_heap__add(&vd->heap, q->queue_nr, q->next_time);
}

/* Queues for the CPUs whose data arrived since the last call. */
static int vpa_dtl_setup_queues(struct vpa_dtl *vd)
{
	unsigned int i;
	int err;

	if (!vd->queues.new_data)
		return 0;
	vd->queues.new_data = false;
	for (i = 0; i < vd->queues.nr_queues; i++) {
		struct auxtrace_queue *queue = &vd->queues.queue_array[i];
		struct vpa_dtl_queue *q = queue->priv;

		if (q || list_empty(&queue->head))
			continue;
		q = zalloc(sizeof(*q));
		if (!q)
			return -ENOMEM;
		q->queue_nr = i;
		q->cpu = queue->cpu;
		queue->priv = q;
		err = vpa_dtl_queue_next(vd, q);
		if (err < 0)
			return err;
	}
	return 0;
}

/* Deliver, in time order, every entry older than @time. */
static int vpa_dtl_process_queues(struct vpa_dtl *vd, u64 time)
{
	int err;

	while (vd->heap.heap_cnt && vd->heap.heap_array[0].ordinal < time) {
		unsigned int queue_nr = vd->heap.heap_array[0].queue_nr;
		struct vpa_dtl_queue *q = vd->queues.queue_array[queue_nr].priv;

		auxtrace_heap__pop(&vd->heap);
		err = vpa_dtl_account(&q->st, &q->next);
		if (!err && vd->synth)
			err = vpa_dtl_deliver(vd, q);
		if (!err)
			err = vpa_dtl_queue_next(vd, q);
		if (err < 0)
			return err;
	}
	return 0;
}

static struct vpa_dtl_queue *vpa_dtl_queue_of_cpu(struct vpa_dtl *vd, int cpu)
{
	unsigned int i;

	for (i = 0; i < vd->queues.nr_queues; i++) {
		struct vpa_dtl_queue *q = vd->queues.queue_array[i].priv;

		if (q && q->cpu == cpu)
			return q;
	}
	return NULL;
}

/* The kernel lost @lost entries on the sample's CPU: an error event. */
static int vpa_dtl_lost(struct vpa_dtl *vd, struct perf_sample *sample, u64 lost)
{
	struct vpa_dtl_queue *q = vpa_dtl_queue_of_cpu(vd, sample->cpu);
	union perf_event event;
	char msg[64];
	pid_t pid, tid;

	if (q)
		q->st.lost += lost;
	if (!vd->synth_opts.errors)
		return 0;
	snprintf(msg, sizeof(msg), VPA_DTL_PMU_NAME ": %" PRIu64 " entries lost", lost);
	vpa_dtl_task(vd, sample->cpu, &pid, &tid);
	auxtrace_synth_error(&event.auxtrace_error, PERF_AUXTRACE_ERROR_ITRACE,
			     VPA_DTL_ERR_LOST, sample->cpu, pid, tid, 0, msg, sample->time);
	return perf_session__deliver_synth_event(vd->session, &event, NULL);
}

/* Which task runs on each CPU: context switches, or sched:sched_switch. */
static int vpa_dtl_track_task(struct vpa_dtl *vd, union perf_event *event,
			      struct perf_sample *sample, struct evsel *evsel)
{
	pid_t pid, tid;

	if (sample->cpu == (u32)-1)
		return 0;
	if (event->header.type == PERF_RECORD_SWITCH_CPU_WIDE) {
		if (event->header.misc & PERF_RECORD_MISC_SWITCH_OUT) {
			pid = event->context_switch.next_prev_pid;
			tid = event->context_switch.next_prev_tid;
		} else {
			pid = sample->pid;
			tid = sample->tid;
		}
	} else if (event->header.type == PERF_RECORD_SAMPLE && evsel &&
		   evsel->core.attr.type == PERF_TYPE_TRACEPOINT &&
		   !strcmp(evsel__name(evsel), "sched:sched_switch")) {
		tid = evsel__intval(evsel, sample, "next_pid");
		pid = -1;
	} else {
		return 0;
	}
	return machine__set_current_tid(vd->machine, sample->cpu, pid, tid);
}

static int vpa_dtl_process_event(struct perf_session *session, union perf_event *event,
				 struct perf_sample *sample, struct perf_tool *tool)
{
	struct vpa_dtl *vd = to_vd(session);
	struct evsel *evsel;
	int err;

	if (dump_trace)
		return 0;
	if (!tool->ordered_events) {
		pr_err(VPA_DTL_PMU_NAME ": decoding needs the events in time order\n");
		return -EINVAL;
	}
	if (sample->time && sample->time != (u64)-1) {
		err = vpa_dtl_setup_queues(vd);
		if (!err)
			err = vpa_dtl_process_queues(vd, sample->time);
		if (err)
			return err;
	}
	evsel = evlist__id2evsel(session->evlist, sample->id);
	if (event->header.type == PERF_RECORD_LOST_SAMPLES && evsel && evsel == vd->evsel)
		return vpa_dtl_lost(vd, sample, event->lost_samples.lost);
	return vpa_dtl_track_task(vd, event, sample, evsel);
}

static int vpa_dtl_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* The value at fraction @p (0..1) of the sorted values: nearest rank. */
static u32 vpa_dtl_percentile(const struct vpa_dtl_waits *w, double p)
{
	size_t rank = (size_t)(p * w->nr + 0.999999);

	return w->v[rank ? rank - 1 : 0];
}

static void vpa_dtl_print_waits(struct vpa_dtl_queue *q)
{
	unsigned int r;
	char buf[24];

	printf("  enqueue_to_dispatch_time by reason: count, p50 p99 max in ticks (us):\n");
	for (r = 0; r <= VPA_DTL_NR_DISPATCH_REASONS; r++) {
		struct vpa_dtl_waits *w = &q->st.by_reason[r];
		u32 p50, p99, max;

		if (!w->nr)
			continue;
		qsort(w->v, w->nr, sizeof(*w->v), vpa_dtl_cmp_u32);
		p50 = vpa_dtl_percentile(w, 0.50);
		p99 = vpa_dtl_percentile(w, 0.99);
		max = w->v[w->nr - 1];
		printf("    %-26s %6zu  %u %u %u (%.3f %.3f %.3f)\n",
		       r < VPA_DTL_NR_DISPATCH_REASONS ?
		       vpa_dtl__dispatch_reason(r, buf, sizeof(buf)) : "unknown",
		       w->nr, p50, p99, max, vpa_dtl_ticks_to_ns(q, p50) / 1000.0,
		       vpa_dtl_ticks_to_ns(q, p99) / 1000.0, vpa_dtl_ticks_to_ns(q, max) / 1000.0);
	}
}

static void vpa_dtl_print_summary(struct vpa_dtl *vd)
{
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
		for (j = 0; j < VPA_DTL_NR_WAITS; j++)
			printf("  %s: total %" PRIu64 " max %" PRIu64 " (timebase ticks);"
			       " total %.3f max %.3f (us)\n", vpa_dtl_wait_names[j],
			       q->st.total[j], q->st.max[j],
			       vpa_dtl_ticks_to_ns(q, q->st.total[j]) / 1000.0,
			       vpa_dtl_ticks_to_ns(q, q->st.max[j]) / 1000.0);
		vpa_dtl_print_waits(q);
	}
}

static int vpa_dtl_flush(struct perf_session *session, struct perf_tool *tool __maybe_unused)
{
	struct vpa_dtl *vd = to_vd(session);
	int err;

	if (dump_trace)
		return 0;
	err = vpa_dtl_setup_queues(vd);
	if (!err)
		err = vpa_dtl_process_queues(vd, ULLONG_MAX);
	if (err)
		return err;
	if (vd->bad) {
		pr_err(VPA_DTL_PMU_NAME ": %" PRIu64 " entries before any header record\n",
		       vd->bad);
		vd->bad = 0;
	}
	if (vpa_dtl_summary) {
		vpa_dtl_print_summary(vd);
		vpa_dtl_summary = false;	/* once, though flush may come again */
	}
	return 0;
}

static int vpa_dtl_process_auxtrace_event(struct perf_session *session,
					  union perf_event *event,
					  struct perf_tool *tool __maybe_unused)
{
	struct vpa_dtl *vd = to_vd(session);
	int fd = perf_data__fd(session->data);
	struct auxtrace_buffer *buffer;
	int err;

	if (vd->data_queued)
		return 0;
	err = auxtrace_queues__add_event_here(&vd->queues, session, event, &buffer);
	if (err || !dump_trace)
		return err;
	if (auxtrace_buffer__get_data(buffer, fd)) {
		vpa_dtl_dump(vd, buffer->data, buffer->size);
		auxtrace_buffer__put_data(buffer);
	}
	return 0;
}

static void vpa_dtl_free_events(struct perf_session *session)
{
	struct vpa_dtl *vd = to_vd(session);
	unsigned int i, r;

	for (i = 0; i < vd->queues.nr_queues; i++) {
		struct vpa_dtl_queue *q = vd->queues.queue_array[i].priv;

		if (!q)
			continue;
		for (r = 0; r <= VPA_DTL_NR_DISPATCH_REASONS; r++)
			free(q->st.by_reason[r].v);
		zfree(&vd->queues.queue_array[i].priv);
	}
	auxtrace_queues__free(&vd->queues);
}

static void vpa_dtl_free(struct perf_session *session)
{
	struct vpa_dtl *vd = to_vd(session);

	auxtrace_heap__free(&vd->heap);
	vpa_dtl_free_events(session);
	session->auxtrace = NULL;
	free(vd);
}

static bool vpa_dtl_evsel_is_auxtrace(struct perf_session *session, struct evsel *evsel)
{
	return evsel == to_vd(session)->evsel;
}

/*
 * The PMU type of vpa_dtl on the machine that recorded: the PMU mappings of
 * the perf.data header, or failing them (a pipe) the private data of ours.
 */
static u32 vpa_dtl_recorded_type(struct perf_session *session, u64 priv_type)
{
	struct perf_env *env = &session->header.env;
	const char *s = env->pmu_mappings;
	int n = env->nr_pmu_mappings;

	for (; s && n > 0; n--, s += strlen(s) + 1) {
		char *name;
		unsigned long type = strtoul(s, &name, 0);

		if (*name == ':' && !strcmp(name + 1, VPA_DTL_PMU_NAME))
			return type;
	}
	return priv_type;
}

/* The recorded vpa_dtl event: by PMU type, or by name ("vpa_dtl/.../"). */
static struct evsel *vpa_dtl_find_evsel(struct perf_session *session, u32 type)
{
	struct evsel *evsel;

	evlist__for_each_entry(session->evlist, evsel) {
		if (type >= PERF_TYPE_MAX && evsel->core.attr.type == type)
			return evsel;
	}
	evlist__for_each_entry(session->evlist, evsel) {
		if (evsel->core.attr.type >= PERF_TYPE_MAX &&
		    strstarts(evsel__name(evsel), VPA_DTL_PMU_NAME "/"))
			return evsel;
	}
	return NULL;
}

/* The "vpa-dtl" event that the entries are delivered as. */
static int vpa_dtl_synth_event(struct vpa_dtl *vd)
{
	int ret = auxtrace_synth__add_event(vd->session, vd->pmu_type,
					    PERF_SYNTH_POWERPC_VPA_DTL, "vpa-dtl",
					    &vd->synth_id);

	if (ret < 0)
		return ret;
	vd->synth = ret > 0;
	return 0;
}

int vpa_dtl_process_auxtrace_info(union perf_event *event, struct perf_session *session)
{
	struct perf_record_auxtrace_info *info = &event->auxtrace_info;
	struct vpa_dtl *vd;
	u32 type;
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
	vd->machine = &session->machines.host;
	vd->needs_swap = session->header.needs_swap;
	type = vpa_dtl_recorded_type(session, info->priv[VPA_DTL_PMU_TYPE]);
	vd->evsel = vpa_dtl_find_evsel(session, type);
	vd->pmu_type = vd->evsel ? vd->evsel->core.attr.type : 0;
	vd->auxtrace.process_event = vpa_dtl_process_event;
	vd->auxtrace.process_auxtrace_event = vpa_dtl_process_auxtrace_event;
	vd->auxtrace.flush_events = vpa_dtl_flush;
	vd->auxtrace.free_events = vpa_dtl_free_events;
	vd->auxtrace.free = vpa_dtl_free;
	vd->auxtrace.evsel_is_auxtrace = vpa_dtl_evsel_is_auxtrace;
	session->auxtrace = &vd->auxtrace;

	if (dump_trace) {
		printf("  PMU Type           %" PRId64 "\n", (s64)info->priv[VPA_DTL_PMU_TYPE]);
		return 0;
	}

	if (session->itrace_synth_opts->set)
		vd->synth_opts = *session->itrace_synth_opts;
	else
		itrace_synth_opts__set_default(&vd->synth_opts,
					       session->itrace_synth_opts->default_no_sample);
	if (!vd->evsel)
		pr_warning("vpa_dtl: no vpa_dtl event in the recording: no entry to show\n");

	err = vd->evsel ? vpa_dtl_synth_event(vd) : 0;
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
