// SPDX-License-Identifier: GPL-2.0
/*
 * The perf AUX area ABI, tested through the raw system calls on aux_test,
 * the software AUX PMU (CONFIG_PERF_AUX_TEST_PMU). Every test checks the
 * data itself: record magic, sequence continuity, PERF_RECORD_AUX offsets
 * and flags. Without the PMU every test skips.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
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
#include <linux/perf_aux_test.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

FIXTURE(aux) {
	int type;
	struct rb rb;
	struct aux_rec recs[MAX_AUX_RECS];
};

FIXTURE_SETUP(aux)
{
	page_size = sysconf(_SC_PAGESIZE);
	self->rb.fd = -1;
	self->type = pmu_type();
	if (self->type < 0)
		SKIP(return, "no aux_test PMU (CONFIG_PERF_AUX_TEST_PMU)");
}

FIXTURE_TEARDOWN(aux)
{
	unmap_rb(&self->rb);
}

/* Open a per-task (this task) aux_test event and map @aux_pages of AUX. */
static void open_self(struct __test_metadata *_metadata, FIXTURE_DATA(aux) *self,
		      __u64 config, size_t aux_pages, int aux_prot)
{
	struct perf_event_attr attr;
	int fd;

	init_attr(&attr, self->type, config);
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, aux_pages, aux_prot), 0)
		TH_LOG("mmap: %s", strerror(errno));
}

/* Data lands between aux_tail and aux_head, in order, and matches the AUX records. */
TEST_F(aux, head_tail_order)
{
	__u64 head, seq = 0, expect_off = 0;
	const char *why = "";
	long n;
	int i, nr;

	IF_SETUP_SKIPPED(return);
	open_self(_metadata, self, cfg(200, 4, 0), 16, PROT_READ | PROT_WRITE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(60);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	ASSERT_EQ(self->rb.pc->aux_tail, 0);
	ASSERT_GT(head, 4 * REC) TH_LOG("only %llu bytes in 60 ms", (unsigned long long)head);
	ASSERT_LT(head, self->rb.aux_size) TH_LOG("buffer filled: slow the test");

	n = check_records(&self->rb, 0, head, &seq, 0, &why);
	ASSERT_GT(n, 0) TH_LOG("%s", why);
	EXPECT_EQ(rec_at(&self->rb, 0)->type, AUX_TEST_RECORD_START);
	EXPECT_EQ(rec_at(&self->rb, 0)->seq, 0);
	EXPECT_EQ(rec_at(&self->rb, 0)->tid, syscall(SYS_gettid));
	/* DATA, and a START each time the task was scheduled in again. */
	for (i = 1; i < n; i++) {
		__u16 type = rec_at(&self->rb, i * REC)->type;

		ASSERT_TRUE(type == AUX_TEST_RECORD_DATA || type == AUX_TEST_RECORD_START);
		EXPECT_EQ(rec_at(&self->rb, i * REC)->tid, syscall(SYS_gettid));
	}

	nr = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
	ASSERT_GT(nr, 0);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ(self->recs[i].offset, expect_off);
		EXPECT_EQ(self->recs[i].flags, 0);
		EXPECT_EQ(self->recs[i].size % REC, 0);
		expect_off += self->recs[i].size;
	}
	EXPECT_EQ(expect_off, head);
}

/*
 * A consumer that advances aux_tail lets the producer go on, losslessly.
 * Eight pages: under emulation with KASAN a consumer round meant to take
 * 2 ms was seen to take 7, while the producer wrote 134 records, more than
 * one page holds.
 */
