// SPDX-License-Identifier: GPL-2.0
/*
 * singleblock: PTRACE_SINGLEBLOCK on x86_64, that is IA32_DEBUGCTL.BTF
 * ("single-step on branches", Intel SDM Vol. 3B 17.4.3, 18.4.3 in recent
 * editions), in the x86_64:pmu guest, where our QEMU models it
 * (harness/qemu/patches/0006-i386-btf.patch, with the branch trace store
 * of 0005: no intel_bts PMU, no model, and the test skips).
 *
 *   singleblock [PROGRAM]
 *
 * PROGRAM (default /usr/bin/step-loop, harness/guests/programs/insn-loop.S with
 * LOOPS=N=200: each stop costs milliseconds under TCG) is "mov $N,%ecx; loop: dec %rcx; jnz loop; mov $60,%eax;
 * xor %edi,%edi; syscall": N - 1 taken branches, all from the jnz to loop,
 * then exit(0). A child runs it under PTRACE_TRACEME and is driven from its
 * exec stop to its exit:
 *
 *  1 layout: the code at the entry point is that program (N read from
 *    its MOV), and the ELF symbol table's "loop" is the entry + 5;
 *  2 singlestep: PTRACE_SINGLESTEP stops after every instruction but the
 *    exit system call: 2N + 3 stops, each where the next instruction is;
 *  3 singleblock count: PTRACE_SINGLEBLOCK stops only after the taken
 *    branches: N - 1 stops (not after the jnz that falls through, nor the
 *    exit system call, whose kernel entry masks TF);
 *  4 singleblock where: each of them at loop, the jnz's target;
 *  5 alternate: PTRACE_SINGLEBLOCK and PTRACE_SINGLESTEP in turn stop at
 *    loop and loop + 3 in turn (2N - 2 stops): the CPU clears BTF when it
 *    generates the debug exception, and Linux keeps its TIF_BLOCKSTEP in
 *    step with that, so a BTF left set would make the single steps block
 *    steps.
 *
 * Every stop must be a SIGTRAP with si_code TRAP_TRACE (DR6.BS), at the
 * RIP and RCX where a model of the program (sim_resume()) stops, and every
 * run must end with the child's exit(0). 2 shows TF alone stopping after
 * each instruction, so that 3 to 5 tell BTF from TF: where BTF has no
 * effect (our QEMU before 0006), PTRACE_SINGLEBLOCK single-steps every
 * instruction and they fail.
 *
 * TAP 13 on stdout; exit 0 pass, 1 fail, 4 skip.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PTRACE_SINGLEBLOCK
#define PTRACE_SINGLEBLOCK 33
#endif
#ifndef TRAP_TRACE
#define TRAP_TRACE 2
#endif

#define BTS_PMU "/sys/bus/event_source/devices/intel_bts"
#define MAX_STOPS 100000

#ifdef __x86_64__

/* The program, from its entry point; the bytes at 1-4 are N. */
static const unsigned char code[] = {
	0xb9, 0, 0, 0, 0,		/* mov $N,%ecx */
	0x48, 0xff, 0xc9,		/* loop: dec %rcx */
	0x75, 0xfb,			/* jnz loop */
	0xb8, 0x3c, 0, 0, 0,		/* mov $60,%eax */
	0x31, 0xff,			/* xor %edi,%edi */
	0x0f, 0x05,			/* syscall */
};
#define LOOP_OFF	5		/* loop: the jnz's target */
#define JNZ_OFF		8
#define EXIT_OFF	17		/* the exit system call */

static unsigned long entry, loop_addr, loops;

enum mode { STEP, BLOCK, ALTERNATE };
static const char *const mode_name[] = { "singlestep", "singleblock", "alternate" };

struct run {
	unsigned long stops;		/* SIGTRAP stops after the exec stop */
	unsigned long bad;		/* stops not where the model says */
	unsigned long first_bad;	/* the first of them (1-based) */
	unsigned long got, want;	/* its address, and the model's */
	unsigned long got_cx, want_cx;	/* its RCX, and the model's */
	unsigned long at_loop;		/* stops at loop */
	int bad_code;			/* si_code of a stop not TRAP_TRACE */
	int status;			/* the child's wait status at its end */
	int ended;			/* 1 exited, -1 failed */
	unsigned long extra;		/* stops after the model's exit */
	double secs;
};

