// SPDX-License-Identifier: GPL-2.0
/*
 * aux_test: a software AUX PMU.
 *
 * Every real AUX PMU is tracing hardware, so the AUX area cannot be tested
 * on a machine (or a guest) without it. This one produces a trace in
 * software: an hrtimer per event writes bursts of fixed-size, sequence
 * numbered records through perf_aux_output_begin()/perf_aux_output_end(),
 * so that a consumer can prove that every byte arrived or that every loss
 * was reported. See Documentation/admin-guide/perf/aux-test.rst and
 * include/uapi/linux/perf_aux_test.h for the record stream.
 *
 * Writers: the event's hrtimer (hardirq, pinned to the event's CPU),
 * ->start() and the pause/resume callbacks. They all run on the event's
 * CPU with IRQs disabled, so only an NMI (a pause/resume trigger) can
 * interrupt one of them: ate->writing tells it to queue its marker, which
 * the interrupted writer or the next tick writes out.
 *
 * Pause/resume (PERF_PMU_CAP_AUX_PAUSE): while event->aux_paused is set,
 * no DATA record is generated. A pause writes a PAUSE record; a resume
 * writes a RESUME record followed at once by one burst, so that every
 * window holds data even when it is shorter than the period.
 */

#define pr_fmt(fmt) "aux_test: " fmt

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/pid_namespace.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <uapi/linux/perf_aux_test.h>

#include "internal.h"

static_assert(sizeof(struct aux_test_record) == AUX_TEST_RECORD_SIZE);
static_assert(PAGE_SIZE % AUX_TEST_RECORD_SIZE == 0);

#define AUX_TEST_MAX_MARKERS	8	/* a power of two */

/*
 * The AUX area of one ring buffer, as given to ->setup_aux(). Write
 * positions are the core's free-running aux_head (handle->head), which
 * goes on across a new AUX area of the same ring buffer.
 */
struct aux_test_buf {
	void		**pages;	/* nr_pages kernel addresses */
	unsigned long	size;		/* bytes, a power of two */
	bool		snapshot;	/* overwrite mode */
};

/* One event's generator; event->pmu_private. */
struct aux_test_event {
	struct perf_event	*event;
	u32			stream;		/* record.stream */
	struct hrtimer		timer;
	u64			period_ns;
	unsigned int		burst;
	unsigned int		drop;
	u64			seq;		/* next sequence number */
	int			writing;	/* a write is in progress */
	/* markers owed to the stream: [marker_head, marker_tail) */
	unsigned int		marker_head;	/* advanced by writers */
	unsigned int		marker_tail;	/* advanced by aux_test_queue_marker() */
	struct {
		u16		type;
		u64		time;
	} markers[AUX_TEST_MAX_MARKERS];
};

static struct pmu aux_test_pmu;
static atomic_t aux_test_streams = ATOMIC_INIT(0);

static struct aux_test_event *to_ate(struct perf_event *event)
{
	return event->pmu_private;
}

/**
 * aux_test_record_at() - where the record at AUX offset @head goes
 * @buf: the AUX area
 * @head: free-running byte position, a multiple of the record size
 */
static struct aux_test_record *aux_test_record_at(struct aux_test_buf *buf,
						  unsigned long head)
{
	unsigned long off = head & (buf->size - 1);

	return buf->pages[off >> PAGE_SHIFT] + offset_in_page(off);
}

static void aux_test_fill(struct aux_test_record *rec, struct aux_test_event *ate,
			  u16 type, u64 seq, u64 time)
{
	rec->magic = AUX_TEST_MAGIC;
	rec->type = type;
	rec->cpu = smp_processor_id();
	rec->seq = seq;
	rec->time = time;
	rec->stream = ate->stream;
	rec->tid = task_pid_nr_ns(current, ate->event->ns);
}

/*
 * Queue a marker record. Context: the event's CPU, IRQs disabled or NMI.
 * Producers never nest on one event (->start() runs with IRQs off and
 * the core drops a pause/resume nested in another), so only the tail is
 * raced for, by writers reading it. A full queue drops the marker; it
 * takes eight pause/resume requests within one write to fill it.
 */
static void aux_test_queue_marker(struct aux_test_event *ate, u16 type)
{
	unsigned int tail = READ_ONCE(ate->marker_tail);
	unsigned int slot = tail % AUX_TEST_MAX_MARKERS;

	if (tail - READ_ONCE(ate->marker_head) >= AUX_TEST_MAX_MARKERS)
		return;
	ate->markers[slot].type = type;
	ate->markers[slot].time = local_clock();
	barrier();
	WRITE_ONCE(ate->marker_tail, tail + 1);
}

/**
 * aux_test_emit() - write the queued markers, then @nr_data DATA records
 * @event: the aux_test event, active on this CPU
 * @nr_data: records of the burst to generate (0 for markers only)
 *
 * Context: the event's CPU, IRQs disabled, or an NMI that did not interrupt
 * another writer. Records that do not fit are generated all the same (their
 * sequence numbers are used) and the AUX record is flagged TRUNCATED;
 * dropped ones make it PARTIAL. If there is no room at all (or no AUX
 * area), the burst is lost and the AUX core stops the event; queued markers
 * stay queued, so the START record written when it runs again follows the
 * gap. Markers queued by an NMI during the write are left for the next one.
 */
