// SPDX-License-Identifier: GPL-2.0
/*
 * An event's O_ASYNC owner gets SIGIO whenever the event's reader is woken,
 * not only at an overflow: at the data ring's wakeup_watermark (records
 * that are not samples: here PERF_RECORD_MMAP) and at the AUX area's
 * aux_watermark (aux_test's AUX data), with si_code POLL_IN and si_fd the
 * event. And a POLL_HUP (the event's IOC_REFRESH limit reached) is not
 * turned into POLL_IN by the watermark wake-up of the same sample.
 *
 * SIGIO is blocked and taken with sigtimedwait(), so that its siginfo can
 * be checked. The AUX case skips without the aux_test PMU.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "aux_test_lib.h"

FIXTURE(sigio) {
	struct rb rb;
};

FIXTURE_SETUP(sigio)
{
	sigset_t set;

	page_size = sysconf(_SC_PAGESIZE);
	self->rb.fd = -1;
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &set, NULL), 0);
}

FIXTURE_TEARDOWN(sigio)
{
	unmap_rb(&self->rb);
}

/* Make this process the event's O_ASYNC owner, SIGIO with its siginfo. */
static int own_async(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC) ||
	    fcntl(fd, F_SETSIG, SIGIO) || fcntl(fd, F_SETOWN, getpid()))
		return -1;
	return 0;
}

/* Take a pending SIGIO, waiting up to @ms; 0, or -1 if none came. */
static int take_sigio(siginfo_t *si, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	memset(si, 0, sizeof(*si));
	return sigtimedwait(&set, si, &ts) == SIGIO ? 0 : -1;
}

static bool sigio_pending(void)
{
	sigset_t set;

	sigpending(&set);
	return sigismember(&set, SIGIO);
}

/*
 * Open @attr, a software event of this task whose every record wakes the
 * reader (wakeup_watermark of 1 byte), map its ring into self->rb and make
 * this process its O_ASYNC owner.
 */
static void open_async(struct __test_metadata *_metadata, FIXTURE_DATA(sigio) *self,
		       struct perf_event_attr *attr)
{
	int fd;

	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->watermark = 1;
	attr->wakeup_watermark = 1;
	attr->disabled = 1;
	fd = perf_open(attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 0, 0), 0) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(own_async(fd), 0) TH_LOG("fcntl: %s", strerror(errno));
}

/* The data ring: a non-sample record that crosses wakeup_watermark. */
TEST_F(sigio, data_watermark)
{
	struct perf_event_attr attr;
	struct pollfd pfd;
	siginfo_t si;
	void *p;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.mmap = 1;			/* a PERF_RECORD_MMAP per exec mapping */
	open_async(_metadata, self, &attr);
	fd = self->rb.fd;
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	p = mmap(NULL, page_size, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(p, MAP_FAILED);
	munmap(p, page_size);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	pfd.fd = fd;
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 0), 1)
		TH_LOG("no wake-up: the MMAP record did not cross the watermark");
	ASSERT_EQ(take_sigio(&si, 5000), 0)
		TH_LOG("woken (poll says readable), but no SIGIO in 5 s");
	EXPECT_EQ(si.si_code, POLL_IN);
	EXPECT_EQ(si.si_fd, fd);
	EXPECT_EQ(si.si_band & POLLIN, POLLIN);
}

/* The AUX area: aux_test's data crosses aux_watermark. */
TEST_F(sigio, aux_watermark)
{
	struct perf_event_attr attr;
	__u64 aux_head, data_head;
	siginfo_t si;
	int type, fd;

	type = pmu_type();
	if (type < 0)
		SKIP(return, "no aux_test PMU (CONFIG_PERF_AUX_TEST_PMU)");
	init_attr(&attr, type, cfg(1000, 8, 0));
	attr.aux_watermark = page_size;
	fd = perf_open(&attr, 0, -1, -1);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(map_rb(&self->rb, fd, 4, PROT_READ | PROT_WRITE), 0)
		TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(own_async(fd), 0) TH_LOG("fcntl: %s", strerror(errno));
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	/* aux_test writes while this task runs: spin, up to 5 s, for the signal */
	for (int ms = 0; ms < 5000 && !sigio_pending(); ms += 10)
		spin_ms(10);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	aux_head = __atomic_load_n(&self->rb.pc->aux_head, __ATOMIC_ACQUIRE);
	data_head = __atomic_load_n(&self->rb.pc->data_head, __ATOMIC_ACQUIRE);
	ASSERT_GE(aux_head, (__u64)page_size)
		TH_LOG("only %llu bytes of AUX data in 5 s", (unsigned long long)aux_head);
	ASSERT_EQ(take_sigio(&si, 1000), 0)
		TH_LOG("%llu AUX bytes (watermark %ld), but no SIGIO",
		       (unsigned long long)aux_head, page_size);
	/* the data ring (its watermark half of it) did not wake anyone yet */
	EXPECT_LT(data_head, (__u64)self->rb.data_size / 2);
	EXPECT_EQ(si.si_code, POLL_IN);
	EXPECT_EQ(si.si_fd, fd);
}

/* The last sample an IOC_REFRESH allows says POLL_HUP, watermark or not. */
TEST_F(sigio, refresh_limit_keeps_hup)
{
	struct perf_event_attr attr;
	siginfo_t si;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 1000000;	/* 1 ms of this task's time */
	attr.sample_type = PERF_SAMPLE_IP;
	open_async(_metadata, self, &attr);	/* the sample crosses the watermark too */
	fd = self->rb.fd;
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), 0);

	for (int ms = 0; ms < 5000 && !sigio_pending(); ms += 10)
		spin_ms(10);
	ASSERT_EQ(take_sigio(&si, 0), 0) TH_LOG("no SIGIO in 5 s of task clock");
	EXPECT_EQ(si.si_code, POLL_HUP) TH_LOG("si_code %d", si.si_code);
	EXPECT_EQ(si.si_fd, fd);
}

TEST_HARNESS_MAIN
