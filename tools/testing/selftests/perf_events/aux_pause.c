// SPDX-License-Identifier: GPL-2.0
/*
 * AUX area pause/resume (attr.aux_start_paused, aux_pause, aux_resume),
 * tested through the raw system calls on aux_test, the software AUX PMU,
 * which writes a PAUSE record when tracing pauses, a RESUME record and a
 * burst when it resumes, and no DATA record while paused. So the stream
 * shows every window exactly, and each one is counted against the count
 * of the event that triggered it.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <linux/hw_breakpoint.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

#define AUX_PAGES	64
#define WINDOWS		100
#define BURST		2

/* What a stream of records says about its windows. */
struct windows {
	long start, pause, resume, data;
	long data_outside;	/* DATA while paused */
	long empty;		/* windows without DATA */
	long nested;		/* PAUSE while paused, RESUME while running */
	long bad;		/* bad magic/type, seq going back */
	long gaps;		/* records generated but not stored */
	/* The first nested marker: its seq, the marker before it and its seq */
	__u64 nested_seq, nested_prev_seq;
	int nested_prev_type;
	long nested_gaps;	/* gaps seen before it */
	__u64 marker_seq;	/* seq of the last marker (START, PAUSE, RESUME) */
	int marker_type;
};

static const char *const rec_names[] = {
	[AUX_TEST_RECORD_START] = "START", [AUX_TEST_RECORD_PAUSE] = "PAUSE",
	[AUX_TEST_RECORD_RESUME] = "RESUME", [AUX_TEST_RECORD_DATA] = "DATA",
};

static const char *rec_name(int type)
{
	return type > 0 && type < AUX_TEST_RECORD_MAX ? rec_names[type] : "none";
}

/* Where the first nested marker was, for the log of a failing case. */
static void log_nested(struct __test_metadata *_metadata, const struct windows *w)
{
	if (w->nested)
		TH_LOG("first nested marker: seq %llu after %s seq %llu, %ld gaps before",
		       (unsigned long long)w->nested_seq, rec_name(w->nested_prev_type),
		       (unsigned long long)w->nested_prev_seq, w->nested_gaps);
}

static void note_nested(struct windows *w, const struct aux_test_record *r)
{
	if (!w->nested++) {
		w->nested_seq = r->seq;
		w->nested_prev_seq = w->marker_seq;
		w->nested_prev_type = w->marker_type;
		w->nested_gaps = w->gaps;
	}
}

static void note_marker(struct windows *w, const struct aux_test_record *r)
{
	w->marker_seq = r->seq;
	w->marker_type = r->type;
}

/*
 * Walk the records in [from, to). @paused: the state before @from. The
 * paused state outlives a stop, so a START keeps it; but pause/resume
 * requests that come while the event is stopped leave no record, so with
 * @start_unknown (triggers that may fire while the event is stopped, as
 * when the AUX area is unmapped) the state after a START is only known
 * again at the next marker. The same holds after a sequence gap there:
 * while the AUX area is being unmapped the event runs on without it, and
 * markers that queue up beyond the driver's queue are lost, as gaps
 * (aux-test.rst). A task's own triggers cannot fire while its event is
 * scheduled out.
 */
static void scan(struct rb *rb, __u64 from, __u64 to, struct windows *w,
		 int *paused, __u64 *last_seq, bool start_unknown)
{
	long in_window = -1;	/* DATA in the open window, -1: none open */

	for (; from + REC <= to; from += REC) {
		const struct aux_test_record *r = rec_at(rb, from);

		if (r->magic != AUX_TEST_MAGIC || !r->type ||
		    r->type >= AUX_TEST_RECORD_MAX ||
		    (*last_seq != (__u64)-1 && r->seq <= *last_seq)) {
			w->bad++;
			continue;
		}
		if (*last_seq != (__u64)-1 && r->seq != *last_seq + 1) {
			w->gaps++;
			if (start_unknown) {
				*paused = -1;
				in_window = -1;
			}
		}
		*last_seq = r->seq;
		switch (r->type) {
		case AUX_TEST_RECORD_START:
			w->start++;
			if (start_unknown)
				*paused = -1;
			note_marker(w, r);
			break;
		case AUX_TEST_RECORD_PAUSE:
			w->pause++;
			if (*paused == 1)
				note_nested(w, r);
			note_marker(w, r);
			if (in_window == 0)
				w->empty++;
			in_window = -1;
			*paused = 1;
			break;
		case AUX_TEST_RECORD_RESUME:
			w->resume++;
			if (*paused == 0)
				note_nested(w, r);
			note_marker(w, r);
			in_window = 0;
			*paused = 0;
			break;
		case AUX_TEST_RECORD_DATA:
			w->data++;
			if (*paused == 1)
				w->data_outside++;
			if (in_window >= 0)
				in_window++;
			break;
		}
	}
}

