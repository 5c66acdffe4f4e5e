// SPDX-License-Identifier: GPL-2.0
/*
 * A user-space data breakpoint released while a task is between its hit and
 * the end of the hit instruction.
 *
 * powerpc reports a user-space watchpoint hit after the access: the hit
 * disarms the watchpoints and single-steps the instruction, and the step's
 * handler reports the breakpoint. The breakpoint it reports must still
 * exist then. Tasks that hit it are preempted between hit and step (a
 * tick masked in the hit handler is taken on its way out), and meanwhile
 * the breakpoint can be closed by another task: a CPU-wide one by whoever
 * opened it, an inherited one when its parent event is released (the
 * inherited events of sibling tasks even move between the tasks' contexts
 * at a switch). Each case keeps writers hitting such a breakpoint on one
 * CPU while another CPU opens and closes it, again and again; it fails if
 * a writer dies of a SIGTRAP it did not ask for, or if the kernel taints
 * itself meanwhile (a KASAN report of a use-after-free, a WARN). x86
 * reports after the access and needs no step: there the cases only check
 * that breakpoints come and go under load. Without KASAN a use-after-free
 * goes unseen, and a taint that was already there hides a new report.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"

#define WRITERS		3
#define RUN_SECONDS	8

static unsigned long watched;
/* The writers' CPU, and the CPU that opens and closes the breakpoints. */
static int writer_cpu, closer_cpu;

static void init_bp(struct perf_event_attr *attr, int inherit)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_type = HW_BREAKPOINT_W;
	attr->bp_addr = (unsigned long)&watched;
	attr->bp_len = HW_BREAKPOINT_LEN_8;
	attr->sample_period = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->inherit = inherit;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static long read_taint(void)
{
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");
	long t = -1;

	if (f) {
		if (fscanf(f, "%ld", &t) != 1)
			t = -1;
		fclose(f);
	}
	return t;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A child on writer_cpu that writes the watched word until it is killed,
 * or its parent dies (a test killed by its timeout leaves no spinner).
 */
static pid_t start_writer(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || pin(writer_cpu))
			_exit(3);
		for (unsigned long i = 0;; i++) {
			watched = i;
			/* A store each time round, for the watchpoint. */
			asm volatile("" : : : "memory");
		}
	}
	return pid;
}

/*
 * Kill and reap @n writers; returns how many did not die of our SIGKILL
 * (a SIGTRAP from a step the kernel did not claim, say), reporting each.
 */
static int stop_writers(struct __test_metadata *_metadata, pid_t *pids, int n)
{
	int i, status, bad = 0;

	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i])
			continue;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			continue;
		bad++;
		if (WIFSIGNALED(status))
			TH_LOG("writer %d died of signal %d", pids[i], WTERMSIG(status));
		else
			TH_LOG("writer %d exited with %d", pids[i], WEXITSTATUS(status));
	}
	return bad;
}

/* Sleep 0 to 2 ms, so that closes fall anywhere in the writers' loops. */
static void short_nap(unsigned int *seed)
{
	usleep(rand_r(seed) % 2000);
}

FIXTURE(race) {
	long taint;
};

FIXTURE_SETUP(race)
{
	cpu_set_t set;
	int cpu, n = 0;

	ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (n++)
			closer_cpu = cpu;
		else
			writer_cpu = cpu;
	}
	if (n < 2)
		SKIP(return, "needs two CPUs: writers on one, the closer on another");
	ASSERT_EQ(pin(closer_cpu), 0) TH_LOG("pin to CPU %d: %s", closer_cpu, strerror(errno));
	self->taint = read_taint();
}

FIXTURE_TEARDOWN(race)
{
	long t = read_taint();

	if (self->taint >= 0 && t != self->taint)
		TH_LOG("the kernel tainted itself (%ld -> %ld): see its log", self->taint, t);
	EXPECT_EQ(t, self->taint);
}

