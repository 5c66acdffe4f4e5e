// SPDX-License-Identifier: GPL-2.0
/*
 * aux_consumer: a minimal consumer of a perf AUX area event, with AUX
 * pause/resume, written with the raw system calls and libc only. It
 * follows "Writing a consumer" in
 * Documentation/admin-guide/perf/aux-pause-resume.rst, in this order:
 *
 * - probe_pause_resume(): does the kernel have pause/resume?
 * - open_ring(), one per online CPU: the AUX area event started paused
 *   (attr.aux_start_paused), its trigger events (tracepoints, a data
 *   breakpoint) in its group to resume or pause it when they fire, the
 *   data ring and the AUX area mapped, the triggers' samples sent into that
 *   ring (PERF_EVENT_IOC_SET_OUTPUT);
 * - drain(), handle_record(), handle_aux(): both rings consumed, with the
 *   barriers that pair with the kernel's, and every PERF_RECORD_AUX flag;
 * - handle_sample(), close_window(): one line per trace window, from a
 *   resume trigger's sample to the next pause trigger's sample of the same
 *   task (of the same CPU with -a), with the PERF_RECORD_AUX records
 *   written in between (AUX offsets, bytes, flags) and the losses.
 *
 * Out of the way: aux_consumer_opts.c, the command line (the PMU's sysfs
 * terms, the tracepoints' ids) and the workload; aux_consumer_report.c,
 * the summary and the check of aux_test's records.
 *
 *   aux_consumer -e aux_test/period=10000,burst=3 \
 *	-r syscalls:sys_enter_newuname -p syscalls:sys_exit_newuname -- uname
 *
 * Exit status: 0 success, 1 error, 2 usage, 4 (the kselftest "skip") when
 * the PMU does not exist, the kernel has no AUX pause/resume or the PMU
 * cannot pause.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include "aux_consumer.h"

/* Every event of ours has these, in its samples and its sample_id. */
#define SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)

/* The sample_id that sample_id_all appends to every other record. */
struct sample_id {
	__u32 pid, tid;
	__u64 time;
	__u32 cpu, res;
	__u64 id;
};

/* A PERF_RECORD_SAMPLE of SAMPLE_TYPE. */
struct trigger_sample {
	struct perf_event_header header;
	__u64 id;
	__u32 pid, tid;
	__u64 time;
	__u32 cpu, res;
};

struct aux_record {
	struct perf_event_header header;
	__u64 aux_offset;
	__u64 aux_size;
	__u64 flags;
	struct sample_id sid;
};

struct ring {
	int cpu;
	int fd;			/* the AUX area event, group leader */
	int trig_fd[MAX_TRIGGERS];
	struct perf_event_mmap_page *pc;
	char *data;
	__u64 data_size;
	char *aux;
	__u64 aux_size;
	__u64 aux_tail;		/* what we consumed; mirrors pc->aux_tail */
	bool reenable;		/* TRUNCATED seen: the kernel disabled the event */
	struct window win[MAX_KEYS];	/* by key_of(): see window_of() */
};

static struct ring *rings;
static int nrings;

/* Set by SIGINT and SIGTERM; read with __atomic_load_n() in the main loop. */
static int stop;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/*
 * Does the kernel know the aux_action bits? A kernel without AUX
 * pause/resume has them as __reserved_3 and refuses any of them with
 * EINVAL; one with it refuses aux_start_paused on a PMU that cannot pause
 * (any software event) with EOPNOTSUPP. Returns 0 if it has them, -1 on
 * an error; exits with EXIT_SKIP if it has not.
 */
static int probe_pause_resume(void)
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
	fd = perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		fprintf(stderr, "aux_consumer: a software event accepted aux_start_paused\n");
		return -1;
	}
	if (errno == EOPNOTSUPP)
		return 0;
	if (errno == EINVAL) {
		printf("aux_consumer: skip: this kernel has no AUX pause/resume\n");
		printf("aux_consumer: (aux_start_paused gets EINVAL: the bits are __reserved_3)\n");
		exit(EXIT_SKIP);
	}
	syserr("perf_event_open(software event, aux_start_paused: probe)");
	return -1;
}

