// SPDX-License-Identifier: GPL-2.0
/*
 * bp-app: the traced program of perf's mem:SYMBOL@FILE breakpoint tests
 * (tools/perf/tests/shell/test_bp_symbol_user_*.sh). The harness links it
 * statically twice, as an ET_EXEC (/usr/bin/bp-app) and as a static PIE
 * (ET_DYN, /usr/bin/bp-app-pie), with bp-app-twin.c.
 *
 *   bp-app addrs           print where its symbols are, one "NAME ADDR" a
 *                          line: counter, gate, twin_local and twin_global
 *                          (the two symbols named 'twin': this file's
 *                          static one and bp-app-twin.c's global one),
 *                          main, fresh
 *   bp-app run N           N windows: write counter once, run a fixed
 *                          loop (WINDOW_LOOPS writes of twin: work, not
 *                          time, so that a window is as long on every
 *                          machine), write gate once, sleep 1 ms
 *   bp-app read N          N times, write 8 bytes into a pipe and read(2)
 *                          them into counter: the kernel writes counter
 *                          (copy_to_user())
 *   bp-app read-fresh      once, the same into fresh: the kernel's store
 *                          is the first access to fresh's page, which it
 *                          must fault in; exit status 3 if the bytes did
 *                          not land, 4 if the page was present before
 *   bp-app wait FILE N     write the addresses to FILE, then wait until
 *                          FILE.go exists (polling, up to 60 s), then run N,
 *                          create FILE.ran, and wait for FILE.end to exit
 *                          (so that perf record -p PID -- WORKLOAD can end
 *                          with its workload, not with the process)
 *
 * The tests compare perf's resolution with these addresses and count the
 * writes: every write to counter or gate is one store of a volatile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* in .data: exec's clearing of the .bss tail would count as writes */
volatile long counter = 1;
volatile long gate = 1;
static volatile int twin = 1;
/*
 * In .bss, on pages of its own (64 KiB: ppc64le's page size) that nothing
 * touches before read-fresh: anonymous memory, not present until then.
 */
static volatile long fresh[65536 / sizeof(long)] __attribute__((aligned(65536)));

volatile int *twin_global_addr(void);

int main(int argc, char **argv);

/* Whether @addr's page is mapped (/proc/self/pagemap, bit 63); 1 if unknown. */
static int page_present(void *addr)
{
	unsigned long long entry = 1ULL << 63;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/pagemap", "r");

	if (f) {
		if (fseek(f, (unsigned long)addr / page * sizeof(entry), SEEK_SET) ||
		    fread(&entry, sizeof(entry), 1, f) != 1)
			entry = 1ULL << 63;
		fclose(f);
	}
	return !!(entry >> 63);
}

static void addrs(FILE *f)
{
	fprintf(f, "counter %p\ngate %p\ntwin_local %p\ntwin_global %p\nmain %p\nfresh %p\n",
		(void *)&counter, (void *)&gate, (void *)&twin, (void *)twin_global_addr(),
		(void *)main, (void *)fresh);
	fflush(f);
}

/*
 * A window's work: 5 * 10^4 iterations of five instructions, 0.25 ms of
 * the guests' instruction-counted time. It was "2 ms" of the clock: under
 * -icount shift=0 that is 2 * 10^6 instructions, 2 MB of the PT model's
 * filler a window, and pt/trace's 4 MB area filled in the second of its
 * five windows.
 */
#define WINDOW_LOOPS	50000

static void run(long n)
{
	long i;

	for (i = 1; i <= n; i++) {
		long j;

		counter = i;
		for (j = 0; j < WINDOW_LOOPS; j++)
			twin++;
		gate = i;
		usleep(1000);
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "addrs")) {
		addrs(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "run")) {
		run(atol(argv[2]));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "read")) {
		long i, v = 0;
		int p[2];

		if (pipe(p)) {
			perror("pipe");
			return 1;
		}
		for (i = 0; i < atol(argv[2]); i++)
			if (write(p[1], &v, sizeof(v)) != sizeof(v) ||
			    read(p[0], (void *)&counter, sizeof(counter)) != sizeof(counter)) {
				perror("pipe");
				return 1;
			}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "read-fresh")) {
		long v = 0x5a5a5a5a5a5a5a5aL;
		int p[2];

		if (page_present((void *)fresh)) {
			fprintf(stderr, "bp-app: fresh's page is present before the read\n");
			return 4;
		}
		if (pipe(p) || write(p[1], &v, sizeof(v)) != sizeof(v) ||
		    read(p[0], (void *)fresh, sizeof(v)) != sizeof(v)) {
			perror("pipe");
			return 1;
		}
		return fresh[0] == v ? 0 : 3;
	}
	if (argc == 4 && !strcmp(argv[1], "wait")) {
		char go[4096];
		FILE *f = fopen(argv[2], "w");
		int i;

		if (!f) {
			perror(argv[2]);
			return 1;
		}
		addrs(f);
		fclose(f);
		snprintf(go, sizeof(go), "%s.go", argv[2]);
		for (i = 0; i < 60000 && access(go, F_OK); i++)
			usleep(1000);
		run(atol(argv[3]));
		snprintf(go, sizeof(go), "%s.ran", argv[2]);
		f = fopen(go, "w");
		if (f)
			fclose(f);
		snprintf(go, sizeof(go), "%s.end", argv[2]);
		for (i = 0; i < 60000 && access(go, F_OK); i++)
			usleep(1000);
		return 0;
	}
	fprintf(stderr, "usage: bp-app addrs | run N | read N | wait FILE N\n");
	return 2;
}
