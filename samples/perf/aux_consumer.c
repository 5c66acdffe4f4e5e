// SPDX-License-Identifier: GPL-2.0
/*
 * aux_consumer: a minimal consumer of a perf AUX area event, with AUX
 * pause/resume, written with the raw system calls and libc only.
 *
 * It opens an AUX area event started paused (attr.aux_start_paused) on the
 * PMU named on the command line, one per online CPU, puts trigger events
 * into each event's group (tracepoints, a data breakpoint) that resume or
 * pause it when they fire, redirects their samples into the AUX event's
 * ring buffer (PERF_EVENT_IOC_SET_OUTPUT), maps the data and the AUX area,
 * runs a workload (or watches every task, -a), and consumes both rings.
 * It prints one line per trace window: from a resume trigger's sample to
 * the next pause trigger's sample of the same task (of the same CPU with
 * -a), with the PERF_RECORD_AUX records written in between (their AUX
 * offsets, bytes and flags) and the losses.
 *
 * The protocol it follows (control page reads and writes, barriers, AUX
 * flags, SET_OUTPUT, detection of pause/resume) is described in
 * Documentation/admin-guide/perf/aux-pause-resume.rst.
 *
 *   aux_consumer -e aux_test/period=10000,burst=3 \
 *	-r syscalls:sys_enter_newuname -p syscalls:sys_exit_newuname -- uname
 *
 * Exit status: 0 success, 1 error, 2 usage, 4 (the kselftest "skip") when
 * the PMU does not exist, the kernel has no AUX pause/resume or the PMU
 * cannot pause.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_aux_test.h>
#include <linux/perf_event.h>

#define EXIT_SKIP	4
#define MAX_CPUS	512
#define MAX_TRIGGERS	16
#define MAX_KEYS	256
#define MAX_STREAMS	256
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Every event of ours has these, in its samples and its sample_id. */
#define SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)

/* The sample_id that sample_id_all appends to every other record. */
struct sample_id {
	__u32 pid, tid;
	__u64 time;
	__u32 cpu, res;
	__u64 id;
};

/* A PERF_RECORD_SAMPLE of SAMPLE_TYPE. */
struct trigger_sample {
	struct perf_event_header header;
	__u64 id;
	__u32 pid, tid;
	__u64 time;
	__u32 cpu, res;
};

struct aux_record {
	struct perf_event_header header;
	__u64 aux_offset;
	__u64 aux_size;
	__u64 flags;
	struct sample_id sid;
};

struct trigger {
	const char *spec;	/* as given: sys:name or an address */
	bool resume;		/* else pause */
	__u32 type;		/* PERF_TYPE_TRACEPOINT or PERF_TYPE_BREAKPOINT */
	__u64 config;		/* tracepoint id */
	__u64 addr;		/* breakpoint address */
	__u64 samples;
};

/* An open trace window, per task (per CPU with -a) and ring. */
struct window {
	bool used, open;
	__u32 key;
	__u32 tid, cpu;
	__u64 start, first_off, end_off;
	__u64 bytes, records;
	__u64 truncated, partial, collision, overwrite, lost;
	/* aux_test only: the records of the window */
	__u64 t_resume, t_pause, t_data, t_start;
};

struct ring {
	int cpu;
	int fd;			/* the AUX area event, group leader */
	int trig_fd[MAX_TRIGGERS];
	struct perf_event_mmap_page *pc;
	char *data;
	__u64 data_size;
	char *aux;
	__u64 aux_size;
	__u64 aux_tail;		/* what we consumed; mirrors pc->aux_tail */
	bool reenable;		/* TRUNCATED seen: the kernel disabled the event */
	struct window win[MAX_KEYS];
};

struct stream {
	__u32 id;
	__u64 next_seq;
};

static struct {
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
	struct ring *rings;
	int nrings;
	__u64 ids[MAX_CPUS * MAX_TRIGGERS];
	int id_trig[MAX_CPUS * MAX_TRIGGERS];
	int nids;
	long page_size;
} opt = {
	.data_pages = 16,
	.aux_pages = 64,
};

static struct {
	__u64 windows, window_bytes;
	__u64 outside_bytes, outside_records;
	__u64 aux_records, truncated, partial, collision, overwrite;
	__u64 lost, lost_samples, itrace_start, other;
	__u64 unmatched_pause, reopened;
	__u64 unreported;
	/* aux_test */
	__u64 t_records, t_resume, t_pause, t_data, t_start, t_bad, t_gaps;
	__u64 t_data_outside, t_marks_outside, t_good_windows;
	struct stream streams[MAX_STREAMS];
	int nstreams;
} st;

/* Set by SIGINT and SIGTERM; read with __atomic_load_n() in the main loop. */
static int stop;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