static void scan_all(struct rb *rb, struct windows *w, int paused)
{
	__u64 head = __atomic_load_n(&rb->pc->aux_head, __ATOMIC_ACQUIRE);
	__u64 last = (__u64)-1;

	memset(w, 0, sizeof(*w));
	scan(rb, 0, head, w, &paused, &last, false);
}

static long count_of(int fd)
{
	__u64 count;

	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return -1;
	return count;
}

static long getppid_raw(void)
{
	return syscall(SYS_getppid);
}

FIXTURE(pause) {
	int type;
	int enter_id, exit_id;
	struct rb rb;
	int trig[2];
};

FIXTURE_SETUP(pause)
{
	page_size = sysconf(_SC_PAGESIZE);
	self->rb.fd = -1;
	self->trig[0] = -1;
	self->trig[1] = -1;
	self->type = pmu_type();
	if (self->type < 0)
		SKIP(return, "no aux_test PMU (CONFIG_PERF_AUX_TEST_PMU)");
	self->enter_id = tracepoint_id("syscalls/sys_enter_getppid");
	self->exit_id = tracepoint_id("syscalls/sys_exit_getppid");
}

FIXTURE_TEARDOWN(pause)
{
	if (self->trig[0] >= 0)
		close(self->trig[0]);
	if (self->trig[1] >= 0)
		close(self->trig[1]);
	unmap_rb(&self->rb);
}

/*
 * This task's aux_test event, paused from the start, as group leader:
 * a 10 ms period (the windows are made of resume bursts) and BURST
 * records a burst.
 */
static void open_leader(struct __test_metadata *_metadata, FIXTURE_DATA(pause) *self)
{
	struct perf_event_attr attr;
	int fd;

	init_attr(&attr, self->type, cfg(10000, BURST, 0));
	attr.aux_start_paused = 1;
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_start_paused: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, AUX_PAGES, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));
}

/* A trigger in the leader's group: @pause is 1 for aux_pause, 0 for resume. */
static int open_trigger(struct __test_metadata *_metadata, FIXTURE_DATA(pause) *self,
			struct perf_event_attr *attr, int pause)
{
	int fd;

	if (pause)
		attr->aux_pause = 1;
	else
		attr->aux_resume = 1;
	fd = perf_open(attr, 0, -1, self->rb.fd);
	if (fd < 0)
		TH_LOG("trigger (type %u config %llu): %s", attr->type,
		       (unsigned long long)attr->config, strerror(errno));
	return fd;
}

static void need_tracepoints(struct __test_metadata *_metadata, FIXTURE_DATA(pause) *self)
{
	if (self->enter_id < 0 || self->exit_id < 0)
		SKIP(return, "no syscall tracepoints (CONFIG_FTRACE_SYSCALLS, tracefs)");
}

/* Check @w against @n windows opened by @resumes and closed by @pauses. */
static void check_windows(struct __test_metadata *_metadata, struct windows *w,
			  long n, long resumes, long pauses)
{
	TH_LOG("windows: %ld resume, %ld pause records for %ld/%ld triggers",
	       w->resume, w->pause, resumes, pauses);
	TH_LOG("data records: %ld, %ld outside windows; %ld empty windows",
	       w->data, w->data_outside, w->empty);
	EXPECT_EQ(w->bad, 0);
	EXPECT_GE(w->start, 1);	/* one more each time the task is scheduled in */
	EXPECT_EQ(resumes, n);
	EXPECT_EQ(pauses, n);
	EXPECT_EQ(w->resume, resumes);
	EXPECT_EQ(w->pause, pauses);
	log_nested(_metadata, w);
	EXPECT_EQ(w->nested, 0);
	EXPECT_EQ(w->data_outside, 0);
	EXPECT_EQ(w->empty, 0);
	EXPECT_GE(w->data, n * BURST);
}

/* aux_start_paused: no DATA at all until a resume. */
TEST_F(pause, start_paused_no_data)
{
	struct perf_event_attr attr;
	struct windows w;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	open_leader(_metadata, self);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	ASSERT_GE(self->trig[0], 0);

	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(60);	/* six periods */
	scan_all(&self->rb, &w, 1);
	EXPECT_GE(w.start, 1);
	EXPECT_EQ(w.data, 0) TH_LOG("%ld DATA records while started paused", w.data);
	EXPECT_EQ(w.resume, 0);

	getppid_raw();
	spin_ms(30);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	scan_all(&self->rb, &w, 1);
	EXPECT_EQ(w.resume, 1);
	EXPECT_EQ(w.data_outside, 0);
	EXPECT_GE(w.data, BURST) TH_LOG("no DATA after the resume");
	EXPECT_EQ(w.bad, 0);
}