TEST_F(aux, consumer_advances_tail)
{
	__u64 tail = 0, seq = 0, total = 0;
	const char *why = "";
	int i, rounds = 0;

	IF_SETUP_SKIPPED(return);
	open_self(_metadata, self, cfg(200, 4, 0), 8, PROT_READ | PROT_WRITE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	while (total < 4 * self->rb.aux_size && rounds++ < 2000) {
		__u64 head;
		long n;

		spin_ms(2);
		head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
		n = check_records(&self->rb, tail, head, &seq, 0, &why);
		ASSERT_GE(n, 0) TH_LOG("at %llu: %s", (unsigned long long)tail, why);
		total += head - tail;
		tail = head;
		__atomic_store_n(&self->rb.pc->aux_tail, tail, __ATOMIC_RELEASE);
	}
	ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_GE(total, 4 * self->rb.aux_size)
		TH_LOG("producer stalled at %llu bytes", (unsigned long long)total);
	i = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
	while (i-- > 0)
		EXPECT_EQ(self->recs[i].flags & PERF_AUX_FLAG_TRUNCATED, 0);
}

/*
 * A stalled consumer gets TRUNCATED and the event stops; once space is
 * freed and the event enabled again, tracing restarts with a START record
 * and the gap before it is the lost data. (The AUX core keeps one byte
 * free to tell full from empty, so a full area holds one record less.)
 */
TEST_F(aux, truncated_then_restart)
{
	__u64 head, seq = 0, last_seq, count1, count2;
	const char *why = "";
	bool truncated = false;
	long n;
	int i, nr;

	IF_SETUP_SKIPPED(return);
	open_self(_metadata, self, cfg(200, 48, 0), 1, PROT_READ | PROT_WRITE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(50);

	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	ASSERT_EQ(head, self->rb.aux_size - REC) TH_LOG("the buffer did not fill");
	n = check_records(&self->rb, 0, head, &seq, 0, &why);
	ASSERT_EQ(n, self->rb.aux_size / REC - 1) TH_LOG("%s", why);
	last_seq = seq - 1;

	nr = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
	for (i = 0; i < nr; i++)
		truncated |= !!(self->recs[i].flags & PERF_AUX_FLAG_TRUNCATED);
	EXPECT_TRUE(truncated);

	/* Stopped: the count of generated records no longer moves. */
	ASSERT_EQ(read(self->rb.fd, &count1, sizeof(count1)), sizeof(count1));
	spin_ms(20);
	ASSERT_EQ(read(self->rb.fd, &count2, sizeof(count2)), sizeof(count2));
	EXPECT_EQ(count1, count2);
	EXPECT_GT(count1, last_seq + 1) TH_LOG("records that did not fit were not counted");

	/* Free the space, enable again: a START with a gap before it. */
	__atomic_store_n(&self->rb.pc->aux_tail, head, __ATOMIC_RELEASE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(5);
	ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_GT(self->rb.pc->aux_head, head) TH_LOG("tracing did not restart");
	EXPECT_EQ(rec_at(&self->rb, head)->type, AUX_TEST_RECORD_START);
	EXPECT_EQ(rec_at(&self->rb, head)->seq, count1);
	seq = count1;
	n = check_records(&self->rb, head, self->rb.pc->aux_head, &seq, 0, &why);
	EXPECT_GT(n, 0) TH_LOG("%s", why);
}

/* Records dropped by the PMU: the AUX records say PARTIAL, the gaps are exact. */
TEST_F(aux, partial_flag)
{
	__u64 head, pos, expect = 0;
	bool partial = false;
	int i, nr;

	IF_SETUP_SKIPPED(return);
	open_self(_metadata, self, cfg(200, 10, 5), 16, PROT_READ | PROT_WRITE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(30);
	ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0);
	head = self->rb.pc->aux_head;
	ASSERT_GT(head, 10 * REC);
	for (pos = 0; pos < head; pos += REC) {
		const struct aux_test_record *r = rec_at(&self->rb, pos);

		ASSERT_EQ(r->magic, AUX_TEST_MAGIC);
		/*
		 * The DATA record at a seq % 5 == 4 is dropped, and whatever
		 * comes next takes the seq after it: a DATA record, or a START
		 * when the task was rescheduled right after that burst.
		 */
		if (expect % 5 == 4 && r->seq == expect + 1)
			expect++;	/* the dropped one */
		ASSERT_EQ(r->seq, expect);
		/* Only DATA is dropped: a START (a reschedule) may take any seq. */
		if (r->type == AUX_TEST_RECORD_DATA)
			EXPECT_NE(r->seq % 5, 4);
		expect = r->seq + 1;
	}
	nr = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
	for (i = 0; i < nr; i++)
		partial |= !!(self->recs[i].flags & PERF_AUX_FLAG_PARTIAL);
	EXPECT_TRUE(partial);
}

/*
 * Rate mode: what does not fit is dropped (PARTIAL, never TRUNCATED) and
 * the event goes on, so that freed room fills again without an enable; no
 * more is written than the rate owes for the time the event ran.
 */
TEST_F(aux, rate_mode)
{
	const __u32 rate = 2;	/* MB/s: 2000 bytes a millisecond */
	__u64 head, head2, seq = 0, count1, count2;
	__u64 val[3];	/* count, time enabled, time running */
	const char *why = "";
	bool partial = false, truncated = false;
	struct perf_event_attr attr;
	int i, nr, fd;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(200, 0, 0));
	attr.config1 = rate;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 1, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));

	/* 30 ms owe 60000 bytes: far more than the one page of room. */
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(30);
	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	ASSERT_EQ(head, self->rb.aux_size - REC) TH_LOG("the buffer did not fill");
	ASSERT_GT(check_records(&self->rb, 0, head, &seq, 0, &why), 0) TH_LOG("%s", why);
	nr = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
	for (i = 0; i < nr; i++) {
		partial |= !!(self->recs[i].flags & PERF_AUX_FLAG_PARTIAL);
		truncated |= !!(self->recs[i].flags & PERF_AUX_FLAG_TRUNCATED);
	}
	EXPECT_TRUE(partial) TH_LOG("records were dropped without PARTIAL");
	EXPECT_FALSE(truncated) TH_LOG("rate mode truncated (and so stopped) the event");

	/* Still running: the records it drops are counted. */
	ASSERT_EQ(read(fd, val, sizeof(val)), sizeof(val));
	count1 = val[0];
	spin_ms(10);
	ASSERT_EQ(read(fd, val, sizeof(val)), sizeof(val));
	count2 = val[0];
	EXPECT_GT(count2, count1) TH_LOG("the event stopped");

	/* Freed room fills again, after a gap, with no START (no restart). */
	__atomic_store_n(&self->rb.pc->aux_tail, head, __ATOMIC_RELEASE);
	spin_ms(10);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(read(fd, val, sizeof(val)), sizeof(val));
	head2 = self->rb.pc->aux_head;
	ASSERT_GT(head2, head) TH_LOG("freed room was not written");
	EXPECT_GT(rec_at(&self->rb, head)->seq, seq) TH_LOG("no gap for the dropped records");

	/*
	 * Never more than the rate owes for the time the event ran: the
	 * count is every record generated, stored or dropped, DATA or START
	 * (one a sched-in: 64 records of slack for those).
	 */
	EXPECT_LE(val[0] * REC, val[2] / 1000 * rate + 64 * REC)
		TH_LOG("%llu records in %llu ns running at %u MB/s",
		       (unsigned long long)val[0], (unsigned long long)val[2], rate);
}

