// SPDX-License-Identifier: GPL-2.0
/*
 * The vpa_dtl PMU (powerpc's Dispatch Trace Log, CONFIG_VPA_DTL) through
 * the raw system calls: sysfs, the errors of perf_event_open(), the AUX
 * data (header record, entries as the hypervisor wrote them, lost-entries
 * records), dtl_enable_mask, exclusivity with the other DTL users,
 * disable/enable cycles, CPU hotplug and a killed recorder.
 *
 * QEMU writes no DTL entries: the tests that need entries use the
 * hypervisor stand-in of CONFIG_VPA_DTL_INJECT (debugfs
 * powerpc/vpa_dtl_inject/) and skip without it. Without the PMU (any
 * machine but a pseries shared-processor LPAR) every test skips.
 */
#define _GNU_SOURCE

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
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/perf_event.h>

#include "../kselftest_harness.h"

#define PMU_DIR		"/sys/bus/event_source/devices/vpa_dtl"
#define INJECT_DIR	"/sys/kernel/debug/powerpc/vpa_dtl_inject"
#define DTL_DEBUGFS	"/sys/kernel/debug/powerpc/dtl/cpu-0"
#define DISPATCH_STATS	"/proc/powerpc/vcpudispatch_stats"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define REC		48
#define N_DTL		85
#define DATA_PAGES	16
#define RW		(PROT_READ | PROT_WRITE)
#define AUX_PAGES	16
#define LOST_MAGIC	0x44544c5f4c4f5354ULL

static long page_size;

static int pmu_type(void)
{
	FILE *f = fopen(PMU_DIR "/type", "r");
	int type = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

/* Why the tests cannot run here, or NULL. */
static const char *no_pmu(void)
{
	if (pmu_type() < 0)
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

static void init_attr(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = pmu_type();
	attr->config = config;
	attr->sample_period = 1000000;	/* poll every 1 ms */
	attr->sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	attr->sample_id_all = 1;
	attr->disabled = 1;
}

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, -1, 0);
}

static int open_err(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = perf_open(attr, pid, cpu);

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

/* "owner=... mask=0x.. idx=..." of a CPU's DTL, from the stand-in. */
static int dtl_state(int cpu, char *owner, unsigned int *mask)
{
	char path[128], buf[128];

	snprintf(path, sizeof(path), INJECT_DIR "/cpu-%d", cpu);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "owner=%31s mask=%x", owner, mask) == 2 ? 0 : -1;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int inject(int cpu, const char *lines)
{
	char path[128];

	snprintf(path, sizeof(path), INJECT_DIR "/cpu-%d", cpu);
	return write_file(path, lines);
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

/* One event with its ring buffer and AUX area. */
struct rb {
	int fd;
	struct perf_event_mmap_page *pc;
	void *data;
	void *aux;
	size_t aux_size;
	__u64 data_tail;
	__u64 aux_flags;	/* OR of the PERF_RECORD_AUX flags seen */
	int nr_aux;
};

/* A read-only AUX area (@aux_prot PROT_READ) is in overwrite mode. */
static int map_rb(struct rb *rb, int fd, int aux_prot)
{
	memset(rb, 0, sizeof(*rb));
	rb->fd = fd;
	rb->pc = mmap(NULL, page_size * (1 + DATA_PAGES), PROT_READ | PROT_WRITE,
		      MAP_SHARED, fd, 0);
	if (rb->pc == MAP_FAILED)
		return -1;
	rb->data = (char *)rb->pc + page_size;
	rb->aux_size = AUX_PAGES * page_size;
	rb->pc->aux_offset = page_size * (1 + DATA_PAGES);
	rb->pc->aux_size = rb->aux_size;
	rb->aux = mmap(NULL, rb->aux_size, aux_prot, MAP_SHARED, fd,
		       rb->pc->aux_offset);
	return rb->aux == MAP_FAILED ? -1 : 0;
}

static void unmap_rb(struct rb *rb)
{
	if (rb->aux && rb->aux != MAP_FAILED)
		munmap(rb->aux, rb->aux_size);
	if (rb->pc && rb->pc != MAP_FAILED)
		munmap(rb->pc, page_size * (1 + DATA_PAGES));
	close(rb->fd);
}

static void read_aux_records(struct rb *rb)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	size_t size = DATA_PAGES * page_size;

	while (rb->data_tail < head) {
		struct perf_event_header hdr;
		char buf[256];
		size_t off = rb->data_tail % size, i;

		for (i = 0; i < sizeof(hdr); i++)
			((char *)&hdr)[i] = ((char *)rb->data)[(off + i) % size];
		if (hdr.size < sizeof(hdr) || hdr.size > sizeof(buf))
			break;
		for (i = 0; i < hdr.size; i++)
			buf[i] = ((char *)rb->data)[(off + i) % size];
		if (hdr.type == PERF_RECORD_AUX) {
			rb->aux_flags |= ((__u64 *)(buf + sizeof(hdr)))[2];
			rb->nr_aux++;
		}
		rb->data_tail += hdr.size;
	}
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
}

/* Copy out the AUX data written so far, n records of it. */
static int aux_records(struct rb *rb, unsigned char *out, int max)
{
	__u64 head = __atomic_load_n(&rb->pc->aux_head, __ATOMIC_ACQUIRE);
	__u64 i;

	if (head % REC || head / REC > (__u64)max)
		return -1;
	for (i = 0; i < head; i++)
		out[i] = ((unsigned char *)rb->aux)[i % rb->aux_size];
	read_aux_records(rb);
	return head / REC;
}

static __u64 native64(const unsigned char *p)
{
	__u64 v;

	memcpy(&v, p, 8);
	return v;
}

static __u64 be64(const unsigned char *p)
{
	__u64 v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static __u32 be32(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

/* Open, map and enable an event on @cpu; ASSERTs. */
#define OPEN_RECORDING(rb, cpu, config) do {				\
	struct perf_event_attr __a;					\
	int __fd;							\
									\
	init_attr(&__a, config);					\
	__fd = perf_open(&__a, -1, cpu);				\
	ASSERT_GE(__fd, 0) TH_LOG("perf_event_open: %s", strerror(errno)); \
	ASSERT_EQ(0, map_rb(rb, __fd, RW)) TH_LOG("mmap: %s", strerror(errno)); \
	ASSERT_EQ(0, ioctl(__fd, PERF_EVENT_IOC_ENABLE, 0));		\
} while (0)

TEST(registered)
{
	static const char * const ev[][2] = {
		{ "dtl_cede", "event=0x1" }, { "dtl_preempt", "event=0x2" },
		{ "dtl_fault", "event=0x4" }, { "dtl_all", "event=0x7" },
	};
	char path[256], buf[64];
	unsigned int i;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	ASSERT_EQ(0, read_file(PMU_DIR "/format/event", buf, sizeof(buf)));
	ASSERT_STREQ("config:0-7\n", buf);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), PMU_DIR "/events/%s", ev[i][0]);
		ASSERT_EQ(0, read_file(path, buf, sizeof(buf))) TH_LOG("%s", path);
		ASSERT_STREQ(ev[i][1], strtok(buf, "\n"));
	}
}