/* Windows opened by sys_enter_getppid, closed by sys_exit_getppid. */
TEST_F(pause, tracepoint_windows)
{
	struct perf_event_attr attr;
	struct windows w;
	int i;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	open_leader(_metadata, self);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->exit_id);
	self->trig[1] = open_trigger(_metadata, self, &attr, 1);
	ASSERT_GE(self->trig[0], 0);
	ASSERT_GE(self->trig[1], 0);

	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < WINDOWS; i++)
		getppid_raw();
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	scan_all(&self->rb, &w, 1);
	check_windows(_metadata, &w, WINDOWS, count_of(self->trig[0]),
		      count_of(self->trig[1]));
}

/*
 * Windows opened by a tracepoint and closed by a software event: the
 * task's own page faults, one per write to a page dropped just before.
 */
TEST_F(pause, software_event_windows)
{
	struct perf_event_attr attr;
	struct windows w;
	char *page;
	int i;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(page, MAP_FAILED);
	open_leader(_metadata, self);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	init_trigger(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	self->trig[1] = open_trigger(_metadata, self, &attr, 1);
	ASSERT_GE(self->trig[0], 0);
	ASSERT_GE(self->trig[1], 0);

	/* Fault in everything the loop touches but the page itself. */
	for (i = 0; i < 2; i++) {
		getppid_raw();
		madvise(page, page_size, MADV_DONTNEED);
		__atomic_store_n(&page[0], i, __ATOMIC_RELAXED);
	}
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < WINDOWS; i++) {
		getppid_raw();
		madvise(page, page_size, MADV_DONTNEED);
		/* one minor fault: the pause */
		__atomic_store_n(&page[0], i, __ATOMIC_RELAXED);
	}
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	scan_all(&self->rb, &w, 1);
	check_windows(_metadata, &w, WINDOWS, count_of(self->trig[0]),
		      count_of(self->trig[1]));
	munmap(page, page_size);
}

/*
 * Written with atomic stores, so that every write is made; 64 bytes
 * apart, so that no breakpoint range touches another.
 */
static unsigned long bp_vars[2][8];
#define bp_open		(bp_vars[0][0])
#define bp_close	(bp_vars[1][0])

static void bp_write(unsigned long *var, unsigned long val)
{
	__atomic_store_n(var, val, __ATOMIC_RELAXED);
}

static void init_bp(struct perf_event_attr *attr, unsigned long *var)
{
	init_trigger(attr, PERF_TYPE_BREAKPOINT, 0);
	attr->bp_type = HW_BREAKPOINT_W;
	attr->bp_addr = (unsigned long)var;
	attr->bp_len = sizeof(*var);
}

static bool no_breakpoint(int err)
{
	return err == ENODEV || err == ENOENT || err == EOPNOTSUPP || err == ENOSPC;
}

/*
 * With two data breakpoints set, does a hit of one also count as a hit
 * of the other? Hardware does not; QEMU's x86 emulation does at times
 * (bp_close counted 198 hits for 100 writes, with a write to bp_open
 * before each), depending on its state and on which debug registers are
 * used. So the probe does what two_breakpoint_windows will do, before it
 * opens its own breakpoints, so that the probe's take the same debug
 * registers: counting breakpoints on bp_open and bp_close, written in
 * turn WINDOWS times. Where either counts more, the counts of two
 * breakpoints cannot be trusted.
 */
static bool stale_breakpoint_hits(void)
{
	struct perf_event_attr attr;
	long hits[2] = { 0, 0 };
	int fd[2], i;

	init_bp(&attr, &bp_open);
	attr.sample_period = 0;
	fd[0] = perf_open(&attr, 0, -1, -1);
	attr.bp_addr = (unsigned long)&bp_close;
	fd[1] = perf_open(&attr, 0, -1, -1);
	if (fd[0] >= 0 && fd[1] >= 0) {
		for (i = 0; i < WINDOWS; i++) {
			bp_write(&bp_open, i);
			bp_write(&bp_close, i);
		}
		hits[0] = count_of(fd[0]);
		hits[1] = count_of(fd[1]);
	}
	for (i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return hits[0] > WINDOWS || hits[1] > WINDOWS;
}

/*
 * Windows switched by one data breakpoint and a tracepoint: @bp_pauses
 * says whether the write to bp_open pauses (getppid's entry resumes) or
 * resumes (getppid's entry pauses).
 */
static void bp_and_tracepoint_windows(struct __test_metadata *_metadata,
				      FIXTURE_DATA(pause) *self, int bp_pauses)
{
	struct perf_event_attr attr;
	struct windows w;
	int i;

	need_tracepoints(_metadata, self);
	open_leader(_metadata, self);
	init_bp(&attr, &bp_open);
	self->trig[0] = open_trigger(_metadata, self, &attr, bp_pauses);
	if (self->trig[0] < 0 && no_breakpoint(errno))
		SKIP(return, "this CPU (or its emulation) offers no data breakpoint: %s",
		     strerror(errno));
	ASSERT_GE(self->trig[0], 0);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	self->trig[1] = open_trigger(_metadata, self, &attr, !bp_pauses);
	ASSERT_GE(self->trig[1], 0);

	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < WINDOWS; i++) {
		if (bp_pauses) {
			getppid_raw();
			bp_write(&bp_open, i);
		} else {
			bp_write(&bp_open, i);
			getppid_raw();
		}
	}
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	scan_all(&self->rb, &w, 1);
	if (bp_pauses)
		check_windows(_metadata, &w, WINDOWS, count_of(self->trig[1]),
			      count_of(self->trig[0]));
	else
		check_windows(_metadata, &w, WINDOWS, count_of(self->trig[0]),
			      count_of(self->trig[1]));
}

