// SPDX-License-Identifier: GPL-2.0
/*
 * aux_consumer's summary, and its check of aux_test's records (struct
 * aux_test_record, include/uapi/linux/perf_aux_test.h), out of the way of
 * the protocol in aux_consumer.c. The AUX data of other PMUs is opaque to
 * aux_consumer; aux_test's says what a window should hold: every record
 * valid, no gap in any stream's sequence numbers, RESUME, DATA... and
 * PAUSE in each window, and no DATA, RESUME or PAUSE outside them.
 */
#include <stdio.h>
#include <string.h>
#include <linux/perf_aux_test.h>
#include "aux_consumer.h"

#define MAX_STREAMS	256

struct stream {
	__u32 id;
	__u64 next_seq;
};

/* aux_test's records, all of them. */
static struct {
	__u64 records, resume, pause, data, start, bad, gaps;
	__u64 data_outside, marks_outside, good_windows;
	struct stream streams[MAX_STREAMS];
	int nstreams;
} t;

/*
 * aux_test only: checks the records of one PERF_RECORD_AUX, at [@offset,
 * @offset + @size) of the AUX area @aux, in window @w (NULL: outside).
 */
void aux_test_check(const char *aux, __u64 aux_size, __u64 offset, __u64 size,
		    struct aux_test_window *w)
{
	__u64 pos;

	for (pos = offset; pos + AUX_TEST_RECORD_SIZE <= offset + size;
	     pos += AUX_TEST_RECORD_SIZE) {
		struct aux_test_record rec;
		struct stream *s = NULL;
		int i;

		ring_copy(&rec, aux, aux_size, pos, sizeof(rec));
		t.records++;
		if (rec.magic != AUX_TEST_MAGIC || !rec.type || rec.type >= AUX_TEST_RECORD_MAX) {
			t.bad++;
			continue;
		}
		for (i = 0; i < t.nstreams; i++)
			if (t.streams[i].id == rec.stream)
				s = &t.streams[i];
		if (!s && t.nstreams < MAX_STREAMS) {
			s = &t.streams[t.nstreams++];
			s->id = rec.stream;
			s->next_seq = rec.seq;
		}
		if (s) {
			if (rec.seq != s->next_seq)
				t.gaps++;
			s->next_seq = rec.seq + 1;
		}
		switch (rec.type) {
		case AUX_TEST_RECORD_DATA:
			t.data++;
			if (w)
				w->data++;
			else
				t.data_outside++;
			break;
		case AUX_TEST_RECORD_START:
			t.start++;
			if (w)
				w->start++;
			break;
		case AUX_TEST_RECORD_PAUSE:
			t.pause++;
			if (w)
				w->pause++;
			else
				t.marks_outside++;
			break;
		case AUX_TEST_RECORD_RESUME:
			t.resume++;
			if (w)
				w->resume++;
			else
				t.marks_outside++;
			break;
		}
	}
}

/* aux_test only: the end of a window's line, its records. */
void aux_test_print_window(const struct aux_test_window *w)
{
	bool good = w->resume == 1 && w->pause == 1 && w->data > 0;

	printf(" [aux_test: resume %llu data %llu pause %llu start %llu%s]",
	       (unsigned long long)w->resume, (unsigned long long)w->data,
	       (unsigned long long)w->pause, (unsigned long long)w->start,
	       good ? "" : " UNEXPECTED");
	t.good_windows += good;
}

static void count(const char *name, __u64 val)
{
	printf(" %s %llu", name, (unsigned long long)val);
}

/* The triggers' samples, the counts @c, and aux_test's. */
void print_summary(const struct counts *c)
{
	int i;

	for (i = 0; i < opt.ntrig; i++)
		printf("trigger %s %s: %llu samples\n", opt.trig[i].resume ? "resume" : "pause",
		       opt.trig[i].spec, (unsigned long long)opt.trig[i].samples);
	printf("summary:");
	count("windows", c->windows);
	count("bytes-in-windows", c->window_bytes);
	count("bytes-outside-windows", c->outside_bytes);
	count("records-outside-windows", c->outside_records);
	printf("\nsummary:");
	count("aux-records", c->aux_records);
	count("truncated", c->truncated);
	count("partial", c->partial);
	count("collision", c->collision);
	count("overwrite", c->overwrite);
	count("lost", c->lost);
	count("lost-samples", c->lost_samples);
	printf("\nsummary:");
	count("itrace-start", c->itrace_start);
	count("unmatched-pause", c->unmatched_pause);
	count("repeated-resume", c->reopened);
	count("unreported-aux-bytes", c->unreported);
	count("other-records", c->other);
	printf("\n");
	if (!opt.aux_test)
		return;
	printf("aux_test:");
	count("records", t.records);
	count("resume", t.resume);
	count("pause", t.pause);
	count("data", t.data);
	count("start", t.start);
	count("data-outside-windows", t.data_outside);
	count("pause-resume-outside-windows", t.marks_outside);
	count("good-windows", t.good_windows);
	count("seq-gaps", t.gaps);
	count("bad", t.bad);
	printf("\n");
}