TEST(bad_config)
{
	static const __u64 bad[] = { 0, 3, 5, 6, 8, 0xff, 0x100, 0x107, 1ULL << 63 };
	struct perf_event_attr attr;
	unsigned int i;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		init_attr(&attr, bad[i]);
		EXPECT_EQ(EINVAL, open_err(&attr, -1, 0))
			TH_LOG("config %#llx", (unsigned long long)bad[i]);
	}
	init_attr(&attr, 7);
	attr.config1 = 1;
	EXPECT_EQ(EINVAL, open_err(&attr, -1, 0));
	init_attr(&attr, 7);
	attr.exclude_kernel = 1;
	EXPECT_EQ(EINVAL, open_err(&attr, -1, 0)) TH_LOG("exclude_* must be refused");
	for (i = 1; i <= 8; i <<= 1) {
		init_attr(&attr, i == 8 ? 7 : i);
		EXPECT_EQ(0, open_err(&attr, -1, 0)) TH_LOG("config %#x refused", i);
	}
}

TEST(per_task_refused)
{
	struct perf_event_attr attr;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_attr(&attr, 7);
	EXPECT_EQ(EINVAL, open_err(&attr, 0, -1));
	EXPECT_EQ(EINVAL, open_err(&attr, 0, 0));
}

TEST(counting_and_branch_stack)
{
	struct perf_event_attr attr;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_attr(&attr, 7);
	attr.sample_period = 0;
	EXPECT_EQ(EOPNOTSUPP, open_err(&attr, -1, 0)) TH_LOG("a counting event");
	init_attr(&attr, 7);
	attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(EOPNOTSUPP, open_err(&attr, -1, 0)) TH_LOG("branch stack sampling");
}

TEST(unprivileged)
{
	char old[16];
	int status;
	pid_t pid;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	if (getuid() != 0)
		SKIP(return, "needs root to drop privileges");
	ASSERT_EQ(0, read_file(PARANOID, old, sizeof(old)));
	/* Let the core pass CPU-wide events: the PMU's own check must refuse. */
	ASSERT_EQ(0, write_file(PARANOID, "-1"));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct perf_event_attr attr;

		init_attr(&attr, 7);
		if (setgid(65534) || setuid(65534))
			_exit(100);
		_exit(open_err(&attr, -1, 0));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_file(PARANOID, old);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EACCES, WEXITSTATUS(status));
}

