/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM table's work when a next-hop object many routes use changes
 * (daemon/cp/fpm_table.c): FPM_WORK_ROUTES routes (default 200,000) on one
 * group, then one frame of FPM_WORK_UPDATES (default 100) updates of its
 * member. Each route is placed again once per change the loop sees, not
 * once per update, and no turn of the loop's work outlasts its slice by
 * more than one message. And control.fpm_max_routes. The FIB is a counter.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <rte_common.h>

#include "cp/fpm.h"
#include "cp/fpm_priv.h"
#include "cp/fpm_use.h"

static uint64_t n_adds, n_dels;

static int count_add(const struct l3_route *r, char *err, size_t errlen)
{
	(void)r, (void)err, (void)errlen;
	n_adds++;
	return 0;
}

static int count_del(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen)
{
	(void)vrf, (void)p, (void)err, (void)errlen;
	n_dels++;
	return 0;
}

static int no_origin(uint16_t vrf, const struct fwd_prefix *p)
{
	(void)vrf, (void)p;
	return FWD_ORIGIN_BGP; /* ours, whatever it is */
}

static int port_of(uint32_t ifindex)
{
	return ifindex == 10 ? 0 : -1;
}

static const struct fpm_fib_ops counter = { count_add, count_del, no_origin, port_of };

static unsigned env(const char *name, unsigned def)
{
	const char *s = getenv(name);

	return s != NULL && atoi(s) > 0 ? (unsigned)atoi(s) : def;
}

/* ------------------------------------------------------- frame builder */

struct buf {
	uint8_t b[65535];
	size_t len;
};

static void put(struct buf *b, const void *p, size_t n)
{
	assert_true(b->len + n <= sizeof(b->b));
	memcpy(b->b + b->len, p, n);
	b->len += NLMSG_ALIGN(n);
}

static void attr_u32(struct buf *b, uint16_t type, uint32_t v)
{
	struct rtattr a = { .rta_len = sizeof(a) + 4, .rta_type = type };

	put(b, &a, sizeof(a));
	put(b, &v, 4);
}

static void msg(struct buf *b, uint16_t type, const void *hdr, size_t n, size_t *at)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = NLM_F_REQUEST };

	*at = b->len;
	put(b, &h, sizeof(h));
	put(b, hdr, n);
}

static void msg_end(struct buf *b, size_t at)
{
	uint32_t len = (uint32_t)(b->len - at);

	memcpy(b->b + at, &len, 4);
}

/* Next-hop id via 10.0.0.gw on ifindex 10. */
static void nh(struct buf *b, uint32_t id, uint8_t gw)
{
	struct nhmsg m = { .nh_family = AF_INET, .nh_protocol = RTPROT_ZEBRA };
	uint32_t a = htonl(0x0a000000u | gw);
	struct rtattr h = { .rta_len = sizeof(h) + 4, .rta_type = NHA_GATEWAY };
	size_t at;

	msg(b, RTM_NEWNEXTHOP, &m, sizeof(m), &at);
	attr_u32(b, NHA_ID, id);
	put(b, &h, sizeof(h));
	put(b, &a, 4);
	attr_u32(b, NHA_OIF, 10);
	msg_end(b, at);
}

static void nh1(struct buf *b, uint8_t gw)
{
	nh(b, 1, gw);
}

/* Group 100 = { 1 }. */
static void grp100(struct buf *b)
{
	struct nhmsg m = { .nh_family = AF_UNSPEC, .nh_protocol = RTPROT_ZEBRA };
	struct nexthop_grp g = { .id = 1, .weight = 1 };
	struct rtattr h = { .rta_len = sizeof(h) + sizeof(g), .rta_type = NHA_GROUP };
	size_t at;

	msg(b, RTM_NEWNEXTHOP, &m, sizeof(m), &at);
	attr_u32(b, NHA_ID, 100);
	put(b, &h, sizeof(h));
	put(b, &g, sizeof(g));
	msg_end(b, at);
}