/* A failed system call: what failed, then errno's text and number. */
static void syserr(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fputs("aux_consumer: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s (errno %d)\n", strerror(err), err);
	errno = err;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* Reads the first line of @path into @buf; returns 0, or -1 with errno set. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err;

	if (!f)
		return -1;
	if (!fgets(buf, len, f)) {
		err = ferror(f) ? errno : EINVAL;
		fclose(f);
		errno = err;
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int parse_u64(const char *s, __u64 *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	return 0;
}

/*
 * One term of the event's configuration: config=, config1=, config2= set
 * the whole field; any other name is looked up in the PMU's sysfs format/
 * directory ("config:0-31", "config1:4", "config:0-3,8-11") and its value
 * is spread over those bits, lowest first.
 */
static int parse_term(char *term)
{
	char path[512], fmt[256], *val = strchr(term, '='), *p, *range, *save;
	unsigned int field, width = 0;
	__u64 value = 1;

	if (val) {
		*val++ = '\0';
		if (parse_u64(val, &value)) {
			fprintf(stderr, "aux_consumer: %s: bad value '%s'\n", term, val);
			return -1;
		}
	}
	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2")) {
		opt.config[term[6] ? term[6] - '0' : 0] = value;
		return 0;
	}
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/%s", opt.pmu, term);
	if (read_line(path, fmt, sizeof(fmt))) {
		fprintf(stderr, "aux_consumer: %s: no such format term of %s (%s: %s)\n",
			term, opt.pmu, path, strerror(errno));
		return -1;
	}
	if (!strncmp(fmt, "config:", 7))
		field = 0;
	else if (!strncmp(fmt, "config1:", 8))
		field = 1;
	else if (!strncmp(fmt, "config2:", 8))
		field = 2;
	else
		goto bad_format;
	p = strchr(fmt, ':') + 1;
	for (range = strtok_r(p, ",", &save); range; range = strtok_r(NULL, ",", &save)) {
		unsigned int lo, hi, bit;
		int n;

		if (sscanf(range, "%u-%u%n", &lo, &hi, &n) != 2 || range[n]) {
			if (sscanf(range, "%u%n", &lo, &n) != 1 || range[n])
				goto bad_format;
			hi = lo;
		}
		if (hi < lo || hi > 63)
			goto bad_format;
		for (bit = lo; bit <= hi; bit++, width++) {
			opt.config[field] &= ~(1ULL << bit);
			if (width < 64 && (value >> width) & 1)
				opt.config[field] |= 1ULL << bit;
		}
	}
	if (width < 64 && value >> width) {
		fprintf(stderr, "aux_consumer: %s=%llu does not fit in %u bits\n", term,
			(unsigned long long)value, width);
		return -1;
	}
	return 0;

bad_format:
	fprintf(stderr, "aux_consumer: %s: format '%s' not understood\n", path, fmt);
	return -1;
}

/* "PMU" or "PMU/term,term,...": type and config of the AUX area event. */
static int parse_event(char *spec)
{
	char path[512], buf[64], *terms = strchr(spec, '/'), *term, *save;
	__u64 type;

	if (terms) {
		*terms++ = '\0';
		terms[strcspn(terms, "/")] = '\0';
	}
	opt.pmu = spec;
	opt.aux_test = !strcmp(spec, "aux_test");
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", spec);
	if (read_line(path, buf, sizeof(buf))) {
		printf("aux_consumer: skip: PMU %s not found (%s: %s)\n", spec, path,
		       strerror(errno));
		exit(EXIT_SKIP);
	}
	if (parse_u64(buf, &type) || type > UINT32_MAX) {
		fprintf(stderr, "aux_consumer: %s: bad type '%s'\n", path, buf);
		return -1;
	}
	opt.type = type;
	if (!terms || !*terms)
		return 0;
	opt.terms = strdup(terms);
	for (term = strtok_r(terms, ",", &save); term; term = strtok_r(NULL, ",", &save))
		if (parse_term(term))
			return -1;
	return 0;
}

/* A tracepoint trigger: "sys:name", its id from tracefs. */
static int add_tracepoint(const char *spec, bool resume)
{
	static const char * const roots[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	const char *colon = strchr(spec, ':');
	char path[512], buf[64];
	struct trigger *t;
	unsigned int i;
	int err = ENOENT;

	if (!colon || colon == spec || !colon[1] || strchr(spec, '/')) {
		fprintf(stderr, "aux_consumer: tracepoint '%s': expected SYSTEM:NAME\n", spec);
		return -1;
	}
	if (opt.ntrig == MAX_TRIGGERS) {
		fprintf(stderr, "aux_consumer: at most %d triggers\n", MAX_TRIGGERS);
		return -1;
	}
	t = &opt.trig[opt.ntrig];
	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/%.*s/%s/id", roots[i], (int)(colon - spec), spec,
			 colon + 1);
		if (!read_line(path, buf, sizeof(buf)))
			break;
		if (errno != ENOENT)
			err = errno;
	}
	if (i == ARRAY_SIZE(roots)) {
		fprintf(stderr, "aux_consumer: tracepoint %s: %s (looked for %s/%.*s/%s/id; %s)\n",
			spec, err == ENOENT ? "no such tracepoint" : "cannot read its id",
			roots[0], (int)(colon - spec), spec, colon + 1,
			err == ENOENT ? "is tracefs mounted?" : strerror(err));
		return -1;
	}
	if (parse_u64(buf, &t->config)) {
		fprintf(stderr, "aux_consumer: %s: bad id '%s'\n", path, buf);
		return -1;
	}
	t->spec = spec;
	t->resume = resume;
	t->type = PERF_TYPE_TRACEPOINT;
	opt.ntrig++;
	return 0;
}

