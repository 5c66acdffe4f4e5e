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
 * Writers and who may nest with whom. Every write to the stream, and every
 * change of an event's marker queue, runs on the event's CPU inside one
 * "writer section" (aux_test_enter()/aux_test_exit()), which a per-CPU flag
 * marks: the hrtimer tick (hard IRQ), ->start()/->stop() (IRQs disabled),
 * pause/resume from an IRQs-off trigger, ->snapshot_aux() (IRQs disabled)
 * and the flush irq_work (hard IRQ). These cannot interrupt one another.
 * What can interrupt a section is an NMI (on x86 also #DB) calling
 * ->stop(PERF_EF_PAUSE)/->start(PERF_EF_RESUME) or ->snapshot_aux(): it finds
 * the flag set, queues its marker and leaves the write to the flush
 * irq_work (or, if it interrupted that irq_work, to the next tick, so that
 * a trigger in the code the flush runs cannot keep it queued). The flag is
 * per CPU, not per event, because the AUX output nesting it must respect
 * is per ring buffer, and every aux_test event that shares a buffer writes
 * on the same CPU.
 *
 * Rate mode (attr.config1 rate=MB/s) measures the AUX path instead of the
 * timer: each tick writes what the elapsed time owes, up to the room the
 * reader left, and drops the rest (PERF_AUX_FLAG_PARTIAL) without stopping
 * the event, so that a rate beyond the reader's floods the area every tick.
 *
 * Pause/resume (PERF_PMU_CAP_AUX_PAUSE): while event->aux_paused is set,
 * no DATA record is generated. A pause writes a PAUSE record; a resume
 * writes a RESUME record followed by one burst (one record in rate mode),
 * so that every window holds data even when it is shorter than the period. From NMI the burst is
 * written by the flush irq_work, in hard IRQ: no burst is ever written
 * from NMI.
 *
 * Work per call is bounded in bytes, and so in time: one write stores at
 * most AUX_TEST_WRITE_MAX bytes (and never more than the room: the AUX
 * area's size in overwrite mode, what the reader freed otherwise); the
 * records of a burst that do not fit are accounted for at once. A cap in
 * bytes rather than a time budget, so that what one tick writes does not
 * depend on how fast the machine (or the emulator) runs: 1 MiB a tick
 * still offers 1 GB/s at the default period, more than the AUX path of
 * any machine we test on drains (make bench prints the longest tick).
 *
 * Privilege: the generator writes into memory with interrupts off at a
 * rate its user chooses, which a trace of the user's own task does not
 * justify, so opening an event needs perfmon_capable() (CAP_PERFMON or
 * CAP_SYS_ADMIN) unless the administrator allows more with the
 * aux_test.unprivileged parameter (for fuzzing as an unprivileged user).
 * That is the opener's privilege: the children that inherit an event are
 * not checked again (aux_test_event_init()).
 */

#define pr_fmt(fmt) "aux_test: " fmt

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/pid_namespace.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <uapi/linux/perf_aux_test.h>

#include "internal.h"

static_assert(sizeof(struct aux_test_record) == AUX_TEST_RECORD_SIZE);
static_assert(PAGE_SIZE % AUX_TEST_RECORD_SIZE == 0);
/* aux_test_fill_data() stores a record as four words, the second the seq. */
static_assert(AUX_TEST_RECORD_SIZE == 4 * sizeof(u64));
static_assert(offsetof(struct aux_test_record, seq) == sizeof(u64));

#define AUX_TEST_MAX_MARKERS	16	/* a power of two */
/* AUX_TEST_BURST_MAX leaves room in a write for a full queue of markers. */
static_assert(AUX_TEST_BURST_MAX + AUX_TEST_MAX_MARKERS ==
	      AUX_TEST_WRITE_MAX / AUX_TEST_RECORD_SIZE);

static bool aux_test_unprivileged;
module_param_named(unprivileged, aux_test_unprivileged, bool, 0644);
MODULE_PARM_DESC(unprivileged,
		 "let users without CAP_PERFMON open aux_test events (default: no)");

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
	struct irq_work		flush;		/* writes what an NMI queued */
	u64			period_ns;
	unsigned int		burst;
	unsigned int		drop;
	u32			rate;		/* MB/s, 0: burst mode */
	u64			rate_time;	/* rate mode: owed since then */
	u64			rate_rest;	/* bytes owed, less than a record */
	u64			seq;		/* next sequence number */
	int			burst_owed;	/* a resume from NMI owes a burst */
	atomic_t		markers_lost;	/* queue was full */
	/*
	 * Markers owed to the stream: [marker_head, marker_tail). A producer
	 * reserves a slot by moving the tail with cmpxchg, then fills it; an
	 * NMI producer may reserve and fill the next slot in between, but it
	 * never consumes (the writer section is taken), so only filled slots
	 * are ever read. Only a writer section moves the head. A marker stays
	 * queued until there is room for it; the first @marker_numbered of
	 * the queue already have their sequence number (@seq of the slot).
	 * Only a writer section numbers them.
	 */
	unsigned int		marker_head;
	unsigned int		marker_tail;
	unsigned int		marker_numbered;
	struct {
		u16		type;
		u64		time;
		u64		seq;
	} markers[AUX_TEST_MAX_MARKERS];
};

static struct pmu aux_test_pmu;
static atomic_t aux_test_streams = ATOMIC_INIT(0);
/*
 * Who holds this CPU's writer section (see the top of this file): nobody,
 * a writer, or the flush irq_work.
 */
enum { AUX_TEST_FREE, AUX_TEST_WRITER, AUX_TEST_FLUSH };
static DEFINE_PER_CPU(int, aux_test_writing);

static struct aux_test_event *to_ate(struct perf_event *event)
{
	return event->pmu_private;
}

/*
 * aux_test_enter() - take this CPU's writer section
 * @who: AUX_TEST_WRITER, or AUX_TEST_FLUSH for the flush irq_work
 *
 * Context: IRQs disabled or NMI. Returns false if the section is already
 * taken (this is an NMI that interrupted a writer): then the caller may only
 * queue markers. Sections of one CPU nest only as NMI inside non-NMI, so a
 * plain per-CPU flag with compiler barriers is enough.
 */
static bool aux_test_enter(int who)
{
	if (__this_cpu_read(aux_test_writing))
		return false;
	__this_cpu_write(aux_test_writing, who);
	barrier();
	return true;
}

static void aux_test_exit(void)
{
	barrier();
	__this_cpu_write(aux_test_writing, AUX_TEST_FREE);
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

/**
 * aux_test_fill_data() - write @nr DATA records from AUX offset @pos on
 * @buf: the AUX area, with room for them
 * @pos: free-running byte position, a multiple of the record size
 * @nr: records to write
 * @tmpl: the record to repeat
 * @seq: the sequence number of the first; the next ones follow
 *
 * The bulk of a burst: page by page (a record never crosses one), four
 * word stores a record. In rate mode this is the AUX write path that a
 * flood measures, so it stays this tight.
 */
static void aux_test_fill_data(struct aux_test_buf *buf, unsigned long pos,
			       unsigned long nr, const struct aux_test_record *tmpl,
			       u64 seq)
{
	const u64 *t = (const u64 *)tmpl;
	u64 w0 = t[0], w2 = t[2], w3 = t[3];

	while (nr) {
		u64 *w = (u64 *)aux_test_record_at(buf, pos);
		unsigned long n = min(nr, (PAGE_SIZE - offset_in_page(pos)) /
					  AUX_TEST_RECORD_SIZE);

		pos += n * AUX_TEST_RECORD_SIZE;
		nr -= n;
		for (; n; n--, w += 4) {
			w[0] = w0;
			w[1] = seq++;
			w[2] = w2;
			w[3] = w3;
		}
	}
}

/*
 * Queue a marker record. Context: the event's CPU, inside a writer section,
 * or an NMI that found the section taken. A full queue loses the marker: it
 * is counted, and the next write uses a sequence number for it and flags
 * PERF_AUX_FLAG_PARTIAL, so the loss is seen. PAUSE and RESUME may fill all
 * slots but the last, which is START's: markers of a run that had no room
 * (or no AUX area: the gap while it is unmapped) do not take the START of
 * the next run with them, which says where the stream starts again.
 */
static void aux_test_queue_marker(struct aux_test_event *ate, u16 type)
{
	unsigned int max = type == AUX_TEST_RECORD_START ? AUX_TEST_MAX_MARKERS :
							  AUX_TEST_MAX_MARKERS - 1;
	u64 now = local_clock();
	unsigned int tail, slot;

	do {
		tail = READ_ONCE(ate->marker_tail);
		if (tail - READ_ONCE(ate->marker_head) >= max) {
			atomic_inc(&ate->markers_lost);
			return;
		}
	} while (cmpxchg(&ate->marker_tail, tail, tail + 1) != tail);

	slot = tail % AUX_TEST_MAX_MARKERS;
	ate->markers[slot].type = type;
	ate->markers[slot].time = now;
}

/*
 * aux_test_rate_owed() - DATA records that rate mode owes at @now
 *
 * Context: the event's CPU, inside a writer section. The time since the
 * last call is owed, at most one second of it; the caller restarts the
 * clock (aux_test_rate_restart()) where time is not owed: while paused or
 * stopped. At most 10^11 bytes a second, so the count fits.
 */
static unsigned int aux_test_rate_owed(struct aux_test_event *ate, u64 now)
{
	u64 ns = min_t(u64, now - ate->rate_time, NSEC_PER_SEC);
	u64 bytes = ns * ate->rate / 1000 + ate->rate_rest;

	ate->rate_time = now;
	ate->rate_rest = bytes % AUX_TEST_RECORD_SIZE;
	return bytes / AUX_TEST_RECORD_SIZE;
}

static void aux_test_rate_restart(struct aux_test_event *ate)
{
	ate->rate_time = local_clock();
	ate->rate_rest = 0;
}

/* DATA records that follow a RESUME record; restarts rate mode's clock. */
static unsigned int aux_test_resume_burst(struct aux_test_event *ate)
{
	if (!ate->rate)
		return ate->burst;
	aux_test_rate_restart(ate);
	return 1;
}

/*
 * aux_test_number_markers() - give the first @n queued markers their seq
 *
 * Context: the event's CPU, inside a writer section. Markers take their
 * sequence numbers in the order they were queued, before the DATA of the
 * write that finds them, whether or not there is room to store them now:
 * records are numbered in the order they were generated, stored or not.
 */
static void aux_test_number_markers(struct aux_test_event *ate, unsigned int n)
{
	for (; ate->marker_numbered < n; ate->marker_numbered++) {
		unsigned int slot = (ate->marker_head + ate->marker_numbered) %
				    AUX_TEST_MAX_MARKERS;

		ate->markers[slot].seq = ate->seq++;
	}
}

/*
 * The flag of a write that had no room for all its records: TRUNCATED,
 * which stops the event, or in rate mode PARTIAL (they were dropped).
 */
static u64 aux_test_no_room(struct aux_test_event *ate)
{
	return ate->rate ? PERF_AUX_FLAG_PARTIAL : PERF_AUX_FLAG_TRUNCATED;
}

/**
 * aux_test_emit() - write the queued markers, then @nr_data DATA records
 * @event: the aux_test event, active on this CPU
 * @nr_data: records of the burst to generate (0 for markers only)
 *
 * Context: the event's CPU, inside a writer section. Queued markers are
 * written first, as many as there is room for; the others stay queued, in
 * order, until a later write finds room (their sequence numbers are taken
 * now), so that no PAUSE or RESUME is lost while the event runs. DATA
 * records that do not fit are generated all the same (their sequence
 * numbers are used) and the AUX record is flagged TRUNCATED, which stops
 * the event; in rate mode they are dropped instead (PARTIAL, the event
 * goes on). Dropped ones (drop=) make it PARTIAL too. If there is no AUX
 * area (or no room at all: the AUX core stops the event), the burst is
 * lost and the markers stay queued, so the START record written when the
 * event runs again follows the gap. At most AUX_TEST_WRITE_MAX bytes are
 * written.
 */
static void aux_test_emit(struct perf_event *event, unsigned int nr_data)
{
	struct aux_test_event *ate = to_ate(event);
	struct aux_test_record *rec, data;
	struct perf_output_handle handle;
	unsigned long room, fit, written = 0;
	unsigned int i, m, n, head, lost;
	struct aux_test_buf *buf;

	lost = atomic_xchg(&ate->markers_lost, 0);
	head = READ_ONCE(ate->marker_head);
	n = READ_ONCE(ate->marker_tail) - head;
	if (!n && !nr_data && !lost)
		return;
	aux_test_number_markers(ate, n);
	ate->seq += lost;

	buf = perf_aux_output_begin(&handle, event);
	if (!buf) {
		ate->seq += nr_data;
		return;
	}
	if (lost)
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);

	/* In overwrite mode the whole area is ours; else what the reader freed. */
	room = min_t(unsigned long, buf->snapshot ? buf->size : handle.size,
		     AUX_TEST_WRITE_MAX);

	for (m = 0; m < n && room - written >= AUX_TEST_RECORD_SIZE; m++) {
		unsigned int slot = (head + m) % AUX_TEST_MAX_MARKERS;

		rec = aux_test_record_at(buf, handle.head + written);
		aux_test_fill(rec, ate, ate->markers[slot].type,
			      ate->markers[slot].seq, ate->markers[slot].time);
		written += AUX_TEST_RECORD_SIZE;
	}

	/* The DATA records of one call differ in their sequence number only. */
	aux_test_fill(&data, ate, AUX_TEST_RECORD_DATA, 0, local_clock());
	fit = min_t(unsigned long, nr_data, (room - written) / AUX_TEST_RECORD_SIZE);
	if (!ate->drop) {
		/* In bulk, as much as fits. */
		aux_test_fill_data(buf, handle.head + written, fit, &data, ate->seq);
		written += fit * AUX_TEST_RECORD_SIZE;
		ate->seq += nr_data;
	} else {
		for (i = 0; i < nr_data && room - written >= AUX_TEST_RECORD_SIZE;
		     i++, ate->seq++) {
			if (ate->seq % ate->drop == ate->drop - 1) {
				perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);
				continue;
			}
			rec = aux_test_record_at(buf, handle.head + written);
			*rec = data;
			rec->seq = ate->seq;
			written += AUX_TEST_RECORD_SIZE;
		}
		fit = i;
		ate->seq += nr_data - i;
	}
	if (fit < nr_data)
		perf_aux_output_flag(&handle, aux_test_no_room(ate));

	/* In overwrite mode the driver says where aux_head goes. */
	if (buf->snapshot)
		handle.head += written;
	perf_aux_output_end(&handle, written);
	ate->marker_numbered -= m;
	WRITE_ONCE(ate->marker_head, head + m);
}

