/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aux_consumer's interface: what aux_consumer.c, the protocol, gives its
 * helpers, aux_consumer_opts.c (the command line, what it names, the
 * workload) and aux_consumer_report.c (aux_test's records, the summary).
 * The helpers depend on this header only; aux_consumer.c calls them.
 */
#ifndef AUX_CONSUMER_H
#define AUX_CONSUMER_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <linux/types.h>

#define EXIT_SKIP	4
#define MAX_CPUS	512
#define MAX_TRIGGERS	16
#define MAX_KEYS	256

struct trigger {
	const char *spec;	/* as given: sys:name or an address */
	bool resume;		/* else pause */
	__u32 type;		/* PERF_TYPE_TRACEPOINT or PERF_TYPE_BREAKPOINT */
	__u64 config;		/* tracepoint id */
	__u64 addr;		/* breakpoint address */
	__u64 samples;
};

/* The command line, parsed by aux_consumer_opts.c. */
struct options {
	const char *pmu;
	const char *terms;
	__u32 type;
	__u64 config[3];
	bool system_wide;
	bool verbose;
	bool aux_test;		/* the PMU is aux_test: check its records too */
	unsigned int data_pages, aux_pages;
	unsigned int duration;
	struct trigger trig[MAX_TRIGGERS];
	int ntrig;
	long page_size;
};

extern struct options opt;

/* What the rings held: aux_consumer.c counts, print_summary() prints. */
struct counts {
	__u64 windows, window_bytes;
	__u64 outside_bytes, outside_records;
	__u64 aux_records, truncated, partial, collision, overwrite;
	__u64 lost, lost_samples, itrace_start, other;
	__u64 unmatched_pause, reopened;
	__u64 unreported;
};

/* aux_test's records in one trace window. */
struct aux_test_window {
	__u64 resume, pause, data, start;
};

/* A trace window, per task (per CPU with -a) and ring: see key_of(). */
struct window {
	bool used, open;
	__u32 key;
	__u32 tid, cpu;
	__u64 start, first_off, end_off;
	__u64 bytes, records;
	__u64 truncated, partial, collision, overwrite, lost;
	struct aux_test_window t;	/* aux_test only: its records */
};

/* Copies @len bytes at ring position @pos (any u64) out of a ring of @size. */
static inline void ring_copy(void *dst, const char *base, __u64 size, __u64 pos,
			     size_t len)
{
	__u64 off = pos & (size - 1);
	size_t first = len < size - off ? len : size - off;

	memcpy(dst, base + off, first);
	memcpy((char *)dst + first, base, len - first);
}

/* aux_consumer_opts.c */
void syserr(const char *fmt, ...);
int parse_options(int argc, char **argv);
void print_options(void);
void add_trigger_id(int trig, __u64 id);
struct trigger *trigger_of(__u64 id);
int online_cpus(int *cpus);
pid_t start_workload(char **argv);
int run_workload(pid_t pid, char **argv);
bool workload_ended(pid_t *pid, int *ret);

/* aux_consumer_report.c */
void aux_test_check(const char *aux, __u64 aux_size, __u64 offset, __u64 size,
		    struct aux_test_window *w);
void aux_test_print_window(const struct aux_test_window *w);
void print_summary(const struct counts *c);

#endif /* AUX_CONSUMER_H */