/* A data breakpoint trigger: "ADDR:resume" or "ADDR:pause", 8 bytes written. */
static int add_breakpoint(char *spec)
{
	char *colon = strrchr(spec, ':');
	struct trigger *t = &opt.trig[opt.ntrig];

	if (opt.ntrig == MAX_TRIGGERS) {
		fprintf(stderr, "aux_consumer: at most %d triggers\n", MAX_TRIGGERS);
		return -1;
	}
	if (!colon || (strcmp(colon, ":resume") && strcmp(colon, ":pause"))) {
		fprintf(stderr, "aux_consumer: breakpoint '%s': %s\n", spec,
			"expected ADDR:resume or ADDR:pause");
		return -1;
	}
	t->resume = !strcmp(colon, ":resume");
	*colon = '\0';
	if (parse_u64(spec, &t->addr) || !t->addr) {
		fprintf(stderr, "aux_consumer: breakpoint: bad address '%s'\n", spec);
		return -1;
	}
	t->spec = spec;
	t->type = PERF_TYPE_BREAKPOINT;
	opt.ntrig++;
	return 0;
}

/* The online CPUs, from "0-3,5" in /sys/devices/system/cpu/online. */
static int online_cpus(int *cpus)
{
	const char *path = "/sys/devices/system/cpu/online";
	char buf[1024], *tok;
	int n = 0;

	if (read_line(path, buf, sizeof(buf))) {
		syserr("%s", path);
		return -1;
	}
	for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		int lo, hi;

		if (sscanf(tok, "%d-%d", &lo, &hi) != 2) {
			lo = atoi(tok);
			hi = lo;
		}
		for (; lo <= hi && n < MAX_CPUS; lo++)
			cpus[n++] = lo;
	}
	return n;
}

/*
 * Does the kernel know the aux_action bits? A kernel without AUX
 * pause/resume has them as __reserved_3 and refuses any of them with
 * EINVAL; one with it refuses aux_start_paused on a PMU that cannot pause
 * (any software event) with EOPNOTSUPP.
 */
static int probe_pause_resume(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd;

	attr.aux_start_paused = 1;
	fd = perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		fprintf(stderr, "aux_consumer: a software event accepted aux_start_paused\n");
		return -1;
	}
	if (errno == EOPNOTSUPP)
		return 1;
	if (errno == EINVAL)
		return 0;
	syserr("perf_event_open(software event, aux_start_paused: probe)");
	return -1;
}

static void record_id(int fd, int trig)
{
	__u64 id;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
		syserr("ioctl(PERF_EVENT_IOC_ID)");
		exit(1);
	}
	opt.ids[opt.nids] = id;
	opt.id_trig[opt.nids++] = trig;
}

