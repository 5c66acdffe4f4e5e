// SPDX-License-Identifier: GPL-2.0
/*
 * aux-fuzz: a companion to trinity that drives the perf AUX area.
 *
 * A generic syscall fuzzer almost never builds an AUX area: that takes a
 * perf_event_open() on an AUX PMU, an mmap() of its ring buffer at offset 0
 * with 1 + 2^n pages, aux_offset and aux_size written into the
 * struct perf_event_mmap_page, then a second mmap() at aux_offset. This
 * program does that, and then everything else one can do to such an event,
 * in a random order with random (mostly valid, sometimes not) arguments:
 *
 *  - open aux_test events (random period/burst/drop config, per task or per
 *    CPU, inherited, started paused, in groups) and, where the PMU exists
 *    (pseries), vpa_dtl events, and where the PMU exists (Intel BTS, or the
 *    x86_64:pmu guest's QEMU model) intel_bts events (per task, inherited
 *    or CPU-wide, random privilege filters), and likewise intel_pt events
 *    (perf's default config, sometimes random bits);
 *  - open group members on tracepoints, software events and breakpoints that
 *    carry aux_action bits (pause, resume, both, start-paused) or that sample
 *    the AUX area (PERF_SAMPLE_AUX with a random aux_sample_size);
 *  - mmap the data and AUX areas with random power-of-two sizes, read-write
 *    or read-only (overwrite mode), map them twice, unmap them in any order
 *    and in part, move them with mremap();
 *  - ioctl ENABLE, DISABLE, RESET, REFRESH, PERIOD, SET_OUTPUT, PAUSE_OUTPUT,
 *    ID, read() the counts, poll(), consume the buffers (or write garbage
 *    into data_tail and aux_tail), close the fds before or after unmapping;
 *  - fork children that map the same buffers again and exit, run the
 *    workloads that make the triggers fire, and on pseries feed the DTL
 *    through the hypervisor stand-in (debugfs powerpc/vpa_dtl_inject).
 *
 * Errors from the kernel are expected and counted; the point is that the
 * kernel must not splat. Several worker processes run at once; a worker
 * that dies is counted and replaced. File descriptors and memory are
 * bounded (MAX_SLOTS events, MAX_MAP_BYTES mapped per worker).
 *
 * Usage: aux-fuzz [-t SECONDS] [-w WORKERS] [-s SEED] [-u UID]
 *        aux-fuzz -p
 *   -t  how long to run (default 60)
 *   -w  worker processes (default 2)
 *   -s  random seed (default: time and pid)
 *   -u  drop to this uid and gid (the PMUs and tracepoints are looked up
 *       before), to fuzz as an unprivileged user
 *   -p  probe: open one aux_test event, wait for its first record and
 *       print "aux-fuzz: aux_test streams=N", the number of aux_test events
 *       (and inherited copies) the kernel has created since boot, from the
 *       record's stream id (run it before and after fuzzing: the difference
 *       is how often the fuzzers reached aux_test's event_init)
 *
 * Prints one line at the end:
 *   aux-fuzz: calls=N aux_mmaps=N aux_events=N errors=N ...
 * and exits 0, or 1 if the AUX area was never reached (no AUX PMU, or not
 * one AUX mapping of aux_test succeeded, or of a hardware AUX PMU on a
 * kernel without aux_test, such as upstream's: a fuzzer that never reaches
 * it proves nothing).
 *
 * Raw system calls and libc only; built static for the test guests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#define MAX_SLOTS	16		/* events open per process */
#define MAX_WORKERS	16
#define MAX_CHILDREN	2		/* forked children alive per worker */
#define MAX_AUX_BYTES	(4UL << 20)	/* one AUX area */
#define MAX_MAP_BYTES	(24UL << 20)	/* everything one worker maps */
#define MAX_DATA_ORDER	4		/* data area: 1 + 2^0..2^4 pages */
#define CHILD_OPS	40		/* operations of a forked child */

/* The series' attr.aux_action: the 32 bits after attr.aux_sample_size. */
#define AUX_START_PAUSED	(1U << 0)
#define AUX_PAUSE		(1U << 1)
#define AUX_RESUME		(1U << 2)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define PMU_DIR		"/sys/bus/event_source/devices/"
#define INJECT_DIR	"/sys/kernel/debug/powerpc/vpa_dtl_inject/"

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST	(1U << 4)
#endif

enum kind {
	K_NONE,
	K_AUX_TEST,		/* an aux_test event */
	K_VPA_DTL,		/* a vpa_dtl event */
	K_INTEL_BTS,		/* an intel_bts event */
	K_INTEL_PT,		/* an intel_pt event */
	K_MEMBER,		/* a group member: trigger, sampler or plain */
};

/* One event of this process, and its mappings (which outlive the fd). */
struct slot {
	int		fd;		/* -1: closed (the mappings may remain) */
	enum kind	kind;
	int		leader;		/* opened as a group leader */
	pid_t		pid;		/* perf_event_open()'s pid and cpu */
	int		cpu;
	struct perf_event_mmap_page *pc; /* data area, control page first */
	size_t		data_len;
	int		data_rw;	/* mapped writable: the tails can move */
	void		*aux;
	size_t		aux_len;
	__u64		aux_seen;	/* aux_head at the last look */
};

/* An attr, and what the kernel reads after it when attr.size is larger. */
struct attr_buf {
	struct perf_event_attr	attr;
	__u64			beyond[4];	/* zero, but sometimes not: E2BIG */
};

