/*
 * A user program of known calls and returns, for the x86_64:pmu guest
 * (harness/guests/in-guest/pt-trace-test, decode_calls): no libc, no
 * memory access but the stack; LOOPS turns of a CALL to outer, which
 * CALLs inner, and the two RETs back: 6 * LOOPS + 4 instructions from
 * _start to the exit system call included, 2 * LOOPS of them RETs. With
 * RET compression (tcg-pt-compress) each RET is a taken TNT bit unless a
 * PSB+ came between it and its CALL ("Indirect Transfer Compression for
 * Returns (RET)", Intel SDM Vol. 3C): with one PAD byte per instruction
 * (tcg-pt-fill=1), a PSB+ falls due at a RET many times in a run.
 */
#ifndef LOOPS
#define LOOPS	20000
#endif
	.globl	_start
	.globl	outer
	.globl	inner
	.text
_start:
	mov	$LOOPS, %ebx
again:	call	outer
	dec	%ebx
	jnz	again
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
outer:	call	inner
	ret
inner:	ret
