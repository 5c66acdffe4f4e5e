/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The record stream of aux_test, the software AUX PMU
 * (CONFIG_PERF_AUX_TEST_PMU, Documentation/admin-guide/perf/aux-test.rst).
 *
 * Every record is AUX_TEST_RECORD_SIZE bytes, in the CPU's byte order, and
 * never crosses a page of the AUX area. @seq counts every record the event
 * generated, stored or not: a gap in it is data that was lost, and the
 * PERF_RECORD_AUX flags (or a START record) say why.
 */
#ifndef _UAPI_LINUX_PERF_AUX_TEST_H
#define _UAPI_LINUX_PERF_AUX_TEST_H

#include <linux/types.h>

#define AUX_TEST_MAGIC		0x54585541	/* "AUXT" in little-endian */

enum aux_test_record_type {
	AUX_TEST_RECORD_DATA	= 1,	/* generated while tracing */
	AUX_TEST_RECORD_START	= 2,	/* the event was started (sched-in, enable) */
	AUX_TEST_RECORD_PAUSE	= 3,	/* tracing paused: no DATA until RESUME */
	AUX_TEST_RECORD_RESUME	= 4,	/* tracing resumed */
	AUX_TEST_RECORD_MAX,
};

struct aux_test_record {
	__u32	magic;		/* AUX_TEST_MAGIC */
	__u16	type;		/* enum aux_test_record_type */
	__u16	cpu;		/* CPU that generated it */
	__u64	seq;		/* per event, from 0, one per generated record */
	__u64	time;		/* local_clock() ns: perf's default sample clock */
	__u32	stream;		/* generator: one per event (and inherited child) */
	__u32	tid;		/* task running when generated */
};

#define AUX_TEST_RECORD_SIZE	32

/*
 * attr.config fields (also in /sys/bus/event_source/devices/aux_test/format):
 *   period  config:0-31   microseconds between bursts; 0: 1000, else 100..10000000
 *   burst   config:32-47  DATA records per period; 0: 1
 *   drop    config:48-63  drop every drop-th record (PERF_AUX_FLAG_PARTIAL); 0: none, 1: invalid
 *   rate    config1:0-31  rate mode: offer DATA at rate MB/s (10^6 bytes a second),
 *                         1..100000, instead of bursts (burst must be 0); 0: burst mode
 * The other bits of attr.config1, and attr.config2, must be 0.
 *
 * Rate mode measures the AUX path rather than the generator: every period
 * the event writes the records owed for the time it ran unpaused since the
 * last write (at most one second's worth), whatever the timer's real
 * resolution. Records that do not fit in the room the reader left are
 * dropped, not truncated: their sequence numbers are used and the
 * PERF_RECORD_AUX is flagged PERF_AUX_FLAG_PARTIAL, and the event goes on.
 * A rate beyond what the reader can take makes it a flood that fills the
 * room on every period. A resume writes one DATA record.
 */
#define AUX_TEST_PERIOD(config)		((__u32)(config))
#define AUX_TEST_BURST(config)		((__u16)((config) >> 32))
#define AUX_TEST_DROP(config)		((__u16)((config) >> 48))
#define AUX_TEST_RATE(config1)		((__u32)(config1))

#define AUX_TEST_PERIOD_DEFAULT_US	1000
#define AUX_TEST_PERIOD_MIN_US		100
#define AUX_TEST_PERIOD_MAX_US		10000000
#define AUX_TEST_RATE_MAX_MBS		100000

/*
 * One write (a period's burst, a resume with its burst, a rate mode tick)
 * stores at most this many bytes, whatever the room: the rest is handled
 * as records that do not fit (TRUNCATED, or PARTIAL in rate mode). It
 * bounds the work done in interrupt context.
 */
#define AUX_TEST_WRITE_MAX		0x100000U	/* 1 MiB */

/*
 * The largest burst (records a period) that an event may ask for: what
 * fits in one write with the PAUSE, RESUME and START markers that may be
 * queued before it (at most 16). A larger burst could only truncate, and
 * stop the event, at every period: perf_event_open() refuses it (EINVAL).
 */
#define AUX_TEST_BURST_MAX	(AUX_TEST_WRITE_MAX / AUX_TEST_RECORD_SIZE - 16)

#endif /* _UAPI_LINUX_PERF_AUX_TEST_H */
