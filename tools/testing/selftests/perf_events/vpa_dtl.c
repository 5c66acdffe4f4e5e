// SPDX-License-Identifier: GPL-2.0
/*
 * The vpa_dtl PMU (powerpc's Dispatch Trace Log, CONFIG_VPA_DTL) through
 * the raw system calls: sysfs, the errors of perf_event_open() and their
 * order, the AUX data (one header, then the entries as the hypervisor
 * wrote them, decoded with <linux/perf_vpa_dtl.h>), lost entries
 * (PERF_RECORD_LOST_SAMPLES and the PARTIAL flag, never a record in the
 * stream), dtl_enable_mask, exclusivity with the other DTL users,
 * disable/enable cycles, CPU hotplug, a killed recorder and the bounds of
 * the hypervisor stand-in.
 *
 * QEMU writes no DTL entries: the tests that need entries use the
 * hypervisor stand-in of CONFIG_VPA_DTL_INJECT (debugfs
 * powerpc/vpa_dtl_inject/) and skip without it. Without the PMU (any
 * machine but a pseries shared-processor LPAR) every test skips.
 */
#define _GNU_SOURCE

#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/perf_event.h>
#include <linux/perf_vpa_dtl.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

#define VPA_DIR		"/sys/bus/event_source/devices/vpa_dtl"
#define INJECT_DIR	"/sys/kernel/debug/powerpc/vpa_dtl_inject"
#define DTL_DEBUGFS	"/sys/kernel/debug/powerpc/dtl/cpu-0"
#define DISPATCH_STATS	"/proc/powerpc/vcpudispatch_stats"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define N_DTL		85	/* entries in the hypervisor's 4 KiB buffer */
#define INJECT_MAX	1024	/* entries one write to the stand-in may inject */
#define RW		(PROT_READ | PROT_WRITE)
#define AUX_PAGES	16
#define BAD_CONFIG	0x3

/* One record of the AUX stream: the header, or an entry. */
union vpa_rec {
	struct vpa_dtl_header hdr;
	struct vpa_dtl_entry e;
};

static_assert(sizeof(struct vpa_dtl_header) == VPA_DTL_RECORD_SIZE, "header size");
static_assert(sizeof(struct vpa_dtl_entry) == VPA_DTL_RECORD_SIZE, "entry size");

static int vpa_type(void)
{
	return read_int(VPA_DIR "/type");
}

/* Why the tests cannot run here, or NULL. */
static const char *no_pmu(void)
{
	if (vpa_type() < 0)
		return "no vpa_dtl PMU (needs a pseries shared-processor LPAR and CONFIG_VPA_DTL)";
	return NULL;
}

static const char *no_inject(void)
{
	if (no_pmu())
		return no_pmu();
	if (access(INJECT_DIR "/cpu-0", W_OK))
		return "no hypervisor stand-in (CONFIG_VPA_DTL_INJECT) to write DTL entries";
	return NULL;
}

/* A CPU-wide sampling event of @config, polled every 1 ms, disabled. */
static void init_vpa(struct perf_event_attr *attr, __u64 config)
{
	init_attr(attr, vpa_type(), config);
	attr->sample_period = 1000000;
	attr->sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
}

static int vpa_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return perf_open(attr, pid, cpu, -1);
}