/* The AUX area event of @r, its triggers, and both mappings. */
static int open_ring(struct ring *r, pid_t pid)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = opt.type,
		.config = opt.config[0],
		.config1 = opt.config[1],
		.config2 = opt.config[2],
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
		.disabled = 1,
		.watermark = 1,
	};
	__u64 len = (1 + opt.data_pages) * opt.page_size;
	void *map;
	int i;

	attr.wakeup_watermark = opt.data_pages * opt.page_size / 4;
	attr.aux_watermark = opt.aux_pages * opt.page_size / 4;
	attr.aux_start_paused = 1;
	/* Per task: the workload's children too; started by its exec(). */
	attr.inherit = !opt.system_wide;
	attr.enable_on_exec = !opt.system_wide;
	r->fd = perf_event_open(&attr, pid, r->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0) {
		if (errno == EOPNOTSUPP) {
			printf("aux_consumer: skip: PMU %s cannot pause (aux_start_paused: %s)\n",
			       opt.pmu, strerror(errno));
			exit(EXIT_SKIP);
		}
		syserr("perf_event_open(%s, cpu %d)", opt.pmu, r->cpu);
		return -1;
	}

	/* The control page and the data ring: always read-write. */
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (map == MAP_FAILED) {
		syserr("mmap(data area, %llu bytes, cpu %d)", (unsigned long long)len, r->cpu);
		return -1;
	}
	r->pc = map;
	r->data = (char *)map + opt.page_size;
	r->data_size = opt.data_pages * opt.page_size;

	/*
	 * The AUX area: its place in the file is ours to choose, after the
	 * data area; aux_offset and aux_size are written before the mmap().
	 * Read-write: we advance aux_tail, the kernel never overwrites what we
	 * have not consumed (read-only would be overwrite, snapshot, mode).
	 */
	r->aux_size = (__u64)opt.aux_pages * opt.page_size;
	r->pc->aux_offset = len;
	r->pc->aux_size = r->aux_size;
	map = mmap(NULL, r->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, len);
	if (map == MAP_FAILED) {
		syserr("mmap(AUX area, %llu bytes, cpu %d)", (unsigned long long)r->aux_size,
		       r->cpu);
		return -1;
	}
	r->aux = map;

	for (i = 0; i < opt.ntrig; i++) {
		struct trigger *t = &opt.trig[i];
		struct perf_event_attr ta = {
			.size = sizeof(ta),
			.type = t->type,
			.config = t->config,
			.sample_period = 1,
			.sample_type = SAMPLE_TYPE,
			.sample_id_all = 1,
		};
		int fd;

		ta.inherit = attr.inherit;
		if (t->resume)
			ta.aux_resume = 1;
		else
			ta.aux_pause = 1;
		if (t->type == PERF_TYPE_BREAKPOINT) {
			ta.bp_type = HW_BREAKPOINT_W;
			ta.bp_addr = t->addr;
			ta.bp_len = HW_BREAKPOINT_LEN_8;
		}
		/* In the group of the AUX area event: that is what it acts on. */
		fd = perf_event_open(&ta, pid, r->cpu, r->fd, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			syserr("perf_event_open(trigger %s %s, cpu %d)",
			       t->resume ? "resume" : "pause", t->spec, r->cpu);
			return -1;
		}
		r->trig_fd[i] = fd;
		/*
		 * Its samples go into the AUX event's data ring, in order with
		 * the PERF_RECORD_AUX records: that is how windows are seen.
		 * Needs the same CPU (and clock), and the target mapped first.
		 */
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd)) {
			syserr("ioctl(PERF_EVENT_IOC_SET_OUTPUT, trigger %s, cpu %d)", t->spec,
			       r->cpu);
			return -1;
		}
		record_id(fd, i);
	}
	return 0;
}

/* Copies @len bytes at ring position @pos (any u64) out of a ring of @size. */
static void ring_copy(void *dst, const char *base, __u64 size, __u64 pos, size_t len)
{
	__u64 off = pos & (size - 1);
	size_t first = len < size - off ? len : size - off;

	memcpy(dst, base + off, first);
	memcpy((char *)dst + first, base, len - first);
}

static struct window *window_of(struct ring *r, __u32 key)
{
	int i, free_slot = -1;