/* Counters shared by all workers and their children. */
struct stats {
	unsigned long	calls;		/* system calls made */
	unsigned long	errors;		/* of them, failed */
	unsigned long	aux_events;	/* aux_test events opened */
	unsigned long	aux_mmaps;	/* AUX areas mapped (aux_test) */
	unsigned long	vpa_events;	/* vpa_dtl events opened */
	unsigned long	vpa_mmaps;	/* AUX areas mapped (vpa_dtl) */
	unsigned long	bts_events;	/* intel_bts events opened */
	unsigned long	bts_mmaps;	/* AUX areas mapped (intel_bts) */
	unsigned long	pt_events;	/* intel_pt events opened */
	unsigned long	pt_mmaps;	/* AUX areas mapped (intel_pt) */
	unsigned long	triggers;	/* members with aux_action opened */
	unsigned long	samplers;	/* members with aux_sample_size opened */
	unsigned long	aux_data;	/* bytes seen arriving in AUX areas */
	unsigned long	injected;	/* DTL entries fed to vpa_dtl */
	unsigned long	forks;		/* children forked */
	unsigned long	crashes;	/* workers (or children) killed by a signal */
};

static struct stats *st;
static struct slot slots[MAX_SLOTS];
static long page_size;
static int ncpus;
static int aux_test_type = -1, vpa_dtl_type = -1, intel_bts_type = -1;
static int intel_pt_type = -1;
static int tp_ids[4], nr_tp_ids;
static int nr_inject;		/* CPUs with a vpa_dtl_inject file */
static size_t mapped;		/* bytes this process has mapped */
static time_t deadline;
static int in_child;
static pid_t children[MAX_CHILDREN];
static volatile unsigned long bp_target;	/* what breakpoint triggers watch */
static uint64_t rng;

#define count(field, n)	__atomic_fetch_add(&st->field, (n), __ATOMIC_RELAXED)

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned long rnd_below(unsigned long n)
{
	return n ? rnd() % n : 0;
}

static int one_in(unsigned int n)
{
	return rnd_below(n) == 0;
}

/* A system call's result, counted; -1 with errno on failure, as libc. */
static long counted(long ret)
{
	count(calls, 1);
	if (ret == -1)
		count(errors, 1);
	return ret;
}

static time_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int read_int(const char *path)
{
	char buf[32];
	int fd, n, val = -1;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		val = atoi(buf);
	}
	close(fd);
	return val;
}

static void set_aux_action(struct perf_event_attr *attr, __u32 action)
{
	memcpy((char *)attr + offsetof(struct perf_event_attr, aux_sample_size) +
	       sizeof(attr->aux_sample_size), &action, sizeof(action));
}

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
		     unsigned long flags)
{
	return counted(syscall(__NR_perf_event_open, attr, pid, cpu, group, flags));
}

/* A random slot in use for which ok() holds, or NULL. */
static struct slot *pick(int (*ok)(struct slot *s))
{
	int i, start = rnd_below(MAX_SLOTS);

	for (i = 0; i < MAX_SLOTS; i++) {
		struct slot *s = &slots[(start + i) % MAX_SLOTS];

		if (s->kind != K_NONE && ok(s))
			return s;
	}
	return NULL;
}

static int is_open(struct slot *s)
{
	return s->fd >= 0;
}

static int is_aux_leader(struct slot *s)
{
	return s->fd >= 0 && s->leader && s->kind != K_MEMBER;
}

static int has_map(struct slot *s)
{
	return s->pc || s->aux;
}

static int has_rw_data(struct slot *s)
{
	return s->pc && s->data_rw;
}

static int can_map_aux(struct slot *s)
{
	return s->fd >= 0 && s->pc && !s->aux;
}

static int can_map_data(struct slot *s)
{
	return s->fd >= 0 && !s->pc;
}

static int any(struct slot *s)
{
	return 1;
}

static void unmap_data(struct slot *s)
{
	counted(munmap(s->pc, s->data_len));
	mapped -= s->data_len;
	s->pc = NULL;
	s->data_len = 0;
}

static void unmap_aux(struct slot *s)
{
	counted(munmap(s->aux, s->aux_len));
	mapped -= s->aux_len;
	s->aux = NULL;
	s->aux_len = 0;
}

static void close_fd(struct slot *s)
{
	counted(close(s->fd));
	s->fd = -1;
	if (!has_map(s))
		s->kind = K_NONE;
}

/* Unmap and close everything of a slot, in a random order. */
static void drop_slot(struct slot *s)
{
	if (s->fd >= 0 && one_in(2))
		close_fd(s);
	if (s->aux && s->pc && one_in(2)) {
		unmap_data(s);
		unmap_aux(s);
	}
	if (s->aux)
		unmap_aux(s);
	if (s->pc)
		unmap_data(s);
	if (s->fd >= 0)
		close_fd(s);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* A slot for a new event: a free one, or one closed and unmapped to make room. */
static struct slot *free_slot(void)
{
	struct slot *s;
	int i;

	for (i = 0; i < MAX_SLOTS; i++)
		if (slots[i].kind == K_NONE)
			return &slots[i];
	s = pick(any);
	drop_slot(s);
	return s;
}

static __u64 rnd_sample_type(void)
{
	static const __u64 bits[] = {
		PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_STREAM_ID,
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_READ, PERF_SAMPLE_RAW,
	};
	__u64 type = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bits); i++)
		if (one_in(3))
			type |= bits[i];
	return type;
}

static __u64 rnd_read_format(void)
{
	return rnd_below(PERF_FORMAT_LOST << 1);
}

