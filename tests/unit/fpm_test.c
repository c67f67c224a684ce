/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM listener's parser and table (daemon/cp/fpm_parse.c, fpm_table.c)
 * against crafted frames: every message kind and attribute, every refusal,
 * next-hop groups and their updates, precedence of fwd's routes, connected
 * echoes, stale marks and the sweep. The FIB is a fake (struct fpm_fib_ops)
 * that keeps what it is given, so ECMP and the route types are checked at
 * the l3_route level whatever l3_route_add supports today.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <linux/lwtunnel.h>
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
#include "cp/fpm_map.h"
#include "cp/ifmap.h"
#include "cp/fpm_priv.h"
#include "core/vrf.h"

/* ------------------------------------------------------------ fake FIB */

#define FIB_MAX 2048

static struct l3_route fib[FIB_MAX];
static uint8_t table = RT_TABLE_MAIN; /* rtm_table of the routes built */
static unsigned n_fib, n_adds, n_dels;

static int fib_find_in(uint16_t vrf, const struct fwd_prefix *p)
{
	for (unsigned i = 0; i < n_fib; i++)
		if (fib[i].vrf == vrf && fwd_prefix_cmp(&fib[i].prefix, p) == 0)
			return (int)i;
	return -1;
}

static int fib_find(const struct fwd_prefix *p)
{
	return fib_find_in(0, p);
}

static int fake_add(const struct l3_route *r, char *err, size_t errlen)
{
	int i = fib_find_in(r->vrf, &r->prefix);

	n_adds++;
	if (r->type == L3_ROUTE_VIA && r->n_nh == 1 && r->nh[0].via.family == AF_INET &&
	    r->nh[0].via.v4 == 0x0a0000fe) {
		snprintf(err, errlen, "gateway 10.0.0.254 refused");
		return -EINVAL;
	}
	if (i >= 0 && !r->replace)
		return -EEXIST;
	if (i < 0) {
		assert_true(n_fib < FIB_MAX);
		i = (int)n_fib++;
	}
	fib[i] = *r;
	return 0;
}

static int fake_del(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen)
{
	int i = fib_find_in(vrf, p);

	(void)err;
	(void)errlen;
	n_dels++;
	if (i < 0)
		return -ESRCH;
	fib[i] = fib[--n_fib];
	return 0;
}

static int fake_origin(uint16_t vrf, const struct fwd_prefix *p)
{
	int i = fib_find_in(vrf, p);

	return i < 0 ? -ENOENT : fib[i].origin;
}

static uint32_t p1_ifindex = 11; /* a capture's own interface index for p1 */

static int fake_port_of(uint32_t ifindex)
{
	return ifindex == 10 ? 0 : ifindex == 11 || ifindex == p1_ifindex ? 1 : -1;
}

static const struct fpm_fib_ops fake = { fake_add, fake_del, fake_origin, fake_port_of };

static const struct l3_route *fib_get_in(uint16_t vrf, const char *prefix)
{
	struct fwd_prefix p;

	assert_int_equal(fwd_prefix_parse(prefix, &p, false), 0);
	int i = fib_find_in(vrf, &p);
	return i < 0 ? NULL : &fib[i];
}

static const struct l3_route *fib_get(const char *prefix)
{
	return fib_get_in(0, prefix);
}

/* A fwd route of origin config put straight into the fake FIB. */
static void fib_put_own(const char *prefix, uint8_t origin)
{
	struct l3_route r = { .type = L3_ROUTE_BLACKHOLE, .origin = origin, .replace = true };

	assert_int_equal(fwd_prefix_parse(prefix, &r.prefix, false), 0);
	int i = fib_find(&r.prefix);
	fib[i < 0 ? (int)n_fib++ : i] = r;
}

static int setup(void **state)
{
	(void)state;
	fpm_table_clear();
	fpm_table_set_ops(&fake);
	n_fib = n_adds = n_dels = 0;
	p1_ifindex = 11;
	table = RT_TABLE_MAIN;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fpm_table_clear();
	fpm_table_set_ops(NULL);
	fpm_table_set_netns(false);
	for (unsigned i = 1; i < FWD_MAX_VRFS; i++)
		memset(&fwd_vrfs[i], 0, sizeof(fwd_vrfs[i]));
	return 0;
}

/* ------------------------------------------------------- frame builder */

struct buf {
	uint8_t b[70000];
	size_t len;
	size_t nl;   /* where the open netlink message starts */
	size_t nest; /* where the open nested attribute starts */
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	assert_true(b->len + n <= sizeof(b->b));
	memcpy(b->b + b->len, p, n);
	b->len += n;
}

static void pad(struct buf *b)
{
	static const uint8_t zero[4];

	put(b, zero, NLMSG_ALIGN(b->len) - b->len);
}

static void frame_begin(struct buf *b)
{
	static const uint8_t hdr[4] = { 1, 1, 0, 0 };

	b->len = 0;
	put(b, hdr, 4);
}

/* The FPM header's length; the frame as a parser's payload. */
static void frame_end(struct buf *b)
{
	b->b[2] = (uint8_t)(b->len >> 8);
	b->b[3] = (uint8_t)b->len;
}

static void msg_begin(struct buf *b, uint16_t type)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = NLM_F_REQUEST };

	b->nl = b->len;
	put(b, &h, sizeof(h));
}

static void msg_end(struct buf *b)
{
	uint32_t len = (uint32_t)(b->len - b->nl);

	memcpy(b->b + b->nl, &len, sizeof(len));
}

static void rtm(struct buf *b, uint8_t family, uint8_t dst_len, uint8_t proto, uint8_t type)
{
	struct rtmsg m = { .rtm_family = family,
		           .rtm_dst_len = dst_len,
		           .rtm_table = table,
		           .rtm_protocol = proto,
		           .rtm_type = type };
	put(b, &m, sizeof(m));
}

static void nhm(struct buf *b, uint8_t family)
{
	struct nhmsg m = { .nh_family = family, .nh_protocol = RTPROT_ZEBRA };

	put(b, &m, sizeof(m));
}

static void attr(struct buf *b, uint16_t type, const void *v, size_t n)
{
	struct rtattr a = { .rta_len = (unsigned short)(sizeof(a) + n), .rta_type = type };

	put(b, &a, sizeof(a));
	put(b, v, n);
	pad(b);
}

static void attr_u32(struct buf *b, uint16_t type, uint32_t v)
{
	attr(b, type, &v, sizeof(v));
}

static void attr_ip(struct buf *b, uint16_t type, const char *ip)
{
	uint8_t a[16];

	if (strchr(ip, ':') != NULL) {
		assert_int_equal(inet_pton(AF_INET6, ip, a), 1);
		attr(b, type, a, 16);
	} else {
		assert_int_equal(inet_pton(AF_INET, ip, a), 1);
		attr(b, type, a, 4);
	}
}

/* "P/N" into RTA_DST (nothing for a default route). */
static void route_begin(struct buf *b, uint16_t type, const char *prefix, uint8_t proto,
                        uint8_t rtype)
{
	char s[64];
	char *slash;

	snprintf(s, sizeof(s), "%s", prefix);
	slash = strchr(s, '/');
	assert_non_null(slash);
	*slash = '\0';
	msg_begin(b, type);
	rtm(b, strchr(s, ':') ? AF_INET6 : AF_INET, (uint8_t)atoi(slash + 1), proto, rtype);
	if (atoi(slash + 1) > 0)
		attr_ip(b, RTA_DST, s);
}

static void nest_begin(struct buf *b, uint16_t type)
{
	b->nest = b->len;
	attr(b, type, NULL, 0);
}

static void nest_end(struct buf *b)
{
	unsigned short len = (unsigned short)(b->len - b->nest);

	memcpy(b->b + b->nest, &len, sizeof(len));
}

/* One rtnexthop inside RTA_MULTIPATH. */
static void rtnh(struct buf *b, int ifindex, const char *gw)
{
	size_t at = b->len;
	struct rtnexthop h = { .rtnh_ifindex = ifindex };

	put(b, &h, sizeof(h));
	if (gw != NULL)
		attr_ip(b, RTA_GATEWAY, gw);
	unsigned short len = (unsigned short)(b->len - at);
	memcpy(b->b + at, &len, sizeof(len));
}