	for (i = 0; i < MAX_KEYS; i++) {
		if (r->win[i].used && r->win[i].key == key)
			return &r->win[i];
		if (!r->win[i].used && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return NULL;
	memset(&r->win[free_slot], 0, sizeof(r->win[free_slot]));
	r->win[free_slot].used = true;
	r->win[free_slot].key = key;
	return &r->win[free_slot];
}

/* Per task; with -a, one per CPU: the AUX event that the triggers act on. */
static __u32 key_of(__u32 tid)
{
	return opt.system_wide ? 0 : tid;
}

static void print_time(__u64 ns)
{
	printf("%llu.%09llu", (unsigned long long)(ns / 1000000000),
	       (unsigned long long)(ns % 1000000000));
}

static void close_window(struct window *w, __u64 end, bool at_exit)
{
	__u64 losses = w->truncated + w->partial + w->collision + w->lost;

	st.windows++;
	st.window_bytes += w->bytes;
	printf("window %llu: tid %u cpu %u time ", (unsigned long long)st.windows, w->tid, w->cpu);
	print_time(w->start);
	if (at_exit) {
		printf("-(open at the end)");
	} else {
		printf("-");
		print_time(end);
		printf(" (%llu ns)", (unsigned long long)(end - w->start));
	}
	if (w->records)
		printf(" aux 0x%llx-0x%llx", (unsigned long long)w->first_off,
		       (unsigned long long)w->end_off);
	printf(" bytes %llu records %llu lost %llu", (unsigned long long)w->bytes,
	       (unsigned long long)w->records, (unsigned long long)losses);
	if (losses)
		printf(" (truncated %llu partial %llu collision %llu lost-records %llu)",
		       (unsigned long long)w->truncated, (unsigned long long)w->partial,
		       (unsigned long long)w->collision, (unsigned long long)w->lost);
	if (opt.aux_test) {
		bool good = w->t_resume == 1 && w->t_pause == 1 && w->t_data > 0;

		printf(" [aux_test: resume %llu data %llu pause %llu start %llu%s]",
		       (unsigned long long)w->t_resume, (unsigned long long)w->t_data,
		       (unsigned long long)w->t_pause, (unsigned long long)w->t_start,
		       good ? "" : " UNEXPECTED");
		st.t_good_windows += good;
	}
	printf("\n");
	w->open = false;
}

static void handle_sample(struct ring *r, const struct trigger_sample *s)
{
	struct trigger *t = NULL;
	struct window *w;
	__u32 key;
	int i;

	for (i = 0; i < opt.nids; i++) {
		if (opt.ids[i] == s->id) {
			t = &opt.trig[opt.id_trig[i]];
			break;
		}
	}
	if (!t) {
		st.other++;
		return;
	}
	t->samples++;
	if (opt.verbose) {
		printf("  ");
		print_time(s->time);
		printf(" cpu %u tid %u %s %s\n", s->cpu, s->tid, t->resume ? "resume" : "pause",
		       t->spec);
	}
	w = window_of(r, key_of(s->tid));
	if (!w) {
		st.other++;
		return;
	}
	if (t->resume) {
		/* A resume of a running event does nothing: the window goes on. */
		if (w->open) {
			st.reopened++;
			return;
		}
		key = w->key;
		memset(w, 0, sizeof(*w));
		w->used = true;
		w->key = key;
		w->open = true;
		w->tid = s->tid;
		w->cpu = s->cpu;
		w->start = s->time;
	} else if (w->open) {
		close_window(w, s->time, false);
	} else {
		st.unmatched_pause++;
	}
}

/* aux_test only: check the records of one PERF_RECORD_AUX. */
static void check_aux_test(struct ring *r, const struct aux_record *a, struct window *w)
{
	__u64 pos;

	for (pos = a->aux_offset; pos + AUX_TEST_RECORD_SIZE <= a->aux_offset + a->aux_size;
	     pos += AUX_TEST_RECORD_SIZE) {
		struct aux_test_record rec;
		struct stream *s = NULL;
		int i;

		ring_copy(&rec, r->aux, r->aux_size, pos, sizeof(rec));
		st.t_records++;
		if (rec.magic != AUX_TEST_MAGIC || !rec.type || rec.type >= AUX_TEST_RECORD_MAX) {
			st.t_bad++;
			continue;
		}
		for (i = 0; i < st.nstreams; i++)
			if (st.streams[i].id == rec.stream)
				s = &st.streams[i];
		if (!s && st.nstreams < MAX_STREAMS) {
			s = &st.streams[st.nstreams++];
			s->id = rec.stream;
			s->next_seq = rec.seq;
		}
		if (s) {
			if (rec.seq != s->next_seq)
				st.t_gaps++;
			s->next_seq = rec.seq + 1;
		}
		switch (rec.type) {
		case AUX_TEST_RECORD_DATA:
			st.t_data++;
			if (w)
				w->t_data++;
			else
				st.t_data_outside++;
			break;
		case AUX_TEST_RECORD_START:
			st.t_start++;
			if (w)
				w->t_start++;
			break;
		case AUX_TEST_RECORD_PAUSE:
			st.t_pause++;
			if (w)
				w->t_pause++;
			else
				st.t_marks_outside++;
			break;
		case AUX_TEST_RECORD_RESUME:
			st.t_resume++;
			if (w)
				w->t_resume++;
			else
				st.t_marks_outside++;
			break;
		}
	}
}

static void handle_aux(struct ring *r, const struct aux_record *a)
{
	struct window *w = window_of(r, key_of(a->sid.tid));

	if (w && !w->open)
		w = NULL;
	st.aux_records++;
	if (opt.verbose)
		printf("  PERF_RECORD_AUX cpu %u tid %u offset 0x%llx size %llu flags 0x%llx%s\n",
		       a->sid.cpu, a->sid.tid, (unsigned long long)a->aux_offset,
		       (unsigned long long)a->aux_size, (unsigned long long)a->flags,
		       w ? "" : " (outside windows)");
	if (a->flags & PERF_AUX_FLAG_TRUNCATED) {
		st.truncated++;
		r->reenable = true;
	}
	st.partial += !!(a->flags & PERF_AUX_FLAG_PARTIAL);
	st.collision += !!(a->flags & PERF_AUX_FLAG_COLLISION);
	st.overwrite += !!(a->flags & PERF_AUX_FLAG_OVERWRITE);
	if (w) {
		if (!w->records)
			w->first_off = a->aux_offset;
		w->end_off = a->aux_offset + a->aux_size;
		w->records++;
		w->bytes += a->aux_size;
		w->truncated += !!(a->flags & PERF_AUX_FLAG_TRUNCATED);
		w->partial += !!(a->flags & PERF_AUX_FLAG_PARTIAL);
		w->collision += !!(a->flags & PERF_AUX_FLAG_COLLISION);
	} else {
		st.outside_records++;
		st.outside_bytes += a->aux_size;
	}
	if (a->aux_size > r->aux_size || a->aux_offset < r->aux_tail) {
		fprintf(stderr,
			"aux_consumer: PERF_RECORD_AUX offset 0x%llx size %llu: outside the unread AUX data (tail 0x%llx)\n",
			(unsigned long long)a->aux_offset, (unsigned long long)a->aux_size,
			(unsigned long long)r->aux_tail);
		return;
	}
	/* Bytes between our tail and this record that no record announced. */
	st.unreported += a->aux_offset - r->aux_tail;

	/*
	 * The data at [aux_offset, aux_offset + aux_size) is ours to read:
	 * the kernel wrote this record after the PMU's data, and we read the
	 * record after data_head (acquire), whose store the kernel ordered
	 * after both (smp_wmb() in perf_output_put_handle()).
	 */
	if (opt.aux_test)
		check_aux_test(r, a, w);

	/*
	 * Give the bytes back: a store-release of aux_tail orders our reads of
	 * the AUX data before it, the full barrier (D) that pairs with the
	 * control dependency (A) on aux_tail in perf_aux_output_begin().
	 */
	r->aux_tail = a->aux_offset + a->aux_size;
	__atomic_store_n(&r->pc->aux_tail, r->aux_tail, __ATOMIC_RELEASE);
}

static void handle_record(struct ring *r, const struct perf_event_header *h)
{
	const struct sample_id *sid = (const void *)((const char *)h + h->size - sizeof(*sid));
	const __u64 *body = (const __u64 *)(h + 1);
	struct window *w;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size < sizeof(struct trigger_sample))
			break;
		handle_sample(r, (const void *)h);
		return;
	case PERF_RECORD_AUX:
		if (h->size < sizeof(struct aux_record))
			break;
		handle_aux(r, (const void *)h);
		return;
	case PERF_RECORD_LOST:		/* { id, lost }: the data ring was full */
	case PERF_RECORD_LOST_SAMPLES:	/* { lost }: samples the PMU dropped */
		if (h->size < sizeof(*h) + 16 + sizeof(*sid))
			break;
		if (h->type == PERF_RECORD_LOST)
			st.lost += body[1];
		else
			st.lost_samples += body[0];
		printf("aux_consumer: %s: %llu lost (cpu %u, tid %u)\n",
		       h->type == PERF_RECORD_LOST ? "PERF_RECORD_LOST" :
		       "PERF_RECORD_LOST_SAMPLES",
		       (unsigned long long)body[h->type == PERF_RECORD_LOST],
		       sid->cpu, sid->tid);
		w = window_of(r, key_of(sid->tid));
		if (w && w->open)
			w->lost += body[h->type == PERF_RECORD_LOST];
		return;
	case PERF_RECORD_ITRACE_START:	/* { pid, tid }: tracing started for a task */
		st.itrace_start++;
		if (opt.verbose)
			printf("  PERF_RECORD_ITRACE_START cpu %u tid %u\n", sid->cpu, sid->tid);
		return;
	}
	st.other++;
}

