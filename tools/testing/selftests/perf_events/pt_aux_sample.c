// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_AUX from intel_pt: a sampler in a group led by a per-task
 * intel_pt event (user space only) takes the newest bytes of the leader's
 * AUX area in each sample (pt_event_snapshot_aux()). The sampler is the
 * getppid() system call's tracepoint: CALLS calls, one sample each.
 * intel_pt samples only an area in snapshot mode; the leader's area is
 * mapped here in either mode.
 *
 *  - snapshot_area: the area mapped read-only (snapshot mode): a sample
 *    for every call, and the slices hold trace, not only PAD packets.
 *  - area_not_in_snapshot: the area mapped read-write and never read (it
 *    fills, and the core then disables the group: fewer samples). Each
 *    sample must still carry aux_sample_size bytes, all PAD packets
 *    (0x00), and the kernel must not warn (its taint flags; the harness
 *    scans its log too).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

#define PT_DIR		"/sys/bus/event_source/devices/intel_pt"
#define AUX_PAGES	256	/* 1 MiB: some samples before it fills */
/*
 * A quarter of the data ring: the ring laps after four samples, and a
 * slice the kernel did not write whole then shows older records.
 */
#define AUX_SAMPLE	16384
#define CALLS		64
#define TAINTED		"/proc/sys/kernel/tainted"
#define TAINT_WARN	512	/* bit 9, "W": a WARN() fired */

/* What the samples of a run carried. */
struct slices {
	long samples;
	long bad_size;		/* not AUX_SAMPLE bytes */
	long traced;		/* with a byte that is not a PAD packet */
	long bad_record;	/* a record that did not parse */
};

FIXTURE(pt_sample) {
	struct rb rb;
	int sampler;
};

FIXTURE_VARIANT(pt_sample) {
	int aux_prot;
	bool snapshot;
};

FIXTURE_VARIANT_ADD(pt_sample, snapshot_area) {
	.aux_prot = PROT_READ,
	.snapshot = true,
};

FIXTURE_VARIANT_ADD(pt_sample, area_not_in_snapshot) {
	.aux_prot = PROT_READ | PROT_WRITE,
	.snapshot = false,
};

FIXTURE_SETUP(pt_sample)
{
	struct perf_event_attr attr;
	int type, leader, tp;

	page_size = sysconf(_SC_PAGESIZE);
	self->rb.fd = -1;
	self->sampler = -1;
	type = read_int(PT_DIR "/type");
	if (type < 0)
		SKIP(return, "no intel_pt PMU here");

	init_attr(&attr, type, 0);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	leader = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(leader, 0) TH_LOG("intel_pt: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, leader, AUX_PAGES, variant->aux_prot), 0)
		TH_LOG("mmap: %s", strerror(errno));

	tp = tracepoint_id("syscalls/sys_enter_getppid");
	if (tp < 0)
		SKIP(return, "no syscalls/sys_enter_getppid tracepoint (FTRACE_SYSCALLS)");
	init_trigger(&attr, PERF_TYPE_TRACEPOINT, tp);
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = AUX_SAMPLE;
	self->sampler = perf_open(&attr, 0, -1, leader);
	ASSERT_GE(self->sampler, 0) TH_LOG("sampler: %s", strerror(errno));
	ASSERT_EQ(ioctl(self->sampler, PERF_EVENT_IOC_SET_OUTPUT, leader), 0)
		TH_LOG("PERF_EVENT_IOC_SET_OUTPUT: %s", strerror(errno));
}

FIXTURE_TEARDOWN(pt_sample)
{
	if (self->sampler >= 0)
		close(self->sampler);
	unmap_rb(&self->rb);
}

/* Read the samples that arrived in the data ring (and nothing else). */
static void read_slices(struct rb *rb, struct slices *s)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	static char buf[65536];
	int type;

	while ((type = next_record(rb, head, buf, sizeof(buf))) > 0) {
		/* sample_type PERF_SAMPLE_AUX only: u64 size, then the slice */
		const char *data = buf + sizeof(struct perf_event_header) + 8;
		__u64 size, i;

		if (type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(&size, buf + sizeof(struct perf_event_header), 8);
		s->samples++;
		if (size != AUX_SAMPLE) {
			s->bad_size++;
			continue;
		}
		for (i = 0; i < size && !data[i]; i++)
			;
		if (i < size)
			s->traced++;
	}
	if (type < 0)
		s->bad_record++;
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
}

TEST_F(pt_sample, slices)
{
	int taint_before = read_int(TAINTED), taint_after;
	struct slices s = { 0 };
	bool warned_before;
	int i;

	IF_SETUP_SKIPPED(return);
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < CALLS; i++) {
		syscall(SYS_getppid);
		read_slices(&self->rb, &s);
	}
	ASSERT_EQ(ioctl(self->rb.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	read_slices(&self->rb, &s);
	taint_after = read_int(TAINTED);

	TH_LOG("%ld samples: %ld of another size, %ld with trace; aux_head %llu of a %d-byte area",
	       s.samples, s.bad_size, s.traced,
	       (unsigned long long)self->rb.pc->aux_head, AUX_PAGES * (int)page_size);
	EXPECT_EQ(s.bad_record, 0);
	EXPECT_EQ(s.bad_size, 0) TH_LOG("each sample carries aux_sample_size bytes");
	if (variant->snapshot) {
		EXPECT_EQ(s.samples, CALLS);
		EXPECT_GT(s.traced, 0) TH_LOG("a snapshot area's slices hold trace");
	} else {
		EXPECT_GT(s.samples, 0);
		EXPECT_EQ(s.traced, 0) TH_LOG("an area not in snapshot mode gives PAD packets");
	}
	warned_before = taint_before < 0 || (taint_before & TAINT_WARN);
	if (warned_before)
		TH_LOG("the kernel had warned before this test: its log decides");
	EXPECT_FALSE(!warned_before && (taint_after & TAINT_WARN))
		TH_LOG("the kernel warned (see its log)");
}

TEST_HARNESS_MAIN