/* Attribute bits that any event may carry. */
static void rnd_common(struct perf_event_attr *attr)
{
	attr->size = sizeof(*attr);
	if (one_in(16))
		attr->size = one_in(2) ? PERF_ATTR_SIZE_VER5 :
			     sizeof(*attr) + 8 * rnd_below(ARRAY_SIZE(((struct attr_buf *)0)->beyond) + 1);
	attr->disabled = one_in(2);
	attr->sample_type = rnd_sample_type();
	attr->read_format = rnd_read_format();
	attr->sample_id_all = one_in(2);
	attr->exclude_kernel = one_in(8);
	attr->exclude_user = one_in(16);
	attr->exclude_hv = one_in(8);
	attr->exclude_idle = one_in(16);
	attr->pinned = one_in(16);
	attr->exclusive = one_in(32);
	attr->enable_on_exec = one_in(32);
	attr->watermark = one_in(4);
	attr->wakeup_events = rnd_below(4);
	if (one_in(8)) {
		attr->use_clockid = 1;
		attr->clockid = one_in(2) ? CLOCK_MONOTONIC : CLOCK_MONOTONIC_RAW;
	}
	if (one_in(4))
		attr->aux_watermark = page_size * rnd_below(16);
}

static __u64 rnd_aux_test_config(void)
{
	__u64 period, burst, drop;

	switch (rnd_below(8)) {
	case 0:
		period = 0;
		break;
	case 1:
		period = 100 + rnd_below(900);
		break;
	case 2:
		period = (__u32)rnd();		/* mostly out of range */
		break;
	default:
		period = 1000 + rnd_below(20000);
		break;
	}
	burst = one_in(16) ? (__u16)rnd() : rnd_below(17);
	drop = one_in(3) ? rnd_below(10) : 0;	/* 1 is invalid */
	return period | burst << 32 | drop << 48;
}

static int rnd_cpu(void)
{
	return one_in(32) ? ncpus + (int)rnd_below(4) : (int)rnd_below(ncpus);
}

/* A vpa_dtl event: its configs, a poll period, per CPU mostly. */
static void rnd_vpa_dtl(struct perf_event_attr *attr, pid_t *pid, int *cpu)
{
	static const __u64 cfg[] = { 1, 2, 4, 7 };

	attr->type = vpa_dtl_type;
	attr->config = one_in(16) ? rnd_below(256) : cfg[rnd_below(4)];
	attr->exclude_kernel = attr->exclude_user = attr->exclude_hv = 0;
	attr->exclude_idle = one_in(32);
	if (one_in(8)) {
		attr->freq = 1;
		attr->sample_freq = rnd_below(2000);
	} else {
		attr->sample_period = one_in(16) ? rnd_below(1000000) :
			1000000 + rnd_below(20000000);
	}
	*pid = one_in(16) ? 0 : -1;
	*cpu = rnd_cpu();
}

/*
 * An intel_bts event: no config of its own (random bits sometimes), the
 * privilege filters at random, per task (inherited or not) mostly, since
 * that is how perf records it.
 */
static void rnd_intel_bts(struct perf_event_attr *attr, pid_t *pid, int *cpu)
{
	attr->type = intel_bts_type;
	attr->config = one_in(16) ? rnd() : 0;
	attr->exclude_kernel = one_in(2);
	attr->exclude_user = one_in(4);
	attr->inherit = one_in(4);
	if (one_in(8))
		attr->sample_period = 1 + rnd_below(1000);
	*pid = one_in(4) ? -1 : 0;
	*cpu = *pid ? rnd_cpu() : (one_in(4) ? rnd_cpu() : -1);
}

/*
 * An intel_pt event: perf's default config (pt, tsc, branch: bits 0, 10
 * and 13), sometimes noretcomp (11), sometimes random bits (mostly
 * refused: the capabilities they need are not there), the privilege
 * filters at random, per task mostly.
 */
static void rnd_intel_pt(struct perf_event_attr *attr, pid_t *pid, int *cpu)
{
	attr->type = intel_pt_type;
	attr->config = 1ULL << 0 | 1ULL << 10 | 1ULL << 13;
	if (one_in(4))
		attr->config |= 1ULL << 11;
	if (one_in(16))
		attr->config = rnd();
	attr->exclude_kernel = one_in(2);
	attr->exclude_user = one_in(4);
	attr->inherit = one_in(4);
	if (one_in(8))
		attr->sample_period = 1 + rnd_below(1000);
	*pid = one_in(4) ? -1 : 0;
	*cpu = *pid ? rnd_cpu() : (one_in(4) ? rnd_cpu() : -1);
}

/* An aux_test event: random config, any way of opening it. */
static void rnd_aux_test(struct perf_event_attr *attr, pid_t *pid, int *cpu)
{
	attr->type = aux_test_type;
	attr->config = rnd_aux_test_config();
	if (one_in(32))
		attr->config1 = rnd();
	if (one_in(32))
		attr->config2 = rnd();
	attr->inherit = one_in(6);
	if (one_in(8))
		attr->sample_period = 1 + rnd_below(1000);
	switch (rnd_below(8)) {
	case 0:
		*pid = 0;
		*cpu = rnd_cpu();
		break;
	case 1:
	case 2:
	case 3:
		*pid = -1;
		*cpu = rnd_cpu();
		break;
	default:
		*pid = 0;
		*cpu = -1;
		break;
	}
}

/*
 * intel_bts and intel_pt exclude each other system-wide (Linux's
 * x86_add_exclusive()): where both exist, every fuzzer takes the same
 * turns, by the clock, four seconds each (see hw_turn_over()). The kind
 * of hardware tracing event that may be opened now, or K_NONE.
 */