/* The AUX area event of @r, its triggers, and both mappings. */
static int open_ring(struct ring *r, pid_t pid)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = opt.type,
		.config = opt.config[0],
		.config1 = opt.config[1],
		.config2 = opt.config[2],
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
		.disabled = 1,
		.watermark = 1,
	};
	__u64 len = (1 + opt.data_pages) * opt.page_size;
	void *map;
	int i;

	attr.wakeup_watermark = opt.data_pages * opt.page_size / 4;
	attr.aux_watermark = opt.aux_pages * opt.page_size / 4;
	attr.aux_start_paused = 1;
	/* Per task: the workload's children too; started by its exec(). */
	attr.inherit = !opt.system_wide;
	attr.enable_on_exec = !opt.system_wide;
	r->fd = perf_event_open(&attr, pid, r->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0) {
		if (errno == EOPNOTSUPP) {
			printf("aux_consumer: skip: PMU %s cannot pause (aux_start_paused: %s)\n",
			       opt.pmu, strerror(errno));
			exit(EXIT_SKIP);
		}
		syserr("perf_event_open(%s, cpu %d)", opt.pmu, r->cpu);
		return -1;
	}

	/* The control page and the data ring: always read-write. */
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (map == MAP_FAILED) {
		syserr("mmap(data area, %llu bytes, cpu %d)", (unsigned long long)len, r->cpu);
		return -1;
	}
	r->pc = map;
	r->data = (char *)map + opt.page_size;
	r->data_size = opt.data_pages * opt.page_size;

	/*
	 * The AUX area: its place in the file is ours to choose, after the
	 * data area; aux_offset and aux_size are written before the mmap().
	 * Read-write: we advance aux_tail, the kernel never overwrites what we
	 * have not consumed (read-only would be overwrite, snapshot, mode).
	 */
	r->aux_size = (__u64)opt.aux_pages * opt.page_size;
	r->pc->aux_offset = len;
	r->pc->aux_size = r->aux_size;
	map = mmap(NULL, r->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, len);
	if (map == MAP_FAILED) {
		syserr("mmap(AUX area, %llu bytes, cpu %d)", (unsigned long long)r->aux_size,
		       r->cpu);
		return -1;
	}
	r->aux = map;

	for (i = 0; i < opt.ntrig; i++) {
		struct trigger *t = &opt.trig[i];
		struct perf_event_attr ta = {
			.size = sizeof(ta),
			.type = t->type,
			.config = t->config,
			.sample_period = 1,
			.sample_type = SAMPLE_TYPE,
			.sample_id_all = 1,
		};
		__u64 id;
		int fd;

		ta.inherit = attr.inherit;
		if (t->resume)
			ta.aux_resume = 1;
		else
			ta.aux_pause = 1;
		if (t->type == PERF_TYPE_BREAKPOINT) {
			ta.bp_type = HW_BREAKPOINT_W;
			ta.bp_addr = t->addr;
			ta.bp_len = HW_BREAKPOINT_LEN_8;
		}
		/* In the group of the AUX area event: that is what it acts on. */
		fd = perf_event_open(&ta, pid, r->cpu, r->fd, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			syserr("perf_event_open(trigger %s %s, cpu %d)",
			       t->resume ? "resume" : "pause", t->spec, r->cpu);
			return -1;
		}
		r->trig_fd[i] = fd;
		/*
		 * Its samples go into the AUX event's data ring, in order with
		 * the PERF_RECORD_AUX records: that is how windows are seen.
		 * Needs the same CPU (and clock), and the target mapped first.
		 */
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd)) {
			syserr("ioctl(PERF_EVENT_IOC_SET_OUTPUT, trigger %s, cpu %d)", t->spec,
			       r->cpu);
			return -1;
		}
		/* Its id, in its samples (PERF_SAMPLE_IDENTIFIER), says which it is. */
		if (ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
			syserr("ioctl(PERF_EVENT_IOC_ID)");
			exit(1);
		}
		add_trigger_id(i, id);
	}
	return 0;
}

/* What the rings held, for print_summary(). */
static struct counts st;

/* The window of @key in the table @win (MAX_KEYS), a new one if none. */
static struct window *window_of(struct window *win, __u32 key)
{
	int i, free_slot = -1;

