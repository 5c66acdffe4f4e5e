/*
 * A user program of a known instruction count, for the x86_64:pmu guest
 * (harness/guest/pmu-model-test): no libc, no memory access, 2N + 4
 * instructions from _start to the exit system call included (N = 10^7).
 */
	.globl	_start
	.text
_start:
	mov	$10000000, %ecx
1:	dec	%rcx
	jnz	1b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
