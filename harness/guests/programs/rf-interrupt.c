// SPDX-License-Identifier: GPL-2.0
/*
 * rf-interrupt: the RFLAGS.RF a hardware interrupt saves, as user space
 * sees it (x86_64 guests).
 *
 * An interrupt that arrives between two instructions saves RF as it was
 * (0 in a program that has no instruction breakpoint); only fault-class
 * exceptions other than an instruction breakpoint's #DB, and an interrupt
 * in the middle of a REP string instruction, save RF=1 (Intel SDM Vol. 3B
 * 18.3.1.1, "Instruction-Breakpoint Exception Condition"). An IRET of a
 * saved RF=1 makes the CPU skip the breakpoint of the next instruction:
 * when an interrupt lands just before an instruction with an execute
 * breakpoint and saves RF=1, that breakpoint's hit is lost (what perf
 * test "Breakpoint overflow sampling" saw as "count 9999 != 10000").
 *
 * The program spins in user space with SIGPROF every 1 ms of its CPU
 * time. ITIMER_PROF's signal comes from the timer tick that interrupts the
 * spin, and Linux delivers it on that interrupt's return, with the
 * RFLAGS the interrupt saved in the signal frame (uc_mcontext). It counts
 * the signals whose saved RF is set, and the ones that interrupted the
 * spin loop itself (the rest came in at a system call's return, say).
 *
 * Usage: rf-interrupt SIGNALS
 * Exit 0 if no saved RF was set and at least half the signals interrupted
 * the spin; 1 if a saved RF was set; 2 if the test could not run as meant.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#define RF (1UL << 16)

static volatile int signals, rf_set, in_spin;
static volatile unsigned long first_rf_ip;

extern const char spin_start[], spin_end[];

static int target;

static void on_sigprof(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];
	unsigned long fl = uc->uc_mcontext.gregs[REG_EFL];

	(void)sig; (void)info;
	if (ip >= (unsigned long)spin_start && ip <= (unsigned long)spin_end)
		in_spin++;
	if (fl & RF) {
		if (!rf_set)
			first_rf_ip = ip;
		rf_set++;
	}
	signals++;
}

int main(int argc, char **argv)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa;

	if (argc != 2 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: %s SIGNALS\n", argv[0]);
		return 2;
	}
	target = atoi(argv[1]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	if (sigaction(SIGPROF, &sa, NULL) || setitimer(ITIMER_PROF, &it, NULL)) {
		perror("rf-interrupt: SIGPROF timer");
		return 2;
	}
	/* The spin: plain instructions, no system call, no breakpoint. */
	__asm__ volatile("spin_start:\n\t"
			 "mov signals(%%rip), %%eax\n\t"
			 "cmp %0, %%eax\n\t"
			 "jl spin_start\n\t"
			 "spin_end:\n"
			 : : "r"(target) : "eax", "cc", "memory");
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_PROF, &it, NULL);

	printf("rf-interrupt: %d signals, %d in the spin loop, %d with RF set in the saved RFLAGS",
	       signals, in_spin, rf_set);
	if (rf_set)
		printf(" (the first at %#lx)", first_rf_ip);
	printf("\n");
	if (rf_set)
		return 1;
	if (in_spin * 2 < signals) {
		printf("rf-interrupt: fewer than half the signals interrupted the spin loop: not the case meant\n");
		return 2;
	}
	return 0;
}
