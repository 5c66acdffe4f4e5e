/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by this series' perf_events selftests (aux_test,
 * aux_pause, aux_stress, bp_modify_slots): the aux_test PMU, a ring buffer
 * with its AUX area, data-ring and PERF_RECORD_AUX parsing, the record
 * stream of include/uapi/linux/perf_aux_test.h, triggers, kernel symbols
 * and kmemleak.
 */
#ifndef AUX_TEST_LIB_H
#define AUX_TEST_LIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>
#include <linux/perf_aux_test.h>

#include "../kselftest.h"	/* ARRAY_SIZE */

/*
 * This kselftest harness goes on into a test's body after a SKIP() in its
 * FIXTURE_SETUP (it returns early only on a failure), where the body then
 * fails on what the setup did not provide (an aux_test PMU on a kernel
 * without one). Each test of a fixture whose setup may skip starts with
 * IF_SETUP_SKIPPED(return), so that it ends there, reported as skipped;
 * like SKIP(), it takes the statement to run.
 */
#define IF_SETUP_SKIPPED(statement)		\
	do {					\
		if (_metadata->skip)		\
			statement;		\
	} while (0)

#define PMU_DIR		"/sys/bus/event_source/devices/aux_test"
#define REC		AUX_TEST_RECORD_SIZE
#define DATA_PAGES	16
#define MAX_AUX_RECS	4096

static long page_size;

/* attr.config for the format fields period (us), burst and drop */
static inline __u64 cfg(__u32 period, __u16 burst, __u16 drop)
{
	return (__u64)period | (__u64)burst << 32 | (__u64)drop << 48;
}

/* The integer a sysfs or tracefs file holds, or -1. */
static inline int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline int pmu_type(void)
{
	return read_int(PMU_DIR "/type");
}

static inline void init_attr(struct perf_event_attr *attr, int type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->disabled = 1;
	attr->sample_id_all = 1;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
}

static inline int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, 0);
}

/* One event with its ring buffer and AUX area. */
struct rb {
	int fd;
	struct perf_event_mmap_page *pc;
	void *data;			/* data pages, after the control page */
	size_t data_size;
	void *aux;
	size_t aux_size;
	__u64 data_tail;
};

static inline int map_rb(struct rb *rb, int fd, size_t aux_pages, int aux_prot)
{
	memset(rb, 0, sizeof(*rb));
	rb->fd = fd;
	rb->data_size = DATA_PAGES * page_size;
	rb->pc = mmap(NULL, page_size + rb->data_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED, fd, 0);
	if (rb->pc == MAP_FAILED)
		return -1;
	rb->data = (char *)rb->pc + page_size;
	if (!aux_pages)
		return 0;
	rb->aux_size = aux_pages * page_size;
	rb->pc->aux_offset = page_size + rb->data_size;
	rb->pc->aux_size = rb->aux_size;
	rb->aux = mmap(NULL, rb->aux_size, aux_prot, MAP_SHARED, fd,
		       rb->pc->aux_offset);
	return rb->aux == MAP_FAILED ? -1 : 0;
}

static inline void unmap_rb(struct rb *rb)
{
	if (rb->aux && rb->aux != MAP_FAILED)
		munmap(rb->aux, rb->aux_size);
	if (rb->pc && rb->pc != MAP_FAILED)
		munmap(rb->pc, page_size + rb->data_size);
	if (rb->fd >= 0)
		close(rb->fd);
}

/* Run on this CPU for @ms milliseconds (per-task events only count then). */
static inline void spin_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

struct aux_rec {
	__u64 offset, size, flags;
};

/*
 * Copy the data-ring record at rb->data_tail, header included, into @buf
 * (@max bytes) and step data_tail past it. Returns its header's type, 0
 * when the ring holds no more before @head, -1 for a record that is bad or
 * larger than @max. data_tail is given back to the kernel by the caller.
 */
static inline int next_record(struct rb *rb, __u64 head, void *buf, size_t max)
{
	struct perf_event_header *hdr = buf;
	size_t off = rb->data_tail % rb->data_size, i;

	if (rb->data_tail >= head)
		return 0;
	for (i = 0; i < sizeof(*hdr); i++)
		((char *)buf)[i] = ((char *)rb->data)[(off + i) % rb->data_size];
	if (hdr->size < sizeof(*hdr) || hdr->size > max)
		return -1;
	for (i = sizeof(*hdr); i < hdr->size; i++)
		((char *)buf)[i] = ((char *)rb->data)[(off + i) % rb->data_size];
	rb->data_tail += hdr->size;
	return hdr->type;
}

/* Copy out the PERF_RECORD_AUX records that arrived in the data ring. */
static inline int read_aux_records(struct rb *rb, struct aux_rec *out, int max, int *lost)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	char buf[256];
	int n = 0, type;

	while ((type = next_record(rb, head, buf, sizeof(buf))) > 0) {
		if (type == PERF_RECORD_AUX && n < max) {
			memcpy(&out[n], buf + sizeof(struct perf_event_header), sizeof(out[n]));
			n++;
		}
		if (type == PERF_RECORD_LOST && lost)
			(*lost)++;
	}
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
	return type < 0 ? -1 : n;
}

static inline const struct aux_test_record *rec_at(struct rb *rb, __u64 pos)
{
	return (const void *)((char *)rb->aux + (pos & (rb->aux_size - 1)));
}