/* poll() wakes the consumer once aux_watermark bytes are there. */
TEST_F(aux, watermark_poll)
{
	struct perf_event_attr attr;
	struct pollfd pfd;
	__u64 head;
	int fd, ret;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(1000, 8, 0));
	attr.aux_watermark = page_size;
	attr.wakeup_events = 1000000;	/* no wake-ups from the data ring */
	fd = perf_open(&attr, -1, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 4, PROT_READ | PROT_WRITE), 0);

	pfd.fd = fd;
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 0), 0) TH_LOG("readable before any data");
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	ret = poll(&pfd, 1, 5000);
	head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(ret, 1) TH_LOG("no wake-up in 5 s");
	EXPECT_TRUE(pfd.revents & POLLIN);
	EXPECT_GE(head, (__u64)page_size) TH_LOG("woken with %llu bytes", (unsigned long long)head);
}

/* Snapshot (read-only AUX) mode keeps the newest data and says OVERWRITE. */
TEST_F(aux, snapshot_keeps_newest)
{
	__u64 head, count, seq;
	const char *why = "";
	bool overwrite = false;
	int i, nr;
	long n;

	IF_SETUP_SKIPPED(return);
	open_self(_metadata, self, cfg(200, 32, 0), 1, PROT_READ);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(60);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	head = self->rb.pc->aux_head;
	ASSERT_GT(head, 2 * self->rb.aux_size)
		TH_LOG("did not wrap: %llu", (unsigned long long)head);
	ASSERT_EQ(read(self->rb.fd, &count, sizeof(count)), sizeof(count));

	/* The last aux_size bytes are the newest records, ending with the last one. */
	seq = rec_at(&self->rb, head - self->rb.aux_size)->seq;
	n = check_records(&self->rb, head - self->rb.aux_size, head, &seq, 0, &why);
	ASSERT_EQ(n, self->rb.aux_size / REC) TH_LOG("%s", why);
	EXPECT_EQ(seq, count) TH_LOG("the newest record is not the last one generated");

	nr = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
	ASSERT_GT(nr, 0);
	for (i = 0; i < nr; i++)
		overwrite |= !!(self->recs[i].flags & PERF_AUX_FLAG_OVERWRITE);
	EXPECT_TRUE(overwrite);
}