static enum kind hw_turn(void)
{
	if (intel_bts_type < 0)
		return intel_pt_type < 0 ? K_NONE : K_INTEL_PT;
	if (intel_pt_type < 0)
		return K_INTEL_BTS;
	return (time(NULL) / 4) % 2 ? K_INTEL_PT : K_INTEL_BTS;
}

/* At a turn, drop this process's events of the other kind. */
static void hw_turn_over(void)
{
	static enum kind turn = K_NONE;
	enum kind t = hw_turn();
	int i;

	if (t == turn)
		return;
	turn = t;
	for (i = 0; i < MAX_SLOTS; i++)
		if ((slots[i].kind == K_INTEL_BTS || slots[i].kind == K_INTEL_PT) &&
		    slots[i].kind != t)
			drop_slot(&slots[i]);
}

/* Open an aux_test, vpa_dtl, intel_bts or intel_pt event, a group leader or not. */
static void op_open_aux(void)
{
	struct attr_buf ab;
	struct perf_event_attr *attr = &ab.attr;
	struct slot *s = free_slot(), *group = NULL;
	enum kind kind = K_AUX_TEST, hw = hw_turn();
	unsigned long flags = 0;
	pid_t pid;
	int cpu, fd;

	memset(&ab, 0, sizeof(ab));
	if (one_in(32))
		ab.beyond[rnd_below(ARRAY_SIZE(ab.beyond))] = rnd();
	rnd_common(attr);
	if (aux_test_type < 0)		/* a kernel without it: the hardware PMUs alone */
		kind = vpa_dtl_type >= 0 && (hw == K_NONE || one_in(2)) ? K_VPA_DTL : hw;
	else if (vpa_dtl_type >= 0 && one_in(3))
		kind = K_VPA_DTL;
	else if (hw != K_NONE && one_in(3))
		kind = hw;
	if (kind == K_VPA_DTL)
		rnd_vpa_dtl(attr, &pid, &cpu);
	else if (kind == K_INTEL_BTS)
		rnd_intel_bts(attr, &pid, &cpu);
	else if (kind == K_INTEL_PT)
		rnd_intel_pt(attr, &pid, &cpu);
	else
		rnd_aux_test(attr, &pid, &cpu);
	if (one_in(3))
		set_aux_action(attr, AUX_START_PAUSED);
	else if (one_in(32))
		set_aux_action(attr, rnd_below(8));
	if (one_in(6))
		group = pick(is_open);
	if (one_in(2))
		flags |= PERF_FLAG_FD_CLOEXEC;
	if (one_in(32))
		flags |= PERF_FLAG_FD_NO_GROUP;

	fd = perf_open(attr, pid, cpu, group ? group->fd : -1, flags);
	if (fd < 0)
		return;
	s->fd = fd;
	s->kind = kind;
	s->leader = !group;
	s->pid = pid;
	s->cpu = cpu;
	if (kind == K_VPA_DTL)
		count(vpa_events, 1);
	else if (kind == K_INTEL_BTS)
		count(bts_events, 1);
	else if (kind == K_INTEL_PT)
		count(pt_events, 1);
	else
		count(aux_events, 1);
}

/*
 * Open a member of an AUX event's group: a trigger with aux_action bits, an
 * AUX sampler, or both, on a tracepoint, a software event or a breakpoint.
 */
static void op_open_member(void)
{
	struct slot *leader = pick(is_aux_leader), *s;
	struct attr_buf ab;
	struct perf_event_attr *attr = &ab.attr;
	__u32 action = 0;
	pid_t pid;
	int cpu, fd;

	if (!leader)
		return;
	memset(&ab, 0, sizeof(ab));
	if (one_in(32))
		ab.beyond[rnd_below(ARRAY_SIZE(ab.beyond))] = rnd();
	rnd_common(attr);
	switch (rnd_below(6)) {
	case 0:
	case 1:
		if (nr_tp_ids) {
			attr->type = PERF_TYPE_TRACEPOINT;
			attr->config = tp_ids[rnd_below(nr_tp_ids)];
			attr->sample_period = 1 + rnd_below(3);
			break;
		}
		/* fall through */
	case 2:
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = one_in(2) ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
		attr->sample_period = 100000 + rnd_below(2000000);
		break;
	case 3:
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = one_in(2) ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_CONTEXT_SWITCHES;
		attr->sample_period = 1 + rnd_below(4);
		break;
	case 4:
		attr->type = PERF_TYPE_BREAKPOINT;
		attr->bp_type = one_in(4) ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
		attr->bp_addr = (unsigned long)&bp_target;
		attr->bp_len = HW_BREAKPOINT_LEN_8;
		attr->sample_period = 1;
		break;
	default:
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = rnd_below(PERF_COUNT_SW_MAX + 1);
		attr->sample_period = one_in(2) ? 0 : 1 + rnd_below(100000);
		break;
	}
	if (one_in(8))
		attr->sample_period = 0;		/* counting: no trigger */
	switch (rnd_below(8)) {
	case 0:
	case 1:
	case 2:
		action = AUX_PAUSE;
		break;
	case 3:
	case 4:
	case 5:
		action = AUX_RESUME;
		break;
	case 6:
		action = rnd_below(8);		/* mostly invalid */
		break;
	}
	set_aux_action(attr, action);
	if (one_in(3)) {
		attr->sample_type |= PERF_SAMPLE_AUX;
		attr->aux_sample_size = one_in(4) ? (__u32)rnd() : 32U << rnd_below(9);
	}
	attr->aux_output = one_in(16);

	pid = leader->pid;
	cpu = leader->cpu;
	if (one_in(16))
		pid = pid < 0 ? 0 : -1;
	if (one_in(16))
		cpu = rnd_cpu();

	fd = perf_open(attr, pid, cpu, leader->fd, one_in(2) ? PERF_FLAG_FD_CLOEXEC : 0);
	if (fd < 0)
		return;
	s = free_slot();
	if (s == leader) {			/* made room by dropping the leader */
		counted(close(fd));
		return;
	}
	s->fd = fd;
	s->kind = K_MEMBER;
	s->pid = pid;
	s->cpu = cpu;
	if (action & (AUX_PAUSE | AUX_RESUME))
		count(triggers, 1);
	if (attr->aux_sample_size)
		count(samplers, 1);
}