static int open_err(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = vpa_open(attr, pid, cpu);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static int read_file(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sz - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* "owner=... mask=0x.. idx=N ridx=N" of a CPU's DTL, from the stand-in. */
static int dtl_state_idx(int cpu, char *owner, unsigned int *mask, unsigned long long *idx)
{
	char path[128], buf[128];

	snprintf(path, sizeof(path), INJECT_DIR "/cpu-%d", cpu);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "owner=%31s mask=%x idx=%llu", owner, mask, idx) == 3 ? 0 : -1;
}

static int dtl_state(int cpu, char *owner, unsigned int *mask)
{
	unsigned long long idx;

	return dtl_state_idx(cpu, owner, mask, &idx);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Write @lines to the stand-in of @cpu: 0 or -errno. */
static int inject(int cpu, const char *lines)
{
	char path[128];

	snprintf(path, sizeof(path), INJECT_DIR "/cpu-%d", cpu);
	return write_file(path, lines);
}

/* @count entries at timebases @tb, @tb + 1, ... */
static int inject_n(int cpu, unsigned long long tb, unsigned int count)
{
	char line[128];

	snprintf(line, sizeof(line), "7 4 %d 1 2 3 %llu 0 0xc000000000000000 0 %u\n",
		 cpu, tb, count);
	return inject(cpu, line);
}

/*
 * The DTL of @cpu is the kernel's accounting one again, and the accounting
 * scan reads it: an entry written there is consumed (its read index
 * catches up with the hypervisor's).
 */
static bool accounting_live(int cpu)
{
	unsigned long long idx, ridx;
	char path[128], buf[128];
	int i;

	snprintf(path, sizeof(path), INJECT_DIR "/cpu-%d", cpu);
	if (inject(cpu, "0 0 0 0 0 0 0 0 0 0\n"))
		return false;
	for (i = 0; i < 100; i++) {
		sleep_ms(10);
		if (read_file(path, buf, sizeof(buf)) ||
		    sscanf(buf, "owner=accounting mask=%*x idx=%llu ridx=%llu", &idx, &ridx) != 2)
			return false;
		if (idx && idx == ridx)
			return true;
	}
	return false;
}

static void read_timebase(unsigned long long *boot_tb, unsigned long long *tb_freq)
{
	char buf[128];

	*boot_tb = *tb_freq = 0;
	if (!read_file(INJECT_DIR "/timebase", buf, sizeof(buf)))
		sscanf(buf, "boot_tb=%llu tb_freq=%llu", boot_tb, tb_freq);
}

/* What the data ring said: PERF_RECORD_AUX, _LOST_SAMPLES and _LOST. */
struct data_log {
	int nr_aux;
	__u64 first_aux[2];	/* aux_offset and aux_size of the first one */
	__u64 aux_flags;	/* OR of the PERF_RECORD_AUX flags */
	int nr_lost_samples;
	__u64 lost;		/* sum of PERF_RECORD_LOST_SAMPLES.lost */
	__u64 lost_time;	/* sample_id of the last one */
	__u32 lost_cpu;
	int lost_unflagged;	/* ones not right after a PARTIAL PERF_RECORD_AUX */
	int nr_lost;		/* PERF_RECORD_LOST: the data ring was full */
	bool bad;		/* a record that could not be parsed */
};

/*
 * Read the data ring (the events use sample_type TIME | CPU, so a
 * sample_id is { u64 time; u32 cpu, res; }).
 */
static void read_data(struct rb *rb, struct data_log *log)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	__u64 prev_flags = 0;
	int type, prev = 0;
	char buf[256];

	memset(log, 0, sizeof(*log));
	while ((type = next_record(rb, head, buf, sizeof(buf))) > 0) {
		const char *body = buf + sizeof(struct perf_event_header);
		__u64 v[3];

		switch (type) {
		case PERF_RECORD_AUX:	/* aux_offset, aux_size, flags */
			memcpy(v, body, sizeof(v));
			if (!log->nr_aux++)
				memcpy(log->first_aux, v, sizeof(log->first_aux));
			log->aux_flags |= v[2];
			prev_flags = v[2];
			break;
		case PERF_RECORD_LOST_SAMPLES:	/* lost, sample_id */
			memcpy(v, body, 2 * sizeof(v[0]));
			log->nr_lost_samples++;
			log->lost += v[0];
			log->lost_time = v[1];
			memcpy(&log->lost_cpu, body + 16, sizeof(log->lost_cpu));
			if (prev != PERF_RECORD_AUX || !(prev_flags & PERF_AUX_FLAG_PARTIAL))
				log->lost_unflagged++;
			break;
		case PERF_RECORD_LOST:
			log->nr_lost++;
			break;
		}
		prev = type;
	}
	log->bad = type < 0;
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
}

/* Copy out the AUX data written so far: the number of records, or -1. */
static int aux_copy(struct rb *rb, union vpa_rec *out, int max)
{
	__u64 head = __atomic_load_n(&rb->pc->aux_head, __ATOMIC_ACQUIRE);

	if (head % sizeof(*out) || head > rb->aux_size || head / sizeof(*out) > (__u64)max)
		return -1;
	memcpy(out, rb->aux, head);
	return head / sizeof(*out);
}

/*
 * What is wrong with a stream of @n records, or NULL: it must be one
 * header (boot_tb, tb_freq, then zeros) and then entries, none of them
 * with a zero timebase (that is the header's mark, which upstream's
 * decoder cannot take twice).
 */
static const char *bad_stream(const union vpa_rec *r, int n)
{
	unsigned long long boot_tb, tb_freq;
	int i;

	read_timebase(&boot_tb, &tb_freq);
	if (n < 1)
		return "no header";
	if (r[0].hdr.timebase || r[0].hdr.reserved[0] || r[0].hdr.reserved[1] ||
	    r[0].hdr.reserved[2])
		return "the first record is not a header";
	if (r[0].hdr.boot_tb != boot_tb || r[0].hdr.tb_freq != tb_freq)
		return "the header's boot_tb or tb_freq is wrong";
	for (i = 1; i < n; i++)
		if (!r[i].e.timebase)
			return "a zero-timebase record after the header";
	return NULL;
}

static unsigned long long tb_of(const union vpa_rec *r)
{
	return be64toh(r->e.timebase);
}

/* Open, map and enable an event on @cpu; ASSERTs. */
#define OPEN_RECORDING_PAGES(rb, cpu, config, pages) do {		\
	struct perf_event_attr __a;					\
	int __fd;							\
									\
	init_vpa(&__a, config);						\
	__fd = vpa_open(&__a, -1, cpu);					\
	ASSERT_GE(__fd, 0) TH_LOG("perf_event_open: %s", strerror(errno)); \
	ASSERT_EQ(0, map_rb(rb, __fd, pages, RW)) TH_LOG("mmap: %s", strerror(errno)); \
	ASSERT_EQ(0, ioctl(__fd, PERF_EVENT_IOC_ENABLE, 0));		\
} while (0)

#define OPEN_RECORDING(rb, cpu, config) OPEN_RECORDING_PAGES(rb, cpu, config, AUX_PAGES)

TEST(registered)
{
	static const char * const ev[][2] = {
		{ "dtl_cede", "event=0x01\n" }, { "dtl_preempt", "event=0x02\n" },
		{ "dtl_fault", "event=0x04\n" }, { "dtl_all", "event=0x07\n" },
	};
	char path[256], buf[64];
	unsigned int i;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	ASSERT_EQ(0, read_file(VPA_DIR "/format/event", buf, sizeof(buf)));
	ASSERT_STREQ("config:0-7\n", buf);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		snprintf(path, sizeof(path), VPA_DIR "/events/%s", ev[i][0]);
		ASSERT_EQ(0, read_file(path, buf, sizeof(buf))) TH_LOG("%s", path);
		EXPECT_STREQ(ev[i][1], buf) TH_LOG("%s", path);
	}
}