/* 10.x.y.0/24 (the i-th) on group 100. */
static void route(struct buf *b, unsigned i)
{
	struct rtmsg m = { .rtm_family = AF_INET,
		           .rtm_dst_len = 24,
		           .rtm_table = RT_TABLE_MAIN,
		           .rtm_protocol = 186,
		           .rtm_type = RTN_UNICAST };
	uint32_t dst = htonl(0x0a000000u + (i << 8));
	struct rtattr h = { .rta_len = sizeof(h) + 4, .rta_type = RTA_DST };
	size_t at;

	msg(b, RTM_NEWROUTE, &m, sizeof(m), &at);
	put(b, &h, sizeof(h));
	put(b, &dst, 4);
	attr_u32(b, RTA_NH_ID, 100);
	msg_end(b, at);
}

static void feed_all(struct buf *b)
{
	enum fpm_err e = FPM_ERR_MAX;
	char why[200];

	assert_true(fpm_frame_parse(b->b, b->len, fpm_table_apply, NULL, &e, why, sizeof(why)) > 0);
	b->len = 0;
}

/* n routes on group 100 of next hop 1 via 10.0.0.2, installed. */
static void load(unsigned n)
{
	static struct buf b;

	b.len = 0;
	nh1(&b, 2);
	grp100(&b);
	for (unsigned i = 0; i < n; i++) {
		if (b.len > sizeof(b.b) - 128)
			feed_all(&b);
		route(&b, i);
	}
	feed_all(&b);
	assert_false(fpm_table_work(UINT64_MAX));
	assert_int_equal(fpm_stats.installed, n);
}

static int setup(void **state)
{
	(void)state;
	fpm_table_clear();
	fpm_table_set_ops(&counter);
	n_adds = n_dels = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fpm_table_clear();
	fpm_table_set_ops(NULL);
	fpm_table_set_max(FPM_MAX_ROUTES_DEFAULT);
	return 0;
}

/* ----------------------------------------------------------------- tests */

/* CPU time of this thread: other work on a loaded machine does not count. */
static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* One frame of updates, applied and worked off whole: the re-adds it costs. */
static void test_updates_cost_once(void **state)
{
	static struct buf b;
	unsigned n = env("FPM_WORK_ROUTES", 200000), u = env("FPM_WORK_UPDATES", 100);

	(void)state;
	load(n);
	b.len = 0;
	for (unsigned i = 0; i < u; i++)
		nh1(&b, (uint8_t)(3 + i % 200));
	uint64_t adds = n_adds, t0 = fpm_now_ns();
	feed_all(&b);
	assert_false(fpm_table_work(UINT64_MAX));
	uint64_t dt = fpm_now_ns() - t0;
	printf("# %u routes on one group, %u updates in one frame: %.3f s, %" PRIu64 " re-adds\n",
	       n, u, secs(dt), n_adds - adds);
	assert_true(n_adds - adds <= 2 * (uint64_t)n);
	assert_int_equal(fpm_stats.installed, n);
}

/* Next hop 1 via 10.0.0.2 and group 100 of it. */
static void group_up(struct buf *b)
{
	b->len = 0;
	nh1(b, 2);
	grp100(b);
	feed_all(b);
}

static void routes(struct buf *b, unsigned from, unsigned to)
{
	b->len = 0;
	for (unsigned i = from; i < to; i++)
		route(b, i);
	feed_all(b);
	assert_false(fpm_table_work(UINT64_MAX));
}

/* control.fpm_max_routes: what one connection may hold; the routes of the
 * last one (stale) do not count, sending one again does. */
static void test_max_routes(void **state)
{
	static struct buf b;

	(void)state;
	fpm_table_set_max(100);
	group_up(&b);
	routes(&b, 0, 150);
	assert_int_equal(fpm_stats.routes, 100);
	assert_int_equal(fpm_stats.installed, 100);
	assert_int_equal(fpm_stats.ctr[FPM_C_ROUTE_LIMIT], 50);
	assert_non_null(
	        strstr(fpm_stats.last_install_error, "10.0.149.0/24: control.fpm_max_routes"));
	routes(&b, 5, 6); /* a route it holds may change */
	assert_int_equal(fpm_stats.ctr[FPM_C_ROUTE_LIMIT], 50);

	fpm_table_mark_stale(); /* a new connection */
	group_up(&b);
	routes(&b, 100, 200);
	assert_int_equal(fpm_stats.routes, 200);
	assert_int_equal(fpm_stats.stale, 100);
	assert_int_equal(fpm_stats.ctr[FPM_C_ROUTE_LIMIT], 50);
	routes(&b, 0, 1); /* one of the last connection's, sent again: one more */
	routes(&b, 250, 251);
	assert_int_equal(fpm_stats.ctr[FPM_C_ROUTE_LIMIT], 52);
	assert_int_equal(fpm_table_sweep(), 100);
	assert_int_equal(fpm_stats.routes, 100);

	/* next-hop objects: as many as routes */
	fpm_table_set_max(3);
	b.len = 0;
	nh(&b, 2, 3);
	nh(&b, 3, 4);
	feed_all(&b);
	assert_int_equal(fpm_stats.groups, 3);
	assert_int_equal(fpm_stats.ctr[FPM_C_NH_LIMIT], 1);
}

