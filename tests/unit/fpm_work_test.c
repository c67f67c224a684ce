/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM table's work when a next-hop object many routes use changes
 * (daemon/cp/fpm_table.c): FPM_WORK_ROUTES routes (default 200,000) on one
 * group, then one frame of FPM_WORK_UPDATES (default 100) updates of its
 * member. Each route is placed again once per change the loop sees, not
 * once per update, and no turn of the loop's work outlasts its slice by
 * more than one message. The FIB is a counter.
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

#include <cmocka.h>

#include "cp/fpm.h"
#include "cp/fpm_priv.h"

static uint64_t n_adds, n_dels;

static int count_add(const struct l3_route *r, char *err, size_t errlen)
{
	(void)r, (void)err, (void)errlen;
	n_adds++;
	return 0;
}

static int count_del(const struct fwd_prefix *p, char *err, size_t errlen)
{
	(void)p, (void)err, (void)errlen;
	n_dels++;
	return 0;
}

static int no_origin(const struct fwd_prefix *p)
{
	(void)p;
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

/* Next-hop 1 via 10.0.0.gw on ifindex 10. */
static void nh1(struct buf *b, uint8_t gw)
{
	struct nhmsg m = { .nh_family = AF_INET, .nh_protocol = RTPROT_ZEBRA };
	uint32_t a = htonl(0x0a000000u | gw);
	struct rtattr h = { .rta_len = sizeof(h) + 4, .rta_type = NHA_GATEWAY };
	size_t at;

	msg(b, RTM_NEWNEXTHOP, &m, sizeof(m), &at);
	attr_u32(b, NHA_ID, 1);
	put(b, &h, sizeof(h));
	put(b, &a, 4);
	attr_u32(b, NHA_OIF, 10);
	msg_end(b, at);
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
	enum fpm_err e;
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
	return 0;
}

/* ----------------------------------------------------------------- tests */

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
	printf("# %u routes on one group, %u updates in one frame: %.3f s, %" PRIu64
	       " re-adds\n",
	       n, u, secs(dt), n_adds - adds);
	assert_true(n_adds - adds <= 2 * (uint64_t)n);
	assert_int_equal(fpm_stats.installed, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_updates_cost_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