TEST(bad_config)
{
	static const __u64 bad[] = { 0, 3, 5, 6, 8, 0xff, 0x100, 0x107, 1ULL << 63 };
	static const __u64 good[] = { VPA_DTL_CEDE, VPA_DTL_PREEMPT, VPA_DTL_FAULT, VPA_DTL_ALL };
	struct perf_event_attr attr;
	unsigned int i;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		init_vpa(&attr, bad[i]);
		EXPECT_EQ(EINVAL, open_err(&attr, -1, 0))
			TH_LOG("config %#llx", (unsigned long long)bad[i]);
	}
	init_vpa(&attr, VPA_DTL_ALL);
	attr.exclude_kernel = 1;
	EXPECT_EQ(EINVAL, open_err(&attr, -1, 0)) TH_LOG("exclude_* must be refused");
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		init_vpa(&attr, good[i]);
		EXPECT_EQ(0, open_err(&attr, -1, 0))
			TH_LOG("config %#llx refused", (unsigned long long)good[i]);
	}
}

/* config1 and config2 are ignored, as by upstream's PMU. */
TEST(config1_config2_ignored)
{
	struct perf_event_attr attr;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_vpa(&attr, VPA_DTL_ALL);
	attr.config1 = 1;
	EXPECT_EQ(0, open_err(&attr, -1, 0)) TH_LOG("config1 refused");
	init_vpa(&attr, VPA_DTL_CEDE);
	attr.config2 = ~0ULL;
	EXPECT_EQ(0, open_err(&attr, -1, 0)) TH_LOG("config2 refused");
	init_vpa(&attr, VPA_DTL_PREEMPT);
	attr.config1 = 0xdead;
	attr.config2 = 0xbeef;
	EXPECT_EQ(0, open_err(&attr, -1, 0)) TH_LOG("config1 and config2 refused");
	/* but they do not make a bad config good */
	init_vpa(&attr, BAD_CONFIG);
	attr.config1 = 1;
	EXPECT_EQ(EINVAL, open_err(&attr, -1, 0));
}

TEST(per_task_refused)
{
	struct perf_event_attr attr;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_vpa(&attr, VPA_DTL_ALL);
	EXPECT_EQ(EINVAL, open_err(&attr, 0, -1));
	EXPECT_EQ(EINVAL, open_err(&attr, 0, 0));
}

TEST(counting_and_branch_stack)
{
	struct perf_event_attr attr;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_vpa(&attr, VPA_DTL_ALL);
	attr.sample_period = 0;
	EXPECT_EQ(EOPNOTSUPP, open_err(&attr, -1, 0)) TH_LOG("a counting event");
	init_vpa(&attr, VPA_DTL_ALL);
	attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(EOPNOTSUPP, open_err(&attr, -1, 0)) TH_LOG("branch stack sampling");
}

/*
 * The order of event_init()'s checks, as upstream's: privilege (EACCES),
 * then sampling (EOPNOTSUPP), then config (EINVAL), then per-task (EINVAL).
 * Each row breaks two rules; the error is the one checked first.
 */
enum { ROOT, NOBODY };

struct order_row {
	const char *what;
	int who;
	__u64 config;
	bool counting, branch_stack;
	pid_t pid;
	int cpu;
	int err;
};

static const struct order_row order_rows[] = {
	{ "unprivileged", NOBODY, VPA_DTL_ALL, false, false, -1, 0, EACCES },
	{ "unprivileged, bad config", NOBODY, BAD_CONFIG, false, false, -1, 0, EACCES },
	{ "unprivileged, counting", NOBODY, VPA_DTL_ALL, true, false, -1, 0, EACCES },
	{ "unprivileged, per-task", NOBODY, VPA_DTL_ALL, false, false, 0, -1, EACCES },
	{ "counting, bad config", ROOT, BAD_CONFIG, true, false, -1, 0, EOPNOTSUPP },
	{ "branch stack, bad config", ROOT, BAD_CONFIG, false, true, -1, 0, EOPNOTSUPP },
	{ "counting, per-task", ROOT, VPA_DTL_ALL, true, false, 0, -1, EOPNOTSUPP },
	{ "bad config, per-task", ROOT, BAD_CONFIG, false, false, 0, -1, EINVAL },
};

static int order_row_err(const struct order_row *r)
{
	struct perf_event_attr attr;

	init_vpa(&attr, r->config);
	if (r->counting)
		attr.sample_period = 0;
	if (r->branch_stack) {
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	}
	return open_err(&attr, r->pid, r->cpu);
}

TEST(errno_order)
{
	unsigned char got[ARRAY_SIZE(order_rows)];
	char old[16];
	unsigned int i;
	int status, p[2];
	pid_t pid;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	if (getuid() != 0)
		SKIP(return, "needs root to drop privileges");
	ASSERT_EQ(0, read_file(PARANOID, old, sizeof(old)));
	/* Let the core pass CPU-wide events: the PMU's own check must refuse. */
	ASSERT_EQ(0, write_file(PARANOID, "-1"));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		for (i = 0; i < ARRAY_SIZE(order_rows); i++)
			if (order_rows[i].who == ROOT)
				got[i] = order_row_err(&order_rows[i]);
		if (setgid(65534) || setuid(65534))
			_exit(1);
		for (i = 0; i < ARRAY_SIZE(order_rows); i++)
			if (order_rows[i].who == NOBODY)
				got[i] = order_row_err(&order_rows[i]);
		_exit(write(p[1], got, sizeof(got)) != sizeof(got));
	}
	close(p[1]);
	ASSERT_EQ(sizeof(got), read(p[0], got, sizeof(got)));
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_file(PARANOID, old);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < ARRAY_SIZE(order_rows); i++) {
		const struct order_row *r = &order_rows[i];
		int err = got[i];

		EXPECT_EQ(r->err, err)
			TH_LOG("%s: %s, expected %s", r->what, strerror(err), strerror(r->err));
	}
}