/*
 * Consume the data ring: data_head with a load-acquire (the smp_rmb() (C)
 * of the kernel's comment in perf_output_put_handle(), pairing with its
 * smp_wmb() (B) before the data_head store), the records, then data_tail
 * with a store-release (the full barrier (D): our reads of the records
 * before the kernel may overwrite them, pairing with the control
 * dependency (A) on data_tail in __perf_output_begin()).
 */
static void drain(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->pc->data_tail;	/* only we write it */
	static union {
		struct perf_event_header h;
		char buf[65536];
	} rec;

	while (tail < head) {
		ring_copy(&rec.h, r->data, r->data_size, tail, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h) || rec.h.size > head - tail) {
			fprintf(stderr, "aux_consumer: corrupt record (size %u) at 0x%llx\n",
				rec.h.size, (unsigned long long)tail);
			tail = head;
			break;
		}
		ring_copy(rec.buf, r->data, r->data_size, tail, rec.h.size);
		handle_record(r, &rec.h);
		tail += rec.h.size;
	}
	__atomic_store_n(&r->pc->data_tail, tail, __ATOMIC_RELEASE);

	/*
	 * TRUNCATED: the AUX area filled up and the kernel disabled the event
	 * (perf_event_disable_inatomic()). Now that the space is given back,
	 * enable it again; the gap stays a loss of its window.
	 */
	if (r->reenable) {
		r->reenable = false;
		if (ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0))
			syserr("ioctl(PERF_EVENT_IOC_ENABLE, cpu %d)", r->cpu);
	}
}