/* Windows opened by a write to bp_open, closed by sys_enter_getppid. */
TEST_F(pause, breakpoint_resume_windows)
{
	IF_SETUP_SKIPPED(return);
	bp_and_tracepoint_windows(_metadata, self, 0);
}

/* Windows opened by sys_enter_getppid, closed by a write to bp_open. */
TEST_F(pause, breakpoint_pause_windows)
{
	IF_SETUP_SKIPPED(return);
	bp_and_tracepoint_windows(_metadata, self, 1);
}

/* Windows opened by a write to bp_open and closed by a write to bp_close. */
TEST_F(pause, two_breakpoint_windows)
{
	struct perf_event_attr attr;
	struct windows w;
	int i;

	IF_SETUP_SKIPPED(return);
	if (stale_breakpoint_hits())
		SKIP(return, "%s",
		     "this CPU's emulation counts a hit of one data breakpoint for another too");
	open_leader(_metadata, self);
	init_bp(&attr, &bp_open);
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	if (self->trig[0] < 0 && no_breakpoint(errno))
		SKIP(return, "this CPU (or its emulation) offers no data breakpoint: %s",
		     strerror(errno));
	ASSERT_GE(self->trig[0], 0);
	init_bp(&attr, &bp_close);
	self->trig[1] = open_trigger(_metadata, self, &attr, 1);
	if (self->trig[1] < 0 && errno == ENOSPC)
		SKIP(return, "only one data breakpoint slot");
	ASSERT_GE(self->trig[1], 0);

	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < WINDOWS; i++) {
		bp_write(&bp_open, i);
		bp_write(&bp_close, i);
	}
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	scan_all(&self->rb, &w, 1);
	check_windows(_metadata, &w, WINDOWS, count_of(self->trig[0]),
		      count_of(self->trig[1]));
}

/* Pausing a paused event and resuming a running one leave no record. */
TEST_F(pause, repeated_requests_do_nothing)
{
	struct perf_event_attr attr;
	struct windows w;
	int i;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	open_leader(_metadata, self);
	/* Both getppid tracepoints resume, so every second one is a no-op. */
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->exit_id);
	self->trig[1] = open_trigger(_metadata, self, &attr, 0);
	ASSERT_GE(self->trig[0], 0);
	ASSERT_GE(self->trig[1], 0);

	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < 10; i++)
		getppid_raw();
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	scan_all(&self->rb, &w, 1);
	EXPECT_EQ(count_of(self->trig[0]) + count_of(self->trig[1]), 20);
	EXPECT_EQ(w.resume, 1);
	EXPECT_EQ(w.pause, 0);
	log_nested(_metadata, &w);
	EXPECT_EQ(w.nested, 0);
}

/*
 * Rate mode floods the AUX area at every period, so a pause most often
 * finds it full: its PAUSE record must wait for room, not vanish. Each
 * round the reader empties the area (after reading it), getppid resumes,
 * the flood fills the area, getpgrp pauses. Every trigger must show in
 * the stream, and no DATA while paused.
 */