TEST(one_event_per_cpu)
{
	struct perf_event_attr attr;
	int fd;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_vpa(&attr, VPA_DTL_ALL);
	fd = vpa_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 0));
	close(fd);
	EXPECT_EQ(0, open_err(&attr, -1, 0));
}

/* Each event code reaches lppaca.dtl_enable_mask; the old owner comes back. */
TEST(enable_mask)
{
	static const unsigned int codes[] = {
		VPA_DTL_CEDE, VPA_DTL_PREEMPT, VPA_DTL_FAULT, VPA_DTL_ALL,
	};
	char before[32], owner[32];
	unsigned int i, mask0, mask;
	struct rb rb;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	ASSERT_EQ(0, dtl_state(0, before, &mask0));
	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		OPEN_RECORDING(&rb, 0, codes[i]);
		ASSERT_EQ(0, dtl_state(0, owner, &mask));
		EXPECT_STREQ("vpa_dtl", owner);
		EXPECT_EQ(codes[i], mask);
		/* disabled: the DTL goes back to its owner at once */
		ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, dtl_state(0, owner, &mask));
		EXPECT_STREQ(before, owner);
		EXPECT_EQ(mask0, mask);
		unmap_rb(&rb);
	}
	TH_LOG("DTL of cpu 0 outside recordings: owner=%s mask=%#x", before, mask0);
}

TEST(exclusive_with_debugfs_dtl)
{
	struct perf_event_attr attr;
	int dtl, fd;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	dtl = open(DTL_DEBUGFS, O_RDONLY);
	if (dtl < 0 && errno == ENOENT)
		SKIP(return, "no debugfs dtl (CONFIG_DTL)");
	ASSERT_GE(dtl, 0) TH_LOG("%s: %s", DTL_DEBUGFS, strerror(errno));
	init_vpa(&attr, VPA_DTL_ALL);
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 1)) TH_LOG("while debugfs dtl is open");
	close(dtl);
	fd = vpa_open(&attr, -1, 1);
	ASSERT_GE(fd, 0);
	dtl = open(DTL_DEBUGFS, O_RDONLY);
	EXPECT_EQ(-1, dtl);
	EXPECT_EQ(EBUSY, errno);
	if (dtl >= 0)
		close(dtl);
	close(fd);
	dtl = open(DTL_DEBUGFS, O_RDONLY);
	EXPECT_GE(dtl, 0) TH_LOG("the lock must be free again: %s", strerror(errno));
	close(dtl);
}

/* lockdep's debug_locks (0 once it has reported anything), or -1 without lockdep. */
static int lockdep_debug_locks(void)
{
	char line[128];
	int v = -1;
	FILE *f = fopen("/proc/lockdep_stats", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " debug_locks: %d", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * A opens @path (a vpa_dtl event on CPU 0 if NULL) and forks B, A exits
 * (the file lives on in B), then B exits and so closes the last file
 * descriptor from an exiting task. While B lives the DTLs stay taken (a
 * vpa_dtl event gets EBUSY), after it they are free, and lockdep reports
 * nothing (its debug_locks stays 1): no task left the kernel or exited
 * with a lock of the DTLs held, nor released one it did not take. Without
 * lockdep, or with lockdep already off, that part is not checked, and the
 * test says so in its output (the test kernels have lockdep; a report
 * before this test fails the run as a splat of its own).
 */
static void dtl_user_across_tasks(struct __test_metadata *_metadata, const char *path)
{
	struct perf_event_attr attr;
	int debug_locks, status, fd, p[2];
	pid_t a, b;
	char c;

	debug_locks = lockdep_debug_locks();
	if (debug_locks == 0)
		TH_LOG("lockdep is already off (it reported something before this test)");
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	ASSERT_EQ(0, pipe(p));
	init_vpa(&attr, VPA_DTL_ALL);
	a = fork();
	ASSERT_GE(a, 0);
	if (!a) {
		fd = path ? open(path, O_RDONLY) : vpa_open(&attr, -1, 0);
		if (fd < 0)
			_exit(1);
		b = fork();
		if (b < 0)
			_exit(2);
		if (!b) {
			/* B: exit with the event open once the test closes the pipe. */
			close(p[1]);
			if (read(p[0], &c, 1) < 0)
				_exit(3);
			_exit(0);
		}
		_exit(0);	/* A: exit, the event open in B */
	}
	close(p[0]);
	ASSERT_EQ(a, waitpid(a, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("A could not open %s", path ?: "the event");
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 0)) TH_LOG("the DTLs must stay taken while B lives");

	close(p[1]);
	b = wait(&status);	/* B, ours again as the subreaper */
	ASSERT_GT(b, 0);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	fd = vpa_open(&attr, -1, 0);
	EXPECT_GE(fd, 0) TH_LOG("the DTL must be free after the last close: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	if (debug_locks == 1) {
		EXPECT_EQ(1, lockdep_debug_locks()) TH_LOG("lockdep reported (see the kernel log)");
	} else {
		TH_LOG("lock checks NOT made: %s", debug_locks < 0 ?
		       "no lockdep in this kernel (/proc/lockdep_stats)" :
		       "lockdep was already off");
	}
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* vpa_dtl: its event takes the DTLs, its last close gives them back. */
TEST(lock_across_tasks)
{
	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	dtl_user_across_tasks(_metadata, NULL);
}

/* The same for a debugfs dtl file (the DTL users' count, not a lock). */
TEST(debugfs_dtl_across_tasks)
{
	int fd;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	fd = open(DTL_DEBUGFS, O_RDONLY);
	if (fd < 0 && errno == ENOENT)
		SKIP(return, "no debugfs dtl (CONFIG_DTL)");
	ASSERT_GE(fd, 0) TH_LOG("%s: %s", DTL_DEBUGFS, strerror(errno));
	close(fd);
	dtl_user_across_tasks(_metadata, DTL_DEBUGFS);
}

TEST(exclusive_with_vcpudispatch_stats)
{
	struct perf_event_attr attr;
	int fd, ret;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	if (access(DISPATCH_STATS, W_OK))
		SKIP(return, "no %s (not a shared-processor LPAR?)", DISPATCH_STATS);
	ret = write_file(DISPATCH_STATS, "1");
	if (ret && ret != -EBUSY)
		SKIP(return, "vcpudispatch_stats cannot be enabled here: %s", strerror(-ret));
	ASSERT_EQ(0, ret);
	init_vpa(&attr, VPA_DTL_ALL);
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 0)) TH_LOG("while vcpudispatch_stats is on");
	ASSERT_EQ(0, write_file(DISPATCH_STATS, "0"));
	fd = vpa_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EBUSY, write_file(DISPATCH_STATS, "1"));
	close(fd);
	EXPECT_EQ(0, write_file(DISPATCH_STATS, "1")) TH_LOG("the lock must be free again");
	write_file(DISPATCH_STATS, "0");
}