static void count(const char *name, __u64 val)
{
	printf(" %s %llu", name, (unsigned long long)val);
}

static void finish(void)
{
	int i, k;

	for (i = 0; i < opt.nrings; i++) {
		struct ring *r = &opt.rings[i];
		/* aux_head may be ahead of the records: what PMUs skip (padding). */
		__u64 aux_head = __atomic_load_n(&r->pc->aux_head, __ATOMIC_ACQUIRE);

		if (aux_head > r->aux_tail) {
			st.unreported += aux_head - r->aux_tail;
			r->aux_tail = aux_head;
			__atomic_store_n(&r->pc->aux_tail, aux_head, __ATOMIC_RELEASE);
		}
		for (k = 0; k < MAX_KEYS; k++)
			if (r->win[k].used && r->win[k].open)
				close_window(&r->win[k], 0, true);
	}
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
	count("records", st.t_records);
	count("resume", st.t_resume);
	count("pause", st.t_pause);
	count("data", st.t_data);
	count("start", st.t_start);
	count("data-outside-windows", st.t_data_outside);
	count("pause-resume-outside-windows", st.t_marks_outside);
	count("good-windows", st.t_good_windows);
	count("seq-gaps", st.t_gaps);
	count("bad", st.t_bad);
	printf("\n");
}

static void print_usage(void)
{
	fprintf(stderr, "%s",
		"usage: aux_consumer -e PMU[/TERM=VAL,...] [-r SYS:TP]... [-p SYS:TP]...\n"
		"                    [-w ADDR:resume|pause] [-a [-d SECONDS]] [-m PAGES] [-M PAGES]\n"
		"                    [-v] [-- COMMAND [ARGS...]]\n"
		"  -e  the AUX area event: PMU name, terms from its sysfs format/ or config=,\n"
		"      config1=, config2=; it starts paused\n"
		"  -r  a tracepoint that resumes tracing, -p one that pauses it\n"
		"  -w  a data breakpoint (8 bytes written at ADDR) that resumes or pauses\n"
		"  -a  every task, one event per online CPU (else COMMAND and its children)\n"
		"  -d  with -a and no COMMAND: how long (default 1 s)\n"
		"  -m  data area pages (default 16), -M AUX area pages (default 64): powers of 2\n"
		"  -v  print every trigger sample and PERF_RECORD_AUX\n");
	exit(2);
}

static bool power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