TEST(one_event_per_cpu)
{
	struct perf_event_attr attr;
	int fd;

	if (no_pmu())
		SKIP(return, "%s", no_pmu());
	init_attr(&attr, 7);
	fd = perf_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 0));
	close(fd);
	EXPECT_EQ(0, open_err(&attr, -1, 0));
}

/* Each event code reaches lppaca.dtl_enable_mask; the old owner comes back. */
TEST(enable_mask)
{
	static const unsigned int codes[] = { 1, 2, 4, 7 };
	char before[32], owner[32];
	unsigned int i, mask0, mask;
	struct rb rb;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	ASSERT_EQ(0, dtl_state(0, before, &mask0));
	for (i = 0; i < 4; i++) {
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
	init_attr(&attr, 7);
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 1)) TH_LOG("while debugfs dtl is open");
	close(dtl);
	fd = perf_open(&attr, -1, 1);
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
	init_attr(&attr, 7);
	EXPECT_EQ(EBUSY, open_err(&attr, -1, 0)) TH_LOG("while vcpudispatch_stats is on");
	ASSERT_EQ(0, write_file(DISPATCH_STATS, "0"));
	fd = perf_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EBUSY, write_file(DISPATCH_STATS, "1"));
	close(fd);
	EXPECT_EQ(0, write_file(DISPATCH_STATS, "1")) TH_LOG("the lock must be free again");
	write_file(DISPATCH_STATS, "0");
}

/* The header, then the entries exactly as written, in order. */
TEST(record_entries)
{
	unsigned long long boot_tb, tb_freq, tb;
	static unsigned char out[64 * REC];
	char lines[1024];
	struct rb rb;
	int n, i;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	read_timebase(&boot_tb, &tb_freq);
	ASSERT_NE(0, tb_freq);
	tb = boot_tb + 5 * tb_freq;
	OPEN_RECORDING(&rb, 0, 7);
	snprintf(lines, sizeof(lines),
		 "3 2 7 100 200 300 %llu 0 0xc000000000001234 0x8000000000001033\n"
		 "0 4 7 101 201 301 %llu 0xdead 0x10000400 0x800000000000d033\n"
		 "10 9 8 102 202 302 %llu 0 0xc000000000005678 0\n"
		 "200 250 9 103 203 303 %llu 0 0xc000000000005678 0\n",
		 tb, tb + 1, tb + 2, tb + 3);
	ASSERT_EQ(0, inject(0, lines));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&rb, out, 64);
	ASSERT_EQ(5, n) TH_LOG("1 header and 4 entries expected");
	EXPECT_EQ(boot_tb, native64(out));
	EXPECT_EQ(tb_freq, native64(out + 8));
	EXPECT_EQ(0, native64(out + 16));
	EXPECT_EQ(0, native64(out + 24));
	for (i = 0; i < 4; i++) {
		const unsigned char *e = out + (i + 1) * REC;

		EXPECT_EQ(tb + i, be64(e + 16));
		EXPECT_EQ(100 + i, be32(e + 4));
		EXPECT_EQ(200 + i, be32(e + 8));
		EXPECT_EQ(300 + i, be32(e + 12));
	}
	EXPECT_EQ(3, out[REC]);
	EXPECT_EQ(2, out[REC + 1]);
	EXPECT_EQ(7, out[REC + 3]);
	EXPECT_EQ(0xdead, be64(out + 2 * REC + 24));
	EXPECT_EQ(0x10000400, be64(out + 2 * REC + 32));
	EXPECT_EQ(0x800000000000d033ULL, be64(out + 2 * REC + 40));
	EXPECT_EQ(200, out[4 * REC]);
	EXPECT_EQ(0, rb.aux_flags & PERF_AUX_FLAG_PARTIAL);
	unmap_rb(&rb);
}

/* Overwrite (snapshot) mode: every poll's entries come after a header. */
TEST(overwrite_mode)
{
	unsigned long long boot_tb, tb_freq;
	static unsigned char out[64 * REC];
	struct perf_event_attr attr;
	struct rb rb;
	int fd, n, i;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	read_timebase(&boot_tb, &tb_freq);
	init_attr(&attr, 7);
	fd = perf_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, map_rb(&rb, fd, PROT_READ)) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, inject(0, "1 2 3 4 5 6 7000 0 0 0 3\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&rb, out, 64);
	ASSERT_GE(n, 4);
	EXPECT_EQ(0, native64(out + (n - 4) * REC + 16));
	EXPECT_EQ(boot_tb, native64(out + (n - 4) * REC));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(7000 + i, be64(out + (n - 3 + i) * REC + 16));
	EXPECT_NE(0, rb.aux_flags & PERF_AUX_FLAG_OVERWRITE);
	unmap_rb(&rb);
}