/* mmap the data area: 1 + 2^n pages, sometimes a wrong size or read-only. */
static void op_mmap_data(void)
{
	struct slot *s = pick(can_map_data);
	size_t len;
	int prot = PROT_READ | PROT_WRITE;
	void *p;

	if (!s)
		return;
	len = (1 + (1UL << rnd_below(MAX_DATA_ORDER + 1))) * page_size;
	if (one_in(16))
		len = (1UL << rnd_below(MAX_DATA_ORDER + 1)) * page_size;
	if (one_in(16))
		prot = PROT_READ;
	if (mapped + len > MAX_MAP_BYTES)
		return;
	p = (void *)counted((long)mmap(NULL, len, prot, one_in(32) ? MAP_PRIVATE : MAP_SHARED, s->fd, 0));
	if (p == MAP_FAILED)
		return;
	s->pc = p;
	s->data_len = len;
	s->data_rw = prot & PROT_WRITE;
	mapped += len;
}

/* mmap the AUX area: a random power of two, read-write or overwrite mode. */
static void op_mmap_aux(void)
{
	struct slot *s = pick(can_map_aux);
	struct perf_event_mmap_page *pc;
	size_t len, max_order = 0, off;
	int prot;
	void *p;

	if (!s || (s->kind == K_MEMBER && !one_in(8)))
		return;
	while ((page_size << (max_order + 1)) <= (long)MAX_AUX_BYTES)
		max_order++;
	len = page_size << rnd_below(max_order + 1);
	if (one_in(16))
		len = page_size * (1 + rnd_below(64));
	off = s->data_len;
	if (one_in(16))
		off = page_size * rnd_below(2 * s->data_len / page_size + 2);
	prot = one_in(3) ? PROT_READ : PROT_READ | PROT_WRITE;

	/*
	 * The kernel takes the AUX area's place and size from the control
	 * page; a read-only data area leaves whatever is there (zeroes, or
	 * what a mapping of the same buffer wrote), and so does, sometimes,
	 * one that is writable.
	 */
	pc = s->pc;
	if (s->data_rw && (pc->aux_size == 0 || !one_in(4))) {
		pc->aux_offset = off;
		pc->aux_size = len;
	}
	len = pc->aux_size;
	off = pc->aux_offset;
	if (!len || len > MAX_AUX_BYTES || mapped + len > MAX_MAP_BYTES)
		return;
	p = (void *)counted((long)mmap(NULL, len, prot, MAP_SHARED, s->fd, off));
	if (p == MAP_FAILED)
		return;
	s->aux = p;
	s->aux_len = len;
	mapped += len;
	s->aux_seen = 0;
	if (s->kind == K_VPA_DTL)
		count(vpa_mmaps, 1);
	else if (s->kind == K_INTEL_BTS)
		count(bts_mmaps, 1);
	else if (s->kind == K_INTEL_PT)
		count(pt_mmaps, 1);
	else
		count(aux_mmaps, 1);

	/* Sometimes map the same AUX area a second time, and unmap it. */
	if (one_in(6)) {
		p = (void *)counted((long)mmap(NULL, len, prot, MAP_SHARED, s->fd, off));
		if (p != MAP_FAILED)
			counted(munmap(p, len));
	}
}

/* Unmap a data or an AUX area, whole or (refused by the kernel) in part. */
static void op_munmap(void)
{
	struct slot *s = pick(has_map);
	int aux;

	if (!s)
		return;
	aux = s->aux && (!s->pc || one_in(2));
	if (one_in(8)) {
		char *start = aux ? s->aux : (char *)s->pc;
		size_t len = aux ? s->aux_len : s->data_len;

		if (len > (size_t)page_size &&
		    counted(munmap(start + (one_in(2) ? 0 : len - page_size), page_size)) == 0) {
			/* Split after all: drop what is left of it. */
			counted(munmap(start, len));
			mapped -= len;
			if (aux) {
				s->aux = NULL;
				s->aux_len = 0;
			} else {
				s->pc = NULL;
				s->data_len = 0;
			}
			goto out;
		}
	}
	if (aux)
		unmap_aux(s);
	else
		unmap_data(s);
out:
	if (s->fd < 0 && !has_map(s))
		s->kind = K_NONE;
}

