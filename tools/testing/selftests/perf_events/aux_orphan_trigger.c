// SPDX-License-Identifier: GPL-2.0
/*
 * A pause trigger that outlives its AUX event. Closing an AUX group's
 * leader puts the members that needed it (perf_put_aux_event(): their
 * aux_event is dropped) into the ERROR state, where read() gives 0 bytes
 * and which PERF_EVENT_IOC_ENABLE clears: the member then runs as an event
 * of its own, attr.aux_pause still set, with no AUX event to pause. Its
 * overflows must do nothing more than count: no warning, no oops.
 *
 * The trigger is a page-fault counter of this task with a period of 1,
 * in the group of an AUX event of each AUX PMU that has pause/resume
 * (aux_test, intel_pt, intel_bts; a variant skips where its PMU is
 * missing, and intel_bts where it refuses the trigger: only this series
 * gives intel_bts pause/resume, upstream's kernels refuse it). After the leader is closed, the test
 * enables the trigger again, takes 100 page faults, checks that the
 * trigger counted them, and that the kernel took no WARN meanwhile (taint flag W, 0x200, of
 * /proc/sys/kernel/tainted; a kernel that was tainted so before cannot
 * tell, which the test says: the harness's check of the kernel log is
 * then the one that sees a warning).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

#define FAULTS		100
#define TAINT_WARN	0x200UL		/* W: the kernel took a WARN */

FIXTURE(orphan) {
	int type;
	struct rb rb;
	int trigger;
	char *page;
};

FIXTURE_VARIANT(orphan) {
	const char *pmu;
	bool aux_test;		/* config is aux_test's period/burst/drop */
	bool may_refuse;	/* a kernel without its pause/resume refuses the trigger */
};

FIXTURE_VARIANT_ADD(orphan, aux_test) {
	.pmu = "aux_test",
	.aux_test = true,
};

FIXTURE_VARIANT_ADD(orphan, intel_pt) {
	.pmu = "intel_pt",
};

FIXTURE_VARIANT_ADD(orphan, intel_bts) {
	.pmu = "intel_bts",
	.may_refuse = true,
};

FIXTURE_SETUP(orphan)
{
	char path[128];

	page_size = sysconf(_SC_PAGESIZE);
	self->rb.fd = -1;
	self->trigger = -1;
	self->page = MAP_FAILED;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", variant->pmu);
	self->type = read_int(path);
	if (self->type < 0)
		SKIP(return, "no %s PMU", variant->pmu);
	self->page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(self->page, MAP_FAILED);
}

FIXTURE_TEARDOWN(orphan)
{
	if (self->trigger >= 0)
		close(self->trigger);
	if (self->page != MAP_FAILED)
		munmap(self->page, page_size);
	unmap_rb(&self->rb);
}

static unsigned long taint_flags(void)
{
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");
	unsigned long t = 0;

	if (f) {
		if (fscanf(f, "%lu", &t) != 1)
			t = 0;
		fclose(f);
	}
	return t;
}

/* @n page faults on self->page: each store after MADV_DONTNEED takes one. */
static void fault(char *page, int n)
{
	for (int i = 0; i < n; i++) {
		madvise(page, page_size, MADV_DONTNEED);
		__atomic_store_n(&page[0], i, __ATOMIC_RELAXED);
	}
}

static long long count_of(int fd)
{
	long long c;

	return read(fd, &c, sizeof(c)) == sizeof(c) ? c : -1;
}

TEST_F(orphan, trigger_outlives_leader)
{
	struct perf_event_attr attr;
	unsigned long taint0;
	long long before, after;
	int fd;

	IF_SETUP_SKIPPED(return);
	init_attr(&attr, self->type, variant->aux_test ? cfg(10000, 2, 0) : 0);
	attr.exclude_kernel = 1;
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("%s: perf_event_open: %s", variant->pmu, strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 16, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));

	init_trigger(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.aux_pause = 1;
	self->trigger = perf_open(&attr, 0, -1, fd);
	if (self->trigger < 0 && variant->may_refuse &&
	    (errno == EOPNOTSUPP || errno == EINVAL))
		SKIP(return, "%s refuses a pause trigger: %s", variant->pmu, strerror(errno));
	ASSERT_GE(self->trigger, 0) TH_LOG("trigger: %s", strerror(errno));
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	fault(self->page, 10);

	/* The leader goes: the trigger is left in the ERROR state. */
	unmap_rb(&self->rb);
	self->rb.fd = -1;
	EXPECT_EQ(read(self->trigger, &before, sizeof(before)), 0)
		TH_LOG("the trigger is not in the ERROR state without its leader");

	/* Enabled again, it runs alone, with aux_pause set. */
	taint0 = taint_flags();
	ASSERT_EQ(ioctl(self->trigger, PERF_EVENT_IOC_ENABLE, 0), 0)
		TH_LOG("enable: %s", strerror(errno));
	before = count_of(self->trigger);
	fault(self->page, FAULTS);
	after = count_of(self->trigger);

	EXPECT_GE(before, 10) TH_LOG("the trigger counted %lld faults with its leader", before);
	EXPECT_GE(after - before, FAULTS)
		TH_LOG("the trigger counted %lld of %d faults without its leader",
		       after - before, FAULTS);
	if (taint0 & TAINT_WARN)
		TH_LOG("the kernel had taken a WARN before: only its log can tell");
	else
		EXPECT_EQ(taint_flags() & TAINT_WARN, 0)
			TH_LOG("a WARN while the orphan trigger overflowed (see the kernel log)");
}

TEST_HARNESS_MAIN