/*
 * Is @event started on this CPU? Context: IRQs disabled or NMI. The answer
 * holds until IRQs are enabled, since only this CPU starts or stops it.
 */
static bool aux_test_running_here(struct perf_event *event)
{
	return READ_ONCE(event->oncpu) == smp_processor_id() &&
	       !(READ_ONCE(event->hw.state) & PERF_HES_STOPPED);
}

static enum hrtimer_restart aux_test_tick(struct hrtimer *timer)
{
	struct aux_test_event *ate = container_of(timer, struct aux_test_event, timer);
	struct perf_event *event = ate->event;
	unsigned int nr_data;

	if (event->hw.state & PERF_HES_STOPPED)
		return HRTIMER_NORESTART;

	/* Hard IRQ: nothing of ours is interrupted, the section is free. */
	if (aux_test_enter(AUX_TEST_WRITER)) {
		if (READ_ONCE(event->aux_paused)) {
			nr_data = 0;
			if (ate->rate)
				aux_test_rate_restart(ate);
		} else if (ate->rate) {
			nr_data = aux_test_rate_owed(ate, local_clock());
		} else {
			nr_data = ate->burst;
		}
		aux_test_emit(event, nr_data);
		aux_test_exit();
	}
	hrtimer_forward_now(timer, ns_to_ktime(ate->period_ns));