	for (i = 0; i < MAX_KEYS; i++) {
		if (win[i].used && win[i].key == key)
			return &win[i];
		if (!win[i].used && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return NULL;
	memset(&win[free_slot], 0, sizeof(win[free_slot]));
	win[free_slot].used = true;
	win[free_slot].key = key;
	return &win[free_slot];
}

/* Per task; with -a, one per CPU: the AUX event that the triggers act on. */
static __u32 key_of(__u32 tid)
{
	return opt.system_wide ? 0 : tid;
}

static void print_time(__u64 ns)
{
	printf("%llu.%09llu", (unsigned long long)(ns / 1000000000),
	       (unsigned long long)(ns % 1000000000));
}

static void close_window(struct window *w, __u64 end, bool at_exit)
{
	__u64 losses = w->truncated + w->partial + w->collision + w->lost;

	st.windows++;
	st.window_bytes += w->bytes;
	printf("window %llu: tid %u cpu %u time ", (unsigned long long)st.windows, w->tid, w->cpu);
	print_time(w->start);
	if (at_exit) {
		printf("-(open at the end)");
	} else {
		printf("-");
		print_time(end);
		printf(" (%llu ns)", (unsigned long long)(end - w->start));
	}
	if (w->records)
		printf(" aux 0x%llx-0x%llx", (unsigned long long)w->first_off,
		       (unsigned long long)w->end_off);
	printf(" bytes %llu records %llu lost %llu", (unsigned long long)w->bytes,
	       (unsigned long long)w->records, (unsigned long long)losses);
	if (losses)
		printf(" (truncated %llu partial %llu collision %llu lost-records %llu)",
		       (unsigned long long)w->truncated, (unsigned long long)w->partial,
		       (unsigned long long)w->collision, (unsigned long long)w->lost);
	if (opt.aux_test)
		aux_test_print_window(&w->t);
	printf("\n");
	w->open = false;
}

static void handle_sample(struct ring *r, const struct trigger_sample *s)
{
	struct trigger *t = trigger_of(s->id);
	struct window *w;

	if (!t) {
		st.other++;
		return;
	}
	t->samples++;
	if (opt.verbose) {
		printf("  ");
		print_time(s->time);
		printf(" cpu %u tid %u %s %s\n", s->cpu, s->tid, t->resume ? "resume" : "pause",
		       t->spec);
	}
	w = window_of(r->win, key_of(s->tid));
	if (!w) {
		st.other++;
		return;
	}
	if (t->resume) {
		/* A resume of a running event does nothing: the window goes on. */
		if (w->open) {
			st.reopened++;
			return;
		}
		*w = (struct window){ .used = true, .key = w->key, .open = true,
				      .tid = s->tid, .cpu = s->cpu, .start = s->time };
	} else if (w->open) {
		close_window(w, s->time, false);
	} else {
		st.unmatched_pause++;
	}
}

static void handle_aux(struct ring *r, const struct aux_record *a)
{
	struct window *w = window_of(r->win, key_of(a->sid.tid));

	if (w && !w->open)
		w = NULL;
	st.aux_records++;
	if (opt.verbose)
		printf("  PERF_RECORD_AUX cpu %u tid %u offset 0x%llx size %llu flags 0x%llx%s\n",
		       a->sid.cpu, a->sid.tid, (unsigned long long)a->aux_offset,
		       (unsigned long long)a->aux_size, (unsigned long long)a->flags,
		       w ? "" : " (outside windows)");
	/*
	 * The flags. TRUNCATED: the AUX area was full, the record holds what
	 * fitted and the kernel disabled the event; drain() enables it again
	 * once the space is given back. PARTIAL (the PMU dropped data) and
	 * COLLISION (its samples collided): losses of the window. OVERWRITE
	 * only comes with a read-only AUX area (overwrite mode), not ours.
	 * PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK: the PMU's data format
	 * (CoreSight), not a loss.
	 */
	if (a->flags & PERF_AUX_FLAG_TRUNCATED) {
		st.truncated++;
		r->reenable = true;
	}
	st.partial += !!(a->flags & PERF_AUX_FLAG_PARTIAL);
	st.collision += !!(a->flags & PERF_AUX_FLAG_COLLISION);
	st.overwrite += !!(a->flags & PERF_AUX_FLAG_OVERWRITE);
	if (w) {
		if (!w->records)
			w->first_off = a->aux_offset;
		w->end_off = a->aux_offset + a->aux_size;
		w->records++;
		w->bytes += a->aux_size;
		w->truncated += !!(a->flags & PERF_AUX_FLAG_TRUNCATED);
		w->partial += !!(a->flags & PERF_AUX_FLAG_PARTIAL);
		w->collision += !!(a->flags & PERF_AUX_FLAG_COLLISION);
	} else {
		st.outside_records++;
		st.outside_bytes += a->aux_size;
	}
	if (a->aux_size > r->aux_size || a->aux_offset < r->aux_tail) {
		fprintf(stderr,
			"aux_consumer: PERF_RECORD_AUX offset 0x%llx size %llu: outside the unread AUX data (tail 0x%llx)\n",
			(unsigned long long)a->aux_offset, (unsigned long long)a->aux_size,
			(unsigned long long)r->aux_tail);
		return;
	}
	/* Bytes between our tail and this record that no record announced. */
	st.unreported += a->aux_offset - r->aux_tail;

	/*
	 * The data at [aux_offset, aux_offset + aux_size) is ours to read,
	 * with no barrier of its own: the kernel wrote this record after the
	 * PMU's data, and drain() read the record after data_head (C), whose
	 * store the kernel ordered after both (B).
	 */
	if (opt.aux_test)
		aux_test_check(r->aux, r->aux_size, a->aux_offset, a->aux_size,
			       w ? &w->t : NULL);

	/*
	 * Give the bytes back: a store-release of aux_tail orders our reads of
	 * the AUX data before it.
	 */
	r->aux_tail = a->aux_offset + a->aux_size;
	/* D, matches A (on aux_tail, in perf_aux_output_begin()) */
	__atomic_store_n(&r->pc->aux_tail, r->aux_tail, __ATOMIC_RELEASE);
}

static void handle_record(struct ring *r, const struct perf_event_header *h)
{
	const struct sample_id *sid = (const void *)((const char *)h + h->size - sizeof(*sid));
	const __u64 *body = (const __u64 *)(h + 1);
	struct window *w;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size < sizeof(struct trigger_sample))
			break;
		handle_sample(r, (const void *)h);
		return;
	case PERF_RECORD_AUX:
		if (h->size < sizeof(struct aux_record))
			break;
		handle_aux(r, (const void *)h);
		return;
	case PERF_RECORD_LOST:		/* { id, lost }: the data ring was full */
	case PERF_RECORD_LOST_SAMPLES:	/* { lost }: samples the PMU dropped */
		if (h->size < sizeof(*h) + (h->type == PERF_RECORD_LOST ? 16 : 8) +
			      sizeof(*sid))
			break;
		if (h->type == PERF_RECORD_LOST)
			st.lost += body[1];
		else
			st.lost_samples += body[0];
		printf("aux_consumer: %s: %llu lost (cpu %u, tid %u)\n",
		       h->type == PERF_RECORD_LOST ? "PERF_RECORD_LOST" :
		       "PERF_RECORD_LOST_SAMPLES",
		       (unsigned long long)body[h->type == PERF_RECORD_LOST],
		       sid->cpu, sid->tid);
		w = window_of(r->win, key_of(sid->tid));
		if (w && w->open)
			w->lost += body[h->type == PERF_RECORD_LOST];
		return;
	case PERF_RECORD_ITRACE_START:	/* { pid, tid }: tracing started for a task */
		st.itrace_start++;
		if (opt.verbose)
			printf("  PERF_RECORD_ITRACE_START cpu %u tid %u\n", sid->cpu, sid->tid);
		return;
	}
	st.other++;
}

