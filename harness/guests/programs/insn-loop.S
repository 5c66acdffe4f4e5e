/*
 * A user program of a known instruction and branch count, for the
 * x86_64:pmu guest: no libc, no memory access, 2N + 4 instructions from
 * _start to the exit system call included, and N - 1 taken branches, all
 * from the jnz at loop + 3 to loop. insn-loop: N = 10^7
 * (harness/guests/in-guest/pmu-model-test); branch-loop: N = LOOPS = 1000
 * (tools/perf/tests/shell/test_intel_bts.sh); step-loop: N = 200
 * (harness/guests/programs/singleblock.c).
 *
 * With WAIT defined (branch-wait: N = 10^5, test_intel_bts_modes.sh), the
 * program first reads one byte from its standard input into the stack
 * (one system call, no branch of its own), so that a test can hold it
 * until the tracer is ready, or stopped.
 */
#ifndef LOOPS
#define LOOPS	10000000
#endif
	.globl	_start
	.globl	loop
	.text
_start:
#ifdef WAIT
	sub	$16, %rsp		/* read(0, rsp, 1) */
	mov	%rsp, %rsi
	mov	$1, %edx
	xor	%edi, %edi
	xor	%eax, %eax
	syscall
#endif
	mov	$LOOPS, %ecx
loop:	dec	%rcx
	jnz	loop
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
