/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The AUX area data of vpa_dtl, the powerpc hypervisor's Dispatch Trace
 * Log as a perf PMU (CONFIG_VPA_DTL, Documentation/powerpc/vpa-dtl.rst).
 *
 * The stream of each CPU is a sequence of VPA_DTL_RECORD_SIZE-byte
 * records: first one struct vpa_dtl_header, in the byte order of the CPU
 * that recorded it, then one struct vpa_dtl_entry per dispatch, big-endian
 * as the hypervisor writes it. A record whose timebase is 0 is the header;
 * an entry's timebase never is. In overwrite (snapshot) mode the entries of
 * each poll come after a header of their own. This is the format of
 * upstream's PMU of the same name, so that either perf decodes the other's
 * recordings.
 *
 * Entries lost before they reached the AUX area (overwritten by the
 * hypervisor before a poll read them, or no room in the AUX area) are not
 * in the stream. The poll that finds them missing flags its
 * PERF_RECORD_AUX PERF_AUX_FLAG_PARTIAL (and PERF_AUX_FLAG_TRUNCATED when
 * the AUX area was full; a poll that could not write to the AUX area at
 * all has no PERF_RECORD_AUX), then writes a PERF_RECORD_LOST_SAMPLES of
 * the vpa_dtl event into the perf data ring buffer, whose @lost is the
 * number of entries and whose sample_id (when attr.sample_id_all is set)
 * gives the time and CPU of that poll. If the data ring has no room for
 * it, that record is lost too (the core counts it in a PERF_RECORD_LOST)
 * and only the flag tells that entries were lost, not how many.
 */
#ifndef _UAPI_LINUX_PERF_VPA_DTL_H
#define _UAPI_LINUX_PERF_VPA_DTL_H

#include <linux/types.h>

/* perf_event_attr.config: what the hypervisor logs (its DTL enable mask) */
#define VPA_DTL_CEDE		0x1	/* dispatches after an H_CEDE */
#define VPA_DTL_PREEMPT		0x2	/* dispatches after a preemption */
#define VPA_DTL_FAULT		0x4	/* dispatches after a fault */
#define VPA_DTL_ALL		0x7

#define VPA_DTL_RECORD_SIZE	48

/* The first record of each CPU's stream. */
struct vpa_dtl_header {
	__u64	boot_tb;	/* the timebase at boot: perf's clock is 0 there */
	__u64	tb_freq;	/* timebase ticks per second */
	__u64	timebase;	/* 0: tells the header from an entry */
	__u64	reserved[3];	/* 0 */
};

/* One dispatch of the virtual processor, as the hypervisor logs it. */
struct vpa_dtl_entry {
	__u8	dispatch_reason;
	__u8	preempt_reason;
	__be16	processor_id;		/* the physical processor */
	__be32	enqueue_to_dispatch_time;	/* timebase ticks */
	__be32	ready_to_enqueue_time;
	__be32	waiting_to_ready_time;
	__be64	timebase;		/* when it was dispatched */
	__be64	fault_addr;
	__be64	srr0;			/* where the vCPU was preempted */
	__be64	srr1;
};

#endif /* _UAPI_LINUX_PERF_VPA_DTL_H */