static int feed(struct buf *b, enum fpm_err *e)
{
	char why[200];
	enum fpm_err dummy;
	int len;

	frame_end(b);
	len = fpm_frame_len(b->b, e ? e : &dummy);
	if (len < 0)
		return -1;
	assert_int_equal((size_t)len, b->len);
	int rc = fpm_frame_parse(b->b + FPM_HDR_LEN, b->len - FPM_HDR_LEN, fpm_table_apply, NULL,
	                         e ? e : &dummy, why, sizeof(why));
	assert_false(fpm_table_work(UINT64_MAX)); /* what a group change queued */
	return rc;
}

static void add_route(const char *prefix, const char *gw, uint32_t oif, uint8_t proto)
{
	static struct buf b;

	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, prefix, proto, RTN_UNICAST);
	if (gw != NULL)
		attr_ip(&b, RTA_GATEWAY, gw);
	if (oif != 0)
		attr_u32(&b, RTA_OIF, oif);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
}

static void del_route(const char *prefix)
{
	static struct buf b;

	frame_begin(&b);
	route_begin(&b, RTM_DELROUTE, prefix, 186, RTN_UNICAST);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
}

/* ----------------------------------------------------------------- tests */

/* RTA_OIF of a VLAN interface's or a loopback's kernel interface maps back
 * to that interface (cp/ifmap.c, the map cp/tap.c keeps); once the TAP is
 * recreated (a reload, a restart) its old index is stale: a next hop on it
 * without a gateway is refused and counted, with one it goes by the
 * gateway; zebra's re-sent route takes the new index. */
static void test_vlan_loopback_oif(void **state)
{
	static const struct fpm_fib_ops real = { fake_add, fake_del, fake_origin, cp_ifmap_port };
	const uint16_t vlan = FWD_MAX_PORTS + 5, lo = FWD_MAX_PORTS + 6;

	(void)state;
	fpm_table_set_ops(&real);
	assert_int_equal(cp_ifmap_set(vlan, 40), 0);
	assert_int_equal(cp_ifmap_set(lo, 41), 0);
	add_route("198.51.100.0/24", "10.100.0.2", 40, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->nh[0].dev, vlan);
	add_route("192.0.2.9/32", NULL, 41, 196); /* a static route on the loopback */
	assert_int_equal(fib_get("192.0.2.9/32")->nh[0].dev, lo);

	assert_int_equal(cp_ifmap_set(vlan, 42), 0); /* the TAP recreated */
	add_route("203.0.113.0/24", NULL, 40, 186);
	assert_null(fib_get("203.0.113.0/24"));
	assert_int_equal(fpm_stats.ctr[FPM_C_NO_DEV], 1);
	add_route("198.51.100.0/24", "10.100.0.2", 40, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->nh[0].dev, -1); /* by the gateway */
	add_route("198.51.100.0/24", "10.100.0.2", 42, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->nh[0].dev, vlan);

	cp_ifmap_clear(); /* the daemon restarted: no index is known */
	add_route("203.0.113.0/24", NULL, 42, 186);
	assert_int_equal(fpm_stats.ctr[FPM_C_NO_DEV], 2);
}

static void test_route_v4(void **state)
{
	(void)state;
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	const struct l3_route *r = fib_get("198.51.100.0/24");
	assert_non_null(r);
	assert_int_equal(r->type, L3_ROUTE_VIA);
	assert_int_equal(r->origin, FWD_ORIGIN_BGP);
	assert_int_equal(r->n_nh, 1);
	assert_int_equal(r->nh[0].via.v4, 0x0a000002);
	assert_int_equal(r->nh[0].dev, 0);
	assert_int_equal(fpm_stats.installed, 1);
	assert_int_equal(fpm_stats.installed_by_origin[FWD_ORIGIN_BGP], 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_ROUTE_ADD], 1);

	/* a gateway on an interface fwd does not know: fwd finds the port */
	add_route("203.0.113.0/24", "10.0.0.3", 99, 188);
	r = fib_get("203.0.113.0/24");
	assert_non_null(r);
	assert_int_equal(r->nh[0].dev, -1);
	assert_int_equal(r->origin, FWD_ORIGIN_OSPF);

	/* the default route has no RTA_DST */
	add_route("0.0.0.0/0", "10.0.0.1", 0, 196);
	r = fib_get("0.0.0.0/0");
	assert_non_null(r);
	assert_int_equal(r->origin, FWD_ORIGIN_STATIC);

	/* the same prefix again replaces */
	add_route("198.51.100.0/24", "10.0.0.9", 10, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->nh[0].via.v4, 0x0a000009);
	assert_int_equal(fpm_stats.routes, 3);

	del_route("198.51.100.0/24");
	assert_null(fib_get("198.51.100.0/24"));
	assert_int_equal(fpm_stats.routes, 2);
	del_route("198.51.100.0/24");
	assert_int_equal(fpm_stats.ctr[FPM_C_DEL_UNKNOWN], 1);
}

static void test_route_v6_link_local(void **state)
{
	(void)state;
	add_route("2001:db8:2::/48", "fe80::1", 11, 186);
	const struct l3_route *r = fib_get("2001:db8:2::/48");
	assert_non_null(r);
	assert_int_equal(r->nh[0].via.family, AF_INET6);
	assert_int_equal(r->nh[0].via.v6[0], 0xfe);
	assert_int_equal(r->nh[0].via.v6[15], 1);
	assert_int_equal(r->nh[0].dev, 1);

	/* an interface route: no gateway, a known interface */
	add_route("2001:db8:3::/64", NULL, 10, 186);
	r = fib_get("2001:db8:3::/64");
	assert_non_null(r);
	assert_int_equal(r->nh[0].via.family, 0);
	assert_int_equal(r->nh[0].dev, 0);

	/* no gateway and an unknown interface: refused, counted */
	add_route("2001:db8:4::/64", NULL, 77, 186);
	assert_null(fib_get("2001:db8:4::/64"));
	assert_int_equal(fpm_stats.ctr[FPM_C_NO_DEV], 1);
	assert_int_equal(fpm_stats.routes, 3);
	assert_int_equal(fpm_stats.installed, 2);
}

static void test_multipath(void **state)
{
	static struct buf b;

	(void)state;
	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "192.0.2.0/24", 186, RTN_UNICAST);
	nest_begin(&b, RTA_MULTIPATH);
	rtnh(&b, 10, "10.0.0.2");
	rtnh(&b, 11, "10.0.1.2");
	rtnh(&b, 99, "10.0.2.2");
	nest_end(&b);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
	const struct l3_route *r = fib_get("192.0.2.0/24");
	assert_non_null(r);
	assert_int_equal(r->n_nh, 3);
	assert_int_equal(r->nh[0].via.v4, 0x0a000002);
	assert_int_equal(r->nh[0].dev, 0);
	assert_int_equal(r->nh[1].via.v4, 0x0a000102);
	assert_int_equal(r->nh[1].dev, 1);
	assert_int_equal(r->nh[2].dev, -1);

	/* more than FWD_ECMP_MAX: the first 16, counted */
	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "192.0.3.0/24", 186, RTN_UNICAST);
	nest_begin(&b, RTA_MULTIPATH);
	for (int i = 0; i < 20; i++) {
		char gw[32];
		snprintf(gw, sizeof(gw), "10.0.0.%d", i + 1);
		rtnh(&b, 10, gw);
	}
	nest_end(&b);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
	assert_int_equal(fib_get("192.0.3.0/24")->n_nh, FWD_ECMP_MAX);
	assert_int_equal(fpm_stats.ctr[FPM_C_ECMP_TRUNC], 1);
}

static void nexthop(struct buf *b, uint32_t id, const char *gw, uint32_t oif)
{
	msg_begin(b, RTM_NEWNEXTHOP);
	nhm(b, gw == NULL ? AF_UNSPEC : strchr(gw, ':') ? AF_INET6 : AF_INET);
	attr_u32(b, NHA_ID, id);
	if (gw != NULL)
		attr_ip(b, NHA_GATEWAY, gw);
	if (oif != 0)
		attr_u32(b, NHA_OIF, oif);
	msg_end(b);
}

