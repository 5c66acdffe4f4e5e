// SPDX-License-Identifier: GPL-2.0
/*
 * AUX area stress on aux_test, the software AUX PMU: the races of the AUX
 * core and of the driver contract that a functional test does not reach.
 * Each case runs for a bounded time and checks the record stream as well
 * as it can; what a race corrupts without a visible effect (a freed page
 * read, a WARN in the AUX core) is caught by a KASAN kernel and by the
 * harness's scan of the kernel log.
 *
 *  - sampler_vs_munmap: PERF_SAMPLE_AUX samples taken on one CPU while
 *    another CPU unmaps and maps the AUX area in a loop: every sample
 *    holds records or zeros, never freed memory.
 *  - shared_buffer_nmi_triggers: two aux_test events share one buffer
 *    (PERF_EVENT_IOC_SET_OUTPUT); kernel breakpoints in the AUX output
 *    path (#DB, an NMI-like context) pause and resume one of them while
 *    the other writes.
 *  - fork_storm_hotplug: an inherited, start-paused group on every CPU;
 *    children fork and exit and trigger windows while a CPU goes offline
 *    and online. Every stream begins with START and its PAUSE and RESUME
 *    markers alternate: none before START, none lost.
 *  - overwrite_full_burst: the largest burst at the shortest period in
 *    overwrite mode: one write never stores more than the AUX area.
 *  - exclusive_trigger_busy: a trigger refused with EBUSY (its PMU is
 *    exclusive and busy) leaves no reference on the group leader behind.
 *  - fault_injection: every allocation of perf_event_open(), the data and
 *    AUX mmap() (rb_alloc_aux(), the PMU's setup_aux) and enable fails in
 *    turn (/proc/thread-self/fail-nth, failslab and fail_page_alloc): each
 *    failure is a clean ENOMEM or done without (an event opened although
 *    one of its allocations failed is mapped and enabled: it must work),
 *    and the event works once nothing fails.
 *    For aux_test and, where they exist, vpa_dtl, intel_bts and intel_pt
 *    (per task and CPU-wide in snapshot mode: the DS areas' reservation
 *    at open, bts_buffer_setup_aux() at the AUX mmap; intel_pt's address
 *    filters at open, its ToPA tables in pt_buffer_setup_aux()).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

#define STRESS_MS	3000
#define MAX_STREAMS	4096

static int stop_flag;

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* What the records of one stream say, checked as they come. */
struct stream_state {
	__u32 id;
	__u64 last_seq;
	int seen_start;
	int paused;		/* -1: unknown */
	int last_marker;	/* PAUSE or RESUME, 0: none yet */
};

struct stream_check {
	struct stream_state s[MAX_STREAMS];
	int n;
	long records, starts, markers;
	long before_start;	/* a record of a stream before its START */
	long not_alternating;	/* PAUSE after PAUSE, RESUME after RESUME */
	long bad;		/* bad magic or type, seq going back */
};

static struct stream_state *stream_of(struct stream_check *c, __u32 id)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->s[i].id == id)
			return &c->s[i];
	if (c->n == MAX_STREAMS)
		return NULL;
	c->s[c->n].id = id;
	c->s[c->n].last_seq = (__u64)-1;
	return &c->s[c->n++];
}

static void check_stream(struct stream_check *c, const struct aux_test_record *r)
{
	struct stream_state *s;

	c->records++;
	if (r->magic != AUX_TEST_MAGIC || !r->type || r->type >= AUX_TEST_RECORD_MAX) {
		c->bad++;
		return;
	}
	s = stream_of(c, r->stream);
	if (!s)
		return;
	if (s->last_seq != (__u64)-1 && r->seq <= s->last_seq)
		c->bad++;
	s->last_seq = r->seq;
	if (r->type == AUX_TEST_RECORD_START) {
		s->seen_start = 1;
		c->starts++;
		return;
	}
	if (!s->seen_start)
		c->before_start++;
	if (r->type == AUX_TEST_RECORD_PAUSE || r->type == AUX_TEST_RECORD_RESUME) {
		c->markers++;
		if (s->last_marker == r->type)
			c->not_alternating++;
		s->last_marker = r->type;
	}
}