TEST_F(pause, rate_mode_full_area_keeps_markers)
{
	const int rounds = 200;
	struct perf_event_attr attr;
	__u64 tail = 0, head, last = (__u64)-1;
	int i, paused = 1, pgrp_id, fd;
	struct windows w;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	pgrp_id = tracepoint_id("syscalls/sys_enter_getpgrp");
	if (pgrp_id < 0)
		SKIP(return, "no syscalls:sys_enter_getpgrp tracepoint");
	init_attr(&attr, self->type, cfg(100, 0, 0));
	attr.config1 = AUX_TEST_RATE_MAX_MBS;
	attr.aux_start_paused = 1;
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test rate mode: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 8, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, pgrp_id);
	self->trig[1] = open_trigger(_metadata, self, &attr, 1);
	ASSERT_GE(self->trig[0], 0);
	ASSERT_GE(self->trig[1], 0);

	memset(&w, 0, sizeof(w));
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i <= rounds; i++) {
		head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
		scan(&self->rb, tail, head, &w, &paused, &last, false);
		tail = head;
		__atomic_store_n(&self->rb.pc->aux_tail, tail, __ATOMIC_RELEASE);
		__atomic_store_n(&self->rb.pc->data_tail,
				 __atomic_load_n(&self->rb.pc->data_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		if (i == rounds)
			break;
		getppid_raw();
		spin_ms(3);
		syscall(SYS_getpgrp);
	}
	/*
	 * Room again, and the event stops at once: the last PAUSE, which
	 * found the area full and waited, is written when the event stops,
	 * not left for a next period that a stopped event does not have
	 * (with a 20 ms wait here for that period, 199 of 200 in some runs).
	 */
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	scan(&self->rb, tail, head, &w, &paused, &last, false);

	TH_LOG("%d rounds: records/triggers resume %ld/%ld pause %ld/%ld; DATA %ld, paused %ld",
	       rounds, w.resume, count_of(self->trig[0]), w.pause, count_of(self->trig[1]),
	       w.data, w.data_outside);
	EXPECT_EQ(count_of(self->trig[0]), rounds);
	EXPECT_EQ(count_of(self->trig[1]), rounds);
	EXPECT_EQ(w.resume, rounds);
	EXPECT_EQ(w.pause, rounds) TH_LOG("PAUSE records lost");
	log_nested(_metadata, &w);
	EXPECT_EQ(w.nested, 0);
	EXPECT_EQ(w.data_outside, 0);
	EXPECT_EQ(w.bad, 0);
	EXPECT_EQ(paused, 1);
}

/*
 * A run whose markers fill the driver's queue (the AUX area full, the
 * reader away) must not cost the next run its START: PAUSE and RESUME
 * stop at fifteen, the last place is kept for a START. Rate mode keeps the
 * event running with the area full; 20 pause/resume pairs queue 15
 * markers and lose 25; disable and enable start a new run; once the
 * reader frees room, the queue comes out in order, START last. A CPU-wide
 * event, so that no context switch of ours adds STARTs of its own (a
 * task's event writes one at every schedule-in).
 */
TEST_F(pause, full_marker_queue_keeps_start)
{
	const int pairs = 20;
	struct perf_event_attr attr;
	__u64 tail, head, last = (__u64)-1;
	int i, paused = -1, pgrp_id, fd;
	struct windows w;
	cpu_set_t cpu0;
	char order[64];

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	pgrp_id = tracepoint_id("syscalls/sys_enter_getpgrp");
	if (pgrp_id < 0)
		SKIP(return, "no syscalls:sys_enter_getpgrp tracepoint");
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(sched_setaffinity(0, sizeof(cpu0), &cpu0), 0);
	init_attr(&attr, self->type, cfg(100, 0, 0));
	attr.config1 = AUX_TEST_RATE_MAX_MBS;
	fd = perf_open(&attr, -1, 0, -1);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "CPU-wide events need privileges");
	ASSERT_GE(fd, 0) TH_LOG("aux_test rate mode on CPU 0: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 8, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, pgrp_id);
	attr.aux_pause = 1;
	self->trig[0] = perf_open(&attr, -1, 0, fd);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	attr.aux_resume = 1;
	self->trig[1] = perf_open(&attr, -1, 0, fd);
	ASSERT_GE(self->trig[0], 0);
	ASSERT_GE(self->trig[1], 0);

	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(20);		/* the flood fills the area; nobody reads it */
	for (i = 0; i < pairs; i++) {
		syscall(SYS_getpgrp);
		getppid_raw();
	}
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	/* The reader comes back: what follows is the queue, then the new run. */
	tail = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&self->rb.pc->aux_tail, tail, __ATOMIC_RELEASE);
	spin_ms(20);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	memset(&w, 0, sizeof(w));
	scan(&self->rb, tail, head, &w, &paused, &last, true);
	for (i = 0; tail + REC <= head && i < (int)sizeof(order) - 1; tail += REC) {
		const struct aux_test_record *r = rec_at(&self->rb, tail);

		if (r->type != AUX_TEST_RECORD_DATA)
			order[i++] = rec_name(r->type)[0];
	}
	order[i] = 0;

	TH_LOG("reader back: %ld pause, %ld resume, %ld start (START S, PAUSE P, RESUME R: %s)",
	       w.pause, w.resume, w.start, order);
	EXPECT_GE(count_of(self->trig[0]), pairs);
	EXPECT_GE(count_of(self->trig[1]), pairs);
	EXPECT_EQ(w.pause + w.resume, 15) TH_LOG("the queue holds 15 PAUSE/RESUME");
	EXPECT_EQ(w.start, 1) TH_LOG("the new run's START was lost");
	EXPECT_EQ(w.marker_type, AUX_TEST_RECORD_START);
	EXPECT_EQ(w.bad, 0);
}

