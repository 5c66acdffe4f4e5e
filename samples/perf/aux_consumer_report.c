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

struct counts st;

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

/* The window of @key in the table @win (MAX_KEYS), a new one if none. */
struct window *window_of(struct window *win, __u32 key)
{
	int i, free_slot = -1;

	for (i = 0; i < MAX_KEYS; i++) {
		if (win[i].used && win[i].key == key)
			return &win[i];
		if (!win[i].used && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return NULL;
	memset(&win[free_slot], 0, sizeof(win[free_slot]));
	win[free_slot].used = true;
	win[free_slot].key = key;
	return &win[free_slot];
}

static void count(const char *name, __u64 val)
{
	printf(" %s %llu", name, (unsigned long long)val);
}

/* The triggers' samples, the counts, and aux_test's. */
void print_summary(void)
{
	int i;

	for (i = 0; i < opt.ntrig; i++)
		printf("trigger %s %s: %llu samples\n", opt.trig[i].resume ? "resume" : "pause",
		       opt.trig[i].spec, (unsigned long long)opt.trig[i].samples);
	printf("summary:");
	count("windows", st.windows);
	count("bytes-in-windows", st.window_bytes);
	count("bytes-outside-windows", st.outside_bytes);
	count("records-outside-windows", st.outside_records);
	printf("\nsummary:");
	count("aux-records", st.aux_records);
	count("truncated", st.truncated);
	count("partial", st.partial);
	count("collision", st.collision);
	count("overwrite", st.overwrite);
	count("lost", st.lost);
	count("lost-samples", st.lost_samples);
	printf("\nsummary:");
	count("itrace-start", st.itrace_start);
	count("unmatched-pause", st.unmatched_pause);
	count("repeated-resume", st.reopened);
	count("unreported-aux-bytes", st.unreported);
	count("other-records", st.other);
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