static void group(struct buf *b, uint32_t id, const uint32_t *members, unsigned n)
{
	struct nexthop_grp g[FWD_ECMP_MAX + 4] = { 0 };

	for (unsigned i = 0; i < n; i++)
		g[i].id = members[i];
	msg_begin(b, RTM_NEWNEXTHOP);
	nhm(b, AF_UNSPEC);
	attr_u32(b, NHA_ID, id);
	attr(b, NHA_GROUP, g, n * sizeof(g[0]));
	msg_end(b);
}

static void route_nhid(struct buf *b, const char *prefix, uint32_t id)
{
	route_begin(b, RTM_NEWROUTE, prefix, 186, RTN_UNICAST);
	attr_u32(b, RTA_NH_ID, id);
	msg_end(b);
}

static void test_nexthop_groups(void **state)
{
	static struct buf b;
	static const uint32_t both[] = { 1, 2 }, one[] = { 2 };

	(void)state;
	frame_begin(&b);
	nexthop(&b, 1, "10.0.0.2", 10);
	nexthop(&b, 2, "10.0.1.2", 11);
	group(&b, 100, both, 2);
	route_nhid(&b, "198.51.100.0/24", 100);
	route_nhid(&b, "198.51.101.0/24", 100);
	route_nhid(&b, "198.51.102.0/24", 1);
	assert_int_equal(feed(&b, NULL), 6);
	assert_int_equal(fpm_stats.groups, 3);
	const struct l3_route *r = fib_get("198.51.100.0/24");
	assert_non_null(r);
	assert_int_equal(r->n_nh, 2);
	assert_int_equal(r->nh[1].via.v4, 0x0a000102);
	assert_int_equal(r->nh[1].dev, 1);
	assert_int_equal(fib_get("198.51.102.0/24")->n_nh, 1);

	/* zebra changes the group: every route using it follows */
	frame_begin(&b);
	group(&b, 100, one, 1);
	assert_int_equal(feed(&b, NULL), 1);
	assert_int_equal(fib_get("198.51.100.0/24")->n_nh, 1);
	assert_int_equal(fib_get("198.51.101.0/24")->nh[0].via.v4, 0x0a000102);

	/* a member changes: the routes of the groups holding it follow */
	frame_begin(&b);
	nexthop(&b, 2, "10.0.1.3", 11);
	assert_int_equal(feed(&b, NULL), 1);
	assert_int_equal(fib_get("198.51.101.0/24")->nh[0].via.v4, 0x0a000103);
	assert_int_equal(fib_get("198.51.102.0/24")->nh[0].via.v4, 0x0a000002);

	/* a route naming an id not sent yet waits for it */
	frame_begin(&b);
	route_nhid(&b, "198.51.103.0/24", 7);
	assert_int_equal(feed(&b, NULL), 1);
	assert_null(fib_get("198.51.103.0/24"));
	assert_int_equal(fpm_stats.ctr[FPM_C_NHG_UNKNOWN], 1);
	frame_begin(&b);
	nexthop(&b, 7, "10.0.0.7", 0);
	assert_int_equal(feed(&b, NULL), 1);
	assert_non_null(fib_get("198.51.103.0/24"));

	/* a blackhole next hop makes a blackhole route */
	frame_begin(&b);
	msg_begin(&b, RTM_NEWNEXTHOP);
	nhm(&b, AF_UNSPEC);
	attr_u32(&b, NHA_ID, 8);
	attr(&b, NHA_BLACKHOLE, NULL, 0);
	msg_end(&b);
	route_nhid(&b, "198.51.104.0/24", 8);
	assert_int_equal(feed(&b, NULL), 2);
	assert_int_equal(fib_get("198.51.104.0/24")->type, L3_ROUTE_BLACKHOLE);

	/* deleting a next hop takes its routes out of the FIB (as the kernel) */
	frame_begin(&b);
	msg_begin(&b, RTM_DELNEXTHOP);
	nhm(&b, AF_UNSPEC);
	attr_u32(&b, NHA_ID, 7);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
	assert_null(fib_get("198.51.103.0/24"));
	assert_int_equal(fpm_stats.ctr[FPM_C_NH_DEL], 1);
}

/* A group that many routes use changes: they are placed again in slices
 * of the loop's time, not all in the frame's turn. */
static void test_group_change_in_slices(void **state)
{
	static struct buf b;
	static const uint32_t one[] = { 1 }, two[] = { 2 };
	char frame[4 + 65536];
	enum fpm_err e = FPM_ERR_MAX;
	char p[32], why[100];

	(void)state;
	frame_begin(&b);
	nexthop(&b, 1, "10.0.0.2", 10);
	nexthop(&b, 2, "10.0.0.3", 10);
	group(&b, 100, one, 1);
	for (int i = 0; i < 200; i++) {
		snprintf(p, sizeof(p), "10.%d.%d.0/24", 100 + i / 256, i % 256);
		route_nhid(&b, p, 100);
	}
	assert_int_equal(feed(&b, NULL), 203);
	assert_int_equal(fpm_stats.installed, 200);
	frame_begin(&b);
	group(&b, 100, two, 1);
	frame_end(&b);
	memcpy(frame, b.b, b.len);
	unsigned adds = n_adds;
	assert_int_equal(fpm_frame_parse((uint8_t *)frame + 4, b.len - 4, fpm_table_apply, NULL, &e,
	                                 why, sizeof(why)),
	                 1);
	assert_int_equal(n_adds, adds); /* queued, not done */
	assert_true(fpm_table_work(0)); /* a deadline already past: one batch */
	assert_true(n_adds > adds && n_adds < adds + 200);
	assert_false(fpm_table_work(UINT64_MAX));
	assert_int_equal(n_adds, adds + 200);
	assert_int_equal(fib_get("10.100.7.0/24")->nh[0].via.v4, 0x0a000003);
}

static void test_del_and_new_in_one_frame(void **state)
{
	static struct buf b;

	(void)state;
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	frame_begin(&b);
	route_begin(&b, RTM_DELROUTE, "198.51.100.0/24", 186, RTN_UNICAST);
	msg_end(&b);
	route_begin(&b, RTM_NEWROUTE, "198.51.100.0/24", 188, RTN_UNICAST);
	attr_ip(&b, RTA_GATEWAY, "10.0.0.3");
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 2);
	const struct l3_route *r = fib_get("198.51.100.0/24");
	assert_non_null(r);
	assert_int_equal(r->origin, FWD_ORIGIN_OSPF);
	assert_int_equal(r->nh[0].via.v4, 0x0a000003);
	assert_int_equal(fpm_stats.routes, 1);
}

static void test_types_tables_skips(void **state)
{
	static struct buf b;
	static const struct {
		uint8_t rtn, type;
	} types[] = { { RTN_BLACKHOLE, L3_ROUTE_BLACKHOLE },
		      { RTN_UNREACHABLE, L3_ROUTE_UNREACHABLE },
		      { RTN_PROHIBIT, L3_ROUTE_PROHIBIT } };
	char p[32];

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "203.0.113.%u/32", i);
		frame_begin(&b);
		route_begin(&b, RTM_NEWROUTE, p, 196, types[i].rtn);
		msg_end(&b);
		assert_int_equal(feed(&b, NULL), 1);
		assert_non_null(fib_get(p));
		assert_int_equal(fib_get(p)->type, types[i].type);
		assert_int_equal(fib_get(p)->n_nh, 0);
	}
	/* local, broadcast, multicast...: skipped */
	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "203.0.113.9/32", 2, RTN_LOCAL);
	msg_end(&b);
	/* another table (RTA_TABLE wins over rtm_table) */
	route_begin(&b, RTM_NEWROUTE, "203.0.113.10/32", 186, RTN_UNICAST);
	attr_u32(&b, RTA_TABLE, 1000);
	attr_ip(&b, RTA_GATEWAY, "10.0.0.2");
	msg_end(&b);
	/* an EVPN neighbour, NLMSG_DONE */
	msg_begin(&b, RTM_NEWNEIGH);
	put(&b, (uint8_t[12]){ 0 }, 12);
	msg_end(&b);
	msg_begin(&b, NLMSG_DONE);
	msg_end(&b);
	/* MPLS */
	msg_begin(&b, RTM_NEWROUTE);
	rtm(&b, AF_MPLS, 20, 186, RTN_UNICAST);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 5);
	assert_null(fib_get("203.0.113.9/32"));
	assert_null(fib_get("203.0.113.10/32"));
	assert_int_equal(fpm_stats.ctr[FPM_C_SKIP_TYPE], 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_UNKNOWN_TABLE], 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_SKIP_MSG], 2);
	assert_int_equal(fpm_stats.ctr[FPM_C_SKIP_FAMILY], 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_MESSAGES], 8);
}