/* Move a mapping, or try to grow or shrink it. */
static void op_mremap(void)
{
	struct slot *s = pick(has_map);
	int aux, dontunmap = 0;
	char *old, *p;
	size_t len, new_len;

	if (!s)
		return;
	aux = s->aux && (!s->pc || one_in(2));
	old = aux ? s->aux : (char *)s->pc;
	len = aux ? s->aux_len : s->data_len;
	new_len = len;

	if (one_in(4)) {
		new_len = one_in(2) ? len + page_size : len - page_size;
		if (!new_len)
			new_len = len;
		p = (void *)counted((long)mremap(old, len, new_len, one_in(2) ? MREMAP_MAYMOVE : 0));
	} else if (one_in(3)) {
		/* Onto a placeholder: MREMAP_FIXED replaces it. */
		void *to = (void *)counted((long)mmap(NULL, len, PROT_NONE,
						      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));

		if (to == MAP_FAILED)
			return;
		p = (void *)counted((long)mremap(old, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to));
		if (p == MAP_FAILED)
			counted(munmap(to, len));
	} else {
		dontunmap = one_in(4) ? MREMAP_DONTUNMAP : 0;
		p = (void *)counted((long)mremap(old, len, len, MREMAP_MAYMOVE | dontunmap));
	}
	if (p == MAP_FAILED)
		return;
	/* With MREMAP_DONTUNMAP the old range stays mapped: give it back. */
	if (dontunmap && p != old)
		counted(munmap(old, len));
	mapped += new_len - len;
	if (aux) {
		s->aux = p;
		s->aux_len = new_len;
	} else {
		s->pc = (void *)p;
		s->data_len = new_len;
	}
}

static void op_ioctl(void)
{
	struct slot *s = pick(is_open), *o;
	unsigned long flag = one_in(4) ? PERF_IOC_FLAG_GROUP : 0;
	__u64 val;

	if (!s)
		return;
	switch (rnd_below(11)) {
	case 0:
	case 1:
		counted(ioctl(s->fd, PERF_EVENT_IOC_ENABLE, flag));
		break;
	case 2:
		counted(ioctl(s->fd, PERF_EVENT_IOC_DISABLE, flag));
		break;
	case 3:
		counted(ioctl(s->fd, PERF_EVENT_IOC_RESET, flag));
		break;
	case 4:
		counted(ioctl(s->fd, PERF_EVENT_IOC_REFRESH, one_in(4) ? 0 : 1 + rnd_below(3)));
		break;
	case 5:
		val = one_in(4) ? rnd() : 1 + rnd_below(1000000);
		counted(ioctl(s->fd, PERF_EVENT_IOC_PERIOD, &val));
		break;
	case 6:
	case 7:
		o = one_in(4) ? NULL : pick(is_open);
		counted(ioctl(s->fd, PERF_EVENT_IOC_SET_OUTPUT, o ? o->fd : -1));
		break;
	case 8:
	case 9:
		counted(ioctl(s->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, one_in(8) ? rnd() : rnd_below(2)));
		break;
	default:
		counted(ioctl(s->fd, one_in(2) ? PERF_EVENT_IOC_ID : _IOR('$', 13 + rnd_below(4), __u64),
			      &val));
		break;
	}
}

static void op_read(void)
{
	struct slot *s = pick(is_open);
	char buf[512];

	if (s)
		counted(read(s->fd, buf, one_in(4) ? rnd_below(sizeof(buf)) : sizeof(buf)));
}

static void op_poll(void)
{
	struct pollfd pfd[MAX_SLOTS];
	int i, n = 0;

	for (i = 0; i < MAX_SLOTS; i++)
		if (slots[i].fd >= 0) {
			pfd[n].fd = slots[i].fd;
			pfd[n].events = POLLIN;
			n++;
		}
	counted(poll(pfd, n, 0));
}

/* Read the data and AUX heads, look at the data, move the tails on. */
static void op_consume(void)
{
	struct slot *s = pick(has_rw_data);
	struct perf_event_mmap_page *pc;
	volatile const char *c;
	__u64 head;
	size_t i;

	if (!s)
		return;
	pc = s->pc;
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	if (s->data_len > (size_t)page_size)
		for (i = 0; i < s->data_len - page_size; i += page_size)
			(void)((volatile char *)pc)[page_size + i];
	__atomic_store_n(&pc->data_tail, one_in(16) ? rnd() : head, __ATOMIC_RELEASE);

	head = __atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE);
	if (!s->aux)
		return;
	if (head > s->aux_seen)
		count(aux_data, head - s->aux_seen < (1UL << 32) ? head - s->aux_seen : 0);
	s->aux_seen = head;
	c = s->aux;
	for (i = 0; i < s->aux_len; i += page_size)
		(void)c[i];
	__atomic_store_n(&pc->aux_tail, one_in(16) ? rnd() : head, __ATOMIC_RELEASE);
}

/* Feed the DTL of a CPU with entries, as the hypervisor would. */
static void inject_dtl(void)
{
	char path[96], line[96];
	int fd, n, entries = 1 + rnd_below(120);

	snprintf(path, sizeof(path), INJECT_DIR "cpu-%d", (int)rnd_below(nr_inject));
	fd = counted(open(path, O_WRONLY));
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%d %d %d 10 20 30 0 0 0 0 %d\n",
		     (int)rnd_below(8), (int)rnd_below(8), (int)rnd_below(ncpus), entries);
	if (counted(write(fd, line, n)) == n)
		count(injected, entries);
	counted(close(fd));
}

