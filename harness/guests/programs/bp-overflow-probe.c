// SPDX-License-Identifier: GPL-2.0
/*
 * bp-overflow-probe: where does perf test "Breakpoint overflow sampling"
 * (tools/perf/tests/bp_signal_overflow.c) lose a breakpoint hit?
 *
 * Each trial is that test's: an execute breakpoint on probe_function(),
 * sample_period 100, a SIGIO per overflow, 10,000 calls, and then the
 * count must be 10,000 and the signals 100. Beside it:
 *
 *   twin    a second, counting-only execute breakpoint on the same address
 *           (a second debug register). If the #DB was taken and the kernel
 *           lost the hit of one event, the twin still counts it; if the
 *           CPU took no #DB, both miss it.
 *   step    reads the count after every call, so a lost hit is placed at
 *           its call, with the CPU it ran on and the task's context
 *           switches so far.
 *   tick=N  a timer interrupt every N microseconds besides the kernel's
 *           own tick (ITIMER_REAL, an empty SIGALRM handler): a hit is
 *           lost to an interrupt that lands just before the breakpointed
 *           instruction and saves RF=1 (harness/qemu's 0016), so more
 *           interrupts find such a bug sooner.
 *
 * Usage: bp-overflow-probe TRIALS [twin] [step] [tick=N]
 * Prints a line per failed trial and a summary; exits 1 if any trial failed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define CALLS		10000
#define PERIOD		100
#define MAX_LOSSES	16

static volatile int overflows;
static volatile int call_index;
static int signal_at[CALLS / PERIOD + 8];

static __attribute__((noinline)) int probe_function(void)
{
	return time(NULL);
}

static void on_sigalrm(int sig)
{
	(void)sig;
}

static void on_sigio(int sig, siginfo_t *info, void *uc)
{
	(void)sig; (void)info; (void)uc;
	if (overflows < (int)(sizeof(signal_at) / sizeof(signal_at[0])))
		signal_at[overflows] = call_index;
	overflows++;
}

static int open_bp(int sampling)
{
	struct perf_event_attr pe;
	int fd;

	memset(&pe, 0, sizeof(pe));
	pe.type = PERF_TYPE_BREAKPOINT;
	pe.size = sizeof(pe);
	pe.bp_type = HW_BREAKPOINT_X;
	pe.bp_addr = (unsigned long)probe_function;
	pe.bp_len = sizeof(long);
	if (sampling) {
		pe.sample_period = PERIOD;
		pe.sample_type = PERF_SAMPLE_IP;
		pe.wakeup_events = 1;
	}
	pe.disabled = 1;
	pe.exclude_kernel = 1;
	pe.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		perror("perf_event_open");
		exit(2);
	}
	return fd;
}

static long long count_of(int fd)
{
	long long c;

	if (read(fd, &c, sizeof(c)) != sizeof(c)) {
		perror("read");
		exit(2);
	}
	return c;
}

static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* One trial; returns 1 if it failed the perf test's two checks. */
static int trial(int n, int twin, int step)
{
	int fd, tfd = -1, i, k, nlost = 0;
	int lost_call[MAX_LOSSES], lost_cpu[MAX_LOSSES];
	long lost_sw[MAX_LOSSES], sw0;
	long long count, tcount = -1, prev = 0;

	overflows = 0;
	fd = open_bp(1);
	fcntl(fd, F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC);
	fcntl(fd, F_SETSIG, SIGIO);
	fcntl(fd, F_SETOWN, getpid());
	if (twin)
		tfd = open_bp(0);
	sw0 = switches();

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	if (twin)
		ioctl(tfd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < CALLS; i++) {
		call_index = i;
		probe_function();
		if (step) {
			long long c = count_of(fd);

			if (c != prev + 1 && nlost < MAX_LOSSES) {
				lost_call[nlost] = i;
				lost_cpu[nlost] = sched_getcpu();
				lost_sw[nlost] = switches() - sw0;
				nlost++;
			}
			prev = c;
		}
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (twin)
		ioctl(tfd, PERF_EVENT_IOC_DISABLE, 0);

	count = count_of(fd);
	if (twin)
		tcount = count_of(tfd);
	close(fd);
	if (twin)
		close(tfd);

	if (count == CALLS && overflows == CALLS / PERIOD &&
	    (!twin || tcount == CALLS))
		return 0;

	printf("trial %d: count %lld overflows %d twin %lld switches %ld\n",
	       n, count, overflows, tcount, switches() - sw0);
	/* The k-th signal comes at call PERIOD*(k+1)-1; a lost hit delays it. */
	for (k = 0; k < overflows && k < CALLS / PERIOD; k++) {
		if (signal_at[k] != PERIOD * (k + 1) - 1) {
			printf("  signal %d at call %d, not %d\n",
			       k, signal_at[k], PERIOD * (k + 1) - 1);
			break;
		}
	}
	for (k = 0; k < nlost; k++)
		printf("  call %d: count did not move by 1 (cpu %d, %ld switches so far)\n",
		       lost_call[k], lost_cpu[k], lost_sw[k]);
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 0 } };
	int trials, twin = 0, step = 0, tick = 0, n, failed = 0, a;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TRIALS [twin] [step]\n", argv[0]);
		return 2;
	}
	trials = atoi(argv[1]);
	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "twin"))
			twin = 1;
		else if (!strcmp(argv[a], "step"))
			step = 1;
		else if (!strncmp(argv[a], "tick=", 5))
			tick = atoi(argv[a] + 5);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigio;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGIO, &sa, NULL);
	if (tick > 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigalrm;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		it.it_value.tv_usec = it.it_interval.tv_usec = tick;
		setitimer(ITIMER_REAL, &it, NULL);
	}

	for (n = 0; n < trials; n++) {
		failed += trial(n, twin, step);
		if ((n + 1) % 25 == 0) {
			printf("progress: %d trials, %d failed\n", n + 1, failed);
			fflush(stdout);
		}
	}
	printf("bp-overflow-probe: %d trials (twin %d, step %d, tick %d us), %d failed\n",
	       trials, twin, step, tick, failed);
	return failed ? 1 : 0;
}