/* The model: the program's state between two instructions. */
struct sim {
	unsigned long pc, cx;
};

/*
 * One instruction of the program at m->pc: 1 if it was a taken branch, 0
 * if not, -1 if m->pc is not an instruction of the program. The exit
 * system call is not executed here (sim_resume()).
 */
static int sim_insn(struct sim *m)
{
	unsigned long off = m->pc - entry;

	switch (off) {
	case 0:				/* mov $N,%ecx */
		m->cx = loops;
		m->pc = entry + LOOP_OFF;
		return 0;
	case LOOP_OFF:			/* dec %rcx */
		m->cx--;
		m->pc = entry + JNZ_OFF;
		return 0;
	case JNZ_OFF:			/* jnz loop */
		if (m->cx) {
			m->pc = entry + LOOP_OFF;
			return 1;
		}
		m->pc = entry + JNZ_OFF + 2;
		return 0;
	case JNZ_OFF + 2:		/* mov $60,%eax */
		m->pc += 5;
		return 0;
	case JNZ_OFF + 7:		/* xor %edi,%edi */
		m->pc += 2;
		return 0;
	}
	return -1;
}

/*
 * Resume the model with PTRACE_SINGLESTEP (@block 0) or PTRACE_SINGLEBLOCK
 * (1): 1 and m->pc where it stops next, 0 if it exits first, -1 if it is
 * lost (not in the program). A single step traps after the next
 * instruction; a block step after the next instruction that branches. The
 * exit system call ends it: the kernel is entered with TF masked (Linux's
 * IA32_FMASK), and exit does not return.
 */