/* The control loop's turn (cp/fpm_conn.c): queued work for half the
 * slice, then messages until the deadline, at least one of each. */
static bool step(const struct fpm_msg *m, void *deadline)
{
	fpm_table_apply(m, NULL);
	return fpm_now_ns() < *(const uint64_t *)deadline;
}

static bool turn(const struct buf *b, size_t *off, uint64_t now, uint64_t slice)
{
	uint64_t deadline = now + slice;
	bool left = fpm_table_work(now + slice / 2);

	if (*off < b->len && !fpm_frame_apply(b->b, b->len, off, step, &deadline))
		left = true;
	return left || fpm_table_pending();
}

/* A deadline already past: each turn places at most one batch of routes
 * or applies one message, and the updates' routes are placed once. */
static void test_turns_are_bounded(void **state)
{
	static struct buf b;
	enum fpm_err e = FPM_ERR_MAX;
	char why[200];
	unsigned n = 20000, turns = 0;
	size_t off = 0;

	(void)state;
	load(n);
	b.len = 0;
	for (unsigned i = 0; i < 100; i++)
		nh1(&b, (uint8_t)(3 + i % 200));
	assert_int_equal(fpm_frame_parse(b.b, b.len, NULL, NULL, &e, why, sizeof(why)), 100);
	uint64_t adds = n_adds, msgs = fpm_stats.ctr[FPM_C_MESSAGES];
	for (bool more = true; more; turns++) {
		uint64_t a = n_adds, m = fpm_stats.ctr[FPM_C_MESSAGES];
		more = turn(&b, &off, 0, 0);
		assert_true(n_adds - a <= 64);
		assert_true(fpm_stats.ctr[FPM_C_MESSAGES] - m <= 1);
		assert_true(fpm_use_queued() <= 1); /* one group: one job */
	}
	assert_int_equal(fpm_stats.ctr[FPM_C_MESSAGES] - msgs, 100);
	assert_true(n_adds - adds >= n && n_adds - adds <= 2 * (uint64_t)n);
	assert_true(turns >= n / 64);
}

/* The time of the longest turn with the daemon's 2 ms slice, and the
 * re-adds: FPM_WORK_ROUTES on one group, one frame of FPM_WORK_UPDATES. */
static void test_turns_in_time(void **state)
{
	static struct buf b;
	unsigned n = env("FPM_WORK_ROUTES", 200000), u = env("FPM_WORK_UPDATES", 100), turns = 0;
	uint64_t longest = 0, longest_cpu = 0, t0, c0, start;
	size_t off = 0;

	(void)state;
	load(n);
	b.len = 0;
	for (unsigned i = 0; i < u; i++)
		nh1(&b, (uint8_t)(3 + i % 200));
	uint64_t adds = n_adds;
	start = fpm_now_ns();
	for (bool more = true; more; turns++) {
		t0 = fpm_now_ns();
		c0 = cpu_ns();
		more = turn(&b, &off, t0, 2000000);
		longest = RTE_MAX(longest, fpm_now_ns() - t0);
		longest_cpu = RTE_MAX(longest_cpu, cpu_ns() - c0);
	}
	printf("# sliced: %u turns in %.3f s, the longest %.2f ms (%.2f ms of CPU), %" PRIu64
	       " re-adds\n",
	       turns, secs(fpm_now_ns() - start), (double)longest / 1e6, (double)longest_cpu / 1e6,
	       n_adds - adds);
	assert_true(longest_cpu < 20000000); /* a slice of 2 ms, a message or a batch over it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_updates_cost_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_turns_are_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_routes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_turns_in_time, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
