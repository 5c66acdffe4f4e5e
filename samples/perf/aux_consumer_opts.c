// SPDX-License-Identifier: GPL-2.0
/*
 * aux_consumer's command line, out of the way of the protocol in
 * aux_consumer.c: the options and the usage, the AUX area event's type and
 * config from its PMU's sysfs directory, the triggers (a tracepoint's id
 * from tracefs, a breakpoint's address; then the ids of their events), the
 * online CPUs, and the workload (COMMAND, forked before its events are
 * opened and exec()ed after).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include "aux_consumer.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct options opt = {
	.data_pages = 16,
	.aux_pages = 64,
};

/* A failed system call: what failed, then errno's text and number. */
void syserr(const char *fmt, ...)
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
int online_cpus(int *cpus)
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

/*
 * The options, then the AUX area event's PMU (exits with EXIT_SKIP if it
 * does not exist). Returns the index of COMMAND in @argv (@argc if none),
 * or -1 on an error; exits with the usage on a usage error.
 */
int parse_options(int argc, char **argv)
{
	bool resumes = false, pauses = false;
	char *event = NULL;
	int c, i;

	while ((c = getopt(argc, argv, "+e:r:p:w:ad:m:M:vh")) != -1) {
		switch (c) {
		case 'e':
			event = optarg;
			break;
		case 'r':
		case 'p':
			if (add_tracepoint(optarg, c == 'r'))
				return -1;
			break;
		case 'w':
			if (add_breakpoint(optarg))
				return -1;
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
		return -1;
	return optind;
}

/* The triggers' ids (PERF_EVENT_IOC_ID), one per trigger and CPU. */
static __u64 ids[MAX_CPUS * MAX_TRIGGERS];
static int id_trig[MAX_CPUS * MAX_TRIGGERS];
static int nids;

void add_trigger_id(int trig, __u64 id)
{
	ids[nids] = id;
	id_trig[nids++] = trig;
}

/* The trigger whose sample has @id, or NULL. */
struct trigger *trigger_of(__u64 id)
{
	int i;

	for (i = 0; i < nids; i++)
		if (ids[i] == id)
			return &opt.trig[id_trig[i]];
	return NULL;
}

/* What the command line asks for, as the kernel will get it. */
void print_options(void)
{
	int i;

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
}

/* The workload's pipes: @go lets it exec(), @err_pipe brings exec()'s errno. */
static int go[2], err_pipe[2];

/*
 * Forks the workload, @argv: it waits on @go until its events exist, then
 * exec()s. Returns its pid, or -1.
 */
pid_t start_workload(char **argv)
{
	pid_t pid;
	int err;

	if (pipe2(go, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) {
		syserr("pipe2");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		syserr("fork");
		return -1;
	}
	if (!pid) {
		char b;

		close(go[1]);
		close(err_pipe[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		err = errno;
		if (write(err_pipe[1], &err, sizeof(err)) != sizeof(err))
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err_pipe[1]);
	return pid;
}

/*
 * Lets the workload exec() @argv. Returns 0 once it did, or -1 (and the
 * workload is reaped) if it could not.
 */
int run_workload(pid_t pid, char **argv)
{
	ssize_t n;
	int err;

	if (write(go[1], "g", 1) != 1) {
		syserr("write(the workload's pipe)");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(go[1]);
	n = read(err_pipe[0], &err, sizeof(err));
	close(err_pipe[0]);
	if (n == sizeof(err)) {
		errno = err;
		syserr("exec %s", argv[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return 0;
}

/*
 * Has the workload ended? If so, or if waitpid() fails (*@ret = 1), the
 * run is over; *@pid is -1 once the workload is reaped.
 */
bool workload_ended(pid_t *pid, int *ret)
{
	int status;
	pid_t w = waitpid(*pid, &status, WNOHANG);

	if (w == *pid) {
		*pid = -1;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			printf("aux_consumer: workload status 0x%x\n", status);
		return true;
	}
	if (w < 0) {
		syserr("waitpid");
		*ret = 1;
		return true;
	}
	return false;
}
