// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-wide data breakpoint on a user address, moved to a kernel address
 * with PERF_EVENT_IOC_MODIFY_ATTRIBUTES and then closed, must give back
 * what the architecture reserved for it. powerpc keeps CPU breakpoints in
 * per-CPU slots and used to decide from the current address whether to
 * release one: the entry of a moved breakpoint stayed behind, pointing to
 * the freed event, and once such entries filled the slots every new
 * CPU-wide breakpoint failed with ENOSPC and leaked the entry it
 * allocated. The test sees the first; kmemleak sees the second (the test's
 * own scan, or the one after the run: KMEMLEAK_AFTER_RUN).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

static unsigned long watched[8];
static const char not_released[] = ": a slot of one closed before was not released";

static void init_bp(struct perf_event_attr *attr, unsigned long addr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_type = HW_BREAKPOINT_W;
	attr->bp_addr = addr;
	attr->bp_len = HW_BREAKPOINT_LEN_8;
	attr->sample_period = 1;
	attr->disabled = 1;
}

FIXTURE(bp) {
};

FIXTURE_SETUP(bp)
{
}

FIXTURE_TEARDOWN(bp)
{
}

/* Four kmemleak scans, seconds each under emulation with KASAN, run alone. */
TEST_F_TIMEOUT(bp, cpu_breakpoint_moved_to_kernel, 120)
{
	unsigned long kaddr = ksym("jiffies_64");
	struct perf_event_attr attr;
	int i, fd;

	if (!have_kmemleak())
		SKIP(return, "needs kmemleak on (DEBUG_KMEMLEAK, no kmemleak=off) to see leaks");
	if (!kaddr)
		SKIP(return, "no address for jiffies_64 in /proc/kallsyms");
	kmemleak_forget();

	for (i = 0; i < 8; i++) {
		init_bp(&attr, (unsigned long)&watched[i % 8]);
		fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
		/*
		 * Only the first open tells that there is no breakpoint to
		 * have; after it, ENOSPC is a slot the ones closed before
		 * did not give back.
		 */
		if (fd < 0 && !i && (errno == ENODEV || errno == ENOENT ||
				     errno == EOPNOTSUPP || errno == ENOSPC))
			SKIP(return, "no data breakpoint here: %s", strerror(errno));
		if (fd < 0 && !i && (errno == EACCES || errno == EPERM))
			SKIP(return, "CPU-wide breakpoints need privileges");
		ASSERT_GE(fd, 0) TH_LOG("breakpoint %d: %s%s", i, strerror(errno),
					errno == ENOSPC ? not_released : "");
		/* Even iterations: move it to the kernel before closing. */
		if (!(i & 1)) {
			attr.bp_addr = kaddr;
			ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr), 0)
				TH_LOG("MODIFY_ATTRIBUTES: %s", strerror(errno));
		}
		close(fd);
	}

	EXPECT_EQ(kmemleak_leaks(), 0);
}

TEST_HARNESS_MAIN