/*
 * No data before the first entry, then the header and that entry in one
 * PERF_RECORD_AUX: perf record never gets a buffer that holds the header
 * alone (upstream's decoder would read past it).
 */
TEST(header_with_first_entries)
{
	static union vpa_rec out[8];
	struct data_log log;
	struct rb rb;
	int n;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	OPEN_RECORDING(&rb, 0, VPA_DTL_ALL);
	sleep_ms(30);	/* polls that find nothing */
	read_data(&rb, &log);
	EXPECT_EQ(0, __atomic_load_n(&rb.pc->aux_head, __ATOMIC_ACQUIRE))
		TH_LOG("AUX data before any entry");
	EXPECT_EQ(0, log.nr_aux);
	ASSERT_EQ(0, inject(0, "3 2 7 100 200 300 0 0 0 0\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(2, n) TH_LOG("1 header and 1 entry expected");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));
	read_data(&rb, &log);
	ASSERT_EQ(1, log.nr_aux);
	EXPECT_EQ(0, log.first_aux[0]);
	EXPECT_EQ(2 * VPA_DTL_RECORD_SIZE, log.first_aux[1])
		TH_LOG("the header and the entry not in one PERF_RECORD_AUX");
	unmap_rb(&rb);
}

/*
 * A new AUX area of the same event (the old one unmapped, a new one mapped,
 * as a recorder that maps again does) starts with a header of its own:
 * its reader sees nothing of the first one.
 */
TEST(header_per_aux_area)
{
	static union vpa_rec out[8];
	__u64 head, i;
	struct rb rb;
	int n;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	OPEN_RECORDING(&rb, 0, VPA_DTL_ALL);
	ASSERT_EQ(0, inject(0, "3 2 7 100 200 300 1000 0 0 0\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(2, n) TH_LOG("1 header and 1 entry expected in the first area");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));

	/* aux_head goes on where the first area ended: consume up to it. */
	head = __atomic_load_n(&rb.pc->aux_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&rb.pc->aux_tail, head, __ATOMIC_RELEASE);
	ASSERT_EQ(0, munmap(rb.aux, rb.aux_size));
	rb.aux = mmap(NULL, rb.aux_size, RW, MAP_SHARED, rb.fd, rb.pc->aux_offset);
	ASSERT_NE(MAP_FAILED, rb.aux) TH_LOG("mmap: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, inject(0, "3 2 7 100 200 300 2000 0 0 0\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = (__atomic_load_n(&rb.pc->aux_head, __ATOMIC_ACQUIRE) - head) / sizeof(out[0]);
	ASSERT_EQ(2, n) TH_LOG("1 header and 1 entry expected in the new area");
	for (i = 0; i < (__u64)n; i++)
		memcpy(&out[i], (char *)rb.aux +
		       ((head + i * sizeof(out[0])) & (rb.aux_size - 1)), sizeof(out[0]));
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("new area: %s", bad_stream(out, n));
	EXPECT_EQ(2000, tb_of(&out[1]));
	unmap_rb(&rb);
}

/* The header, then the entries exactly as written, in order. */
TEST(record_entries)
{
	static union vpa_rec out[64];
	unsigned long long boot_tb, tb_freq, tb;
	struct data_log log;
	char lines[1024];
	struct rb rb;
	int n, i;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	read_timebase(&boot_tb, &tb_freq);
	ASSERT_NE(0, tb_freq);
	tb = boot_tb + 5 * tb_freq;
	OPEN_RECORDING(&rb, 0, VPA_DTL_ALL);
	snprintf(lines, sizeof(lines),
		 "3 2 7 100 200 300 %llu 0 0xc000000000001234 0x8000000000001033\n"
		 "0 4 7 101 201 301 %llu 0xdead 0x10000400 0x800000000000d033\n"
		 "10 9 8 102 202 302 %llu 0 0xc000000000005678 0\n"
		 "200 250 9 103 203 303 %llu 0 0xc000000000005678 0\n",
		 tb, tb + 1, tb + 2, tb + 3);
	ASSERT_EQ(0, inject(0, lines));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(5, n) TH_LOG("1 header and 4 entries expected");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));
	EXPECT_EQ(boot_tb, out[0].hdr.boot_tb);
	EXPECT_EQ(tb_freq, out[0].hdr.tb_freq);
	for (i = 0; i < 4; i++) {
		const struct vpa_dtl_entry *e = &out[i + 1].e;

		EXPECT_EQ(tb + i, be64toh(e->timebase));
		EXPECT_EQ(100 + i, be32toh(e->enqueue_to_dispatch_time));
		EXPECT_EQ(200 + i, be32toh(e->ready_to_enqueue_time));
		EXPECT_EQ(300 + i, be32toh(e->waiting_to_ready_time));
	}
	EXPECT_EQ(3, out[1].e.dispatch_reason);
	EXPECT_EQ(2, out[1].e.preempt_reason);
	EXPECT_EQ(7, be16toh(out[1].e.processor_id));
	EXPECT_EQ(0xc000000000001234ULL, be64toh(out[1].e.srr0));
	EXPECT_EQ(0x8000000000001033ULL, be64toh(out[1].e.srr1));
	EXPECT_EQ(0xdead, be64toh(out[2].e.fault_addr));
	EXPECT_EQ(0x10000400, be64toh(out[2].e.srr0));
	EXPECT_EQ(0x800000000000d033ULL, be64toh(out[2].e.srr1));
	EXPECT_EQ(9, be16toh(out[4].e.processor_id));
	EXPECT_EQ(200, out[4].e.dispatch_reason);
	EXPECT_EQ(250, out[4].e.preempt_reason);
	read_data(&rb, &log);
	EXPECT_FALSE(log.bad);
	EXPECT_EQ(0, log.aux_flags & (PERF_AUX_FLAG_PARTIAL | PERF_AUX_FLAG_TRUNCATED));
	EXPECT_EQ(0, log.nr_lost_samples) TH_LOG("nothing was lost");
	unmap_rb(&rb);
}

/*
 * Overwrite (snapshot) mode: the entries of a poll come after a header of
 * their own, and a poll without entries writes nothing (no lone header).
 */
TEST(overwrite_mode)
{
	static union vpa_rec out[64];
	struct perf_event_attr attr;
	struct data_log log;
	struct rb rb;
	int fd, n, i;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	init_vpa(&attr, VPA_DTL_ALL);
	fd = vpa_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, map_rb(&rb, fd, AUX_PAGES, PROT_READ)) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	sleep_ms(20);
	ASSERT_EQ(0, inject(0, "1 2 3 4 5 6 7000 0 0 0 3\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(4, n) TH_LOG("one header and 3 entries expected");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(7000 + i, tb_of(&out[1 + i]));
	read_data(&rb, &log);
	EXPECT_EQ(0, log.nr_lost_samples);
	unmap_rb(&rb);
}

/*
 * More than the 85-entry buffer between two polls: the hypervisor
 * overwrote the oldest. The stream holds the newest 85, with no marker;
 * a PERF_RECORD_LOST_SAMPLES right after a PARTIAL PERF_RECORD_AUX counts
 * the others.
 */
static void check_wrap(struct __test_metadata *_metadata, unsigned int count)
{
	static union vpa_rec out[128];
	unsigned long long tb = 1000000;
	struct data_log log;
	struct rb rb;
	int n, i;

	OPEN_RECORDING(&rb, 0, VPA_DTL_ALL);
	ASSERT_EQ(0, inject_n(0, tb, count));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(1 + N_DTL, n) TH_LOG("the header and the newest 85 entries expected");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));
	for (i = 0; i < N_DTL; i++)
		EXPECT_EQ(tb + count - N_DTL + i, tb_of(&out[1 + i]));
	read_data(&rb, &log);
	EXPECT_FALSE(log.bad);
	EXPECT_EQ(0, log.nr_lost) TH_LOG("the data ring had room");
	EXPECT_EQ(1, log.nr_lost_samples);
	EXPECT_EQ(count - (n - 1), log.lost)
		TH_LOG("injected %u, in the AUX data %d", count, n - 1);
	EXPECT_EQ(0, log.lost_cpu);
	EXPECT_NE(0, log.lost_time);
	EXPECT_EQ(0, log.lost_unflagged) TH_LOG("PERF_RECORD_AUX before the loss not PARTIAL");
	EXPECT_NE(0, log.aux_flags & PERF_AUX_FLAG_PARTIAL);
	EXPECT_EQ(0, log.aux_flags & PERF_AUX_FLAG_TRUNCATED) TH_LOG("the AUX area had room");
	unmap_rb(&rb);
}

TEST(wrap_reports_loss)
{
	if (no_inject())
		SKIP(return, "%s", no_inject());
	check_wrap(_metadata, 100);
}

/* As many as one write to the stand-in may inject, within one IRQs-off section. */
TEST(wrap_many_times)
{
	if (no_inject())
		SKIP(return, "%s", no_inject());
	check_wrap(_metadata, INJECT_MAX);
}

/*
 * The AUX area fills up (nobody reads it): the entries without room are
 * lost, PERF_RECORD_AUX says PARTIAL and TRUNCATED, and the
 * PERF_RECORD_LOST_SAMPLES count is what was injected minus what the AUX
 * area holds.
 */
TEST(full_aux_reports_loss)
{
	static union vpa_rec out[4096];
	unsigned int injected = 0, chunk, room;
	unsigned long long tb = 5000000;
	struct data_log log;
	struct rb rb;
	int n, i;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	OPEN_RECORDING_PAGES(&rb, 0, VPA_DTL_ALL, 1);
	/* entries that fit after the header (the core keeps one byte free) */
	room = (rb.aux_size - 1) / VPA_DTL_RECORD_SIZE - 1;
	ASSERT_GE(ARRAY_SIZE(out), room + 1);
	/* 40 at a time, each chunk polled before the next: no wrap */
	while (room - injected > 40) {
		ASSERT_EQ(0, inject_n(0, tb + injected, 40));
		injected += 40;
		sleep_ms(20);
	}
	/* the last chunk fills the area and 40 entries find no room */
	chunk = room - injected + 40;
	ASSERT_EQ(0, inject_n(0, tb + injected, chunk));
	injected += chunk;
	sleep_ms(50);
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(1 + room, n) TH_LOG("the AUX area is not full");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));
	for (i = 1; i < n; i++)
		if (tb_of(&out[i]) != tb + i - 1)
			break;
	EXPECT_EQ(n, i) TH_LOG("entry %d has timebase %llu", i, tb_of(&out[i]));
	read_data(&rb, &log);
	EXPECT_FALSE(log.bad);
	EXPECT_EQ(0, log.nr_lost) TH_LOG("the data ring had room");
	EXPECT_EQ(injected - (n - 1), log.lost) TH_LOG("injected %u, in the AUX data %d",
						       injected, n - 1);
	EXPECT_GE(log.nr_lost_samples, 1);
	EXPECT_EQ(0, log.lost_unflagged) TH_LOG("PERF_RECORD_AUX before the loss not PARTIAL");
	EXPECT_NE(0, log.aux_flags & PERF_AUX_FLAG_TRUNCATED);
	EXPECT_NE(0, log.aux_flags & PERF_AUX_FLAG_PARTIAL);
	unmap_rb(&rb);
}

