/* SPDX-License-Identifier: BSD-3-Clause */
/* The event bus (core/event.c): nothing emitted without a subscriber,
 * filters, every subscriber reads every event, and a subscriber that falls
 * a ring behind is told how many of its events it lost. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/event.h"

static void emit(enum fwd_event_object o, const char *action, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct fwd_event *e = fwd_event_new(o, action);
		if (e != NULL)
			snprintf(e->port, sizeof(e->port), "p%u", i);
	}
}

/* Read all of s's events: how many, and the last one's port. */
static unsigned drain(struct fwd_event_sub *s, uint64_t *lost, char *last)
{
	const struct fwd_event *e;
	unsigned n = 0;

	while ((e = fwd_event_read(s, lost)) != NULL) {
		n++;
		if (last != NULL)
			strcpy(last, e->port);
	}
	return n;
}

static void test_no_subscriber(void **state)
{
	(void)state;
	assert_false(fwd_event_wanted(FWD_EVENT_ROUTE));
	assert_null(fwd_event_new(FWD_EVENT_ROUTE, "add"));
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(fwd_event_object_parse("route"), FWD_EVENT_ROUTE);
	assert_int_equal(fwd_event_object_parse("drops"), FWD_EVENT_DROPS);
	assert_int_equal(fwd_event_object_parse("routes"), -EINVAL);
	assert_string_equal(fwd_event_object_name(FWD_EVENT_FDB), "fdb");
}

static void test_filters_and_fanout(void **state)
{
	struct fwd_event_sub *all = fwd_event_subscribe(FWD_EVENT_ALL);
	struct fwd_event_sub *routes = fwd_event_subscribe(1u << FWD_EVENT_ROUTE);
	const struct fwd_event *e;
	uint64_t lost = 0;

	(void)state;
	assert_non_null(all);
	assert_non_null(routes);
	emit(FWD_EVENT_ADDR, "add", 2);
	emit(FWD_EVENT_ROUTE, "del", 3);
	assert_int_equal(drain(all, &lost, NULL), 5);
	e = fwd_event_read(routes, &lost);
	assert_non_null(e);
	assert_int_equal(e->object, FWD_EVENT_ROUTE);
	assert_string_equal(e->action, "del");
	assert_string_equal(e->port, "p0");
	assert_int_equal(drain(routes, &lost, NULL), 2);
	assert_int_equal(lost, 0);
	fwd_event_unsubscribe(all);
	assert_false(fwd_event_wanted(FWD_EVENT_ADDR));
	assert_null(fwd_event_new(FWD_EVENT_ADDR, "add"));
	assert_true(fwd_event_wanted(FWD_EVENT_ROUTE));
	fwd_event_unsubscribe(routes);
	assert_false(fwd_event_wanted(FWD_EVENT_ROUTE));
}

static void test_overflow_counts(void **state)
{
	struct fwd_event_sub *slow = fwd_event_subscribe(1u << FWD_EVENT_ROUTE);
	struct fwd_event_sub *fast = fwd_event_subscribe(FWD_EVENT_ALL);
	uint64_t lost = 0, fast_lost = 0;
	char last[FWD_NAME_MAX] = "";

	(void)state;
	/* the fast one keeps up; the slow one reads nothing for a ring and 10 */
	emit(FWD_EVENT_ADDR, "add", 5); /* overwritten too, but not the slow one's */
	assert_int_equal(drain(fast, &fast_lost, NULL), 5);
	emit(FWD_EVENT_ROUTE, "add", FWD_EVENT_RING);
	assert_int_equal(drain(fast, &fast_lost, NULL), FWD_EVENT_RING);
	emit(FWD_EVENT_ROUTE, "add", 10);
	assert_int_equal(drain(fast, &fast_lost, NULL), 10);
	assert_int_equal(fast_lost, 0);
	/* the slow one gets the newest ring's worth and the count of the rest */
	assert_int_equal(drain(slow, &lost, last), FWD_EVENT_RING);
	assert_int_equal(lost, 10);
	assert_string_equal(last, "p9");
	lost = 0;
	emit(FWD_EVENT_ROUTE, "add", 1);
	assert_int_equal(drain(slow, &lost, NULL), 1);
	assert_int_equal(lost, 0); /* said once */
	fwd_event_unsubscribe(slow);
	fwd_event_unsubscribe(fast);
}

static void test_subscriber_limit(void **state)
{
	struct fwd_event_sub *s[FWD_EVENT_SUBS];

	(void)state;
	for (unsigned i = 0; i < FWD_EVENT_SUBS; i++)
		assert_non_null(s[i] = fwd_event_subscribe(FWD_EVENT_ALL));
	assert_null(fwd_event_subscribe(FWD_EVENT_ALL));
	fwd_event_unsubscribe(s[3]);
	assert_non_null(s[3] = fwd_event_subscribe(FWD_EVENT_ALL));
	for (unsigned i = 0; i < FWD_EVENT_SUBS; i++)
		fwd_event_unsubscribe(s[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_subscriber),      cmocka_unit_test(test_names),
		cmocka_unit_test(test_filters_and_fanout), cmocka_unit_test(test_overflow_counts),
		cmocka_unit_test(test_subscriber_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