int main(int argc, char **argv)
{
	int go[2], err_pipe[2], cpus[MAX_CPUS], ncpus, c, i, status, err, ret = 0;
	bool resumes = false, pauses = false;
	char *event = NULL;
	pid_t pid = -1;
	struct pollfd *pfd;
	time_t deadline;

	setvbuf(stdout, NULL, _IOLBF, 0);
	opt.page_size = sysconf(_SC_PAGESIZE);
	while ((c = getopt(argc, argv, "+e:r:p:w:ad:m:M:vh")) != -1) {
		switch (c) {
		case 'e':
			event = optarg;
			break;
		case 'r':
		case 'p':
			if (add_tracepoint(optarg, c == 'r'))
				return 1;
			break;
		case 'w':
			if (add_breakpoint(optarg))
				return 1;
			break;
		case 'a':
			opt.system_wide = true;
			break;
		case 'd':
			opt.duration = atoi(optarg);
			break;
		case 'm':
			opt.data_pages = atoi(optarg);
			break;
		case 'M':
			opt.aux_pages = atoi(optarg);
			break;
		case 'v':
			opt.verbose = true;
			break;
		default:
			print_usage();
		}
	}
	if (!event || (optind == argc && !opt.system_wide) ||
	    !power_of_2(opt.data_pages) || !power_of_2(opt.aux_pages))
		print_usage();
	for (i = 0; i < opt.ntrig; i++) {
		resumes |= opt.trig[i].resume;
		pauses |= !opt.trig[i].resume;
	}
	if (!resumes || !pauses) {
		fprintf(stderr, "aux_consumer: needs a resume trigger and a pause trigger\n");
		print_usage();
	}
	if (parse_event(event))
		return 1;

	switch (probe_pause_resume()) {
	case 0:
		printf("aux_consumer: skip: this kernel has no AUX pause/resume\n");
		printf("aux_consumer: (aux_start_paused gets EINVAL: the bits are __reserved_3)\n");
		return EXIT_SKIP;
	case 1:
		break;
	default:
		return 1;
	}
	printf("aux_consumer: the kernel has AUX pause/resume\n");
	printf("aux_consumer: PMU %s type %u config 0x%llx config1 0x%llx config2 0x%llx (%s)\n",
	       opt.pmu, opt.type, (unsigned long long)opt.config[0],
	       (unsigned long long)opt.config[1], (unsigned long long)opt.config[2],
	       opt.terms ? opt.terms : "no terms");
	for (i = 0; i < opt.ntrig; i++) {
		if (opt.trig[i].type == PERF_TYPE_TRACEPOINT)
			printf("aux_consumer: %s on tracepoint %s (id %llu)\n",
			       opt.trig[i].resume ? "resume" : "pause", opt.trig[i].spec,
			       (unsigned long long)opt.trig[i].config);
		else
			printf("aux_consumer: %s on a write to 0x%llx (breakpoint)\n",
			       opt.trig[i].resume ? "resume" : "pause",
			       (unsigned long long)opt.trig[i].addr);
	}

	ncpus = online_cpus(cpus);
	if (ncpus <= 0)
		return 1;
	opt.rings = calloc(ncpus, sizeof(*opt.rings));
	pfd = calloc(ncpus, sizeof(*pfd));
	if (!opt.rings || !pfd) {
		fprintf(stderr, "aux_consumer: out of memory\n");
		return 1;
	}

	/* The workload waits on @go until its events exist, then exec()s. */
	if (optind < argc) {
		if (pipe2(go, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) {
			syserr("pipe2");
			return 1;
		}
		pid = fork();
		if (pid < 0) {
			syserr("fork");
			return 1;
		}
		if (!pid) {
			char b;

			close(go[1]);
			close(err_pipe[0]);
			if (read(go[0], &b, 1) != 1)
				_exit(127);
			execvp(argv[optind], argv + optind);
			err = errno;
			if (write(err_pipe[1], &err, sizeof(err)) != sizeof(err))
				_exit(127);
			_exit(127);
		}
		close(go[0]);
		close(err_pipe[1]);
	}

	for (i = 0; i < ncpus; i++) {
		opt.rings[i].cpu = cpus[i];
		if (open_ring(&opt.rings[i], opt.system_wide ? -1 : pid)) {
			ret = 1;
			goto out_kill;
		}
		opt.nrings++;
		pfd[i].fd = opt.rings[i].fd;
		pfd[i].events = POLLIN;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* Per task, enable_on_exec starts them; system-wide, we do. */
	if (opt.system_wide) {
		for (i = 0; i < opt.nrings; i++) {
			if (ioctl(opt.rings[i].fd, PERF_EVENT_IOC_ENABLE, 0)) {
				syserr("ioctl(PERF_EVENT_IOC_ENABLE, cpu %d)", opt.rings[i].cpu);
				ret = 1;
				goto out_kill;
			}
		}
	}
	if (pid > 0) {
		ssize_t n;

		if (write(go[1], "g", 1) != 1) {
			syserr("write(the workload's pipe)");
			ret = 1;
			goto out_kill;
		}
		close(go[1]);
		n = read(err_pipe[0], &err, sizeof(err));
		close(err_pipe[0]);
		if (n == sizeof(err)) {
			errno = err;
			syserr("exec %s", argv[optind]);
			waitpid(pid, NULL, 0);
			return 1;
		}
	}

	deadline = time(NULL) + (opt.duration ? opt.duration : 1);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (poll(pfd, opt.nrings, 100) < 0 && errno != EINTR) {
			syserr("poll");
			ret = 1;
			break;
		}
		for (i = 0; i < opt.nrings; i++)
			drain(&opt.rings[i]);
		if (pid > 0) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid) {
				pid = -1;
				if (!WIFEXITED(status) || WEXITSTATUS(status))
					printf("aux_consumer: workload status 0x%x\n", status);
				break;
			}
			if (w < 0) {
				syserr("waitpid");
				ret = 1;
				break;
			}
		} else if (time(NULL) >= deadline) {
			break;
		}
	}
	/* Stop the events, then take what they wrote last. */
	for (i = 0; i < opt.nrings; i++) {
		ioctl(opt.rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
		drain(&opt.rings[i]);
	}
	finish();

out_kill:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return ret;
}