/* Make the triggers fire and the per-task events run. */
static void op_work(void)
{
	struct timespec a, b;
	struct utsname u;
	int i;

	switch (rnd_below(6)) {
	case 0:
		for (i = rnd_below(20); i >= 0; i--)
			counted(syscall(__NR_getppid));
		break;
	case 1:
		for (i = rnd_below(5); i >= 0; i--)
			counted(uname(&u));
		break;
	case 2:
		for (i = rnd_below(100); i >= 0; i--)
			bp_target += i;
		break;
	case 3: {
		size_t len = page_size * (1 + rnd_below(16));
		char *p = (void *)counted((long)mmap(NULL, len, PROT_READ | PROT_WRITE,
						     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));

		if (p == MAP_FAILED)
			break;
		for (i = 0; (size_t)i < len; i += page_size)
			p[i] = 1;
		counted(munmap(p, len));
		break;
	}
	case 4:
		if (nr_inject && !in_child) {
			inject_dtl();
			break;
		}
		/* fall through */
	default:
		clock_gettime(CLOCK_MONOTONIC, &a);
		do {
			clock_gettime(CLOCK_MONOTONIC, &b);
		} while ((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec <
			 (long)(1 + rnd_below(5)) * 1000000L);
		counted(sched_yield());
		break;
	}
}

static void op_close(void)
{
	struct slot *s = pick(is_open);

	if (s)
		close_fd(s);
}

static void run_ops(int nr);

static void reap_children(int options)
{
	int i, status;

	for (i = 0; i < MAX_CHILDREN; i++) {
		if (!children[i])
			continue;
		if (options == 0)
			kill(children[i], SIGKILL);
		if (waitpid(children[i], &status, options) == children[i]) {
			if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL &&
			    WTERMSIG(status) != SIGALRM)
				count(crashes, 1);
			children[i] = 0;
		}
	}
}

/*
 * A child: its copy of the fds, none of the perf mappings (they are not
 * inherited: VM_DONTCOPY). It maps the same buffers again, works, exits.
 */
static void op_fork(void)
{
	int i, n = -1;
	pid_t pid;

	reap_children(WNOHANG);
	for (i = 0; i < MAX_CHILDREN; i++)
		if (!children[i])
			n = i;
	if (n < 0 || in_child)
		return;
	pid = counted(fork());
	if (pid < 0)
		return;
	if (pid) {
		children[n] = pid;
		count(forks, 1);
		return;
	}
	in_child = 1;
	memset(children, 0, sizeof(children));
	alarm(3);
	rng ^= getpid();
	mapped = 0;
	for (i = 0; i < MAX_SLOTS; i++) {
		slots[i].pc = NULL;
		slots[i].aux = NULL;
		slots[i].data_len = slots[i].aux_len = 0;
		if (slots[i].fd < 0)
			slots[i].kind = K_NONE;
	}
	run_ops(rnd_below(CHILD_OPS));
	_exit(0);
}

struct op {
	void		(*fn)(void);
	unsigned int	weight;
};

static const struct op ops[] = {
	{ op_open_aux,		6 },
	{ op_open_member,	5 },
	{ op_mmap_data,		6 },
	{ op_mmap_aux,		6 },
	{ op_munmap,		3 },
	{ op_mremap,		2 },
	{ op_ioctl,		8 },
	{ op_read,		3 },
	{ op_poll,		1 },
	{ op_consume,		6 },
	{ op_work,		6 },
	{ op_close,		3 },
	{ op_fork,		1 },
};

static void run_op(void)
{
	unsigned int i, total = 0, r;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		total += ops[i].weight;
	r = rnd_below(total);
	for (i = 0; r >= ops[i].weight; i++)
		r -= ops[i].weight;
	hw_turn_over();
	ops[i].fn();
}

/* nr operations, or until the deadline if nr < 0. */
static void run_ops(int nr)
{
	while (nr < 0 ? now() < deadline : nr-- > 0)
		run_op();
}

static void worker(uint64_t seed)
{
	int i;

	rng = seed ? seed : 1;
	signal(SIGALRM, SIG_DFL);
	for (i = 0; i < MAX_SLOTS; i++)
		slots[i].fd = -1;
	run_ops(-1);
	reap_children(0);
	for (i = 0; i < MAX_SLOTS; i++)
		if (slots[i].kind != K_NONE)
			drop_slot(&slots[i]);
	_exit(0);
}

static void discover(void)
{
	static const char * const tps[] = {
		"syscalls/sys_enter_getppid", "syscalls/sys_exit_getppid",
		"syscalls/sys_enter_newuname", "syscalls/sys_exit_newuname",
	};
	static const char * const roots[] = {
		"/sys/kernel/tracing/events/", "/sys/kernel/debug/tracing/events/",
	};
	char path[128];
	unsigned int i, r;
	int id;

	aux_test_type = read_int(PMU_DIR "aux_test/type");
	vpa_dtl_type = read_int(PMU_DIR "vpa_dtl/type");
	intel_bts_type = read_int(PMU_DIR "intel_bts/type");
	intel_pt_type = read_int(PMU_DIR "intel_pt/type");
	for (i = 0; i < ARRAY_SIZE(tps); i++)
		for (r = 0; r < ARRAY_SIZE(roots); r++) {
			snprintf(path, sizeof(path), "%s%s/id", roots[r], tps[i]);
			id = read_int(path);
			if (id >= 0) {
				tp_ids[nr_tp_ids++] = id;
				break;
			}
		}
	for (nr_inject = 0; nr_inject < ncpus; nr_inject++) {
		snprintf(path, sizeof(path), INJECT_DIR "cpu-%d", nr_inject);
		if (access(path, W_OK))
			break;
	}
}

