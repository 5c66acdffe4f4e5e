// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit cases of the vpa_dtl PMU (CONFIG_VPA_DTL_KUNIT_TEST): how it
 * copies entries out of the DTL ring that the hypervisor writes, including
 * entries the hypervisor rewrites while they are being copied, which the
 * hypervisor stand-in cannot provoke. Suite "vpa_dtl"; results in debugfs,
 * kunit/vpa_dtl/results.
 */

#include <kunit/test.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/dtl.h>
#include <asm/lppaca.h>

#include "vpa-dtl.h"

/* Write entries [@from, @to) into @ring as the hypervisor would. */
static void vpa_dtl_test_log(struct dtl_entry *ring, struct lppaca *vpa, u64 from, u64 to)
{
	for (; from < to; from++) {
		ring[from % N_DISPATCH_LOG].timebase = cpu_to_be64(1000 + from);
		vpa->dtl_idx = cpu_to_be64(from + 1);
	}
}

struct vpa_dtl_test_case {
	const char *name;
	u64 last;	/* entries read before */
	u64 written;	/* entries the hypervisor wrote in all */
	u64 n;		/* copied */
	u64 lost;
};

static const struct vpa_dtl_test_case vpa_dtl_fetch_cases[] = {
	{ "nothing new",		 0,   0,  0,  0 },
	{ "three entries",		 0,   3,  3,  0 },
	{ "a full buffer",		 0,  85, 85,  0 },
	{ "one over: wrap",		 0,  86, 85,  1 },
	{ "100 at once",		 0, 100, 85, 15 },
	{ "after earlier polls",	90, 200, 85, 25 },
	{ "across the slot wrap",	80,  90, 10,  0 },
	{ "far behind",			 5, 100000, 85, 100000 - 5 - 85 },
};

static void vpa_dtl_case_desc(const struct vpa_dtl_test_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vpa_dtl_fetch, vpa_dtl_fetch_cases, vpa_dtl_case_desc);

/* The entries copied are the newest ones, in order; the others are counted. */
static void vpa_dtl_test_fetch(struct kunit *test)
{
	const struct vpa_dtl_test_case *t = test->param_value;
	struct dtl_entry *ring, *out;
	struct lppaca *vpa;
	u64 last = t->last, lost = 0, i;
	unsigned int n;

	ring = kunit_kzalloc(test, DISPATCH_LOG_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, DISPATCH_LOG_BYTES, GFP_KERNEL);
	vpa = kunit_kzalloc(test, sizeof(*vpa), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, vpa);

	vpa_dtl_test_log(ring, vpa, t->written > N_DISPATCH_LOG ? t->written - N_DISPATCH_LOG : 0,
			 t->written);
	n = vpa_dtl_fetch(ring, vpa, &last, out, &lost);
	KUNIT_EXPECT_EQ(test, n, t->n);
	KUNIT_EXPECT_EQ(test, lost, t->lost);
	KUNIT_EXPECT_EQ(test, last, max(t->last, t->written));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, be64_to_cpu(out[i].timebase), 1000 + t->written - n + i);
}

/* Entries rewritten while they were copied are dropped, the others kept. */
static void vpa_dtl_test_overwritten(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 85), 0);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 86), 1);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 170), 85);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(0, 85, 1000), 85);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(10, 5, 95), 0);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(10, 5, 97), 2);
	KUNIT_EXPECT_EQ(test, vpa_dtl_overwritten(10, 5, 200), 5);
}

static struct kunit_case vpa_dtl_test_cases[] = {
	KUNIT_CASE_PARAM(vpa_dtl_test_fetch, vpa_dtl_fetch_gen_params),
	KUNIT_CASE(vpa_dtl_test_overwritten),
	{}
};

static struct kunit_suite vpa_dtl_test_suite = {
	.name = "vpa_dtl",
	.test_cases = vpa_dtl_test_cases,
};

kunit_test_suite(vpa_dtl_test_suite);
