/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the aux_test and aux_pause selftests: the aux_test
 * PMU, a ring buffer with its AUX area, PERF_RECORD_AUX parsing and the
 * record stream of include/uapi/linux/perf_aux_test.h.
 */
#ifndef AUX_TEST_LIB_H
#define AUX_TEST_LIB_H

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>
#include <linux/perf_aux_test.h>

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

static inline int pmu_type(void)
{
	FILE *f = fopen(PMU_DIR "/type", "r");
	int type = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
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

/* Copy out the PERF_RECORD_AUX records that arrived in the data ring. */
static inline int read_aux_records(struct rb *rb, struct aux_rec *out, int max, int *lost)
{
	__u64 head = __atomic_load_n(&rb->pc->data_head, __ATOMIC_ACQUIRE);
	int n = 0;

	while (rb->data_tail < head) {
		struct perf_event_header hdr;
		char buf[256];
		size_t off = rb->data_tail % rb->data_size, i;

		for (i = 0; i < sizeof(hdr); i++)
			((char *)&hdr)[i] = ((char *)rb->data)[(off + i) % rb->data_size];
		if (hdr.size < sizeof(hdr) || hdr.size > sizeof(buf))
			return -1;
		for (i = 0; i < hdr.size; i++)
			buf[i] = ((char *)rb->data)[(off + i) % rb->data_size];
		if (hdr.type == PERF_RECORD_AUX && n < max) {
			memcpy(&out[n], buf + sizeof(hdr), sizeof(out[n]));
			n++;
		}
		if (hdr.type == PERF_RECORD_LOST && lost)
			(*lost)++;
		rb->data_tail += hdr.size;
	}
	__atomic_store_n(&rb->pc->data_tail, rb->data_tail, __ATOMIC_RELEASE);
	return n;
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

#endif /* AUX_TEST_LIB_H */