/* VRF id in the registry as fwd_vrf_add leaves it, without the FIBs its
 * hooks would make (the FIB here is the fake). */
static uint16_t vrf_fake(uint16_t id, const char *name, uint32_t t)
{
	snprintf(fwd_vrfs[id].name, sizeof(fwd_vrfs[id].name), "%s", name);
	fwd_vrfs[id].table = t;
	fwd_vrfs[id].used = true;
	return id;
}

/* VRF devices (control.vrf_backend: vrf): a route goes to the VRF whose
 * table it carries (rtm_table, or RTA_TABLE past 255), the same prefix in
 * two VRFs side by side; a delete names its table; a table no VRF has is
 * counted and skipped; a VRF that goes takes zebra's routes along. */
static void test_vrf_by_table(void **state)
{
	static struct buf b;
	const uint16_t blue = vrf_fake(3, "blue", 10), big = vrf_fake(4, "big", 1000);

	(void)state;
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186); /* main: default */
	table = 10;
	add_route("198.51.100.0/24", "10.0.0.3", 10, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->nh[0].via.v4, 0x0a000002);
	assert_int_equal(fib_get_in(blue, "198.51.100.0/24")->nh[0].via.v4, 0x0a000003);
	assert_int_equal(fib_get_in(blue, "198.51.100.0/24")->vrf, blue);
	table = RT_TABLE_UNSPEC; /* RTA_TABLE carries a table past 255 */
	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "203.0.113.0/24", 186, RTN_UNICAST);
	attr_u32(&b, RTA_TABLE, 1000);
	attr_ip(&b, RTA_GATEWAY, "10.0.0.4");
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
	assert_non_null(fib_get_in(big, "203.0.113.0/24"));
	assert_null(fib_get("203.0.113.0/24"));
	table = 77; /* no VRF's */
	add_route("192.0.2.0/24", "10.0.0.2", 10, 186);
	assert_int_equal(fpm_stats.ctr[FPM_C_UNKNOWN_TABLE], 1);
	assert_int_equal(fpm_stats.routes, 3);
	del_route("192.0.2.0/24");
	assert_int_equal(fpm_stats.ctr[FPM_C_UNKNOWN_TABLE], 2);
	table = 10;
	del_route("198.51.100.0/24"); /* blue's only */
	assert_null(fib_get_in(blue, "198.51.100.0/24"));
	assert_non_null(fib_get("198.51.100.0/24"));
	assert_int_equal(fpm_stats.routes, 2);
	/* big goes: zebra's route there is forgotten, the FIB left to the VRF */
	unsigned dels = n_dels;
	fpm_table_vrf_gone(big);
	assert_int_equal(fpm_stats.routes, 1);
	assert_int_equal(fpm_stats.installed, 1);
	assert_int_equal(n_dels, dels);
}

/* netns (zebra -n): every route has table 254; its next hops' interfaces
 * say the VRF, a delete finds the one VRF with that prefix. */
static void test_vrf_netns(void **state)
{
	static const struct fpm_fib_ops real = { fake_add, fake_del, fake_origin, cp_ifmap_port };
	const uint16_t a = FWD_MAX_PORTS + 7, c = FWD_MAX_PORTS + 8;
	struct fwd_iface *ia = &fwd_ifaces[a], *ic = &fwd_ifaces[c];
	const uint16_t blue = vrf_fake(3, "blue", 10);

	(void)state;
	ia->type = ic->type = FWD_IFACE_LOOPBACK; /* what cp_ifmap maps to */
	fpm_table_set_ops(&real);
	fpm_table_set_netns(true);
	assert_int_equal(cp_ifmap_set(a, 50), 0); /* in blue */
	assert_int_equal(cp_ifmap_set(c, 51), 0); /* in default */
	ia->vrf = blue;
	add_route("198.51.100.0/24", "10.1.0.2", 50, 186);
	assert_non_null(fib_get_in(blue, "198.51.100.0/24"));
	assert_null(fib_get("198.51.100.0/24"));
	add_route("203.0.113.0/24", "10.2.0.2", 51, 186);
	assert_non_null(fib_get("203.0.113.0/24"));
	add_route("192.0.2.0/24", "10.9.0.2", 99, 186); /* not fwd's: default */
	assert_non_null(fib_get("192.0.2.0/24"));
	del_route("198.51.100.0/24"); /* no interface: the one VRF that has it */
	assert_null(fib_get_in(blue, "198.51.100.0/24"));
	assert_int_equal(fpm_stats.ctr[FPM_C_DEL_UNKNOWN], 0);

	/* the same prefix in both: a delete cannot tell, counted, nothing goes */
	add_route("198.51.100.0/24", "10.1.0.2", 50, 186);
	add_route("198.51.100.0/24", "10.2.0.2", 51, 186);
	del_route("198.51.100.0/24");
	assert_int_equal(fpm_stats.ctr[FPM_C_VRF_AMBIGUOUS], 1);
	assert_non_null(fib_get_in(blue, "198.51.100.0/24"));
	assert_non_null(fib_get("198.51.100.0/24"));

	/* ECMP over interfaces of two VRFs: skipped */
	static struct buf b;
	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "100.64.0.0/10", 186, RTN_UNICAST);
	nest_begin(&b, RTA_MULTIPATH);
	rtnh(&b, 50, "10.1.0.2");
	rtnh(&b, 51, "10.2.0.2");
	nest_end(&b);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_VRF_MIXED], 1);
	assert_null(fib_get("100.64.0.0/10"));
	assert_null(fib_get_in(blue, "100.64.0.0/10"));
	ia->vrf = 0;
	ia->type = ic->type = FWD_IFACE_FREE;
	cp_ifmap_clear();
}

/* An RTA_ENCAP_TYPE (u16) and its nested RTA_ENCAP with one attribute,
 * as zebra writes a label push (MPLS_IPTUNNEL_DST) or an SRv6 header. */
static void encap(struct buf *b, uint16_t type_attr, uint16_t encap_attr, uint16_t kind)
{
	uint32_t label = htonl(100u << 12 | 1u << 8);

	attr(b, type_attr, &kind, sizeof(kind));
	nest_begin(b, encap_attr);
	attr(b, 1, &label, sizeof(label));
	nest_end(b);
}

/* Routes with an encapsulation fwd cannot push are refused, counted by
 * kind, and take zebra's earlier plain route at the prefix out. */