	return HRTIMER_RESTART;
}

/*
 * The flush irq_work (hard IRQ, on the CPU that queued it): write the
 * markers an NMI queued, and the burst that a resume from NMI owes, if
 * the event still runs here and is not paused again.
 */
static void aux_test_flush(struct irq_work *work)
{
	struct aux_test_event *ate = container_of(work, struct aux_test_event, flush);
	struct perf_event *event = ate->event;
	unsigned int nr_data = 0;

	if (!aux_test_running_here(event) || !aux_test_enter(AUX_TEST_FLUSH))
		return;
	if (xchg(&ate->burst_owed, 0) && !READ_ONCE(event->aux_paused))
		nr_data = aux_test_resume_burst(ate);
	aux_test_emit(event, nr_data);
	aux_test_exit();
}

/*
 * ->stop(PERF_EF_PAUSE)/->start(PERF_EF_RESUME): the core has already set
 * or cleared event->aux_paused, which the generator reads. Mark the
 * switch in the stream (a resume with a burst), unless the event is
 * stopped for another reason or not yet added here (PERF_HES_STOPPED,
 * set from event_init on). From NMI, or when the writer section is taken,
 * only the marker is queued and the flush irq_work writes it (and the
 * burst) once IRQs are enabled.
 */
static void aux_test_pause_resume(struct perf_event *event, bool pause)
{
	struct aux_test_event *ate = to_ate(event);

	if (READ_ONCE(event->hw.state) & PERF_HES_STOPPED)
		return;

	if (in_nmi() || !aux_test_enter(AUX_TEST_WRITER)) {
		aux_test_queue_marker(ate, pause ? AUX_TEST_RECORD_PAUSE :
					   AUX_TEST_RECORD_RESUME);
		WRITE_ONCE(ate->burst_owed, !pause);
		/*
		 * Not from inside a flush: a trigger on code that the flush
		 * runs (a breakpoint in the AUX output path) would queue it
		 * again and again. The next tick writes the marker then.
		 */
		if (__this_cpu_read(aux_test_writing) != AUX_TEST_FLUSH)
			irq_work_queue(&ate->flush);
		return;
	}
	aux_test_queue_marker(ate, pause ? AUX_TEST_RECORD_PAUSE :
				   AUX_TEST_RECORD_RESUME);
	aux_test_emit(event, pause ? 0 : aux_test_resume_burst(ate));
	aux_test_exit();
}