/* More than the 85-entry buffer between two polls: the loss is reported. */
TEST(wrap_reports_loss)
{
	static unsigned char out[128 * REC];
	unsigned long long tb = 1000000;
	char line[128];
	struct rb rb;
	int n, i;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	OPEN_RECORDING(&rb, 0, 7);
	snprintf(line, sizeof(line), "7 4 0 1 2 3 %llu 0 0xc000000000000000 0 100\n", tb);
	ASSERT_EQ(0, inject(0, line));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&rb, out, 128);
	ASSERT_EQ(2 + N_DTL, n) TH_LOG("header, lost record, 85 entries");
	EXPECT_EQ(0, native64(out + 24));
	EXPECT_EQ(0, be64(out + REC + 16));
	EXPECT_EQ(LOST_MAGIC, native64(out + REC + 24));
	EXPECT_EQ(15, native64(out + REC + 32));
	for (i = 0; i < N_DTL; i++)
		EXPECT_EQ(tb + 15 + i, be64(out + (2 + i) * REC + 16));
	EXPECT_NE(0, rb.aux_flags & PERF_AUX_FLAG_PARTIAL);
	unmap_rb(&rb);
}

/* Disable/enable cycles of one event: every entry logged while enabled. */
TEST(disable_enable_cycles)
{
	static unsigned char out[128 * REC];
	char owner[32], before[32];
	unsigned int mask0, mask;
	struct rb rb;
	int i, n;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	ASSERT_EQ(0, dtl_state(0, before, &mask0));
	OPEN_RECORDING(&rb, 0, 7);
	for (i = 0; i < 50; i++) {
		char line[128];

		snprintf(line, sizeof(line), "1 2 0 0 0 0 %d 0 0 0\n", 1000 + i);
		ASSERT_EQ(0, inject(0, line));
		ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_ENABLE, 0));
	}
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&rb, out, 128);
	ASSERT_EQ(51, n) TH_LOG("1 header and 50 entries expected");
	for (i = 0; i < 50; i++)
		EXPECT_EQ(1000 + i, be64(out + (1 + i) * REC + 16));
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
	static unsigned char out[64 * REC];
	char owner[32], before[32];
	unsigned int mask0, mask;
	struct rb rb;
	int n;

	if (no_inject())
		SKIP(return, "%s", no_inject());
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot go offline");
	ASSERT_EQ(0, dtl_state(1, before, &mask0));
	OPEN_RECORDING(&rb, 1, 7);
	ASSERT_EQ(0, inject(1, "5 6 1 0 0 0 4242 0 0 0\n"));
	ASSERT_EQ(0, set_online(1, 0));
	ASSERT_EQ(0, set_online(1, 1));
	ASSERT_EQ(0, dtl_state(1, owner, &mask));
	EXPECT_STREQ(before, owner);
	EXPECT_EQ(mask0, mask);
	/* The entry logged before the CPU went down was not lost. */
	n = aux_records(&rb, out, 64);
	ASSERT_EQ(2, n);
	EXPECT_EQ(4242, be64(out + REC + 16));
	unmap_rb(&rb);
	ASSERT_EQ(0, dtl_state(1, owner, &mask));
	EXPECT_STREQ(before, owner);
	if (!strcmp(before, "accounting"))
		EXPECT_TRUE(accounting_live(1)) TH_LOG("the accounting scan does not read the DTL");
	/* A new event on the CPU that came back records. */
	OPEN_RECORDING(&rb, 1, 7);
	ASSERT_EQ(0, dtl_state(1, owner, &mask));
	EXPECT_STREQ("vpa_dtl", owner);
	ASSERT_EQ(0, inject(1, "5 6 1 0 0 0 4243 0 0 0\n"));
	sleep_ms(50);
	ASSERT_EQ(0, ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0));
	n = aux_records(&rb, out, 64);
	ASSERT_EQ(2, n);
	EXPECT_EQ(4243, be64(out + REC + 16));
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

		init_attr(&attr, 7);
		fd = perf_open(&attr, -1, 0);
		if (fd < 0 || map_rb(&rb, fd, RW) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
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
	init_attr(&attr, 7);
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
	init_attr(&attr, 7);
	fd = perf_open(&attr, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd2 = perf_open(&attr, -1, 1);

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
	init_attr(&attr, 7);
	attr.sample_period = 1;
	EXPECT_EQ(0, open_err(&attr, -1, 0));
	init_attr(&attr, 7);
	attr.freq = 1;
	attr.sample_freq = 100;
	EXPECT_EQ(0, open_err(&attr, -1, 0));
}

int main(int argc, char **argv)
{
	page_size = sysconf(_SC_PAGESIZE);
	return test_harness_run(argc, argv);
}