static void aux_test_emit(struct perf_event *event, unsigned int nr_data)
{
	struct aux_test_event *ate = to_ate(event);
	struct perf_output_handle handle;
	unsigned long room, written = 0;
	struct aux_test_buf *buf;
	unsigned int i, n, head;
	u64 now;

	if (ate->writing)
		return;
	ate->writing = 1;
	barrier();

	head = READ_ONCE(ate->marker_head);
	n = READ_ONCE(ate->marker_tail) - head;
	if (!n && !nr_data)
		goto out;

	buf = perf_aux_output_begin(&handle, event);
	if (!buf) {
		ate->seq += nr_data;
		goto out;
	}

	/* In overwrite mode the whole area is ours; else what the reader freed. */
	room = buf->snapshot ? ULONG_MAX : handle.size;
	now = local_clock();

	for (i = 0; i < n + nr_data; i++) {
		bool marker = i < n;
		unsigned int slot = (head + i) % AUX_TEST_MAX_MARKERS;
		u64 seq = ate->seq++;

		if (!marker && ate->drop && seq % ate->drop == ate->drop - 1) {
			perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);
			continue;
		}
		if (room - written < AUX_TEST_RECORD_SIZE) {
			perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
			continue;
		}
		aux_test_fill(aux_test_record_at(buf, handle.head + written), ate,
			      marker ? ate->markers[slot].type : AUX_TEST_RECORD_DATA,
			      seq, marker ? ate->markers[slot].time : now);
		written += AUX_TEST_RECORD_SIZE;
	}

	/* In overwrite mode the driver says where aux_head goes. */
	if (buf->snapshot)
		handle.head += written;
	perf_aux_output_end(&handle, written);
	WRITE_ONCE(ate->marker_head, head + n);
out:
	barrier();
	ate->writing = 0;
}

static enum hrtimer_restart aux_test_tick(struct hrtimer *timer)
{
	struct aux_test_event *ate = container_of(timer, struct aux_test_event, timer);
	struct perf_event *event = ate->event;

	if (event->hw.state & PERF_HES_STOPPED)
		return HRTIMER_NORESTART;

	aux_test_emit(event, READ_ONCE(event->aux_paused) ? 0 : ate->burst);
	hrtimer_forward_now(timer, ns_to_ktime(ate->period_ns));

	return HRTIMER_RESTART;
}

/*
 * ->stop(PERF_EF_PAUSE)/->start(PERF_EF_RESUME): the core has already set
 * or cleared event->aux_paused, which the generator reads. Mark the
 * switch in the stream (a resume with a burst at once), unless the event
 * is stopped for another reason; from an NMI that interrupted a writer,
 * the marker waits in the queue.
 */
static void aux_test_pause_resume(struct perf_event *event, bool pause)
{
	struct aux_test_event *ate = to_ate(event);

	if (READ_ONCE(event->hw.state) & PERF_HES_STOPPED)
		return;
	aux_test_queue_marker(ate, pause ? AUX_TEST_RECORD_PAUSE :
				   AUX_TEST_RECORD_RESUME);
	aux_test_emit(event, pause ? 0 : ate->burst);
}

/*
 * ->start(): called on the event's CPU with IRQs disabled. Writes a START
 * record and starts the generator (which writes no data while paused).
 */