/*
 * ->start(): called on the event's CPU with IRQs disabled. Writes a START
 * record and starts the generator (which writes no data while paused).
 * START is queued before PERF_HES_STOPPED is cleared, so that a pause or
 * resume from NMI cannot put its marker before it.
 */
static void aux_test_start(struct perf_event *event, int flags)
{
	struct aux_test_event *ate = to_ate(event);
	bool entered;

	if (flags & PERF_EF_RESUME) {
		aux_test_pause_resume(event, false);
		return;
	}
	entered = aux_test_enter(AUX_TEST_WRITER);
	aux_test_queue_marker(ate, AUX_TEST_RECORD_START);
	aux_test_rate_restart(ate);
	WRITE_ONCE(event->hw.state, 0);
	if (entered) {
		aux_test_emit(event, 0);
		aux_test_exit();
	} else {
		irq_work_queue(&ate->flush);
	}
	hrtimer_start(&ate->timer, ns_to_ktime(ate->period_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * ->stop(): called on the event's CPU with IRQs disabled, so the pinned
 * timer cannot be running its callback: cancelling it cannot wait. The
 * markers still queued are written first, if there is room now: a PAUSE
 * that waited for the reader is not left for a next tick that a stopped
 * event does not have.
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
	if (aux_test_enter(AUX_TEST_WRITER)) {
		aux_test_emit(event, 0);
		aux_test_exit();
	}
	WRITE_ONCE(event->hw.state, PERF_HES_STOPPED);
	hrtimer_cancel(&ate->timer);
	local64_set(&event->count, ate->seq);
}

static int aux_test_add(struct perf_event *event, int flags)
{
	WRITE_ONCE(event->hw.state, PERF_HES_STOPPED);
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
 * aux_test_get_aux() - take a reference on @rb's AUX area, as
 * perf_aux_output_begin() does: none once perf_mmap_close() has begun to
 * tear it down (aux_mmap_count is zero). The reference is dropped with
 * rb_free_aux(), which cannot free the area here: perf_mmap_close() stops
 * every event writing to @rb (an IPI to this CPU, which waits for us) before
 * it drops its own reference. Returns the area or NULL.
 */
static struct aux_test_buf *aux_test_get_aux(struct perf_buffer *rb)
{
	if (!rb_has_aux(rb) || !atomic_read(&rb->aux_mmap_count))
		return NULL;
	if (!refcount_inc_not_zero(&rb->aux_refcount))
		return NULL;
	return rb->aux_priv;
}

/*
 * ->snapshot_aux(): copy the @size bytes that end at the write position
 * into a PERF_SAMPLE_AUX sample. Called with IRQs disabled on the event's
 * CPU, by a sampler of the group: it is not this event, so the event may
 * be stopped and its AUX area on its way out (munmap on another CPU). The
 * area is only read under a reference (aux_test_get_aux()). The writer
 * section keeps a pause/resume from NMI from writing under the copy; an
 * NMI sampler that interrupted a write copies what is there. The slice
 * ends on a record boundary; a reader parses it from
 * (size % AUX_TEST_RECORD_SIZE). Always fills @size bytes (zeros if there
 * is no AUX area), as the core expects; returns @size.
 */
static long aux_test_snapshot_aux(struct perf_event *event,
				  struct perf_output_handle *handle,
				  unsigned long size)
{
	static const u64 zeros[8];
	struct perf_event *owner = event->parent ? event->parent : event;
	unsigned long from, off, len, copied = 0;
	struct aux_test_buf *buf = NULL;
	struct perf_buffer *rb;
	bool entered = aux_test_enter(AUX_TEST_WRITER);

	rb = ring_buffer_get(owner);
	if (rb)
		buf = aux_test_get_aux(rb);

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
	if (buf)
		rb_free_aux(rb);
	while (copied < size) {
		len = min_t(unsigned long, size - copied, sizeof(zeros));
		if (perf_output_copy(handle, zeros, len))
			break;
		copied += len;
	}
	if (rb)
		ring_buffer_put(rb);
	if (entered)
		aux_test_exit();
	return copied;
}

static void aux_test_event_destroy(struct perf_event *event)
{
	struct aux_test_event *ate = to_ate(event);

	hrtimer_cancel(&ate->timer);
	irq_work_sync(&ate->flush);
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
	/*
	 * The opener's privilege, checked once at perf_event_open(). An
	 * inherited child (@event->parent set) is initialised in the fork of
	 * a task that may have dropped its privileges since: its event was
	 * allowed with the parent's, and refusing it would fail the fork.
	 */
	if (!event->parent && !aux_test_unprivileged && !perfmon_capable())
		return -EACCES;

	if (upper_32_bits(event->attr.config1) || event->attr.config2)
		return -EINVAL;
	if (AUX_TEST_RATE(event->attr.config1) &&
	    (AUX_TEST_RATE(event->attr.config1) > AUX_TEST_RATE_MAX_MBS || AUX_TEST_BURST(config)))
		return -EINVAL;

	period = AUX_TEST_PERIOD(config) ?: AUX_TEST_PERIOD_DEFAULT_US;
	if (period < AUX_TEST_PERIOD_MIN_US || period > AUX_TEST_PERIOD_MAX_US)
		return -EINVAL;
	if (AUX_TEST_DROP(config) == 1 || AUX_TEST_BURST(config) > AUX_TEST_BURST_MAX)
		return -EINVAL;

	ate = kzalloc(sizeof(*ate), GFP_KERNEL);
	if (!ate)
		return -ENOMEM;

	ate->event = event;
	ate->stream = atomic_inc_return(&aux_test_streams);
	ate->period_ns = (u64)period * NSEC_PER_USEC;
	ate->burst = AUX_TEST_BURST(config) ?: 1;
	ate->drop = AUX_TEST_DROP(config);
	ate->rate = AUX_TEST_RATE(event->attr.config1);
	hrtimer_init(&ate->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	ate->timer.function = aux_test_tick;
	ate->flush = IRQ_WORK_INIT_HARD(aux_test_flush);
	/* Not started until ->add(): pause/resume before that do nothing. */
	event->hw.state = PERF_HES_STOPPED;

	event->pmu_private = ate;
	event->destroy = aux_test_event_destroy;

	return 0;
}

PMU_FORMAT_ATTR(period, "config:0-31");
PMU_FORMAT_ATTR(burst, "config:32-47");
PMU_FORMAT_ATTR(drop, "config:48-63");
PMU_FORMAT_ATTR(rate, "config1:0-31");

static struct attribute *aux_test_format_attrs[] = {
	&format_attr_period.attr,
	&format_attr_burst.attr,
	&format_attr_drop.attr,
	&format_attr_rate.attr,
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