static int sim_resume(struct sim *m, int block)
{
	int br;

	for (;;) {
		if (m->pc == entry + EXIT_OFF)
			return 0;
		br = sim_insn(m);
		if (br < 0)
			return -1;
		if (br || !block)
			return 1;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fork PROGRAM under PTRACE_TRACEME: its pid at the exec stop, or -1. */
static pid_t start(const char *prog, unsigned long *rip)
{
	struct user_regs_struct regs;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		perror("# fork");
		return -1;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(126);
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    WSTOPSIG(status) != SIGTRAP) {
		printf("# %s: no exec stop (wait status 0x%x)\n", prog, status);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs)) {
		perror("# PTRACE_GETREGS");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	*rip = regs.rip;
	return pid;
}

/*
 * Drive a child from its exec stop to its end, comparing each stop with the
 * model's. After a stop that is not where the model stops, the model goes
 * on from the child's state (RIP and RCX), so that each stop is judged on
 * its own.
 */
static void drive(const char *prog, enum mode mode, struct run *r)
{
	struct user_regs_struct regs;
	struct sim m = { 0, 0 };
	unsigned long rip;
	int block, sim;
	siginfo_t si;
	double t0;
	pid_t pid;
	long req;

	memset(r, 0, sizeof(*r));
	r->ended = -1;
	pid = start(prog, &rip);
	if (pid < 0)
		return;
	if (rip != entry) {
		printf("# %s: entry 0x%lx, was 0x%lx\n", mode_name[mode], rip, entry);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	m.pc = entry;
	t0 = now();
	for (;;) {
		block = mode == BLOCK || (mode == ALTERNATE && r->stops % 2 == 0);
		req = block ? PTRACE_SINGLEBLOCK : PTRACE_SINGLESTEP;
		sim = sim_resume(&m, block);
		if (ptrace(req, pid, NULL, NULL)) {
			printf("# %s: ptrace(%s): %s\n", mode_name[mode],
			       block ? "PTRACE_SINGLEBLOCK" : "PTRACE_SINGLESTEP",
			       strerror(errno));
			break;
		}
		if (waitpid(pid, &r->status, 0) != pid) {
			perror("# waitpid");
			break;
		}
		if (WIFEXITED(r->status) || WIFSIGNALED(r->status)) {
			r->ended = 1;
			if (sim != 0 && !r->bad++) {
				r->first_bad = r->stops + 1;
				r->got = 0;
				r->want = sim > 0 ? m.pc : 0;
				r->want_cx = m.cx;
			}
			break;
		}
		if (!WIFSTOPPED(r->status) || WSTOPSIG(r->status) != SIGTRAP) {
			printf("# %s: stop %lu: wait status 0x%x\n",
			       mode_name[mode], r->stops + 1, r->status);
			break;
		}
		r->stops++;
		if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0 &&
		    si.si_code != TRAP_TRACE && !r->bad_code)
			r->bad_code = si.si_code ? si.si_code : -1;
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs)) {
			perror("# PTRACE_GETREGS");
			break;
		}
		if (regs.rip == loop_addr)
			r->at_loop++;
		if (sim == 0)
			r->extra++;
		if (sim <= 0 || regs.rip != m.pc || regs.rcx != m.cx) {
			if (!r->bad++) {
				r->first_bad = r->stops;
				r->got = regs.rip;
				r->got_cx = regs.rcx;
				r->want = sim > 0 ? m.pc : 0;
				r->want_cx = m.cx;
			}
			m.pc = regs.rip;
			m.cx = regs.rcx;
		}
		if (r->stops >= MAX_STOPS) {
			printf("# %s: %d stops, giving up\n", mode_name[mode], MAX_STOPS);
			break;
		}
	}
	r->secs = now() - t0;
	if (r->ended != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* The expected number of stops of a mode, from the model alone. */
static unsigned long expected_stops(enum mode mode)
{
	struct sim m = { entry, 0 };
	unsigned long n = 0;
	int block;

	for (;;) {
		block = mode == BLOCK || (mode == ALTERNATE && n % 2 == 0);
		if (sim_resume(&m, block) <= 0)
			return n;
		n++;
	}
}

static void report(enum mode mode, const struct run *r, unsigned long want)
{
	printf("# %s: %lu stops (expected %lu), %lu at loop, in %.1f s; ",
	       mode_name[mode], r->stops, want, r->at_loop, r->secs);
	if (r->ended == 1 && WIFEXITED(r->status))
		printf("the child exited %d\n", WEXITSTATUS(r->status));
	else if (r->ended == 1)
		printf("the child was killed by signal %d\n", WTERMSIG(r->status));
	else
		printf("the run failed\n");
	if (r->bad) {
		printf("# %s: %lu stops not where the model stops; the first, stop %lu: ",
		       mode_name[mode], r->bad, r->first_bad);
		if (r->got)
			printf("at 0x%lx (loop%+ld) with RCX %lu", r->got,
			       (long)(r->got - loop_addr), r->got_cx);
		else
			printf("the exit");
		if (r->want)
			printf(", expected at 0x%lx (loop%+ld) with RCX %lu\n",
			       r->want, (long)(r->want - loop_addr), r->want_cx);
		else
			printf(", expected the exit\n");
	}
	if (r->extra)
		printf("# %s: %lu stops after the model's exit\n",
		       mode_name[mode], r->extra);
	if (r->bad_code)
		printf("# %s: a stop with si_code %d, not TRAP_TRACE\n",
		       mode_name[mode], r->bad_code);
}

static int ended_well(const struct run *r)
{
	return r->ended == 1 && WIFEXITED(r->status) &&
	       WEXITSTATUS(r->status) == 0 && !r->bad_code;
}

static int n_test;
static int failed;

static void tap(int ok, const char *name)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++n_test, name);
	if (!ok)
		failed = 1;
}

/* The ELF symbol table's value of @name in @path, or 0. */
static unsigned long elf_symbol(const char *path, const char *name,
				unsigned long *e_entry)
{
	unsigned long val = 0;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	unsigned char *buf;
	struct stat st;
	int fd, i;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)sizeof(*eh)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	buf = malloc(st.st_size);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		close(fd);
		return 0;
	}
	close(fd);
	eh = (const Elf64_Ehdr *)buf;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (unsigned long)eh->e_shnum * sizeof(*sh) >
	    (unsigned long)st.st_size)
		goto out;
	*e_entry = eh->e_entry;
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const Elf64_Shdr *str;
		unsigned long j, n;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > (unsigned long)st.st_size ||
		    str->sh_offset + str->sh_size > (unsigned long)st.st_size)
			continue;
		sym = (const Elf64_Sym *)(buf + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		for (j = 0; j < n; j++) {
			if (sym[j].st_name >= str->sh_size)
				continue;
			if (!strcmp((const char *)buf + str->sh_offset +
				    sym[j].st_name, name)) {
				val = sym[j].st_value;
				goto out;
			}
		}
	}
