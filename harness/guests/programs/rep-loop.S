/*
 * A user program of a known instruction count whose work is REP string
 * instructions, for the x86_64:pmu guest (harness/guests/in-guest/
 * pmu-model-test): no libc; TURNS times a REP STOSB of BYTES bytes into
 * its .bss, 5 * TURNS + 4 instructions from _start to the exit system call
 * included. A REP string instruction retires once, however many
 * iterations it makes (Intel SDM Vol. 2B, "REP/REPE/REPZ/REPNE/REPNZ"):
 * BYTES = 2^20 takes QEMU 16 translation blocks an instruction (it leaves
 * its loop every 2^16 iterations), and the first touch of each .bss page
 * faults in the middle of one.
 */
#define TURNS	4
#define BYTES	(1 << 20)
	.globl	_start
	.text
_start:
	mov	$TURNS, %ebx
again:	lea	buf(%rip), %rdi
	mov	$BYTES, %ecx
	rep stosb
	dec	%ebx
	jnz	again
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
	.bss
buf:	.space	BYTES