/*
 * The stand-in bounds the work of one write (interrupts are off while it
 * writes): E2BIG beyond 1024 entries in all, and nothing injected then;
 * EINVAL for a count of 0 or timebases that would wrap to 0.
 */
TEST(inject_bounds)
{
	unsigned long long idx0, idx;
	char owner[32], lines[256];
	unsigned int mask;
	struct rb rb;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	OPEN_RECORDING(&rb, 0, VPA_DTL_ALL);
	ASSERT_EQ(0, dtl_state_idx(0, owner, &mask, &idx0));
	EXPECT_EQ(-E2BIG, inject_n(0, 1000, INJECT_MAX + 1));
	snprintf(lines, sizeof(lines), "1 2 0 0 0 0 1000 0 0 0 %d\n1 2 0 0 0 0 5000 0 0 0 2\n",
		 INJECT_MAX - 1);
	EXPECT_EQ(-E2BIG, inject(0, lines)) TH_LOG("two lines of %d entries in all",
						   INJECT_MAX + 1);
	EXPECT_EQ(-EINVAL, inject_n(0, 1000, 0));
	EXPECT_EQ(-EINVAL, inject(0, "1 2 0 0 0 0 0xffffffffffffffff 0 0 0 2\n"))
		TH_LOG("timebases that wrap to 0");
	EXPECT_EQ(-EINVAL, inject(0, "1 2 0 0 0 0 1000 0 0\n")) TH_LOG("9 numbers");
	EXPECT_EQ(-EINVAL, inject(0, "256 2 0 0 0 0 1000 0 0 0\n")) TH_LOG("a reason over 255");
	ASSERT_EQ(0, dtl_state_idx(0, owner, &mask, &idx));
	EXPECT_EQ(idx0, idx) TH_LOG("a refused write injected entries");
	EXPECT_EQ(0, inject(0, "1 2 0 0 0 0 0xffffffffffffffff 0 0 0 1\n"));
	EXPECT_EQ(0, inject_n(0, 1000, INJECT_MAX));
	ASSERT_EQ(0, dtl_state_idx(0, owner, &mask, &idx));
	EXPECT_EQ(idx0 + 1 + INJECT_MAX, idx);
	unmap_rb(&rb);
}

