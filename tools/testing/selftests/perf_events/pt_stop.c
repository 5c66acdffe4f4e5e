// SPDX-License-Identifier: GPL-2.0
/*
 * intel_pt in full-trace mode (the AUX area mapped read-write): the trace
 * must never overwrite what the reader has not read. The driver stops the
 * output with the STOP bit of the last ToPA region that ends at or before
 * aux_tail (pt_buffer_reset_markers()). The area here is made of one-page
 * regions (aux_watermark of a page), and the test brings the writer to
 * the page before the reader's, a lap ahead, where the two are closest:
 *
 *  1. trace (user space only) until aux_head is past the first page and
 *     SLACK bytes, then read up to there: aux_tail = page + SLACK;
 *  2. trace in short windows (enable, one branch, disable), so that
 *     aux_head creeps a lap around to the first page again, past
 *     SLACK + 1 bytes into it: the free space is then less than a page
 *     and reaches SLACK bytes into the next;
 *  3. trace much more than the area holds: the output must stop at the
 *     end of the first page, and the bytes from aux_tail to the area's
 *     end, not read yet, must be as they were.
 *
 * Skips where there is no intel_pt, or no ToPA with several entries.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

#define PT_DIR		"/sys/bus/event_source/devices/intel_pt"
#define AREA_PAGES	16
#define SLACK		64
#define MAX_WINDOWS	100000

static long taken;

/* Conditional branches, each a TNT bit of the trace. */
static void branches(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		if (i & 1)
			taken++;
		asm volatile("" : : : "memory");	/* keep the loop */
	}
}

static __u64 aux_head(struct rb *rb)
{
	return __atomic_load_n(&rb->pc->aux_head, __ATOMIC_ACQUIRE);
}

/* Trace @n branches: 0 or -1 with errno from the ioctl. */
static int window(int fd, long n)
{
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	branches(n);
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

FIXTURE(pt_stop) {
	struct rb rb;
};

FIXTURE_SETUP(pt_stop)
{
	struct perf_event_attr attr;
	int type, fd;

	page_size = sysconf(_SC_PAGESIZE);
	self->rb.fd = -1;
	type = read_int(PT_DIR "/type");
	if (type < 0)
		SKIP(return, "no intel_pt PMU here");
	if (read_int(PT_DIR "/caps/topa_multiple_entries") != 1)
		SKIP(return, "intel_pt has no ToPA with several entries");

	init_attr(&attr, type, 0);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.aux_watermark = page_size;	/* one-page ToPA regions */
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("intel_pt: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, AREA_PAGES, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));
}

FIXTURE_TEARDOWN(pt_stop)
{
	unmap_rb(&self->rb);
}

TEST_F(pt_stop, unread_data_kept)
{
	__u64 size = AREA_PAGES * page_size, tail = page_size + SLACK, head;
	size_t unread = size - tail;
	char *before;
	long n = 0;

	IF_SETUP_SKIPPED(return);
	before = malloc(unread);
	ASSERT_NE(before, NULL);

	/* 1: past the first page and SLACK, then read up to there */
	while (aux_head(&self->rb) < tail && n++ < MAX_WINDOWS)
		ASSERT_EQ(window(self->rb.fd, 1000), 0) TH_LOG("%s", strerror(errno));
	ASSERT_GE(aux_head(&self->rb), tail) TH_LOG("no trace after %ld windows", n);
	__atomic_store_n(&self->rb.pc->aux_tail, tail, __ATOMIC_RELEASE);

	/* 2: a lap later, into the first page past SLACK + 1 bytes */
	n = 0;
	while ((head = aux_head(&self->rb)) < size + SLACK + 2 && n++ < MAX_WINDOWS)
		ASSERT_EQ(window(self->rb.fd, 1), 0) TH_LOG("%s", strerror(errno));
	TH_LOG("aux_head %llu, aux_tail %llu, after %ld short windows",
	       (unsigned long long)head, (unsigned long long)tail, n);
	ASSERT_GE(head, size + SLACK + 2) TH_LOG("aux_head did not get there");
	if (head >= size + page_size)
		SKIP(return, "a window's trace went past the first page (%llu bytes)",
		     (unsigned long long)(head - size));

	/* 3: much more trace than the area holds */
	memcpy(before, (char *)self->rb.aux + tail, unread);
	ASSERT_EQ(window(self->rb.fd, 4 * size), 0) TH_LOG("%s", strerror(errno));
	head = aux_head(&self->rb);
	TH_LOG("aux_head %llu after the long window", (unsigned long long)head);
	EXPECT_LE(head, tail + size) TH_LOG("aux_head passed aux_tail");
	EXPECT_EQ(memcmp(before, (char *)self->rb.aux + tail, unread), 0)
		TH_LOG("the trace overwrote bytes from aux_tail on that were not read");
	free(before);
}

TEST_HARNESS_MAIN