static void aux_test_start(struct perf_event *event, int flags)
{
	struct aux_test_event *ate = to_ate(event);

	if (flags & PERF_EF_RESUME) {
		aux_test_pause_resume(event, false);
		return;
	}
	event->hw.state = 0;
	aux_test_queue_marker(ate, AUX_TEST_RECORD_START);
	aux_test_emit(event, 0);
	hrtimer_start(&ate->timer, ns_to_ktime(ate->period_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * ->stop(): called on the event's CPU with IRQs disabled, so the pinned
 * timer cannot be running its callback: cancelling it cannot wait.
 */
static void aux_test_stop(struct perf_event *event, int flags)
{
	struct aux_test_event *ate = to_ate(event);

	if (flags & PERF_EF_PAUSE) {
		aux_test_pause_resume(event, true);
		return;
	}
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED;
	hrtimer_cancel(&ate->timer);
	local64_set(&event->count, ate->seq);
}

static int aux_test_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		aux_test_start(event, 0);

	return 0;
}

static void aux_test_del(struct perf_event *event, int flags)
{
	aux_test_stop(event, PERF_EF_UPDATE);
}

/* The count of a aux_test event is the number of records it generated. */
static void aux_test_read(struct perf_event *event)
{
	local64_set(&event->count, READ_ONCE(to_ate(event)->seq));
}

static void *aux_test_setup_aux(struct perf_event *event, void **pages,
				int nr_pages, bool overwrite)
{
	int node = event->cpu == -1 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	struct aux_test_buf *buf;

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, node);
	if (!buf)
		return NULL;

	buf->pages = kvmalloc_array(nr_pages, sizeof(*pages), GFP_KERNEL);
	if (!buf->pages) {
		kfree(buf);
		return NULL;
	}
	memcpy(buf->pages, pages, nr_pages * sizeof(*pages));
	buf->size = (unsigned long)nr_pages << PAGE_SHIFT;
	buf->snapshot = overwrite;

	return buf;
}

static void aux_test_free_aux(void *data)
{
	struct aux_test_buf *buf = data;

	kvfree(buf->pages);
	kfree(buf);
}

/*
 * ->snapshot_aux(): copy the @size bytes that end at the write position
 * into a PERF_SAMPLE_AUX sample. Called with IRQs disabled on the event's
 * CPU, so no write of ours is in progress; ate->writing makes an NMI
 * pause/resume queue its marker instead of writing under the copy (other
 * NMI samplers are kept out by the core's aux_in_sampling). The slice ends
 * on a record boundary; a reader parses it
 * from (size % AUX_TEST_RECORD_SIZE). Always fills @size bytes (zeros if
 * the AUX area went away under us), as the core expects; returns @size.
 */
static long aux_test_snapshot_aux(struct perf_event *event,
				  struct perf_output_handle *handle,
				  unsigned long size)
{
	static const u64 zeros[8];
	struct perf_event *owner = event->parent ? event->parent : event;
	unsigned long from, off, len, copied = 0;
	struct aux_test_event *ate = to_ate(event);
	struct aux_test_buf *buf = NULL;
	struct perf_buffer *rb;
	int writing = ate->writing;

	ate->writing = 1;
	barrier();
	rb = ring_buffer_get(owner);
	if (rb && rb_has_aux(rb))
		buf = rb->aux_priv;

	if (buf && size <= buf->size) {
		from = READ_ONCE(rb->aux_head) - size;
		while (copied < size) {
			off = (from + copied) & (buf->size - 1);
			len = min(size - copied, PAGE_SIZE - offset_in_page(off));
			if (perf_output_copy(handle, buf->pages[off >> PAGE_SHIFT] +
					     offset_in_page(off), len))
				break;
			copied += len;
		}
	}
	while (copied < size) {
		len = min_t(unsigned long, size - copied, sizeof(zeros));
		if (perf_output_copy(handle, zeros, len))
			break;
		copied += len;
	}
	if (rb)
		ring_buffer_put(rb);
	barrier();
	ate->writing = writing;
	return copied;
}

static void aux_test_event_destroy(struct perf_event *event)
{
	struct aux_test_event *ate = to_ate(event);

	hrtimer_cancel(&ate->timer);
	kfree(ate);
	event->pmu_private = NULL;
}

static int aux_test_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	struct aux_test_event *ate;
	unsigned int period;

	if (event->attr.type != aux_test_pmu.type)
		return -ENOENT;

	if (event->attr.config1 || event->attr.config2)
		return -EINVAL;

	period = AUX_TEST_PERIOD(config) ?: AUX_TEST_PERIOD_DEFAULT_US;
	if (period < AUX_TEST_PERIOD_MIN_US || period > AUX_TEST_PERIOD_MAX_US)
		return -EINVAL;
	if (AUX_TEST_DROP(config) == 1)
		return -EINVAL;

	ate = kzalloc(sizeof(*ate), GFP_KERNEL);
	if (!ate)
		return -ENOMEM;

	ate->event = event;
	ate->stream = atomic_inc_return(&aux_test_streams);
	ate->period_ns = (u64)period * NSEC_PER_USEC;
	ate->burst = AUX_TEST_BURST(config) ?: 1;
	ate->drop = AUX_TEST_DROP(config);
	hrtimer_init(&ate->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	ate->timer.function = aux_test_tick;

	event->pmu_private = ate;
	event->destroy = aux_test_event_destroy;

	return 0;
}

PMU_FORMAT_ATTR(period, "config:0-31");
PMU_FORMAT_ATTR(burst, "config:32-47");
PMU_FORMAT_ATTR(drop, "config:48-63");

static struct attribute *aux_test_format_attrs[] = {
	&format_attr_period.attr,
	&format_attr_burst.attr,
	&format_attr_drop.attr,
	NULL,
};

static const struct attribute_group aux_test_format_group = {
	.name	= "format",
	.attrs	= aux_test_format_attrs,
};

static const struct attribute_group *aux_test_attr_groups[] = {
	&aux_test_format_group,
	NULL,
};

static struct pmu aux_test_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_AUX_PAUSE,
	.attr_groups	= aux_test_attr_groups,
	.event_init	= aux_test_event_init,
	.add		= aux_test_add,
	.del		= aux_test_del,
	.start		= aux_test_start,
	.stop		= aux_test_stop,
	.read		= aux_test_read,
	.setup_aux	= aux_test_setup_aux,
	.free_aux	= aux_test_free_aux,
	.snapshot_aux	= aux_test_snapshot_aux,
};

static int __init aux_test_init(void)
{
	int ret = perf_pmu_register(&aux_test_pmu, "aux_test", -1);

	if (ret)
		pr_err("registration failed: %d\n", ret);
	return ret;
}
device_initcall(aux_test_init);