static void test_encap_refused(void **state)
{
	static struct buf b;
	static const uint32_t grp[] = { 20, 21 };

	(void)state;
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	assert_non_null(fib_get("198.51.100.0/24"));
	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "198.51.100.0/24", 186, RTN_UNICAST); /* MPLS push */
	attr_ip(&b, RTA_GATEWAY, "10.0.0.2");
	encap(&b, RTA_ENCAP_TYPE, RTA_ENCAP, LWTUNNEL_ENCAP_MPLS);
	msg_end(&b);
	route_begin(&b, RTM_NEWROUTE, "2001:db8:5::/48", 186,
	            RTN_UNICAST); /* SRv6, one path of two */
	nest_begin(&b, RTA_MULTIPATH);
	size_t mp = b.nest; /* encap() nests again */
	rtnh(&b, 10, "fe80::1");
	size_t at = b.len;
	struct rtnexthop h = { .rtnh_ifindex = 11 };
	put(&b, &h, sizeof(h));
	attr_ip(&b, RTA_GATEWAY, "fe80::2");
	encap(&b, RTA_ENCAP_TYPE, RTA_ENCAP, LWTUNNEL_ENCAP_SEG6);
	unsigned short len = (unsigned short)(b.len - at);
	memcpy(b.b + at, &len, sizeof(len));
	b.nest = mp;
	nest_end(&b);
	msg_end(&b);
	route_begin(&b, RTM_NEWROUTE, "198.51.101.0/24", 186, RTN_UNICAST); /* ENCAP_TYPE none */
	attr_ip(&b, RTA_GATEWAY, "10.0.0.2");
	attr(&b, RTA_ENCAP_TYPE, (uint16_t[]){ LWTUNNEL_ENCAP_NONE }, 2);
	msg_end(&b);
	assert_int_equal(feed(&b, NULL), 3);
	assert_null(fib_get("198.51.100.0/24"));
	assert_null(fib_get("2001:db8:5::/48"));
	assert_non_null(fib_get("198.51.101.0/24"));
	assert_int_equal(fpm_stats.ctr[FPM_C_ENCAP_MPLS], 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_ENCAP_SEG6], 1);
	assert_int_equal(fpm_stats.routes, 3);
	assert_int_equal(fpm_stats.installed, 1);

	/* a next-hop object with NHA_ENCAP: the routes on it or on a group
	 * holding it are refused; a plain member alone is fine */
	frame_begin(&b);
	nexthop(&b, 20, "10.0.0.3", 10);
	msg_begin(&b, RTM_NEWNEXTHOP);
	nhm(&b, AF_INET);
	attr_u32(&b, NHA_ID, 21);
	attr_ip(&b, NHA_GATEWAY, "10.0.0.4");
	attr_u32(&b, NHA_OIF, 10);
	encap(&b, NHA_ENCAP_TYPE, NHA_ENCAP, LWTUNNEL_ENCAP_MPLS);
	msg_end(&b);
	group(&b, 22, grp, 2);
	route_nhid(&b, "198.51.102.0/24", 21);
	route_nhid(&b, "198.51.103.0/24", 22);
	route_nhid(&b, "198.51.104.0/24", 20);
	assert_int_equal(feed(&b, NULL), 6);
	assert_null(fib_get("198.51.102.0/24"));
	assert_null(fib_get("198.51.103.0/24"));
	assert_non_null(fib_get("198.51.104.0/24"));
	assert_int_equal(fpm_stats.ctr[FPM_C_ENCAP_MPLS], 3);

	/* frozen by a reconnection, a refused route stays refused */
	fpm_table_mark_stale();
	fpm_table_recheck();
	assert_false(fpm_table_work(UINT64_MAX));
	assert_null(fib_get("198.51.103.0/24"));
	assert_null(fib_get("198.51.100.0/24"));
}

static void test_origins(void **state)
{
	(void)state;
	assert_int_equal(fpm_origin_of_proto(RTPROT_KERNEL), FWD_ORIGIN_KERNEL);
	assert_int_equal(fpm_origin_of_proto(RTPROT_BOOT), FWD_ORIGIN_KERNEL);
	assert_int_equal(fpm_origin_of_proto(RTPROT_ZEBRA), FWD_ORIGIN_ZEBRA);
	assert_int_equal(fpm_origin_of_proto(186), FWD_ORIGIN_BGP);
	assert_int_equal(fpm_origin_of_proto(187), FWD_ORIGIN_ISIS);
	assert_int_equal(fpm_origin_of_proto(188), FWD_ORIGIN_OSPF);
	assert_int_equal(fpm_origin_of_proto(189), FWD_ORIGIN_RIP);
	assert_int_equal(fpm_origin_of_proto(190), FWD_ORIGIN_RIP);
	assert_int_equal(fpm_origin_of_proto(192), FWD_ORIGIN_EIGRP);
	assert_int_equal(fpm_origin_of_proto(196), FWD_ORIGIN_STATIC);
	assert_int_equal(fpm_origin_of_proto(197), FWD_ORIGIN_OPENFABRIC);
	assert_int_equal(fpm_origin_of_proto(42), FWD_ORIGIN_BABEL);
	assert_int_equal(fpm_origin_of_proto(194), FWD_ORIGIN_OTHER); /* sharpd */
	assert_string_equal(fwd_origin_name(fpm_origin_of_proto(186)), "bgp");
}

/* A frame that the parser must refuse with kind e, and nothing of it applied. */
static void refused(struct buf *b, enum fpm_err want)
{
	enum fpm_err e = FPM_ERR_MAX;
	unsigned adds = n_adds;

	assert_int_equal(feed(b, &e), -1);
	assert_int_equal(e, want);
	assert_int_equal(n_adds, adds);
}

/* A good route first, then what comes from fn: the good one must not land. */
static void bad_after_good(void (*fn)(struct buf *b), enum fpm_err want)
{
	static struct buf b;

	frame_begin(&b);
	route_begin(&b, RTM_NEWROUTE, "198.51.100.0/24", 186, RTN_UNICAST);
	attr_ip(&b, RTA_GATEWAY, "10.0.0.2");
	msg_end(&b);
	fn(&b);
	refused(&b, want);
	assert_null(fib_get("198.51.100.0/24"));
}

static void bad_family(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, 99, 0, 186, RTN_UNICAST);
	msg_end(b);
}

static void bad_plen4(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET, 33, 186, RTN_UNICAST);
	attr_ip(b, RTA_DST, "10.0.0.0");
	msg_end(b);
}

static void bad_plen6(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET6, 129, 186, RTN_UNICAST);
	attr_ip(b, RTA_DST, "2001:db8::");
	msg_end(b);
}

static void bad_no_dst(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET, 24, 186, RTN_UNICAST);
	msg_end(b);
}

static void bad_host_bits(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.0.0.1/24", 186, RTN_UNICAST);
	msg_end(b);
}

static void bad_gw_size(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	attr(b, RTA_GATEWAY, "\x0a\x00\x00\x02\x00", 5);
	msg_end(b);
}

static void bad_gw6_in_v4(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	attr_ip(b, RTA_GATEWAY, "2001:db8::1");
	msg_end(b);
}

static void bad_dst_size(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET6, 64, 186, RTN_UNICAST);
	attr_ip(b, RTA_DST, "10.0.0.0");
	msg_end(b);
}

static void bad_attr_overrun(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	struct rtattr a = { .rta_len = 200, .rta_type = RTA_GATEWAY };
	put(b, &a, sizeof(a));
	put(b, "\x0a\x00\x00\x02", 4);
	msg_end(b);
}

static void bad_attr_short(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	struct rtattr a = { .rta_len = 2, .rta_type = RTA_GATEWAY };
	put(b, &a, sizeof(a));
	msg_end(b);
}

static void bad_oif_size(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	attr(b, RTA_OIF, "\x01\x00", 2);
	msg_end(b);
}

static void bad_rtnexthop(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	nest_begin(b, RTA_MULTIPATH);
	struct rtnexthop h = { .rtnh_len = 64, .rtnh_ifindex = 10 };
	put(b, &h, sizeof(h));
	nest_end(b);
	msg_end(b);
}

static void bad_rtnexthop_attr(struct buf *b)
{
	route_begin(b, RTM_NEWROUTE, "10.1.0.0/16", 186, RTN_UNICAST);
	nest_begin(b, RTA_MULTIPATH);
	size_t at = b->len;
	struct rtnexthop h = { .rtnh_ifindex = 10 };
	put(b, &h, sizeof(h));
	struct rtattr a = { .rta_len = 12, .rta_type = RTA_GATEWAY };
	put(b, &a, sizeof(a));
	put(b, "\x0a\x00\x00\x02", 4);
	unsigned short len = (unsigned short)(b->len - at);
	memcpy(b->b + at, &len, sizeof(len));
	nest_end(b);
	msg_end(b);
}

static void bad_nlmsg_len_big(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET, 0, 186, RTN_UNICAST);
	uint32_t len = 4000;
	memcpy(b->b + b->nl, &len, sizeof(len));
}

static void bad_nlmsg_len_small(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET, 0, 186, RTN_UNICAST);
	uint32_t len = 8;
	memcpy(b->b + b->nl, &len, sizeof(len));
}