/* An AUX event that is not paused traces as before. */
TEST_F(pause, not_paused_traces)
{
	struct perf_event_attr attr;
	struct windows w;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(1000, BURST, 0));
	self->rb.fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(self->rb.fd, 0);
	ASSERT_EQ(map_rb(&self->rb, self->rb.fd, AUX_PAGES, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(30);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	scan_all(&self->rb, &w, 0);
	EXPECT_GT(w.data, 0);
	EXPECT_EQ(w.pause + w.resume, 0);
}

/*
 * The error table of Documentation/admin-guide/perf/aux-pause-resume.rst,
 * one variant per row (the in-kernel counter row is a KUnit case).
 */
enum leader_kind { NO_LEADER, AUX_LEADER, SW_LEADER };

FIXTURE(errors) {
	int type;
};

FIXTURE_SETUP(errors)
{
	self->type = pmu_type();
	if (self->type < 0)
		SKIP(return, "no aux_test PMU (CONFIG_PERF_AUX_TEST_PMU)");
}

FIXTURE_TEARDOWN(errors)
{
}

FIXTURE_VARIANT(errors) {
	const char *row;
	enum leader_kind leader;
	__u32 type;		/* 0: aux_test */
	__u32 action;		/* attr.aux_action */
	int aux_output;
	int err;
};

#define START_PAUSED	0x1	/* attr.aux_action bits */
#define PAUSE		0x2
#define RESUME		0x4

FIXTURE_VARIANT_ADD(errors, ok_resume) {
	.row = "ok_resume",
	.leader = AUX_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = RESUME,
	.aux_output = 0,
	.err = 0,
};

FIXTURE_VARIANT_ADD(errors, ok_start_paused) {
	.row = "ok_start_paused",
	.leader = NO_LEADER,
	.type = 0,
	.action = START_PAUSED,
	.aux_output = 0,
	.err = 0,
};

FIXTURE_VARIANT_ADD(errors, pause_and_resume) {
	.row = "pause_and_resume",
	.leader = AUX_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = PAUSE | RESUME,
	.aux_output = 0,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(errors, start_paused_not_aux) {
	.row = "start_paused_not_aux",
	.leader = NO_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = START_PAUSED,
	.aux_output = 0,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(errors, pause_without_leader) {
	.row = "pause_without_leader",
	.leader = NO_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = PAUSE,
	.aux_output = 0,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(errors, resume_leader_not_aux) {
	.row = "resume_leader_not_aux",
	.leader = SW_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = RESUME,
	.aux_output = 0,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(errors, aux_output_with_pause) {
	.row = "aux_output_with_pause",
	.leader = AUX_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = PAUSE,
	.aux_output = 1,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(errors, reserved_bit_3) {
	.row = "reserved_bit_3",
	.leader = AUX_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = 0x8,
	.aux_output = 0,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(errors, reserved_bit_31) {
	.row = "reserved_bit_31",
	.leader = NO_LEADER,
	.type = 0,
	.action = 0x81,
	.aux_output = 0,
	.err = EINVAL,
};

/*
 * Where upstream checks pause+resume together (after the PMU's event_init
 * and the aux_output check), so one bad attr gets the same errno first.
 */
FIXTURE_VARIANT_ADD(errors, pause_and_resume_bad_type) {
	.row = "pause_and_resume_bad_type",
	.leader = AUX_LEADER,
	.type = 0x7ffffff0,	/* no such PMU */
	.action = PAUSE | RESUME,
	.aux_output = 0,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(errors, pause_and_resume_aux_output) {
	.row = "pause_and_resume_aux_output",
	.leader = AUX_LEADER,
	.type = PERF_TYPE_SOFTWARE,
	.action = PAUSE | RESUME,
	.aux_output = 1,
	.err = EOPNOTSUPP,
};

TEST_F(errors, error_table)
{
	struct perf_event_attr attr;
	int leader = -1, fd;

	IF_SETUP_SKIPPED(return);
	if (variant->leader == AUX_LEADER) {
		init_attr(&attr, self->type, 0);
		leader = perf_open(&attr, 0, -1, -1);
	} else if (variant->leader == SW_LEADER) {
		init_trigger(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
		attr.sample_period = 1000000;
		leader = perf_open(&attr, 0, -1, -1);
	}
	if (variant->leader != NO_LEADER)
		ASSERT_GE(leader, 0) TH_LOG("leader: %s", strerror(errno));

	if (variant->type) {
		init_trigger(&attr, variant->type, PERF_COUNT_SW_CPU_CLOCK);
		attr.sample_period = 1000000;
	} else {
		init_attr(&attr, self->type, 0);
	}
	attr.aux_action = variant->action;
	attr.aux_output = variant->aux_output;
	errno = 0;
	fd = perf_open(&attr, 0, -1, leader);
	if (variant->err) {
		EXPECT_EQ(fd, -1) TH_LOG("%s: opened", variant->row);
		EXPECT_EQ(errno, variant->err)
			TH_LOG("%s: %s, expected %s", variant->row, strerror(errno),
			       strerror(variant->err));
	} else {
		EXPECT_GE(fd, 0) TH_LOG("%s: %s", variant->row, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	if (leader >= 0)
		close(leader);
}

/*
 * Order, as upstream: a pause is taken before the trigger's sample is
 * written, a resume after it, so that the trace never holds perf's own
 * sample-writing code. The triggers' samples (PERF_SAMPLE_TIME) go to the
 * leader's ring buffer; every RESUME record must be later than the sample
 * of the getppid entry that caused it, and every PAUSE record earlier than
 * the sample of the exit. aux_test and perf's sample clock are both
 * local_clock().
 */
static void sample_times(struct rb *rb, __u64 *t, int max, int *n)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	char buf[256];
	int type;

	while ((type = next_record(rb, head, buf, sizeof(buf))) > 0) {
		/* PERF_SAMPLE_TID | PERF_SAMPLE_TIME: pid, tid, then time */
		if (type == PERF_RECORD_SAMPLE && *n < max)
			memcpy(&t[(*n)++], buf + sizeof(struct perf_event_header) + 8,
			       sizeof(*t));
	}
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
}

TEST_F(pause, resume_after_sample_pause_before)
{
	__u64 times[2 * WINDOWS], head, pos;
	struct perf_event_attr attr;
	long resume_late = 0, pause_early = 0, markers = 0;
	int i, n = 0;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	open_leader(_metadata, self);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	self->trig[0] = open_trigger(_metadata, self, &attr, 0);
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->exit_id);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	self->trig[1] = open_trigger(_metadata, self, &attr, 1);
	ASSERT_GE(self->trig[0], 0);
	ASSERT_GE(self->trig[1], 0);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(ioctl(self->trig[i], PERF_EVENT_IOC_SET_OUTPUT, self->rb.fd), 0)
			TH_LOG("SET_OUTPUT: %s", strerror(errno));

	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	for (i = 0; i < WINDOWS; i++)
		getppid_raw();
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0);

	sample_times(&self->rb, times, ARRAY_SIZE(times), &n);
	ASSERT_EQ(n, 2 * WINDOWS) TH_LOG("%d trigger samples", n);
	/* Samples alternate: entry (resume), exit (pause). */
	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	ASSERT_LE(head, self->rb.aux_size) TH_LOG("the AUX area wrapped");
	for (pos = 0; pos + REC <= head; pos += REC) {
		const struct aux_test_record *r = rec_at(&self->rb, pos);

		if (r->type != AUX_TEST_RECORD_RESUME && r->type != AUX_TEST_RECORD_PAUSE)
			continue;
		if (markers >= n)
			break;
		if (r->type == AUX_TEST_RECORD_RESUME && r->time < times[markers])
			resume_late++;
		if (r->type == AUX_TEST_RECORD_PAUSE && r->time > times[markers])
			pause_early++;
		markers++;
	}
	TH_LOG("%ld markers; %ld RESUME before their sample, %ld PAUSE after theirs",
	       markers, resume_late, pause_early);
	EXPECT_EQ(markers, 2 * WINDOWS);
	EXPECT_EQ(resume_late, 0);
	EXPECT_EQ(pause_early, 0);
}

/*
 * Stress: on every CPU, an aux_test event resumed by a cpu-clock hrtimer
 * (5 kHz) and paused by sys_enter_getppid, which a thread pinned there
 * calls in a loop; meanwhile the consumer reads, checks, and every 250 ms
 * unmaps and maps the AUX area again. The stream must stay consistent.
 */
#define STRESS_CPUS	2
#define STRESS_MS	3000

static int stress_stop;

static void *getppid_loop(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((long)arg, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!__atomic_load_n(&stress_stop, __ATOMIC_RELAXED))
		getppid_raw();
	return NULL;
}

struct stress_cpu {
	struct rb rb;
	int trig[2];
	__u64 tail, last_seq;
	int paused;
	int remaps;
	struct windows w;
	/* PERF_RECORD_AUX records, those flagged, PERF_RECORD_LOST records */
	long aux_records, truncated, partial, data_lost;
};

static struct aux_rec stress_aux[MAX_AUX_RECS];

/* The data ring's PERF_RECORD_AUX flags: where the stream lost records. */
static void stress_drain(struct stress_cpu *c)
{
	int i, n, lost = 0;

	n = read_aux_records(&c->rb, stress_aux, MAX_AUX_RECS, &lost);
	for (i = 0; i < n; i++) {
		if (stress_aux[i].flags & PERF_AUX_FLAG_TRUNCATED)
			c->truncated++;
		if (stress_aux[i].flags & PERF_AUX_FLAG_PARTIAL)
			c->partial++;
	}
	c->aux_records += n > 0 ? n : 0;
	c->data_lost += lost;
}

static int stress_map(struct stress_cpu *c)
{
	c->rb.aux = mmap(NULL, c->rb.aux_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 c->rb.fd, c->rb.pc->aux_offset);
	if (c->rb.aux == MAP_FAILED)
		return -1;
	/* A new AUX area: the positions before aux_head are not in it. */
	c->tail = __atomic_load_n(&c->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	c->tail -= c->tail % REC;
	__atomic_store_n(&c->rb.pc->aux_tail, c->tail, __ATOMIC_RELEASE);
	c->paused = -1;
	/* Unmapping stopped the event: start it again. */
	if (ioctl(c->rb.fd, PERF_EVENT_IOC_DISABLE, 0))
		return -1;
	return ioctl(c->rb.fd, PERF_EVENT_IOC_ENABLE, 0);
}

static void stress_consume(struct stress_cpu *c)
{
	__u64 head = __atomic_load_n(&c->rb.pc->aux_head, __ATOMIC_ACQUIRE);

	if (head - c->tail > c->rb.aux_size)	/* overrun: cannot happen */
		c->w.bad++;
	scan(&c->rb, c->tail, head, &c->w, &c->paused, &c->last_seq, true);
	stress_drain(c);
	c->tail = head;
	__atomic_store_n(&c->rb.pc->aux_tail, head, __ATOMIC_RELEASE);
}

TEST_F(pause, stress_hrtimer_tracepoint_remap)
{
	struct stress_cpu cpus[STRESS_CPUS];
	pthread_t threads[STRESS_CPUS];
	struct perf_event_attr attr;
	struct timespec t0, t;
	long ms = 0, next_remap = 250;
	int i, n = 0, fd;

	IF_SETUP_SKIPPED(return);
	need_tracepoints(_metadata, self);
	if (sysconf(_SC_NPROCESSORS_ONLN) < STRESS_CPUS)
		SKIP(return, "needs %d CPUs", STRESS_CPUS);

	memset(cpus, 0, sizeof(cpus));
	for (i = 0; i < STRESS_CPUS; i++) {
		struct stress_cpu *c = &cpus[i];

		init_attr(&attr, self->type, cfg(200, 4, 0));
		attr.aux_start_paused = 1;
		fd = perf_open(&attr, -1, i, -1);
		if (fd < 0 && (errno == EACCES || errno == EPERM))
			SKIP(return, "CPU-wide events need privileges");
		ASSERT_GE(fd, 0) TH_LOG("cpu %d: %s", i, strerror(errno));
		ASSERT_EQ(map_rb(&c->rb, fd, 16, PROT_READ | PROT_WRITE), 0);
		init_trigger(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
		attr.sample_period = 200000;
		attr.aux_resume = 1;
		c->trig[0] = perf_open(&attr, -1, i, fd);
		init_trigger(&attr, PERF_TYPE_TRACEPOINT, self->enter_id);
		attr.aux_pause = 1;
		c->trig[1] = perf_open(&attr, -1, i, fd);
		ASSERT_GE(c->trig[0], 0);
		ASSERT_GE(c->trig[1], 0);
		c->last_seq = (__u64)-1;
		c->paused = 1;
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	}
	__atomic_store_n(&stress_stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < STRESS_CPUS; i++)
		ASSERT_EQ(pthread_create(&threads[i], NULL, getppid_loop, (void *)(long)i), 0);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms < STRESS_MS) {
		for (i = 0; i < STRESS_CPUS; i++)
			stress_consume(&cpus[i]);
		if (ms >= next_remap) {
			struct stress_cpu *c = &cpus[n++ % STRESS_CPUS];

			stress_consume(c);
			munmap(c->rb.aux, c->rb.aux_size);
			c->remaps++;
			EXPECT_EQ(stress_map(c), 0) TH_LOG("remap: %s", strerror(errno));
			next_remap += 250;
		}
		usleep(2000);
		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
	}
	__atomic_store_n(&stress_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < STRESS_CPUS; i++)
		pthread_join(threads[i], NULL);

	for (i = 0; i < STRESS_CPUS; i++) {
		struct stress_cpu *c = &cpus[i];

		stress_consume(c);
		TH_LOG("cpu %d: %ld resume, %ld pause, %ld data, %ld start records",
		       i, c->w.resume, c->w.pause, c->w.data, c->w.start);
		TH_LOG("cpu %d: cpu-clock %ld ms (resume each 0.2 ms), %ld getppid (pause)",
		       i, count_of(c->trig[0]) / 1000000, count_of(c->trig[1]));
		TH_LOG("cpu %d: %d remaps, %ld gaps; %ld AUX records, %ld truncated, %ld partial",
		       i, c->remaps, c->w.gaps, c->aux_records, c->truncated, c->partial);
		TH_LOG("cpu %d: %ld data-ring losses", i, c->data_lost);
		log_nested(_metadata, &c->w);
		EXPECT_EQ(c->w.bad, 0);
		EXPECT_EQ(c->w.nested, 0);
		EXPECT_EQ(c->w.data_outside, 0);
		EXPECT_GT(c->w.resume, 0);
		EXPECT_GT(c->w.pause, 0);
		close(c->trig[0]);
		close(c->trig[1]);
		unmap_rb(&c->rb);
	}
}

TEST_HARNESS_MAIN