/* -p: one aux_test event, whose first record says how many came before. */
static int probe_streams(void)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pc;
	const __u32 *rec;
	size_t data_len = 2 * page_size;
	time_t end = now() + 10;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = aux_test_type;
	attr.config = 100;			/* a record every 100 us */
	attr.disabled = 1;
	fd = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		perror("aux-fuzz: probe: perf_event_open");
		return 1;
	}
	pc = mmap(NULL, data_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		perror("aux-fuzz: probe: mmap");
		return 1;
	}
	pc->aux_offset = data_len;
	pc->aux_size = page_size;
	rec = mmap(NULL, page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, data_len);
	if (rec == MAP_FAILED) {
		perror("aux-fuzz: probe: mmap AUX");
		return 1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	while (__atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE) < 32 && now() < end)
		;
	if (pc->aux_head < 32) {
		fprintf(stderr, "aux-fuzz: probe: no aux_test record in 10 s\n");
		return 1;
	}
	/* struct aux_test_record: magic, type/cpu, seq, time, then stream. */
	printf("aux-fuzz: aux_test streams=%u\n", rec[6]);
	return 0;
}

static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	alarmed = 1;
}

int main(int argc, char **argv)
{
	int seconds = 60, nr_workers = 2, uid = -1, do_probe = 0, opt, i, status;
	pid_t workers[MAX_WORKERS];
	struct sigaction sa;
	uint64_t seed = 0;

	while ((opt = getopt(argc, argv, "t:w:s:u:p")) != -1) {
		switch (opt) {
		case 't':
			seconds = atoi(optarg);
			break;
		case 'w':
			nr_workers = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'u':
			uid = atoi(optarg);
			break;
		case 'p':
			do_probe = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-w WORKERS] [-s SEED] [-u UID] | -p\n",
				argv[0]);
			return 2;
		}
	}
	if (nr_workers < 1 || nr_workers > MAX_WORKERS || seconds < 1) {
		fprintf(stderr, "aux-fuzz: 1..%d workers, at least 1 second\n", MAX_WORKERS);
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!seed)
		seed = (uint64_t)time(NULL) << 16 ^ getpid();

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED) {
		perror("aux-fuzz: mmap");
		return 2;
	}
	discover();
	if (do_probe)
		return aux_test_type < 0 ? 1 : probe_streams();
	if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			 setresuid(uid, uid, uid))) {
		perror("aux-fuzz: dropping privileges");
		return 2;
	}
	if (uid > 0)
		nr_inject = 0;		/* debugfs is root's */
	printf("aux-fuzz: seed=%llu seconds=%d workers=%d uid=%d aux_test=%d vpa_dtl=%d intel_bts=%d intel_pt=%d tracepoints=%d dtl_inject=%d\n",
	       (unsigned long long)seed, seconds, nr_workers, (int)getuid(), aux_test_type,
	       vpa_dtl_type, intel_bts_type, intel_pt_type, nr_tp_ids, nr_inject);
	fflush(stdout);
	if (aux_test_type < 0 && vpa_dtl_type < 0 && hw_turn() == K_NONE) {
		printf("aux-fuzz: no AUX area PMU (aux_test, vpa_dtl, intel_bts, intel_pt): nothing to fuzz\n");
		return 1;
	}
	if (aux_test_type < 0)
		printf("aux-fuzz: no aux_test PMU (%s): the hardware AUX PMUs alone\n",
		       PMU_DIR "aux_test");

	deadline = now() + seconds;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	for (i = 0; i < nr_workers; i++)
		workers[i] = 0;
	while (!alarmed && now() < deadline) {
		pid_t pid;

		for (i = 0; i < nr_workers; i++) {
			if (workers[i])
				continue;
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			pid = fork();
			if (pid == 0)
				worker(seed);
			if (pid > 0)
				workers[i] = pid;
		}
		alarm(deadline - now() > 0 ? deadline - now() : 1);
		pid = waitpid(-1, &status, 0);
		alarm(0);
		if (pid <= 0)
			continue;
		for (i = 0; i < nr_workers; i++)
			if (workers[i] == pid)
				workers[i] = 0;
		if (WIFSIGNALED(status)) {
			count(crashes, 1);
			printf("aux-fuzz: worker %d killed by signal %d (replaced)\n",
			       (int)pid, WTERMSIG(status));
			fflush(stdout);
		}
	}
	/* The workers stop at the deadline; give them 20 s to clean up. */
	alarmed = 0;
	alarm(20);
	for (i = 0; i < nr_workers; i++) {
		if (!workers[i])
			continue;
		if (waitpid(workers[i], &status, 0) != workers[i]) {
			kill(workers[i], SIGKILL);
			waitpid(workers[i], &status, 0);
			printf("aux-fuzz: worker %d did not stop in time, killed\n", (int)workers[i]);
		} else if (WIFSIGNALED(status)) {
			count(crashes, 1);
		}
	}
	alarm(0);

	printf("aux-fuzz: calls=%lu aux_mmaps=%lu aux_events=%lu errors=%lu vpa_dtl_events=%lu vpa_dtl_mmaps=%lu intel_bts_events=%lu intel_bts_mmaps=%lu intel_pt_events=%lu intel_pt_mmaps=%lu triggers=%lu samplers=%lu aux_data=%lu dtl_injected=%lu forks=%lu crashes=%lu\n",
	       st->calls, st->aux_mmaps, st->aux_events, st->errors, st->vpa_events,
	       st->vpa_mmaps, st->bts_events, st->bts_mmaps, st->pt_events, st->pt_mmaps,
	       st->triggers, st->samplers,
	       st->aux_data, st->injected, st->forks, st->crashes);
	if (aux_test_type < 0)
		return st->vpa_mmaps || st->bts_mmaps || st->pt_mmaps ? 0 : 1;
	return st->aux_mmaps ? 0 : 1;
}