/*
 * Consume the data ring, with the user side of the barriers in the comment
 * of perf_output_put_handle() (kernel/events/ring_buffer.c):
 *
 *   kernel				user
 *
 *   if (LOAD ->data_tail) {		LOAD ->data_head
 *			(A)		smp_rmb()	(C)
 *	STORE $data			LOAD $data
 *	smp_wmb()	(B)		smp_mb()	(D)
 *	STORE ->data_head		STORE ->data_tail
 *   }
 *
 * (C) is a load-acquire of data_head: every record below it is complete.
 * (D) is a store-release of data_tail: our reads of the records complete
 * before the kernel may write over them.
 */
static void drain(struct ring *r)
{
	static union {
		struct perf_event_header h;
		char buf[65536];
	} rec;
	__u64 head, tail;

	/* C, matches B (before the data_head store, perf_output_put_handle()) */
	head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	tail = r->pc->data_tail;	/* only we write it */
	while (tail < head) {
		ring_copy(&rec.h, r->data, r->data_size, tail, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h) || rec.h.size > head - tail) {
			fprintf(stderr, "aux_consumer: corrupt record (size %u) at 0x%llx\n",
				rec.h.size, (unsigned long long)tail);
			tail = head;
			break;
		}
		ring_copy(rec.buf, r->data, r->data_size, tail, rec.h.size);
		handle_record(r, &rec.h);
		tail += rec.h.size;
	}
	/* D, matches A (on data_tail, in __perf_output_begin()) */
	__atomic_store_n(&r->pc->data_tail, tail, __ATOMIC_RELEASE);

	/*
	 * TRUNCATED: the AUX area filled up and the kernel disabled the event
	 * (perf_event_disable_inatomic()). Now that the space is given back,
	 * enable it again; the gap stays a loss of its window.
	 */
	if (r->reenable) {
		r->reenable = false;
		if (ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0))
			syserr("ioctl(PERF_EVENT_IOC_ENABLE, cpu %d)", r->cpu);
	}
}

