// SPDX-License-Identifier: GPL-2.0
/*
 * dtl-pace: make bench's vpa_dtl load (harness/guests/in-guest/bench-dtl). Stands in
 * for a hypervisor that logs K dispatches on CPU N between two polls of
 * the vpa_dtl event that owns N's Dispatch Trace Log, through the
 * stand-in's debugfs file (CONFIG_VPA_DTL_INJECT):
 *
 *   dtl-pace CPU K SECONDS [INTERVAL_US]
 *
 * Runs on CPU (so that the injection is not an IPI), and for SECONDS
 * repeats: wait until the poll has read every entry ("read=" equals
 * "idx=" in the file), then inject K entries in one write. So each poll
 * finds exactly K new entries, whatever the timer's jitter: K up to 85
 * (one full DTL) must lose nothing, K beyond it loses K - 85 a poll.
 * With the poll's INTERVAL_US, it sleeps 90% of it after each injection
 * and then checks every 5% of it, so that its own wakeups cost CPU 0
 * little (about three a poll) next to what make bench measures there.
 * Prints "injected E entries in B batches in S s" and exits 0, or says
 * why not and exits 1 (2: no such file, the stand-in is not built).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Has the poll read everything? 1 yes, 0 not yet, -1 error. */
static int drained(int fd)
{
	unsigned long long idx, ridx, rd;
	char buf[160];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "owner=vpa_dtl mask=%*x idx=%llu ridx=%llu read=%llu",
		   &idx, &ridx, &rd) != 3) {
		fprintf(stderr, "dtl-pace: no vpa_dtl event owns the DTL: %s", buf);
		return -1;
	}
	return rd == idx;
}

int main(int argc, char **argv)
{
	unsigned long long entries = 0, batches = 0;
	unsigned int nap = 50, doze = 0;
	double start, secs;
	char path[96], line[96];
	int cpu, k, fd, len, d;
	cpu_set_t set;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: dtl-pace CPU K SECONDS [INTERVAL_US]\n");
		return 1;
	}
	if (argc == 5 && atoi(argv[4]) > 0) {
		doze = atoi(argv[4]) / 10 * 9;
		nap = atoi(argv[4]) / 20 ?: 1;
	}
	cpu = atoi(argv[1]);
	k = atoi(argv[2]);
	secs = atof(argv[3]);
	if (k < 1 || k > 1024) {
		fprintf(stderr, "dtl-pace: K must be 1..1024\n");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("dtl-pace: sched_setaffinity");
		return 1;
	}
	snprintf(path, sizeof(path), "/sys/kernel/debug/powerpc/vpa_dtl_inject/cpu-%d", cpu);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "dtl-pace: %s: %s\n", path, strerror(errno));
		return 2;
	}
	/* preempted by the hypervisor (2) on time slice (1): the common case */
	len = snprintf(line, sizeof(line), "2 1 %d 11 22 33 0 0 0 0 %d\n", cpu, k);
	start = now();
	while (now() - start < secs) {
		d = drained(fd);
		if (d < 0)
			return 1;
		if (!d) {
			usleep(nap);
			continue;
		}
		if (pwrite(fd, line, len, 0) != len) {
			fprintf(stderr, "dtl-pace: inject: %s\n", strerror(errno));
			return 1;
		}
		entries += k;
		batches++;
		if (doze)
			usleep(doze);
	}
	printf("injected %llu entries in %llu batches in %.3f s\n", entries, batches,
	       now() - start);
	return 0;
}
