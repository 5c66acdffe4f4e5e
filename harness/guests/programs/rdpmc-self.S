/*
 * rdpmc-self: a user program that counts its own instructions with RDPMC,
 * for the x86_64:pmu guest (harness/guests/in-guest/pmu-model-test). No
 * libc. It opens instructions:u for itself (perf_event_open, counting from
 * that system call's return), maps the event's page (MAP_POPULATE: no
 * page fault later), and reads the counter with RDPMC after 17 more
 * instructions, the mmap system call's included. A counter read by RDPMC
 * holds what retired before the RDPMC (Intel SDM Vol. 2B, "RDPMC"), so
 * the count, the page's offset plus what RDPMC read (the kernel starts
 * the counter at minus its period), is 17; the exit status is its low
 * byte (255: the event or its page could not be had, or RDPMC is not
 * offered).
 */
#define SYS_mmap		9
#define SYS_exit		60
#define SYS_perf_event_open	298
	.globl	_start
	.text
_start:
	lea	attr(%rip), %rdi
	xor	%esi, %esi		/* pid 0: this task */
	mov	$-1, %edx		/* any CPU */
	mov	$-1, %r10		/* no group */
	xor	%r8d, %r8d
	mov	$SYS_perf_event_open, %eax
	syscall				/* counting starts at its return */
	test	%eax, %eax		/* 1 */
	js	fail			/* 2 */
	mov	%eax, %r8d		/* 3: the event's fd */
	xor	%edi, %edi		/* 4 */
	mov	$4096, %esi		/* 5 */
	mov	$1, %edx		/* 6: PROT_READ */
	mov	$0x8001, %r10d		/* 7: MAP_SHARED | MAP_POPULATE */
	xor	%r9d, %r9d		/* 8 */
	mov	$SYS_mmap, %eax		/* 9 */
	syscall				/* 10 */
	cmp	$-4095, %rax		/* 11 */
	jae	fail			/* 12 */
	mov	%rax, %rsi		/* 13 */
	mov	12(%rsi), %ecx		/* 14: perf_event_mmap_page.index */
	test	%ecx, %ecx		/* 15 */
	jz	fail			/* 16: 0, RDPMC not offered */
	dec	%ecx			/* 17 */
	rdpmc
	add	16(%rsi), %eax		/* + perf_event_mmap_page.offset */
	mov	%eax, %edi
	mov	$SYS_exit, %eax
	syscall
fail:	mov	$255, %edi
	mov	$SYS_exit, %eax
	syscall

	.data
	.balign	8
/* struct perf_event_attr, PERF_ATTR_SIZE_VER0 (64 bytes) */
attr:	.long	0			/* type: PERF_TYPE_HARDWARE */
	.long	64			/* size */
	.quad	1			/* config: PERF_COUNT_HW_INSTRUCTIONS */
	.quad	0, 0, 0			/* sample_period, sample_type, read_format */
	.quad	0x64			/* pinned, exclude_kernel, exclude_hv */
	.quad	0, 0			/* wakeup_events, bp_type; bp_addr */