/* Takes what the stopped events left, closes the open windows, sums up. */
static void finish(void)
{
	int i, k;

	for (i = 0; i < nrings; i++) {
		struct ring *r = &rings[i];
		/*
		 * aux_head may be ahead of the records: what PMUs skip
		 * (padding). Loaded with acquire as data_head is (C); we only
		 * count the bytes below it, and give them back (D, matches A).
		 */
		__u64 aux_head = __atomic_load_n(&r->pc->aux_head, __ATOMIC_ACQUIRE);

		if (aux_head > r->aux_tail) {
			st.unreported += aux_head - r->aux_tail;
			r->aux_tail = aux_head;
			__atomic_store_n(&r->pc->aux_tail, aux_head, __ATOMIC_RELEASE);
		}
		for (k = 0; k < MAX_KEYS; k++)
			if (r->win[k].used && r->win[k].open)
				close_window(&r->win[k], 0, true);
	}
	print_summary(&st);
}

int main(int argc, char **argv)
{
	int cpus[MAX_CPUS], ncpus, cmd, i, ret = 0;
	pid_t pid = -1;
	struct pollfd *pfd;
	time_t deadline;

	setvbuf(stdout, NULL, _IOLBF, 0);
	opt.page_size = sysconf(_SC_PAGESIZE);
	cmd = parse_options(argc, argv);
	if (cmd < 0)
		return 1;

	if (probe_pause_resume())
		return 1;
	printf("aux_consumer: the kernel has AUX pause/resume\n");
	print_options();

	ncpus = online_cpus(cpus);
	if (ncpus <= 0)
		return 1;
	rings = calloc(ncpus, sizeof(*rings));
	pfd = calloc(ncpus, sizeof(*pfd));
	if (!rings || !pfd) {
		fprintf(stderr, "aux_consumer: out of memory\n");
		return 1;
	}

	/* The workload waits until its events exist, then exec()s. */
	if (cmd < argc) {
		pid = start_workload(argv + cmd);
		if (pid < 0)
			return 1;
	}

	for (i = 0; i < ncpus; i++) {
		rings[i].cpu = cpus[i];
		if (open_ring(&rings[i], opt.system_wide ? -1 : pid)) {
			ret = 1;
			goto out_kill;
		}
		nrings++;
		pfd[i].fd = rings[i].fd;
		pfd[i].events = POLLIN;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* Per task, enable_on_exec starts them; system-wide, we do. */
	if (opt.system_wide) {
		for (i = 0; i < nrings; i++) {
			if (ioctl(rings[i].fd, PERF_EVENT_IOC_ENABLE, 0)) {
				syserr("ioctl(PERF_EVENT_IOC_ENABLE, cpu %d)", rings[i].cpu);
				ret = 1;
				goto out_kill;
			}
		}
	}
	if (pid > 0 && run_workload(pid, argv + cmd))
		return 1;

	deadline = time(NULL) + (opt.duration ? opt.duration : 1);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (poll(pfd, nrings, 100) < 0 && errno != EINTR) {
			syserr("poll");
			ret = 1;
			break;
		}
		for (i = 0; i < nrings; i++)
			drain(&rings[i]);
		if (pid > 0 ? workload_ended(&pid, &ret) : time(NULL) >= deadline)
			break;
	}
	/* Stop the events, then take what they wrote last. */
	for (i = 0; i < nrings; i++) {
		ioctl(rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
		drain(&rings[i]);
	}
	finish();

out_kill:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return ret;
}