static void bad_nlmsg_misaligned(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	rtm(b, AF_INET, 0, 186, RTN_UNICAST);
	put(b, "\0\0", 2);
	msg_end(b); /* 30 bytes, and another message after it */
	msg_begin(b, NLMSG_NOOP);
	msg_end(b);
}

static void bad_truncated_header(struct buf *b)
{
	put(b, "\x10\x00\x00\x00\x18\x00", 6);
}

static void bad_short_rtmsg(struct buf *b)
{
	msg_begin(b, RTM_NEWROUTE);
	put(b, "\x02\x18\x00\x00", 4);
	msg_end(b);
}

static void bad_nh_family(struct buf *b)
{
	msg_begin(b, RTM_NEWNEXTHOP);
	nhm(b, 77);
	attr_u32(b, NHA_ID, 1);
	msg_end(b);
}

static void bad_nh_no_id(struct buf *b)
{
	msg_begin(b, RTM_NEWNEXTHOP);
	nhm(b, AF_INET);
	attr_ip(b, NHA_GATEWAY, "10.0.0.2");
	msg_end(b);
}

static void bad_nh_group_size(struct buf *b)
{
	msg_begin(b, RTM_NEWNEXTHOP);
	nhm(b, AF_UNSPEC);
	attr_u32(b, NHA_ID, 5);
	attr(b, NHA_GROUP, "\x01\x00\x00\x00\x01", 5);
	msg_end(b);
}

static void bad_nh_gw_unspec(struct buf *b)
{
	msg_begin(b, RTM_NEWNEXTHOP);
	nhm(b, AF_UNSPEC);
	attr_u32(b, NHA_ID, 5);
	attr_ip(b, NHA_GATEWAY, "10.0.0.2");
	msg_end(b);
}

static void test_refusals(void **state)
{
	static const struct {
		void (*fn)(struct buf *b);
		enum fpm_err e;
	} cases[] = {
		{ bad_family, FPM_ERR_FAMILY },
		{ bad_plen4, FPM_ERR_PREFIX },
		{ bad_plen6, FPM_ERR_PREFIX },
		{ bad_no_dst, FPM_ERR_PREFIX },
		{ bad_host_bits, FPM_ERR_PREFIX },
		{ bad_gw_size, FPM_ERR_ADDR_SIZE },
		{ bad_gw6_in_v4, FPM_ERR_ADDR_SIZE },
		{ bad_dst_size, FPM_ERR_ADDR_SIZE },
		{ bad_attr_overrun, FPM_ERR_ATTR },
		{ bad_attr_short, FPM_ERR_ATTR },
		{ bad_oif_size, FPM_ERR_ATTR },
		{ bad_rtnexthop, FPM_ERR_NEXTHOP },
		{ bad_rtnexthop_attr, FPM_ERR_ATTR },
		{ bad_nlmsg_len_big, FPM_ERR_NL_LEN },
		{ bad_nlmsg_len_small, FPM_ERR_NL_LEN },
		{ bad_nlmsg_misaligned, FPM_ERR_NL_LEN },
		{ bad_truncated_header, FPM_ERR_NL_LEN },
		{ bad_short_rtmsg, FPM_ERR_NL_LEN },
		{ bad_nh_family, FPM_ERR_FAMILY },
		{ bad_nh_no_id, FPM_ERR_NEXTHOP },
		{ bad_nh_group_size, FPM_ERR_NEXTHOP },
		{ bad_nh_gw_unspec, FPM_ERR_FAMILY },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("case %u\n", i);
		bad_after_good(cases[i].fn, cases[i].e);
	}
	assert_int_equal(fpm_stats.routes, 0);
}

static void test_bad_headers(void **state)
{
	uint8_t h[4];
	enum fpm_err e = FPM_ERR_MAX;

	(void)state;
	memcpy(h, "\x02\x01\x00\x10", 4);
	assert_int_equal(fpm_frame_len(h, &e), -1);
	assert_int_equal(e, FPM_ERR_VERSION);
	memcpy(h, "\x01\x02\x00\x10", 4);
	assert_int_equal(fpm_frame_len(h, &e), -1);
	assert_int_equal(e, FPM_ERR_TYPE);
	memcpy(h, "\x01\x01\x00\x03", 4);
	assert_int_equal(fpm_frame_len(h, &e), -1);
	assert_int_equal(e, FPM_ERR_FRAME_LEN);
	memcpy(h, "\x01\x01\xff\xff", 4);
	assert_int_equal(fpm_frame_len(h, &e), 65535);
	memcpy(h, "\x01\x01\x00\x04", 4); /* an empty frame is no error */
	assert_int_equal(fpm_frame_len(h, &e), 4);
	assert_int_equal(fpm_frame_parse(h + 4, 0, fpm_table_apply, NULL, &e, NULL, 0), 0);
}

static void test_big_frame(void **state)
{
	static struct buf b;
	char p[32];
	int n = 0;

	(void)state;
	frame_begin(&b);
	while (b.len < 65000) {
		snprintf(p, sizeof(p), "10.%d.%d.0/24", 100 + n / 256, n % 256);
		route_begin(&b, RTM_NEWROUTE, p, 186, RTN_UNICAST);
		attr_ip(&b, RTA_GATEWAY, "10.0.0.2");
		msg_end(&b);
		n++;
	}
	assert_int_equal(feed(&b, NULL), n);
	assert_int_equal(fpm_stats.installed, (uint64_t)n);
}

static void test_shadowing(void **state)
{
	(void)state;
	/* fwd's route first: zebra's is kept, not installed */
	fib_put_own("198.51.100.0/24", FWD_ORIGIN_CONFIG);
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->origin, FWD_ORIGIN_CONFIG);
	assert_int_equal(fpm_stats.shadowed, 1);
	assert_int_equal(fpm_stats.installed, 0);
	/* fwd's goes away (the l3 hook): zebra's comes in */
	fake_del(0, &fib_get("198.51.100.0/24")->prefix, NULL, 0);
	struct fwd_prefix p;
	fwd_prefix_parse("198.51.100.0/24", &p, false);
	fpm_table_removed(0, &p, FWD_ORIGIN_CONFIG);
	assert_int_equal(fib_get("198.51.100.0/24")->origin, FWD_ORIGIN_BGP);
	assert_int_equal(fpm_stats.shadowed, 0);
	assert_int_equal(fpm_stats.installed, 1);
	/* fwdctl adds over it: l3 replaces it and tells */
	fib_put_own("198.51.100.0/24", FWD_ORIGIN_RPC);
	fpm_table_removed(0, &p, FWD_ORIGIN_BGP);
	assert_int_equal(fpm_stats.shadowed, 1);
	assert_int_equal(fpm_stats.installed, 0);
	/* zebra updates or deletes it meanwhile: fwd's stays */
	add_route("198.51.100.0/24", "10.0.0.3", 10, 186);
	assert_int_equal(fib_get("198.51.100.0/24")->origin, FWD_ORIGIN_RPC);
	del_route("198.51.100.0/24");
	assert_int_equal(fib_get("198.51.100.0/24")->origin, FWD_ORIGIN_RPC);
	assert_int_equal(fpm_stats.shadowed, 0);
	assert_int_equal(fpm_stats.routes, 0);
	/* fwdctl deletes a route of zebra's: it stays out until zebra sends it again */
	add_route("198.51.101.0/24", "10.0.0.3", 10, 186);
	fwd_prefix_parse("198.51.101.0/24", &p, false);
	fake_del(0, &p, NULL, 0);
	fpm_table_removed(0, &p, FWD_ORIGIN_BGP);
	assert_int_equal(fpm_stats.installed, 0);
	assert_null(fib_get("198.51.101.0/24"));
	add_route("198.51.101.0/24", "10.0.0.3", 10, 186);
	assert_non_null(fib_get("198.51.101.0/24"));
}

