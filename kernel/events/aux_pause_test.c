// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of AUX area pause/resume that user space cannot reach:
 * in-kernel counters (perf_event_create_kernel_counter()) take no
 * aux_action bit. The rest of the error table is tested from user space
 * (tools/testing/selftests/perf_events/aux_pause.c).
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

static struct perf_event_attr aux_pause_test_attr(u32 aux_action)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_SW_CPU_CLOCK,
		.sample_period	= NSEC_PER_SEC,
		.disabled	= 1,
	};

	attr.aux_action = aux_action;
	return attr;
}

static struct perf_event *aux_pause_test_create(u32 aux_action)
{
	struct perf_event_attr attr = aux_pause_test_attr(aux_action);

	return perf_event_create_kernel_counter(&attr, raw_smp_processor_id(),
						NULL, NULL, NULL);
}

/* The same counter without aux_action bits is fine. */
static void aux_pause_test_kernel_counter_plain(struct kunit *test)
{
	struct perf_event *event = aux_pause_test_create(0);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "error %ld", PTR_ERR(event));
	perf_event_release_kernel(event);
}

static void aux_pause_test_kernel_counter_refused(struct kunit *test)
{
	static const u32 actions[] = { BIT(0), BIT(1), BIT(2), BIT(1) | BIT(2), BIT(3) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(actions); i++) {
		struct perf_event *event;

		event = aux_pause_test_create(actions[i]);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(event), -EINVAL,
				    "aux_action %#x", actions[i]);
		if (!IS_ERR(event))
			perf_event_release_kernel(event);
	}
}

static struct kunit_case aux_pause_test_cases[] = {
	KUNIT_CASE(aux_pause_test_kernel_counter_plain),
	KUNIT_CASE(aux_pause_test_kernel_counter_refused),
	{}
};

static struct kunit_suite aux_pause_test_suite = {
	.name = "perf_aux_pause",
	.test_cases = aux_pause_test_cases,
};

kunit_test_suites(&aux_pause_test_suite);

MODULE_LICENSE("GPL");