static void consume(struct rb *rb, __u64 *tail, struct stream_check *c)
{
	__u64 head = __atomic_load_n(&rb->pc->aux_head, __ATOMIC_ACQUIRE);

	for (; *tail + REC <= head; *tail += REC)
		check_stream(c, rec_at(rb, *tail));
	__atomic_store_n(&rb->pc->aux_tail, *tail, __ATOMIC_RELEASE);
}

FIXTURE(stress) {
	int type;
	int ncpus;
};

FIXTURE_SETUP(stress)
{
	page_size = sysconf(_SC_PAGESIZE);
	self->type = pmu_type();
	if (self->type < 0)
		SKIP(return, "no aux_test PMU (CONFIG_PERF_AUX_TEST_PMU)");
	self->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
}

FIXTURE_TEARDOWN(stress)
{
}

static int open_cpu_wide(struct __test_metadata *_metadata, struct perf_event_attr *attr,
			 int cpu, int group)
{
	int fd = perf_open(attr, -1, cpu, group);

	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return -1, "CPU-wide events need privileges");
	return fd;
}

struct remap_arg {
	struct rb *rb;
	int cpu;
	long maps;
	int err;
};

/* Unmap and map the AUX area in a loop, from another CPU. */
static void *remap_loop(void *p)
{
	struct remap_arg *a = p;

	pin_to(a->cpu);
	while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)) {
		munmap(a->rb->aux, a->rb->aux_size);
		a->rb->aux = mmap(NULL, a->rb->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED,
				  a->rb->fd, a->rb->pc->aux_offset);
		if (a->rb->aux == MAP_FAILED) {
			a->err = errno;
			break;
		}
		a->maps++;
		/* Unmapping stopped the event: start it again. */
		ioctl(a->rb->fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(a->rb->fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	return NULL;
}

/*
 * The AUX slices of the PERF_RECORD_SAMPLEs in the data ring: each must be
 * whole records (from size % REC) or zeros, or be empty (the AUX area was
 * not mapped when the sample was taken). Returns the samples seen.
 */
static long check_aux_samples(struct rb *rb, __u64 aux_size, long *bad)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	static const char zero[REC];
	static char buf[65536];
	long n = 0;
	int type;

	while ((type = next_record(rb, head, buf, sizeof(buf))) > 0) {
		/* sample_type PERF_SAMPLE_AUX only: u64 size, then data */
		const char *data = buf + sizeof(struct perf_event_header) + 8;
		__u64 size, pos;

		if (type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(&size, buf + sizeof(struct perf_event_header), 8);
		n++;
		/* None at all while the AUX area is unmapped. */
		if (size && size != aux_size)
			(*bad)++;
		for (pos = size % REC; size == aux_size && pos + REC <= size; pos += REC) {
			const struct aux_test_record *r = (const void *)(data + pos);

			if (!memcmp(r, zero, REC))
				continue;
			if (r->magic != AUX_TEST_MAGIC || !r->type ||
			    r->type >= AUX_TEST_RECORD_MAX) {
				(*bad)++;
				break;
			}
		}
	}
	if (type < 0)
		(*bad)++;
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
	return n;
}

TEST_F(stress, sampler_vs_munmap)
{
	const __u64 aux_sample = 4096;
	struct perf_event_attr attr;
	struct remap_arg arg = { 0 };
	long samples = 0, bad = 0, t0;
	pthread_t thread;
	struct rb rb;
	int fd, sampler;

	IF_SETUP_SKIPPED(return);
	if (self->ncpus < 2)
		SKIP(return, "needs 2 CPUs");
	init_attr(&attr, self->type, cfg(100, 8, 0));
	attr.disabled = 0;
	fd = open_cpu_wide(_metadata, &attr, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test on CPU 0: %s", strerror(errno));
	ASSERT_EQ(map_rb(&rb, fd, 16, PROT_READ | PROT_WRITE), 0);

	init_trigger(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 100000;	/* 10 kHz */
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = aux_sample;
	sampler = perf_open(&attr, -1, 0, fd);
	ASSERT_GE(sampler, 0) TH_LOG("sampler: %s", strerror(errno));
	ASSERT_EQ(ioctl(sampler, PERF_EVENT_IOC_SET_OUTPUT, fd), 0);

	arg.rb = &rb;
	arg.cpu = 1;
	ASSERT_EQ(pthread_create(&thread, NULL, remap_loop, &arg), 0);
	pin_to(0);
	for (t0 = now_ms(); now_ms() - t0 < STRESS_MS;) {
		samples += check_aux_samples(&rb, aux_sample, &bad);
		/* Let the AUX area go on: the consumer keeps up. */
		__atomic_store_n(&rb.pc->aux_tail,
				 __atomic_load_n(&rb.pc->aux_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		usleep(1000);
	}
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	samples += check_aux_samples(&rb, aux_sample, &bad);
	TH_LOG("%ld AUX samples, %ld AUX maps on CPU 1, %ld bad samples",
	       samples, arg.maps, bad);
	EXPECT_EQ(arg.err, 0) TH_LOG("mmap: %s", strerror(arg.err));
	EXPECT_GT(samples, 0);
	EXPECT_GT(arg.maps, 0);
	EXPECT_EQ(bad, 0);
	close(sampler);
	unmap_rb(&rb);
}

/*
 * Two aux_test events on CPU 0 writing to one buffer; the second one's
 * group has kernel execute breakpoints: on perf_aux_output_begin() (resume)
 * and on perf_aux_output_end() (pause). Every write of either event hits
 * them with the AUX handle of the first one open: the pause arrives in
 * #DB while another aux_test write holds the buffer.
 */
TEST_F(stress, shared_buffer_nmi_triggers)
{
	static const char * const syms[2] = { "perf_aux_output_begin", "perf_aux_output_end" };
	struct stream_check *chk = calloc(1, sizeof(*chk));
	struct perf_event_attr attr;
	int fd[2], bp[2], i;
	__u64 tail = 0;
	long t0, hits;
	struct rb rb;

	IF_SETUP_SKIPPED(return);
	ASSERT_NE(chk, NULL);
	init_attr(&attr, self->type, cfg(100, 4, 0));
	fd[0] = open_cpu_wide(_metadata, &attr, 0, -1);
	ASSERT_GE(fd[0], 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(map_rb(&rb, fd[0], 64, PROT_READ | PROT_WRITE), 0);
	fd[1] = perf_open(&attr, -1, 0, -1);
	ASSERT_GE(fd[1], 0);
	ASSERT_EQ(ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0]), 0)
		TH_LOG("SET_OUTPUT: %s", strerror(errno));

	for (i = 0; i < 2; i++) {
		unsigned long addr = ksym(syms[i]);

		if (!addr)
			SKIP(goto out, "no address for %s in /proc/kallsyms", syms[i]);
		init_trigger(&attr, PERF_TYPE_BREAKPOINT, 0);
		attr.bp_type = HW_BREAKPOINT_X;
		attr.bp_addr = addr;
		attr.bp_len = sizeof(long);
		attr.aux_action = i ? 0x2 : 0x4;	/* end pauses, begin resumes */
		bp[i] = perf_open(&attr, -1, 0, fd[1]);
		if (bp[i] < 0 && (errno == EINVAL || errno == ENOSPC || errno == ENODEV ||
				  errno == EOPNOTSUPP || errno == ENOENT))
			SKIP(goto out, "no kernel execute breakpoint here: %s", strerror(errno));
		ASSERT_GE(bp[i], 0) TH_LOG("breakpoint on %s: %s", syms[i], strerror(errno));
	}

	ASSERT_EQ(ioctl(fd[1], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	ASSERT_EQ(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0), 0);
	for (t0 = now_ms(); now_ms() - t0 < STRESS_MS;) {
		consume(&rb, &tail, chk);
		usleep(2000);
	}
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd[1], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	consume(&rb, &tail, chk);
	if (read(bp[1], &hits, sizeof(hits)) != sizeof(hits))
		hits = -1;
	TH_LOG("%ld records in %d streams, %ld markers, %ld pause breakpoint hits",
	       chk->records, chk->n, chk->markers, hits);
	EXPECT_EQ(chk->bad, 0);
	EXPECT_EQ(chk->before_start, 0);
	EXPECT_EQ(chk->not_alternating, 0);
	EXPECT_GT(chk->markers, 0);
	EXPECT_GT(hits, 0);
	/*
	 * Both events wrote: the triggers in the output path do not keep
	 * one event's writes going in a loop until the buffer is full.
	 */
	EXPECT_EQ(chk->n, 2);
	EXPECT_GT(chk->records - chk->markers, 0);
	for (i = 0; i < 2; i++)
		close(bp[i]);
out:
	close(fd[1]);
	unmap_rb(&rb);
	free(chk);
}

static void set_online(int cpu, int on)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, on ? "1" : "0", 1) < 0)
		printf("# cpu%d online=%d: %s\n", cpu, on, strerror(errno));
	close(fd);
}

/*
 * An inherited, start-paused aux_test group per CPU (resume on getppid's
 * entry, pause on its exit); children fork, call getppid, fork again and
 * exit, while the last CPU goes offline and online. Every child has
 * streams of its own: each must begin with START and alternate its
 * markers.
 */
TEST_F(stress, fork_storm_hotplug)
{
	int enter = tracepoint_id("syscalls/sys_enter_getppid");
	int exit_id = tracepoint_id("syscalls/sys_exit_getppid");
	struct stream_check *chk = calloc(1, sizeof(*chk));
	int fd[2], trig[2][2], cpu, i, ncpu;
	struct perf_event_attr attr;
	__u64 tail[2] = { 0, 0 };
	struct rb rb[2];
	long t0, forks = 0, hotplugs = 0;
	pid_t storm;

	IF_SETUP_SKIPPED(return);
	ASSERT_NE(chk, NULL);
	if (enter < 0 || exit_id < 0)
		SKIP(return, "no syscall tracepoints");
	ncpu = self->ncpus < 2 ? self->ncpus : 2;
	for (cpu = 0; cpu < ncpu; cpu++) {
		init_attr(&attr, self->type, cfg(200, 2, 0));
		attr.aux_start_paused = 1;
		attr.inherit = 1;
		fd[cpu] = perf_open(&attr, 0, cpu, -1);
		ASSERT_GE(fd[cpu], 0) TH_LOG("inherited aux_test: %s", strerror(errno));
		ASSERT_EQ(map_rb(&rb[cpu], fd[cpu], 64, PROT_READ | PROT_WRITE), 0);
		for (i = 0; i < 2; i++) {
			init_trigger(&attr, PERF_TYPE_TRACEPOINT, i ? exit_id : enter);
			attr.inherit = 1;
			attr.aux_action = i ? 0x2 : 0x4;
			trig[cpu][i] = perf_open(&attr, 0, cpu, fd[cpu]);
			ASSERT_GE(trig[cpu][i], 0) TH_LOG("trigger: %s", strerror(errno));
		}
		ASSERT_EQ(ioctl(fd[cpu], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	}

	storm = fork();
	ASSERT_GE(storm, 0);
	if (!storm) {
		/* Generations of short-lived children, each calling getppid. */
		while (1) {
			pid_t c = fork();

			if (c == 0) {
				for (i = 0; i < 20; i++)
					syscall(SYS_getppid);
				if (fork() == 0)
					_exit(0);
				wait(NULL);
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	for (t0 = now_ms(); now_ms() - t0 < STRESS_MS;) {
		for (cpu = 0; cpu < ncpu; cpu++)
			consume(&rb[cpu], &tail[cpu], chk);
		if (ncpu > 1 && (now_ms() - t0) % 1000 < 500) {
			set_online(ncpu - 1, 0);
			usleep(50000);
			set_online(ncpu - 1, 1);
			hotplugs++;
		}
		usleep(20000);
		forks++;
	}
	kill(storm, SIGKILL);
	waitpid(storm, NULL, 0);
	set_online(ncpu - 1, 1);
	for (cpu = 0; cpu < ncpu; cpu++) {
		ioctl(fd[cpu], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		consume(&rb[cpu], &tail[cpu], chk);
	}
	TH_LOG("%ld records in %d streams: %ld START, %ld markers; %ld CPU offline/online",
	       chk->records, chk->n, chk->starts, chk->markers, hotplugs);
	EXPECT_EQ(chk->bad, 0);
	EXPECT_EQ(chk->before_start, 0);
	EXPECT_EQ(chk->not_alternating, 0);
	EXPECT_GT(chk->n, 1);
	EXPECT_GT(chk->markers, 0);
	for (cpu = 0; cpu < ncpu; cpu++) {
		for (i = 0; i < 2; i++)
			close(trig[cpu][i]);
		unmap_rb(&rb[cpu]);
	}
	free(chk);
}

/*
 * Overwrite mode, the largest burst (AUX_TEST_BURST_MAX records, about
 * 1 MiB) every 100 us, into a 16-page AUX area: one write may store at most
 * the area, so no PERF_RECORD_AUX is larger than it, and the area always
 * holds whole records.
 */
TEST_F(stress, overwrite_full_burst)
{
	struct aux_rec recs[256];
	struct perf_event_attr attr;
	long n, total = 0, too_big = 0, t0;
	int fd, i;
	struct rb rb;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(100, AUX_TEST_BURST_MAX, 0));
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("aux_test: %s", strerror(errno));
	ASSERT_EQ(map_rb(&rb, fd, 16, PROT_READ), 0) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (t0 = now_ms(); now_ms() - t0 < 1000;) {
		spin_ms(20);
		n = read_aux_records(&rb, recs, ARRAY_SIZE(recs), NULL);
		ASSERT_GE(n, 0);
		for (i = 0; i < n; i++) {
			total++;
			if (recs[i].size > rb.aux_size)
				too_big++;
		}
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	TH_LOG("%ld AUX records, %ld larger than the %zu-byte area", total, too_big,
	       rb.aux_size);
	EXPECT_GT(total, 0);
	EXPECT_EQ(too_big, 0);
	unmap_rb(&rb);
}

/* The type of the first exclusive PMU found (vpa_dtl, intel_bts, intel_pt). */
static int exclusive_pmu(const char **name, __u64 *config)
{
	static const struct { const char *name; __u64 config; } pmus[] = {
		{ "vpa_dtl", 0x7 }, { "intel_bts", 0 }, { "intel_pt", 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pmus); i++) {
		char path[128];
		int type;

		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
			 pmus[i].name);
		type = read_int(path);
		if (type >= 0) {
			*name = pmus[i].name;
			*config = pmus[i].config;
			return type;
		}
	}
	return -1;
}

/* A disabled event of the exclusive PMU (vpa_dtl samples: its poll period). */
static void init_exclusive(struct perf_event_attr *attr, int type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->sample_period = 1000000;
	attr->disabled = 1;
}

/*
 * A trigger of an exclusive PMU in an aux_test group, refused with EBUSY
 * because another event of that PMU is on the CPU: perf_get_aux_event()
 * took a reference on the leader before the exclusive check failed. That
 * reference must be dropped: after everything is closed, kmemleak finds
 * nothing (a leaked leader is a perf_event nobody points to).
 */
TEST_F_TIMEOUT(stress, exclusive_trigger_busy, 180)
{
	struct perf_event_attr attr;
	const char *name;
	__u64 config;
	int xtype, busy, leader, fd, i;

	IF_SETUP_SKIPPED(return);
	xtype = exclusive_pmu(&name, &config);
	if (xtype < 0)
		SKIP(return, "no exclusive PMU here (vpa_dtl, intel_bts, intel_pt)");
	if (!have_kmemleak())
		SKIP(return, "needs kmemleak on (DEBUG_KMEMLEAK, no kmemleak=off) to see leaks");
	kmemleak_forget();

	init_exclusive(&attr, xtype, config);
	busy = open_cpu_wide(_metadata, &attr, 0, -1);
	ASSERT_GE(busy, 0) TH_LOG("%s: %s", name, strerror(errno));

	for (i = 0; i < 20; i++) {
		init_attr(&attr, self->type, 0);
		leader = perf_open(&attr, -1, 0, -1);
		ASSERT_GE(leader, 0);
		init_exclusive(&attr, xtype, config);
		attr.aux_pause = 1;
		errno = 0;
		fd = perf_open(&attr, -1, 0, leader);
		EXPECT_EQ(fd, -1);
		EXPECT_EQ(errno, EBUSY) TH_LOG("%s trigger: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		close(leader);
	}
	close(busy);
	EXPECT_EQ(kmemleak_leaks(), 0);
}

/* Write @val to a debugfs fault-injection knob; false if there is none. */
static bool fault_knob(const char *attr, const char *knob, const char *val)
{
	char path[128];
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s/%s", attr, knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return false;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

/*
 * Make failslab and fail_page_alloc count (and so fail, through fail-nth)
 * the allocations the AUX paths make: GFP_KERNEL ones, order 0 pages too,
 * quietly (no "forcing a failure" stack dumps in the kernel log).
 */
static bool fault_setup(void)
{
	static const char * const attrs[] = { "failslab", "fail_page_alloc" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		if (!fault_knob(attrs[i], "ignore-gfp-wait", "N") ||
		    !fault_knob(attrs[i], "verbose", "0"))
			return false;
	}
	return fault_knob("fail_page_alloc", "min-order", "0");
}

enum fault_op { OP_OPEN, OP_MAP_DATA, OP_MAP_AUX, OP_ENABLE, OP_NR };

static const char * const op_name[OP_NR] = {
	"perf_event_open", "data mmap", "AUX mmap", "enable",
};

struct fault_run {
	int type;
	__u64 config, period;
	int cpu;		/* -1: this task */
	int aux_prot;
	bool check_data;	/* aux_test records must arrive */
	bool check_head;	/* AUX data must arrive (aux_head moves) */
	struct rb rb;
	long injected[OP_NR], bad[OP_NR];
};

/* One step of open, map, map AUX, enable; 0 or -1 with errno. */
static int fault_step(struct fault_run *r, enum fault_op op)
{
	struct perf_event_attr attr;
	void *p;

	switch (op) {
	case OP_OPEN:
		init_attr(&attr, r->type, r->config);
		attr.sample_period = r->period;
		r->rb.fd = perf_open(&attr, r->cpu < 0 ? 0 : -1, r->cpu, -1);
		return r->rb.fd < 0 ? -1 : 0;
	case OP_MAP_DATA:
		r->rb.data_size = DATA_PAGES * page_size;
		p = mmap(NULL, page_size + r->rb.data_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, r->rb.fd, 0);
		if (p == MAP_FAILED)
			return -1;
		r->rb.pc = p;
		r->rb.data = (char *)p + page_size;
		r->rb.aux_size = 16 * page_size;
		r->rb.pc->aux_offset = page_size + r->rb.data_size;
		r->rb.pc->aux_size = r->rb.aux_size;
		return 0;
	case OP_MAP_AUX:
		p = mmap(NULL, r->rb.aux_size, r->aux_prot, MAP_SHARED, r->rb.fd,
			 r->rb.pc->aux_offset);
		if (p == MAP_FAILED)
			return -1;
		r->rb.aux = p;
		return 0;
	case OP_ENABLE:
		return ioctl(r->rb.fd, PERF_EVENT_IOC_ENABLE, 0);
	default:
		return -1;
	}
}

/* Undo a step that succeeded, so that it can run again. */
static void fault_undo(struct fault_run *r, enum fault_op op)
{
	switch (op) {
	case OP_OPEN:
		close(r->rb.fd);
		r->rb.fd = -1;
		break;
	case OP_MAP_DATA:
		munmap(r->rb.pc, page_size + r->rb.data_size);
		r->rb.pc = NULL;
		break;
	case OP_MAP_AUX:
		munmap(r->rb.aux, r->rb.aux_size);
		r->rb.aux = NULL;
		break;
	case OP_ENABLE:
		ioctl(r->rb.fd, PERF_EVENT_IOC_DISABLE, 0);
		break;
	default:
		break;
	}
}

/*
 * An open that succeeded although one of its allocations failed must
 * have done without what failed: its event must work. Map it, enable it
 * and let it run (no failure is injected any more), then undo that.
 */
static void fault_use_event(struct fault_run *r)
{
	enum fault_op op;

	for (op = OP_MAP_DATA; op < OP_NR; op++)
		if (fault_step(r, op))
			break;
	spin_ms(1);
	while (op-- > OP_MAP_DATA)
		fault_undo(r, op);
}

/*
 * Run @op with its n-th fault-injection point failing, n = 1, 2, ...
 * until it runs through without reaching the n-th point. Every failure
 * must be ENOMEM. Returns the result of the last, uninjected, run.
 */
static int fault_op_all(struct fault_run *r, enum fault_op op, int nth_fd)
{
	char buf[16];
	int n, ret;

	for (n = 1; n < 1000; n++) {
		snprintf(buf, sizeof(buf), "%d", n);
		if (pwrite(nth_fd, buf, strlen(buf), 0) < 0)
			return -1;
		ret = fault_step(r, op);
		memset(buf, 0, sizeof(buf));
		if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
			return -1;
		if (atoi(buf)) {
			/* The n-th point was never reached: nothing failed. */
			pwrite(nth_fd, "0", 1, 0);
			return ret;
		}
		r->injected[op]++;
		if (!ret) {
			/* An allocation may fail and be retried or done without. */
			if (op == OP_OPEN)
				fault_use_event(r);
			fault_undo(r, op);
			continue;
		}
		if (errno != ENOMEM) {
			r->bad[op]++;
			printf("# %s, allocation %d failed: %s\n", op_name[op], n, strerror(errno));
		}
	}
	return -1;
}

static void fault_run_one(struct __test_metadata *_metadata, struct fault_run *r,
			  const char *what, int nth_fd)
{
	struct aux_rec recs[64];
	cpu_set_t was;
	enum fault_op op;
	int n;

	memset(&r->rb, 0, sizeof(r->rb));
	r->rb.fd = -1;
	for (op = 0; op < OP_NR; op++) {
		ASSERT_EQ(fault_op_all(r, op, nth_fd), 0)
			TH_LOG("%s: %s with no failure injected: %s", what, op_name[op],
			       strerror(errno));
	}
	/* A CPU-wide event sees this task's work only on its CPU. */
	if (r->cpu >= 0) {
		sched_getaffinity(0, sizeof(was), &was);
		pin_to(r->cpu);
	}
	spin_ms(50);
	if (r->cpu >= 0)
		sched_setaffinity(0, sizeof(was), &was);
	usleep(50000);
	n = read_aux_records(&r->rb, recs, ARRAY_SIZE(recs), NULL);
	TH_LOG("%s: injected failures: open %ld, map %ld, AUX map %ld, enable %ld",
	       what, r->injected[OP_OPEN], r->injected[OP_MAP_DATA],
	       r->injected[OP_MAP_AUX], r->injected[OP_ENABLE]);
	EXPECT_EQ(r->bad[OP_OPEN] + r->bad[OP_MAP_DATA] + r->bad[OP_MAP_AUX] +
		  r->bad[OP_ENABLE], 0) TH_LOG("%s: failures other than ENOMEM", what);
	EXPECT_GT(r->injected[OP_OPEN], 0);
	EXPECT_GT(r->injected[OP_MAP_AUX], 0);
	if (r->check_data) {
		TH_LOG("%s: %d AUX records once nothing failed", what, n);
		EXPECT_GT(n, 0) TH_LOG("%s: no AUX data once nothing failed", what);
	}
	if (r->check_head) {
		/* In snapshot mode, the stop writes the snapshot. */
		ioctl(r->rb.fd, PERF_EVENT_IOC_DISABLE, 0);
		TH_LOG("%s: aux_head %llu once nothing failed", what,
		       (unsigned long long)r->rb.pc->aux_head);
		EXPECT_GT(r->rb.pc->aux_head, 0)
			TH_LOG("%s: no AUX data once nothing failed", what);
	}
	unmap_rb(&r->rb);
}

/*
 * A branch tracer, if this machine has it (@name: intel_bts, intel_pt):
 * per task, and CPU-wide in snapshot mode; in both, this task's branches
 * while it spins (on that CPU) must arrive once nothing fails.
 */
static void fault_run_tracer(struct __test_metadata *_metadata, const char *name,
			     int nth_fd)
{
	struct fault_run r;
	char path[128], what[64];
	int type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	type = read_int(path);
	if (type < 0)
		return;
	memset(&r, 0, sizeof(r));
	r.type = type;
	r.cpu = -1;
	r.aux_prot = PROT_READ | PROT_WRITE;
	r.check_head = true;
	fault_run_one(_metadata, &r, name, nth_fd);

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.cpu = 0;
	r.aux_prot = PROT_READ;		/* snapshot mode */
	r.check_head = true;
	snprintf(what, sizeof(what), "%s, CPU-wide, snapshot", name);
	fault_run_one(_metadata, &r, what, nth_fd);
}

TEST_F_TIMEOUT(stress, fault_injection, 180)
{
	struct fault_run r;
	const char *name;
	__u64 config;
	int nth_fd, xtype;

	IF_SETUP_SKIPPED(return);
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0 || !fault_setup())
		SKIP(return, "needs CONFIG_FAULT_INJECTION_DEBUG_FS, FAILSLAB, FAIL_PAGE_ALLOC");
	kmemleak_forget();

	memset(&r, 0, sizeof(r));
	r.type = self->type;
	r.config = cfg(200, 4, 0);
	r.cpu = -1;
	r.aux_prot = PROT_READ | PROT_WRITE;
	r.check_data = true;
	fault_run_one(_metadata, &r, "aux_test", nth_fd);

	memset(&r, 0, sizeof(r));
	r.type = self->type;
	r.config = cfg(200, 4, 0);
	r.cpu = 0;
	r.aux_prot = PROT_READ;		/* overwrite mode */
	r.check_data = true;
	fault_run_one(_metadata, &r, "aux_test, CPU-wide, overwrite", nth_fd);

	xtype = exclusive_pmu(&name, &config);
	if (xtype >= 0 && !strcmp(name, "vpa_dtl")) {
		memset(&r, 0, sizeof(r));
		r.type = xtype;
		r.config = config;
		r.period = 1000000;
		r.cpu = 0;
		r.aux_prot = PROT_READ | PROT_WRITE;
		fault_run_one(_metadata, &r, "vpa_dtl", nth_fd);
	}
	fault_run_tracer(_metadata, "intel_bts", nth_fd);
	fault_run_tracer(_metadata, "intel_pt", nth_fd);
	close(nth_fd);

	if (have_kmemleak())
		EXPECT_EQ(kmemleak_leaks(), 0);
}

TEST_HARNESS_MAIN