static void test_connected_echo(void **state)
{
	(void)state;
	fib_put_own("10.0.0.0/24", FWD_ORIGIN_ADDRESS);
	fib_put_own("10.0.0.1/32", FWD_ORIGIN_ADDRESS); /* a local address */
	add_route("10.0.0.0/24", NULL, 10, RTPROT_KERNEL);
	add_route("10.0.0.1/32", NULL, 10, RTPROT_KERNEL);
	assert_int_equal(fpm_stats.ctr[FPM_C_CONNECTED], 2);
	assert_int_equal(fpm_stats.installed, 0);
	assert_int_equal(fib_get("10.0.0.0/24")->origin, FWD_ORIGIN_ADDRESS);
	/* zebra withdraws the echo: fwd's connected route stays */
	del_route("10.0.0.0/24");
	assert_int_equal(fib_get("10.0.0.0/24")->origin, FWD_ORIGIN_ADDRESS);
}

static void test_install_failure(void **state)
{
	(void)state;
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	add_route("198.51.100.0/24", "10.0.0.254", 10, 186); /* the fake refuses it */
	assert_null(fib_get("198.51.100.0/24"));             /* the older one is gone too */
	assert_int_equal(fpm_stats.ctr[FPM_C_INSTALL_FAIL], 1);
	assert_non_null(strstr(fpm_stats.last_install_error, "198.51.100.0/24"));
	assert_int_equal(fpm_stats.routes, 1);
	assert_int_equal(fpm_stats.installed, 0);
}

static void test_stale_sweep(void **state)
{
	static struct buf b;

	(void)state;
	frame_begin(&b);
	nexthop(&b, 1, "10.0.0.2", 10);
	nexthop(&b, 2, "10.0.0.3", 10);
	assert_int_equal(feed(&b, NULL), 2);
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	add_route("198.51.101.0/24", "10.0.0.2", 10, 186);
	add_route("198.51.102.0/24", "10.0.0.2", 10, 186);
	fib_put_own("198.51.102.0/24", FWD_ORIGIN_CONFIG); /* shadowed when stale */
	struct fwd_prefix p;
	fwd_prefix_parse("198.51.102.0/24", &p, false);
	fpm_table_removed(0, &p, FWD_ORIGIN_BGP);

	/* zebra reconnects and sends one route and one next hop again */
	fpm_table_mark_stale();
	assert_int_equal(fpm_stats.stale, 3);
	add_route("198.51.100.0/24", "10.0.0.2", 10, 186);
	frame_begin(&b);
	nexthop(&b, 2, "10.0.0.3", 10);
	assert_int_equal(feed(&b, NULL), 1);
	assert_int_equal(fpm_stats.stale, 2);
	assert_int_equal(fpm_table_sweep(), 2);
	assert_non_null(fib_get("198.51.100.0/24"));
	assert_null(fib_get("198.51.101.0/24"));
	/* the shadowed stale one is forgotten; fwd's route stays */
	assert_int_equal(fib_get("198.51.102.0/24")->origin, FWD_ORIGIN_CONFIG);
	assert_int_equal(fpm_stats.routes, 1);
	assert_int_equal(fpm_stats.stale, 0);
	assert_int_equal(fpm_stats.shadowed, 0);
	assert_int_equal(fpm_stats.groups, 1);
	assert_int_equal(fpm_stats.ctr[FPM_C_STALE_SWEPT], 2);
}

/* A restarted zebra numbers its next-hop objects anew, and sends them before
 * its routes (as FRR 8.4 does): an id of the old connection that now means
 * another next hop must not move the stale routes that used it. */
static void test_reconnect_reuses_ids(void **state)
{
	static struct buf b;
	static const uint32_t pair[] = { 12, 14 };

	(void)state;
	frame_begin(&b);
	nexthop(&b, 15, "2001:db8:41:2::2", 4);
	nexthop(&b, 12, "10.0.0.2", 10);
	nexthop(&b, 14, "10.0.0.3", 10);
	group(&b, 13, pair, 2);
	route_nhid(&b, "2001:db8:50::/48", 15);
	route_nhid(&b, "10.52.0.0/16", 13);
	assert_int_equal(feed(&b, NULL), 6);
	assert_int_equal(fib_get("10.52.0.0/16")->n_nh, 2);

	fpm_table_mark_stale();
	assert_int_equal(fpm_stats.groups, 0);
	unsigned adds = n_adds;
	frame_begin(&b);
	group(&b, 16, pair, 2);          /* before its members, as zebra does */
	nexthop(&b, 15, "10.0.0.2", 10); /* 15 is IPv4 now */
	nexthop(&b, 13, "10.0.0.9", 10); /* 13 is no group any more */
	assert_int_equal(feed(&b, NULL), 3);
	frame_begin(&b);
	nexthop(&b, 15, "10.0.0.4", 10); /* and changes */
	assert_int_equal(feed(&b, NULL), 1);
	assert_int_equal(n_adds, adds); /* the stale routes stay as they were */
	assert_int_equal(fpm_stats.ctr[FPM_C_GW_FAMILY], 0);
	const struct l3_route *r = fib_get("2001:db8:50::/48");
	assert_non_null(r);
	assert_int_equal(r->nh[0].via.family, AF_INET6);
	assert_int_equal(fib_get("10.52.0.0/16")->n_nh, 2);

	/* the routes come again with the new ids; the one not sent goes */
	frame_begin(&b);
	nexthop(&b, 18, "2001:db8:41:2::2", 4);
	route_nhid(&b, "2001:db8:50::/48", 18);
	assert_int_equal(feed(&b, NULL), 2);
	assert_int_equal(fpm_stats.stale, 1);
	assert_int_equal(fpm_table_sweep(), 1);
	assert_null(fib_get("10.52.0.0/16"));
	assert_non_null(fib_get("2001:db8:50::/48"));
}

/* The hash behind the table against a plain array: puts, gets, deletes by
 * backward shift (tombstone-free), iteration. */
static void test_map(void **state)
{
	struct obj {
		uint32_t key;
		bool in;
	} *o = calloc(20000, sizeof(*o));
	struct fpm_map m = { .key_off = 0, .key_len = sizeof(uint32_t) };
	uint32_t seed = 1;
	size_t n = 0;

	(void)state;
	assert_non_null(o);
	for (uint32_t i = 0; i < 20000; i++) {
		o[i].key = i * 2654435761u;
		assert_int_equal(fpm_map_put(&m, &o[i]), 0);
		o[i].in = true;
	}
	for (int round = 0; round < 40000; round++) {
		seed = seed * 1103515245u + 12345u;
		struct obj *x = &o[(seed >> 8) % 20000];
		if (x->in)
			fpm_map_del(&m, x);
		else
			assert_int_equal(fpm_map_put(&m, x), 0);
		x->in = !x->in;
	}
	for (uint32_t i = 0; i < 20000; i++) {
		assert_ptr_equal(fpm_map_get(&m, &o[i].key), o[i].in ? &o[i] : NULL);
		n += o[i].in;
	}
	assert_int_equal(m.n, n);
	size_t seen = 0;
	for (size_t i = 0; fpm_map_next(&m, &i) != NULL;)
		seen++;
	assert_int_equal(seen, n);
	fpm_map_free(&m);
	free(o);
}

/* A sweep goes in slices; a connection that comes meanwhile stops it (its
 * own replay has a grace of its own). */
static void test_sweep_in_slices(void **state)
{
	static struct buf b;
	char p[32];

	(void)state;
	frame_begin(&b);
	for (int i = 0; i < 300; i++) {
		snprintf(p, sizeof(p), "10.%d.%d.0/24", 100 + i / 256, i % 256);
		route_begin(&b, RTM_NEWROUTE, p, 186, RTN_UNICAST);
		attr_ip(&b, RTA_GATEWAY, "10.0.0.2");
		msg_end(&b);
	}
	assert_int_equal(feed(&b, NULL), 300);
	fpm_table_mark_stale();
	fpm_table_sweep_start();
	assert_true(fpm_table_work(0));
	assert_true(fpm_stats.routes > 0 && fpm_stats.routes < 300);
	uint64_t left = fpm_stats.routes;
	fpm_table_mark_stale(); /* zebra reconnects */
	assert_false(fpm_table_work(UINT64_MAX));
	assert_int_equal(fpm_stats.routes, left);
	assert_int_equal(fpm_stats.stale, left);
	assert_int_equal(fpm_table_sweep(), left);
	assert_int_equal(n_fib, 0);
}