out:
	free(buf);
	return val;
}

/* Test 1: the code at the entry point, N, and the symbol "loop". */
static int layout(const char *prog)
{
	unsigned char text[sizeof(code)];
	unsigned long e_entry = 0, sym;
	unsigned int i;
	uint32_t n;
	pid_t pid;
	int ok;

	pid = start(prog, &entry);
	if (pid < 0)
		return 0;
	for (i = 0; i < sizeof(text); i += sizeof(long)) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKTEXT, pid, (void *)(entry + i), NULL);
		if (errno) {
			perror("# PTRACE_PEEKTEXT");
			break;
		}
		memcpy(text + i, &w, sizeof(text) - i < sizeof(w) ?
		       sizeof(text) - i : sizeof(w));
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (i < sizeof(text))
		return 0;
	memcpy(&n, text + 1, sizeof(n));
	loops = n;
	ok = text[0] == code[0] && !memcmp(text + 5, code + 5, sizeof(code) - 5) &&
	     loops >= 2;
	loop_addr = entry + LOOP_OFF;
	sym = elf_symbol(prog, "loop", &e_entry);
	printf("# %s: entry 0x%lx, N %lu, loop 0x%lx; symbol table: loop 0x%lx, entry 0x%lx\n",
	       prog, entry, loops, loop_addr, sym, e_entry);
	if (!ok) {
		printf("# the code at the entry is not insn-loop.S's:");
		for (i = 0; i < sizeof(text); i++)
			printf(" %02x", text[i]);
		printf("\n");
	}
	/* The symbol, moved by the load bias if it is a PIE. */
	if (!sym || sym + (entry - e_entry) != loop_addr) {
		printf("# the symbol table's loop is not the entry + %d\n", LOOP_OFF);
		ok = 0;
	}
	return ok;
}

int main(int argc, char **argv)
{
	const char *prog = argc > 1 ? argv[1] : "/usr/bin/step-loop";
	static const enum mode modes[] = { STEP, BLOCK, ALTERNATE };
	struct run runs[3];
	unsigned long want[3];
	char name[128];
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (access(BTS_PMU, F_OK)) {
		printf("1..1\n");
		printf("ok 1 singleblock # SKIP no intel_bts PMU, so no BTS model and no BTF: QEMU single-steps every instruction\n");
		return 4;
	}
	printf("1..5\n");
	if (!layout(prog)) {
		tap(0, "layout");
		printf("# cannot go on without the program's layout\n");
		return 1;
	}
	tap(1, "layout");
	for (i = 0; i < 3; i++) {
		want[i] = expected_stops(modes[i]);
		drive(prog, modes[i], &runs[i]);
		report(modes[i], &runs[i], want[i]);
	}
	snprintf(name, sizeof(name), "singlestep: %lu stops, one after each instruction",
		 want[0]);
	tap(ended_well(&runs[0]) && runs[0].stops == want[0] && !runs[0].bad, name);
	snprintf(name, sizeof(name), "singleblock: %lu stops, one after each taken branch",
		 want[1]);
	tap(ended_well(&runs[1]) && runs[1].stops == want[1], name);
	tap(ended_well(&runs[1]) && !runs[1].bad && runs[1].at_loop == runs[1].stops,
	    "singleblock: every stop at loop, the branch target");
	snprintf(name, sizeof(name),
		 "alternate: %lu stops, block steps at loop, single steps at loop + 3",
		 want[2]);
	tap(ended_well(&runs[2]) && runs[2].stops == want[2] && !runs[2].bad, name);
	return failed;
}

#else /* !__x86_64__ */

int main(void)
{
	printf("TAP version 13\n1..1\n");
	printf("ok 1 singleblock # SKIP x86_64 only (IA32_DEBUGCTL.BTF)\n");
	return 4;
}

#endif