/* PERF_SAMPLE_AUX: a sample carries the newest aux_sample_size bytes. */
TEST_F(aux, sample_aux)
{
	struct perf_event_attr attr;
	int leader, member, samples = 0;
	__u64 head;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(200, 2, 0));
	leader = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(leader, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, leader, 4, PROT_READ | PROT_WRITE), 0);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 3000000;	/* 3 ms of task time */
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = 8 * REC;
	member = perf_open(&attr, 0, -1, leader);
	ASSERT_GE(member, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(ioctl(member, PERF_EVENT_IOC_SET_OUTPUT, leader), 0);

	ASSERT_EQ(ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	spin_ms(40);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	head = __atomic_load_n(&self->rb.pc->data_head, __ATOMIC_ACQUIRE);
	while (self->rb.data_tail < head) {
		char *p = (char *)self->rb.data + self->rb.data_tail % self->rb.data_size;
		struct perf_event_header *hdr = (void *)p;

		ASSERT_LE(self->rb.data_tail % self->rb.data_size + hdr->size, self->rb.data_size)
			TH_LOG("test limit: a record wraps the data ring");
		if (hdr->type == PERF_RECORD_SAMPLE) {
			__u64 size = *(__u64 *)(p + sizeof(*hdr));
			struct aux_test_record *r = (void *)(p + sizeof(*hdr) + 8);
			__u64 seq = -1;
			int i;

			ASSERT_EQ(size, 8 * REC);
			for (i = 0; i < 8; i++) {
				if (!r[i].magic && seq == (__u64)-1)
					continue;	/* not written yet */
				ASSERT_EQ(r[i].magic, AUX_TEST_MAGIC);
				if (seq != (__u64)-1)
					ASSERT_EQ(r[i].seq, seq) TH_LOG("slice not contiguous");
				seq = r[i].seq + 1;
			}
			EXPECT_NE(seq, (__u64)-1) TH_LOG("an empty AUX sample");
			samples++;
		}
		self->rb.data_tail += hdr->size;
	}
	EXPECT_GT(samples, 2);
	close(member);
}

/* A CPU-wide event traces whatever runs there. */
TEST_F(aux, per_cpu_event)
{
	struct perf_event_attr attr;
	__u64 head, seq = -1;
	const char *why = "";
	long n;
	int fd;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(500, 1, 0));
	fd = perf_open(&attr, -1, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 16, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	usleep(50000);		/* sleep: the CPU is traced all the same */
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = self->rb.pc->aux_head;
	n = check_records(&self->rb, 0, head, &seq, 0, &why);
	ASSERT_GT(n, 5) TH_LOG("%s", why);
	for (; n > 0; n--)
		ASSERT_EQ(rec_at(&self->rb, (n - 1) * REC)->cpu, 0);
}

/*
 * An inherited event (per CPU) traces the child with an event of its own:
 * a second stream. (perf may swap equivalent parent and child contexts at
 * a context switch, so a stream is not bound to one task.)
 */
TEST_F(aux, inherit)
{
	struct perf_event_attr attr;
	__u32 streams[2] = { 0, 0 };
	__u64 head, pos, seq[2] = { -1, -1 };
	bool child_seen = false;
	const char *why = "";
	cpu_set_t set;
	pid_t child;
	int fd, status;

	IF_SETUP_SKIPPED(return);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);

	init_attr(&attr, self->type, cfg(200, 1, 0));
	attr.inherit = 1;
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0);
	/* Per-task inherited events cannot be mmapped: all children would share it. */
	EXPECT_EQ(mmap(NULL, page_size * (1 + DATA_PAGES), PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	close(fd);

	fd = perf_open(&attr, 0, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 16, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(10);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		spin_ms(30);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	spin_ms(10);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = self->rb.pc->aux_head;
	for (pos = 0; pos < head; pos += REC) {
		const struct aux_test_record *r = rec_at(&self->rb, pos);

		ASSERT_EQ(r->magic, AUX_TEST_MAGIC);
		child_seen |= r->tid == (__u32)child;
		if (!streams[0])
			streams[0] = r->stream;
		else if (r->stream != streams[0] && !streams[1])
			streams[1] = r->stream;
		ASSERT_TRUE(r->stream == streams[0] || r->stream == streams[1])
			TH_LOG("a third stream");
	}
	EXPECT_TRUE(child_seen) TH_LOG("no record from the child");
	ASSERT_NE(streams[1], 0) TH_LOG("the child had no event of its own");
	ASSERT_GE(check_records(&self->rb, 0, head, &seq[0], streams[0], &why), 0)
		TH_LOG("parent: %s", why);
	ASSERT_GE(check_records(&self->rb, 0, head, &seq[1], streams[1], &why), 0)
		TH_LOG("child: %s", why);
	EXPECT_EQ(rec_at(&self->rb, 0)->seq, 0);
}

/* PERF_EVENT_IOC_SET_OUTPUT: same CPU shares one AUX area; the rules hold. */
TEST_F(aux, set_output)
{
	struct perf_event_attr attr;
	__u32 streams[2] = { 0, 0 };
	__u64 head, pos, seq[2] = { -1, -1 };
	const char *why = "";
	struct rb task_rb = { .fd = -1 };
	int fd0, fd1, other_cpu, task_fd, inh_fd;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, cfg(300, 1, 0));
	fd0 = perf_open(&attr, -1, 0, -1);
	ASSERT_GE(fd0, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd0, 16, PROT_READ | PROT_WRITE), 0);
	fd1 = perf_open(&attr, -1, 0, -1);
	ASSERT_GE(fd1, 0);

	/* Rules: not onto itself, not across CPUs, not from a mapped event. */
	EXPECT_EQ(ioctl(fd0, PERF_EVENT_IOC_SET_OUTPUT, fd0), -1);
	EXPECT_EQ(errno, EINVAL);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		other_cpu = perf_open(&attr, -1, 1, -1);
		ASSERT_GE(other_cpu, 0);
		EXPECT_EQ(ioctl(other_cpu, PERF_EVENT_IOC_SET_OUTPUT, fd0), -1);
		EXPECT_EQ(errno, EINVAL);
		close(other_cpu);
	}
	task_fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(task_fd, 0);
	EXPECT_EQ(ioctl(task_fd, PERF_EVENT_IOC_SET_OUTPUT, fd0), -1);
	EXPECT_EQ(errno, EINVAL);
	/*
	 * Nor an inherited per-task event into a per-task buffer: its
	 * children would write to it from two CPUs at once.
	 */
	ASSERT_EQ(map_rb(&task_rb, task_fd, 1, PROT_READ | PROT_WRITE), 0);
	attr.inherit = 1;
	inh_fd = perf_open(&attr, 0, -1, -1);
	attr.inherit = 0;
	ASSERT_GE(inh_fd, 0);
	EXPECT_EQ(ioctl(inh_fd, PERF_EVENT_IOC_SET_OUTPUT, task_fd), -1)
		TH_LOG("an inherited per-task event was given a buffer");
	EXPECT_EQ(errno, EINVAL);
	close(inh_fd);
	inh_fd = perf_open(&attr, 0, -1, -1);	/* the same, not inherited: fine */
	ASSERT_GE(inh_fd, 0);
	EXPECT_EQ(ioctl(inh_fd, PERF_EVENT_IOC_SET_OUTPUT, task_fd), 0)
		TH_LOG("SET_OUTPUT within a task: %s", strerror(errno));
	close(inh_fd);
	unmap_rb(&task_rb);
	EXPECT_EQ(ioctl(fd0, PERF_EVENT_IOC_SET_OUTPUT, fd1), -1)
		TH_LOG("a mapped event must not be redirected");
	EXPECT_EQ(errno, EINVAL);

	ASSERT_EQ(ioctl(fd1, PERF_EVENT_IOC_SET_OUTPUT, fd0), 0);
	ASSERT_EQ(ioctl(fd0, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(ioctl(fd1, PERF_EVENT_IOC_ENABLE, 0), 0);
	usleep(40000);
	ioctl(fd0, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd1, PERF_EVENT_IOC_DISABLE, 0);

	head = self->rb.pc->aux_head;
	for (pos = 0; pos < head; pos += REC) {
		const struct aux_test_record *r = rec_at(&self->rb, pos);

		ASSERT_EQ(r->magic, AUX_TEST_MAGIC);
		if (!streams[0])
			streams[0] = r->stream;
		else if (r->stream != streams[0] && !streams[1])
			streams[1] = r->stream;
		ASSERT_TRUE(r->stream == streams[0] || r->stream == streams[1]);
	}
	ASSERT_NE(streams[1], 0) TH_LOG("only one event wrote");
	ASSERT_GE(check_records(&self->rb, 0, head, &seq[0], streams[0], &why), 0)
		TH_LOG("%s", why);
	ASSERT_GE(check_records(&self->rb, 0, head, &seq[1], streams[1], &why), 0)
		TH_LOG("%s", why);
	close(fd1);
}

/* Bad configurations are refused with EINVAL. */
TEST_F(aux, bad_config)
{
	struct perf_event_attr attr;
	const __u64 bad[] = {
		cfg(AUX_TEST_PERIOD_MIN_US - 1, 1, 0),
		cfg(AUX_TEST_PERIOD_MAX_US + 1, 1, 0),
		cfg(0, 0, 1),
		cfg(0, AUX_TEST_BURST_MAX + 1, 0),	/* could only truncate */
		cfg(0, 0xffff, 0),
	};
	unsigned int i;
	int fd;

	IF_SETUP_SKIPPED(return);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		init_attr(&attr, self->type, bad[i]);
		fd = perf_open(&attr, 0, -1, -1);
		EXPECT_EQ(fd, -1) TH_LOG("config %#llx accepted", (unsigned long long)bad[i]);
		EXPECT_EQ(errno, EINVAL);
		if (fd >= 0)
			close(fd);
	}
	/* config1: rate only (bits 0-31), at most the maximum, without burst. */
	init_attr(&attr, self->type, 0);
	attr.config1 = 1ULL << 32;
	EXPECT_EQ(perf_open(&attr, 0, -1, -1), -1);
	EXPECT_EQ(errno, EINVAL);
	attr.config1 = AUX_TEST_RATE_MAX_MBS + 1;
	EXPECT_EQ(perf_open(&attr, 0, -1, -1), -1);
	EXPECT_EQ(errno, EINVAL);
	init_attr(&attr, self->type, cfg(0, 2, 0));
	attr.config1 = 1;
	EXPECT_EQ(perf_open(&attr, 0, -1, -1), -1);
	EXPECT_EQ(errno, EINVAL);
	init_attr(&attr, self->type, 0);
	attr.config1 = AUX_TEST_RATE_MAX_MBS;
	fd = perf_open(&attr, 0, -1, -1);
	EXPECT_GE(fd, 0) TH_LOG("the maximum rate refused: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	init_attr(&attr, self->type, 0);
	attr.config2 = 1;
	EXPECT_EQ(perf_open(&attr, 0, -1, -1), -1);
	EXPECT_EQ(errno, EINVAL);

	/* The defaults and the limits themselves are fine. */
	init_attr(&attr, self->type, cfg(AUX_TEST_PERIOD_MAX_US, AUX_TEST_BURST_MAX, 2));
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.exclude_idle = 1;
	fd = perf_open(&attr, 0, -1, -1);
	EXPECT_GE(fd, 0);
	close(fd);
}

#define UNPRIV_PARAM	"/sys/module/aux_test/parameters/unprivileged"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* Write @s to the sysfs or procfs file @path: 0 or -1. */
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * The errno of a per-task aux_test open (exclude_kernel, as perf_event_paranoid
 * 2 asks of an unprivileged user) by uid 65534, without capabilities: 0 if
 * it opened.
 */
static int unprivileged_open_err(int type)
{
	struct perf_event_attr attr;
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(255);
		init_attr(&attr, type, 0);
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		fd = perf_open(&attr, 0, -1, -1);
		_exit(fd < 0 ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The privilege is the opener's: root's inherit event on a task that then
 * drops to uid 65534 (no capabilities) does not make the task's forks fail
 * (the copy for the child is not checked again with the forking task's
 * credentials).
 */
TEST_F(aux, inherit_after_dropping_privileges)
{
	struct perf_event_attr attr;
	int status, err;
	pid_t pid;

	IF_SETUP_SKIPPED(return);
	if (getuid() != 0)
		SKIP(return, "needs root to open the event and drop privileges");
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		pid_t child;

		init_attr(&attr, self->type, cfg(1000, 1, 0));
		attr.inherit = 1;
		if (perf_open(&attr, 0, -1, -1) < 0)
			_exit(200);
		if (setgid(65534) || setuid(65534))
			_exit(201);
		child = fork();
		if (!child)
			_exit(0);
		if (child < 0)
			_exit(errno);
		_exit(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		      !WEXITSTATUS(status) ? 0 : 202);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	err = WEXITSTATUS(status);
	ASSERT_NE(err, 200) TH_LOG("root could not open the inherit event");
	ASSERT_NE(err, 201) TH_LOG("could not drop to uid 65534");
	EXPECT_EQ(err, 0) TH_LOG("fork after dropping privileges: %s",
				 err == 202 ? "the child did not exit 0" : strerror(err));
}

/*
 * aux_test needs CAP_PERFMON unless aux_test.unprivileged allows more:
 * perf_event_paranoid alone does not let a user in.
 */
TEST_F(aux, unprivileged_open)
{
	char param[8] = "", paranoid[16] = "";
	int fd, err_default, err_allowed, param_err;
	struct perf_event_attr attr;
	FILE *f;

	IF_SETUP_SKIPPED(return);
	if (getuid() != 0)
		SKIP(return, "needs root to drop privileges and set the parameter");
	f = fopen(PARANOID, "r");
	ASSERT_NE(f, NULL);
	ASSERT_NE(fgets(paranoid, sizeof(paranoid), f), NULL);
	fclose(f);
	f = fopen(UNPRIV_PARAM, "r");
	param_err = f ? 0 : errno;
	if (f) {
		if (!fgets(param, sizeof(param), f))
			param[0] = 0;
		fclose(f);
	}

	/* Per-task events of one's own task, without kernel: what paranoid 2 allows. */
	ASSERT_EQ(write_str(PARANOID, "2"), 0);
	err_default = unprivileged_open_err(self->type);
	err_allowed = -1;
	if (f && !write_str(UNPRIV_PARAM, "1")) {
		err_allowed = unprivileged_open_err(self->type);
		write_str(UNPRIV_PARAM, param[0] == 'Y' ? "1" : "0");
	}
	write_str(PARANOID, paranoid);

	EXPECT_EQ(err_default, EACCES) TH_LOG("unprivileged open: %s", strerror(err_default));
	ASSERT_EQ(param_err, 0) TH_LOG(UNPRIV_PARAM ": %s", strerror(param_err));
	EXPECT_EQ(param[0], 'N') TH_LOG("aux_test.unprivileged is on by default");
	EXPECT_EQ(err_allowed, 0) TH_LOG("unprivileged open with aux_test.unprivileged=1: %s",
					 strerror(err_allowed));
	/* root keeps CAP_PERFMON whatever the parameter says */
	init_attr(&attr, self->type, 0);
	fd = perf_open(&attr, 0, -1, -1);
	EXPECT_GE(fd, 0) TH_LOG("root: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * One write stores at most AUX_TEST_WRITE_MAX bytes, however large the
 * AUX area and whatever the rate or burst asks: a flood in rate mode (which
 * reaches the cap) and the largest burst (written whole, with its markers,
 * within the cap), into an area twice the cap, in both modes.
 */
TEST_F(aux, write_cap)
{
	const struct {
		__u64 config, config1, least;
		int prot;
		const char *what;
	} runs[] = {
		{ cfg(1000, 0, 0), AUX_TEST_RATE_MAX_MBS, AUX_TEST_WRITE_MAX,
		  PROT_READ | PROT_WRITE, "rate flood" },
		{ cfg(1000, AUX_TEST_BURST_MAX, 0), 0, AUX_TEST_BURST_MAX * AUX_TEST_RECORD_SIZE,
		  PROT_READ | PROT_WRITE, "the largest burst" },
		{ cfg(1000, 0, 0), AUX_TEST_RATE_MAX_MBS, AUX_TEST_WRITE_MAX,
		  PROT_READ, "rate flood, overwrite" },
	};
	size_t pages = 2 * AUX_TEST_WRITE_MAX / page_size;
	struct perf_event_attr attr;
	unsigned int r;
	int i, n, fd;

	IF_SETUP_SKIPPED(return);
	for (r = 0; r < ARRAY_SIZE(runs); r++) {
		__u64 largest = 0;

		init_attr(&attr, self->type, runs[r].config);
		attr.config1 = runs[r].config1;
		fd = perf_open(&attr, 0, -1, -1);
		ASSERT_GE(fd, 0) TH_LOG("%s: %s", runs[r].what, strerror(errno));
		ASSERT_EQ(map_rb(&self->rb, fd, pages, runs[r].prot), 0)
			TH_LOG("mmap of %zu AUX pages: %s", pages, strerror(errno));
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
		spin_ms(20);
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
		n = read_aux_records(&self->rb, self->recs, MAX_AUX_RECS, NULL);
		ASSERT_GT(n, 0) TH_LOG("%s: no PERF_RECORD_AUX", runs[r].what);
		for (i = 0; i < n; i++)
			if (self->recs[i].size > largest)
				largest = self->recs[i].size;
		TH_LOG("%s: %d writes, the largest %llu bytes", runs[r].what, n,
		       (unsigned long long)largest);
		EXPECT_LE(largest, AUX_TEST_WRITE_MAX)
			TH_LOG("%s: a write of %llu bytes", runs[r].what,
			       (unsigned long long)largest);
		EXPECT_GE(largest, runs[r].least)
			TH_LOG("%s: no write of %llu bytes or more", runs[r].what,
			       (unsigned long long)runs[r].least);
		unmap_rb(&self->rb);
		memset(&self->rb, 0, sizeof(self->rb));
		self->rb.fd = -1;
	}
}

/* Mapping misuse gets defined errors. */
TEST_F(aux, bad_mappings)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pc;
	size_t base = page_size * (1 + DATA_PAGES);
	void *p;
	int fd;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, 0);
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0);

	/* AUX before the data area exists. */
	p = mmap(NULL, 4 * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	EXPECT_EQ(p, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	pc = mmap(NULL, base, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(pc, MAP_FAILED);

	/* aux_offset inside the data area. */
	pc->aux_offset = page_size;
	pc->aux_size = 4 * page_size;
	EXPECT_EQ(mmap(NULL, 4 * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       page_size), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* Not a power of two. */
	pc->aux_offset = base;
	pc->aux_size = 3 * page_size;
	EXPECT_EQ(mmap(NULL, 3 * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       base), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* Size disagreeing with aux_size. */
	pc->aux_size = 4 * page_size;
	EXPECT_EQ(mmap(NULL, 8 * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       base), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* Private mappings are refused. */
	EXPECT_EQ(mmap(NULL, 4 * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		       base), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* A good one, then a second one of another size. */
	p = mmap(NULL, 4 * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	ASSERT_NE(p, MAP_FAILED);
	EXPECT_EQ(mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       base), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* Part of it cannot be unmapped or shrunk: the mapping stays whole. */
	EXPECT_EQ(munmap((char *)p + page_size, page_size), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(mremap(p, 4 * page_size, 2 * page_size, 0), MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(mremap(p, 4 * page_size, 8 * page_size, MREMAP_MAYMOVE), MAP_FAILED);
	EXPECT_EQ(errno, EFAULT);

	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(5);
	EXPECT_GT(pc->aux_head, 0) TH_LOG("the mapping no longer works");
	munmap(p, 4 * page_size);
	munmap(pc, base);
	close(fd);
}

/* Unmapping or closing while records are being written is safe. */
TEST_F(aux, teardown_while_tracing)
{
	__u64 count1, count2, head, pos, tail;
	bool restarted = false;
	int i, status;

	IF_SETUP_SKIPPED(return);
	/* Unmap the AUX area under a fast writer: it stops, the event lives on. */
	open_self(_metadata, self, cfg(100, 64, 0), 16, PROT_READ | PROT_WRITE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(3);
	/* Consume all (aux_head goes on in the next area), then unmap. */
	tail = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&self->rb.pc->aux_tail, tail, __ATOMIC_RELEASE);
	ASSERT_EQ(munmap(self->rb.aux, self->rb.aux_size), 0);
	self->rb.aux = NULL;
	spin_ms(10);
	ASSERT_EQ(read(self->rb.fd, &count1, sizeof(count1)), sizeof(count1));
	EXPECT_GT(count1, 0);

	/*
	 * Unmapping stopped the writer (perf_pmu_output_stop()); what it
	 * generates if it runs again before the area is back is lost. Map the
	 * area again (the event may already be writing into it) and restart
	 * the event: tracing goes on in the new area at the positions after
	 * the old one's, the records lost in between before its first record,
	 * and the restart marked by a START. The old area may have been written
	 * up to full between reading its head and unmapping it (a slow guest),
	 * so consume up to the head once the event is disabled: what follows
	 * is the new area's. (A write into it before the disable leaves zeros
	 * at the start.)
	 */
	self->rb.aux = mmap(NULL, self->rb.aux_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			    self->rb.fd, self->rb.pc->aux_offset);
	ASSERT_NE(self->rb.aux, MAP_FAILED);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ASSERT_EQ(read(self->rb.fd, &count2, sizeof(count2)), sizeof(count2));
	tail = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&self->rb.pc->aux_tail, tail, __ATOMIC_RELEASE);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	spin_ms(10);
	ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0);
	head = self->rb.pc->aux_head;
	ASSERT_GT(head, tail + REC) TH_LOG("no data in the new area");
	for (pos = tail; pos < head && !rec_at(&self->rb, pos)->magic; pos += REC)
		;
	ASSERT_LT(pos, head);
	EXPECT_GE(rec_at(&self->rb, pos)->seq, count1);
	for (; pos < head; pos += REC) {
		const struct aux_test_record *r = rec_at(&self->rb, pos);

		ASSERT_EQ(r->magic, AUX_TEST_MAGIC);
		restarted |= r->type == AUX_TEST_RECORD_START && r->seq == count2;
	}
	EXPECT_TRUE(restarted) TH_LOG("no START record at seq %llu", (unsigned long long)count2);

	/* Close while tracing, mapped; and children that exit while traced. */
	for (i = 0; i < 20; i++) {
		pid_t child = fork();

		ASSERT_GE(child, 0);
		if (!child) {
			struct perf_event_attr attr;
			struct rb rb;
			int fd;

			init_attr(&attr, self->type, cfg(100, 64, 0));
			attr.disabled = 0;
			fd = perf_open(&attr, 0, -1, -1);
			if (fd < 0 || map_rb(&rb, fd, 4, PROT_READ | PROT_WRITE))
				_exit(1);
			spin_ms(2);
			if (i % 2)
				close(fd);	/* mappings outlive the fd */
			_exit(0);		/* exit with everything still mapped */
		}
		ASSERT_EQ(waitpid(child, &status, 0), child);
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
}

/* A CPU going offline under a CPU-wide event, and coming back. */
TEST_F(aux, cpu_offline)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	struct perf_event_attr attr;
	__u64 head1, head2;
	int fd, ctl;

	IF_SETUP_SKIPPED(return);
	ctl = open(online, O_WRONLY);
	if (ctl < 0)
		SKIP(return, "CPU 1 cannot be taken offline here");

	init_attr(&attr, self->type, cfg(200, 8, 0));
	fd = perf_open(&attr, -1, 1, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(map_rb(&self->rb, fd, 16, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	usleep(20000);
	ASSERT_EQ(pwrite(ctl, "0", 1, 0), 1) TH_LOG("offline: %s", strerror(errno));
	head1 = self->rb.pc->aux_head;
	usleep(20000);
	head2 = self->rb.pc->aux_head;
	EXPECT_EQ(head1, head2) TH_LOG("an offline CPU wrote records");
	ASSERT_EQ(pwrite(ctl, "1", 1, 0), 1) TH_LOG("online: %s", strerror(errno));
	close(ctl);
	EXPECT_GT(head1, 0);
}

TEST_HARNESS_MAIN
