/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the vpa_dtl PMU (vpa-dtl.c) shares with its test-only parts, and
 * with nothing else: the hypervisor stand-in (vpa-dtl-inject.c,
 * CONFIG_VPA_DTL_INJECT) and the KUnit cases (vpa-dtl-test.c,
 * CONFIG_VPA_DTL_KUNIT_TEST). None of it is exported to modules, and
 * without those options none of it leaves vpa-dtl.c.
 */
#ifndef _POWERPC_PERF_VPA_DTL_H
#define _POWERPC_PERF_VPA_DTL_H

#include <linux/init.h>
#include <linux/types.h>

struct dtl_entry;
struct lppaca;

#if IS_ENABLED(CONFIG_VPA_DTL_INJECT)
/* This CPU's buffer if a vpa_dtl event has it registered, else NULL. */
struct dtl_entry *vpa_dtl_this_cpu_buffer(u64 *read);
void __init vpa_dtl_inject_init(void);
#else
static inline void vpa_dtl_inject_init(void)
{
}
#endif

/* The copy out of the DTL ring, static unless the KUnit cases test it. */
#if IS_ENABLED(CONFIG_VPA_DTL_KUNIT_TEST)
#define VPA_DTL_STATIC_UNLESS_KUNIT
u64 vpa_dtl_overwritten(u64 from, u64 n, u64 after);
unsigned int vpa_dtl_fetch(const struct dtl_entry *ring, const struct lppaca *vpa,
			   u64 *last, struct dtl_entry *out, u64 *lost);
#else
#define VPA_DTL_STATIC_UNLESS_KUNIT static
#endif

#endif /* _POWERPC_PERF_VPA_DTL_H */