/* The end of a replay: quiet for 3 s, not before the grace. */
static void test_sweep_clock(void **state)
{
	const uint64_t s = 1000000000u;

	(void)state;
	fpm_session.grace_s = 30;
	fpm_session.up_ns = 100 * s;
	fpm_session.last_frame_ns = 101 * s;
	assert_int_equal(fpm_sweep_due_ns(), 130 * s);
	fpm_session.last_frame_ns = 129 * s; /* bgpd's routes still coming */
	assert_int_equal(fpm_sweep_due_ns(), 132 * s);
	fpm_session.grace_s = 0;
	fpm_session.last_frame_ns = 101 * s;
	assert_int_equal(fpm_sweep_due_ns(), 104 * s);
	memset(&fpm_session, 0, sizeof(fpm_session));
}

/* Every frame of a captured stream through the parser; fn NULL only checks.
 * Returns the frames, or -1 when path cannot be read. */
static int feed_file(const char *path, void (*fn)(const struct fpm_msg *m, void *arg))
{
	static uint8_t data[1 << 22];
	FILE *f = fopen(path, "rb");
	int frames = 0;
	size_t len;

	if (f == NULL)
		return -1;
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	for (size_t off = 0; off + FPM_HDR_LEN <= len; frames++) {
		enum fpm_err e = FPM_ERR_MAX;
		char why[200] = "";
		int fl = fpm_frame_len(data + off, &e);
		assert_true(fl > 0);
		assert_true(off + (size_t)fl <= len);
		if (fpm_frame_parse(data + off + FPM_HDR_LEN, (size_t)fl - FPM_HDR_LEN, fn, NULL,
		                    &e, why, sizeof(why)) < 0)
			fail_msg("%s at %zu: %s", path, off, why);
		off += (size_t)fl;
	}
	assert_false(fpm_table_work(UINT64_MAX));
	return frames;
}

/* Streams of real zebra (FRR 8.4) in tests/unit/data/fpm/ and, captured by
 * the FRR end-to-end work, tests/data/fpm/ (*.bin): each is a sequence of
 * FPM frames that must all parse. */
static void test_captured_streams(void **state)
{
	static const char *const dirs[] = { "tests/unit/data/fpm", "tests/data/fpm" };
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char path[512];
	unsigned files = 0;

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		struct dirent *d;
		DIR *dp;
		snprintf(path, sizeof(path), "%s/%s", src, dirs[k]);
		if ((dp = opendir(path)) == NULL)
			continue;
		while ((d = readdir(dp)) != NULL) {
			size_t n = strlen(d->d_name);
			if (n < 5 || strcmp(d->d_name + n - 4, ".bin") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", src, dirs[k], d->d_name);
			assert_true(feed_file(path, NULL) > 0);
			files++;
		}
		closedir(dp);
	}
	print_message("%u captured streams parsed\n", files);
	assert_true(files >= 2);
}

static void assert_via(const char *prefix, unsigned i, const char *gw)
{
	const struct l3_route *r = fib_get(prefix);
	struct fwd_ip ip;

	assert_non_null(r);
	assert_int_equal(r->type, L3_ROUTE_VIA);
	assert_true(i < r->n_nh);
	assert_int_equal(fwd_ip_parse(gw, &ip), 0);
	assert_true(fwd_ip_eq(&r->nh[i].via, &ip));
}

/* FRR 8.4's zebra with staticd (`ip route` lines: a gateway, a blackhole,
 * two gateways, an IPv6 gateway) on a netns with 10.41.2.250/24 and
 * 2001:db8:41:2::fa/64 on its interface 4; then zebra and staticd
 * restarted (tests/unit/data/fpm/). */
static void test_zebra84_static(void **state)
{
	char path[512];
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";

	(void)state;
	fib_put_own("10.41.2.0/24", FWD_ORIGIN_ADDRESS);
	fib_put_own("2001:db8:41:2::/64", FWD_ORIGIN_ADDRESS);
	snprintf(path, sizeof(path), "%s/tests/unit/data/fpm/zebra84-static.bin", src);
	assert_int_equal(feed_file(path, fpm_table_apply), 16);
	assert_via("10.50.0.0/16", 0, "10.41.2.2");
	assert_int_equal(fib_get("10.50.0.0/16")->origin, FWD_ORIGIN_STATIC);
	assert_int_equal(fib_get("10.50.0.0/16")->nh[0].dev, -1); /* ifindex 4: no TAP here */
	assert_int_equal(fib_get("10.51.0.0/16")->type, L3_ROUTE_BLACKHOLE);
	assert_int_equal(fib_get("10.52.0.0/16")->n_nh, 2);
	assert_via("10.52.0.0/16", 0, "10.41.2.2");
	assert_via("10.52.0.0/16", 1, "10.41.2.3");
	assert_via("2001:db8:50::/48", 0, "2001:db8:41:2::2");
	assert_int_equal(fib_get("10.41.2.0/24")->origin, FWD_ORIGIN_ADDRESS);
	/* the two subnets, and fe80::/64 of interface 4: link-local, fwd's own */
	assert_int_equal(fpm_stats.ctr[FPM_C_CONNECTED], 3);
	assert_int_equal(fpm_stats.ctr[FPM_C_NO_DEV], 0);
	assert_int_equal(fpm_stats.groups, 9);
	assert_int_equal(fpm_stats.installed, 4);

	fpm_table_mark_stale();
	unsigned adds = n_adds;
	snprintf(path, sizeof(path), "%s/tests/unit/data/fpm/zebra84-static-restarted.bin", src);
	assert_int_equal(feed_file(path, fpm_table_apply), 16);
	assert_int_equal(fpm_stats.stale, 0);
	assert_int_equal(fpm_table_sweep(), 0);
	assert_int_equal(n_adds, adds + 4); /* each placed once again, none removed */
	assert_int_equal(fib_get("10.52.0.0/16")->n_nh, 2);
	assert_via("2001:db8:50::/48", 0, "2001:db8:41:2::2");
	assert_int_equal(fpm_stats.ctr[FPM_C_GW_FAMILY], 0);
}

/* FRR 8.4's zebra and bgpd with an eBGP peer over interface 2 (its TAP,
 * here p1) announcing 10.70.0.0/16, 10.71.0.0/16 and 2001:db8:70::/48: the
 * IPv6 route's gateway is the peer's link-local address. */
static void test_zebra84_bgp(void **state)
{
	char path[512];
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";

	(void)state;
	fib_put_own("10.60.0.0/24", FWD_ORIGIN_ADDRESS);
	fib_put_own("2001:db8:60::/64", FWD_ORIGIN_ADDRESS);
	fib_put_own("fe80::/64", FWD_ORIGIN_ADDRESS);
	p1_ifindex = 2;
	snprintf(path, sizeof(path), "%s/tests/unit/data/fpm/zebra84-bgp.bin", src);
	assert_int_equal(feed_file(path, fpm_table_apply), 12);
	assert_via("10.70.0.0/16", 0, "10.60.0.2");
	assert_via("10.71.0.0/16", 0, "10.60.0.2");
	assert_int_equal(fib_get("10.70.0.0/16")->origin, FWD_ORIGIN_BGP);
	assert_int_equal(fib_get("10.70.0.0/16")->nh[0].dev, 1);
	assert_via("2001:db8:70::/48", 0, "fe80::5874:98ff:fe29:217e");
	assert_int_equal(fib_get("2001:db8:70::/48")->nh[0].dev, 1);
	assert_int_equal(fib_get("2001:db8:70::/48")->origin, FWD_ORIGIN_BGP);
	assert_int_equal(fpm_stats.ctr[FPM_C_CONNECTED], 3);
	assert_int_equal(fpm_stats.installed, 3);
	assert_int_equal(fpm_stats.installed_by_origin[FWD_ORIGIN_BGP], 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_route_v4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_route_v6_link_local, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vlan_loopback_oif, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multipath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nexthop_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_change_in_slices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_del_and_new_in_one_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_types_tables_skips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vrf_by_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vrf_netns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_encap_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_origins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_headers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shadowing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_connected_echo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_install_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_reuses_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_in_slices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_captured_streams, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zebra84_static, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zebra84_bgp, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