/* Disable/enable cycles of one event: every entry logged while enabled. */
TEST(disable_enable_cycles)
{
	static union vpa_rec out[128];
	char owner[32], before[32];
	unsigned int mask0, mask;
	struct data_log log;
	struct rb rb;
	int i, n;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	ASSERT_EQ(0, dtl_state(0, before, &mask0));
	OPEN_RECORDING(&rb, 0, VPA_DTL_ALL);
	for (i = 0; i < 50; i++) {
		char line[128];

		snprintf(line, sizeof(line), "1 2 0 0 0 0 %d 0 0 0\n", 1000 + i);
		ASSERT_EQ(0, inject(0, line));
		ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_ENABLE, 0));
	}
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(51, n) TH_LOG("1 header and 50 entries expected");
	EXPECT_EQ(NULL, bad_stream(out, n)) TH_LOG("%s", bad_stream(out, n));
	for (i = 0; i < 50; i++)
		EXPECT_EQ(1000 + i, tb_of(&out[1 + i]));
	read_data(&rb, &log);
	EXPECT_EQ(0, log.nr_lost_samples) TH_LOG("nothing was lost");
	unmap_rb(&rb);
	ASSERT_EQ(0, dtl_state(0, owner, &mask));
	EXPECT_STREQ(before, owner);
	EXPECT_EQ(mask0, mask);
	if (!strcmp(before, "accounting"))
		EXPECT_TRUE(accounting_live(0)) TH_LOG("the accounting scan does not read the DTL");
}