/* A CPU-wide breakpoint on the writers' CPU, opened and closed from another. */
TEST_F_TIMEOUT(race, cpu_breakpoint_closed, 60)
{
	struct perf_event_attr attr;
	unsigned int seed = 1;
	long long hits = 0, count;
	pid_t pids[WRITERS];
	int i, fd, rounds = 0;
	double end;

	init_bp(&attr, 0);
	fd = syscall(SYS_perf_event_open, &attr, -1, writer_cpu, -1, 0);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "CPU-wide breakpoints need privileges");
	if (fd < 0)
		SKIP(return, "no user-space data breakpoint here: %s", strerror(errno));
	close(fd);

	for (i = 0; i < WRITERS; i++) {
		pids[i] = start_writer();
		ASSERT_GT(pids[i], 0);
	}
	end = now() + RUN_SECONDS;
	while (now() < end) {
		fd = syscall(SYS_perf_event_open, &attr, -1, writer_cpu, -1, 0);
		if (fd < 0) {
			TH_LOG("perf_event_open: %s", strerror(errno));
			break;
		}
		short_nap(&seed);
		if (read(fd, &count, sizeof(count)) == sizeof(count))
			hits += count;
		close(fd);
		rounds++;
	}
	EXPECT_EQ(stop_writers(_metadata, pids, WRITERS), 0);
	TH_LOG("%d breakpoints opened and closed, %lld hits counted", rounds, hits);
	ASSERT_GE(fd, 0);
	if (!hits)
		SKIP(return, "the breakpoint never fired (no user-space watchpoints here)");
}

/*
 * An inherited per-task breakpoint: a parent opens it on itself, forks
 * the writers (which inherit it, in contexts that perf may swap between
 * them at a switch) and releases it while they run.
 */
TEST_F_TIMEOUT(race, inherited_breakpoint_released, 60)
{
	struct perf_event_attr attr;
	unsigned int seed = 2;
	int status, rounds = 0, bad = 0;
	long long hits = 0;
	double end;

	init_bp(&attr, 1);
	end = now() + RUN_SECONDS;
	while (now() < end && !bad) {
		int pipefd[2];
		pid_t parent;
		long long h = 0;

		ASSERT_EQ(pipe(pipefd), 0);
		rand_r(&seed);	/* each round's child naps its own time */
		parent = fork();
		ASSERT_GE(parent, 0);
		if (parent == 0) {
			pid_t pids[WRITERS];
			long long count = 0;
			int i, fd;

			close(pipefd[0]);
			fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
			if (fd < 0)
				_exit(errno == EACCES || errno == EPERM ? 4 : 5);
			for (i = 0; i < WRITERS; i++)
				pids[i] = start_writer();
			short_nap(&seed);
			/* Released while the writers hit it: their copies go too. */
			close(fd);
			i = stop_writers(_metadata, pids, WRITERS);
			/* Do user-space watchpoints fire here? A write of ours. */
			fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
			if (fd >= 0) {
				watched++;
				if (read(fd, &count, sizeof(count)) != sizeof(count))
					count = 0;
				close(fd);
			}
			if (write(pipefd[1], &count, sizeof(count)) != sizeof(count))
				_exit(6);
			_exit(i ? 1 : 0);
		}
		close(pipefd[1]);
		if (read(pipefd[0], &h, sizeof(h)) == sizeof(h))
			hits += h;
		close(pipefd[0]);
		ASSERT_EQ(waitpid(parent, &status, 0), parent);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
			SKIP(return, "breakpoints need privileges");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 5)
			SKIP(return, "no user-space data breakpoint here");
		bad = !WIFEXITED(status) || WEXITSTATUS(status);
		rounds++;
	}
	TH_LOG("%d rounds", rounds);
	EXPECT_EQ(bad, 0) TH_LOG("a writer died of something else than our SIGKILL (above)");
	if (!hits)
		SKIP(return, "a breakpoint of ours never fired (no user-space watchpoints here)");
}

TEST_HARNESS_MAIN