/*
 * Check the AUX data in [from, to): whole records, right magic, and seq
 * continuous within one stream (@next_seq: expected first seq, or -1).
 * Returns the number of records, or -1 with @why set.
 */
static inline long check_records(struct rb *rb, __u64 from, __u64 to,
				 __u64 *next_seq, __u32 stream, const char **why)
{
	long n = 0;

	if ((to - from) % REC) {
		*why = "AUX data is not made of whole records";
		return -1;
	}
	for (; from < to; from += REC, n++) {
		const struct aux_test_record *r = rec_at(rb, from);

		if (r->magic != AUX_TEST_MAGIC) {
			*why = "bad record magic";
			return -1;
		}
		if (r->type == 0 || r->type >= AUX_TEST_RECORD_MAX) {
			*why = "bad record type";
			return -1;
		}
		if (stream && r->stream != stream)
			continue;
		if (*next_seq != (__u64)-1 && r->seq != *next_seq) {
			*why = "sequence gap";
			return -1;
		}
		*next_seq = r->seq + 1;
	}
	return n;
}

static inline int tracepoint_id(const char *name)
{
	static const char * const roots[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	char path[256];
	unsigned int i;
	int id = -1;

	for (i = 0; i < ARRAY_SIZE(roots) && id < 0; i++) {
		snprintf(path, sizeof(path), "%s/%s/id", roots[i], name);
		id = read_int(path);
	}
	return id;
}

/* A trigger: an event of @type/@config that overflows at every hit. */
static inline void init_trigger(struct perf_event_attr *attr, __u32 type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->sample_period = 1;
}

/* A kernel symbol's address from /proc/kallsyms, or 0. */
static inline unsigned long ksym(const char *name)
{
	unsigned long addr, found = 0;
	char type, sym[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fscanf(f, "%lx %c %255s%*[^\n]", &addr, &type, sym) == 3) {
		if (!strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

/*
 * Whether kmemleak runs. Its debugfs file stays when it is off (kmemleak=off
 * on the command line, or after an error of its own), and then every
 * command but "clear" fails with EPERM; a running kmemleak answers a word
 * it does not know with EINVAL, and nothing changes.
 */
static inline bool have_kmemleak(void)
{
	bool on;
	int fd;

	fd = open(KMEMLEAK, O_WRONLY);
	if (fd < 0)
		return false;
	on = write(fd, "?", 1) >= 0 || errno != EPERM;
	close(fd);
	return on;
}

/*
 * Scan twice and count the objects kmemleak reports (an object is reported
 * once two scans in a row found it unreferenced, and once it is 5 s old),
 * or -1 without kmemleak. With @show, the reports' first lines (what
 * leaked, and where it was allocated) go to stdout as TAP diagnostics. A
 * scan takes seconds under emulation with KASAN: tests that scan need a
 * longer timeout than the harness's 30 s.
 */
static inline long kmemleak_scan(bool show)
{
	char line[256];
	long n = 0;
	int i, fd, shown = 0;
	FILE *f;

	for (i = 0; i < 2; i++) {
		fd = open(KMEMLEAK, O_WRONLY);
		if (fd < 0)
			return -1;
		if (write(fd, "scan", 4) < 0)
			n = -1;
		close(fd);
	}
	f = fopen(KMEMLEAK, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "unreferenced object", 19))
			n++;
		if (show && shown++ < 80)
			printf("# kmemleak: %s", line);
	}
	fclose(f);
	fflush(stdout);
	return n;
}

/*
 * Whether a scan after the whole run judges leaks instead of the test:
 * KMEMLEAK_AFTER_RUN=1 in the environment, set by a runner that scans once
 * everything has run and fails the run on any object kmemleak reports,
 * with the allocation's backtrace (the QEMU harness of this series). The
 * leak is caught all the same; the test then spends no scan of its own,
 * about 10^10 instructions each under emulation with KASAN. Run alone, a
 * test scans for itself.
 */
static inline bool kmemleak_after_run(void)
{
	const char *v = getenv("KMEMLEAK_AFTER_RUN");

	return v && !strcmp(v, "1");
}

/*
 * The objects kmemleak reports once the test's own are 5 s old, shown (see
 * kmemleak_scan()); 0, with a line that says so, when kmemleak_after_run().
 */
static inline long kmemleak_leaks(void)
{
	long n;

	if (kmemleak_after_run()) {
		printf("# kmemleak: left to the scan after the run (KMEMLEAK_AFTER_RUN=1)\n");
		fflush(stdout);
		return 0;
	}
	sleep(6);
	n = kmemleak_scan(true);
	printf("# kmemleak: %ld unreferenced objects\n", n);
	fflush(stdout);
	return n;
}

/*
 * Forget what kmemleak finds before a test (boot-time objects), unless a
 * scan after the run judges leaks (kmemleak_after_run()): the runner has
 * forgotten those before the run.
 */
static inline void kmemleak_forget(void)
{
	int fd;

	if (kmemleak_after_run())
		return;
	kmemleak_scan(false);
	fd = open(KMEMLEAK, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, "clear", 5) < 0)
		perror("kmemleak clear");
	close(fd);
}

#endif /* AUX_TEST_LIB_H */