static int set_online(int cpu, int on)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, on ? "1" : "0");
}

/* The recorded CPU goes offline and comes back: its DTL is given back. */
TEST(cpu_hotplug)
{
	static union vpa_rec out[64];
	char owner[32], before[32];
	unsigned int mask0, mask;
	struct rb rb;
	int n;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot go offline");
	ASSERT_EQ(0, dtl_state(1, before, &mask0));
	OPEN_RECORDING(&rb, 1, VPA_DTL_ALL);
	ASSERT_EQ(0, inject(1, "5 6 1 0 0 0 4242 0 0 0\n"));
	ASSERT_EQ(0, set_online(1, 0));
	ASSERT_EQ(0, set_online(1, 1));
	ASSERT_EQ(0, dtl_state(1, owner, &mask));
	EXPECT_STREQ(before, owner);
	EXPECT_EQ(mask0, mask);
	/* The entry logged before the CPU went down was not lost. */
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(2, n);
	EXPECT_EQ(4242, tb_of(&out[1]));
	unmap_rb(&rb);
	ASSERT_EQ(0, dtl_state(1, owner, &mask));
	EXPECT_STREQ(before, owner);
	if (!strcmp(before, "accounting"))
		EXPECT_TRUE(accounting_live(1)) TH_LOG("the accounting scan does not read the DTL");
	/* A new event on the CPU that came back records. */
	OPEN_RECORDING(&rb, 1, VPA_DTL_ALL);
	ASSERT_EQ(0, dtl_state(1, owner, &mask));
	EXPECT_STREQ("vpa_dtl", owner);
	ASSERT_EQ(0, inject(1, "5 6 1 0 0 0 4243 0 0 0\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_copy(&rb, out, ARRAY_SIZE(out));
	ASSERT_EQ(2, n);
	EXPECT_EQ(4243, tb_of(&out[1]));
	unmap_rb(&rb);
}

/* A recorder killed while recording: the DTL and the lock come back. */
TEST(recorder_killed)
{
	char owner[32], before[32];
	struct perf_event_attr attr;
	unsigned int mask0, mask;
	int status, p[2], dtl;
	pid_t pid;
	char c;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	ASSERT_EQ(0, dtl_state(0, before, &mask0));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct rb rb;
		int fd;

		init_vpa(&attr, VPA_DTL_ALL);
		fd = vpa_open(&attr, -1, 0);
		if (fd < 0 || map_rb(&rb, fd, AUX_PAGES, RW) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1));
	close(p[0]);
	ASSERT_EQ(0, dtl_state(0, owner, &mask));
	EXPECT_STREQ("vpa_dtl", owner);
	ASSERT_EQ(0, inject(0, "1 1 0 0 0 0 0 0 0 0 50\n"));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, dtl_state(0, owner, &mask));
	EXPECT_STREQ(before, owner);
	EXPECT_EQ(mask0, mask);
	if (!strcmp(before, "accounting"))
		EXPECT_TRUE(accounting_live(0)) TH_LOG("the accounting scan does not read the DTL");
	dtl = open(DTL_DEBUGFS, O_RDONLY);
	if (dtl >= 0 || errno != ENOENT) {
		EXPECT_GE(dtl, 0) TH_LOG("dtl_access_lock must be free: %s", strerror(errno));
		close(dtl);
	}
	init_vpa(&attr, VPA_DTL_ALL);
	EXPECT_EQ(0, open_err(&attr, -1, 0));
}

/*
 * Two recorders in two processes, the first to open closes first: the last
 * event, in the other process, gives dtl_access_lock back (no rwsem owner
 * warning; the lock is free again).
 */
TEST(two_recorders)
{
	struct perf_event_attr attr;
	int fd, dtl, p[2], q[2], status;
	pid_t pid;
	char c;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_vpa(&attr, VPA_DTL_ALL);
	fd = vpa_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd2 = vpa_open(&attr, -1, 1);

		if (fd2 < 0 || write(p[1], "x", 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(1);
		close(fd2);
		_exit(0);
	}
	ASSERT_EQ(1, read(p[0], &c, 1));
	close(fd);
	ASSERT_EQ(1, write(q[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	dtl = open(DTL_DEBUGFS, O_RDONLY);
	if (dtl >= 0 || errno != ENOENT) {
		EXPECT_GE(dtl, 0) TH_LOG("dtl_access_lock must be free: %s", strerror(errno));
		close(dtl);
	}
}

/* A frequency becomes a period; tiny periods are raised to 1 ms. */
TEST(period_and_frequency)
{
	struct perf_event_attr attr;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_vpa(&attr, VPA_DTL_ALL);
	attr.sample_period = 1;
	EXPECT_EQ(0, open_err(&attr, -1, 0));
	init_vpa(&attr, VPA_DTL_ALL);
	attr.freq = 1;
	attr.sample_freq = 100;
	EXPECT_EQ(0, open_err(&attr, -1, 0));
}

int main(int argc, char **argv)
{
	page_size = sysconf(_SC_PAGESIZE);
	return test_harness_run(argc, argv);
}
