/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rules of ip6/addr6.c over a view of ports (the config's or the
 * running one): which addresses a port may take, which gateways, routes
 * and static neighbours are accepted, with the errno and the message an
 * operator reads. DAD of addresses: ndp_dad_test.c; addresses with their
 * connected routes in the FIB: route_test.c.
 *
 *   p0 l3  2001:db8:1::1/64
 *   p1 l3  2001:db8:2::1/64
 *   p2 l2
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>

#include "ip6/addr6.h"

static struct addr6_view view;
static char err[256];

static void ip(const char *s, uint8_t out[16])
{
	assert_int_equal(inet_pton(AF_INET6, s, out), 1);
}

static struct fwd_ip6_prefix pfx(const char *s, uint8_t len)
{
	struct fwd_ip6_prefix p = { .len = len };

	ip(s, p.addr);
	return p;
}

static int setup(void **state)
{
	(void)state;
	memset(&view, 0, sizeof(view));
	view.port = view.ports;
	view.n_ports = 3;
	view.port[0] = (struct addr6_view_port){ .name = "p0", .l3 = true, .n = 1 };
	view.port[0].a[0] = pfx("2001:db8:1::1", 64);
	view.port[1] = (struct addr6_view_port){ .name = "p1", .l3 = true, .n = 1 };
	view.port[1].a[0] = pfx("2001:db8:2::1", 64);
	view.port[2] = (struct addr6_view_port){ .name = "p2", .l3 = false };
	err[0] = '\0';
	return 0;
}

static int add(unsigned port, const char *a, uint8_t len)
{
	struct fwd_ip6_prefix p = pfx(a, len);

	return addr6_rule_add(&view, port, &p, err, sizeof(err));
}

#define ASSERT_ERR(call, code, text)                                          \
	do {                                                                  \
		err[0] = '\0';                                                \
		assert_int_equal((call), -(code));                            \
		if (strstr(err, (text)) == NULL)                              \
			fail_msg("message \"%s\" lacks \"%s\"", err, (text)); \
	} while (0)

static void test_add(void **state)
{
	(void)state;
	assert_int_equal(add(0, "2001:db8:1::2", 64), 0); /* another on p0's prefix */
	assert_int_equal(add(1, "2001:db8:3::1", 64), 0);
	ASSERT_ERR(add(0, "2001:db8:1::1", 64), EEXIST, "already configured (on port p0)");
	ASSERT_ERR(add(1, "2001:db8:1::9", 64), EEXIST, "already connected on port p0");
	ASSERT_ERR(add(0, "2001:db8:5::1", 0), EINVAL, "a /0");
	ASSERT_ERR(add(0, "ff02::1", 64), EINVAL, "not a unicast host address");
	ASSERT_ERR(add(0, "::", 64), EINVAL, "not a unicast host address");
	ASSERT_ERR(add(0, "::1", 128), EINVAL, "not a unicast host address");
	ASSERT_ERR(add(0, "::ffff:192.0.2.1", 120), EINVAL, "not a unicast host address");
	ASSERT_ERR(add(0, "fe80::1", 64), EINVAL, "is link-local");
	ASSERT_ERR(add(0, "2001:db8:7::", 64), EINVAL, "subnet-router anycast");
	assert_int_equal(add(0, "2001:db8:7::", 127), 0); /* a /127 has none (RFC 6164) */
	ASSERT_ERR(add(2, "2001:db8:9::1", 64), EINVAL, "port p2 is not an l3 port");
	ASSERT_ERR(add(5, "2001:db8:9::1", 64), ENODEV, "no such port");
	view.port[0].n = FWD_MAX_ADDRS;
	ASSERT_ERR(add(0, "2001:db8:9::1", 64), ENOSPC, "IPv6 addresses already");
}

static int gateway(const char *a, int dev, unsigned *port)
{
	uint8_t via[16];

	ip(a, via);
	return addr6_rule_gateway(&view, 0, via, dev, port, err, sizeof(err));
}

static void test_gateway(void **state)
{
	unsigned port = 99;

	(void)state;
	assert_int_equal(gateway("2001:db8:1::9", -1, &port), 0);
	assert_int_equal(port, 0);
	assert_int_equal(gateway("2001:db8:2::9", 1, &port), 0);
	assert_int_equal(port, 1);
	assert_int_equal(gateway("fe80::9", 1, &port), 0);
	assert_int_equal(port, 1);
	ASSERT_ERR(gateway("fe80::9", -1, &port), EINVAL, "link-local: say which port");
	ASSERT_ERR(gateway("2001:db8:1::9", 1, &port), ENETUNREACH, "connected prefix of p1");
	ASSERT_ERR(gateway("2001:db8:9::9", -1, &port), ENETUNREACH, "not on a connected prefix");
	ASSERT_ERR(gateway("2001:db8:1::1", -1, &port), EINVAL, "our own addresses (on port p0)");
	ASSERT_ERR(gateway("ff02::1", -1, &port), EINVAL, "not a unicast address");
	ASSERT_ERR(gateway("::", -1, &port), EINVAL, "not a unicast address");
	ASSERT_ERR(gateway("2001:db8:1::9", 2, &port), EINVAL, "not an l3 port");
}

static void test_route(void **state)
{
	struct fwd_ip6_prefix p = pfx("2001:db8:1::", 64);

	(void)state;
	ASSERT_ERR(addr6_rule_route(&view, 0, &p, err, sizeof(err)), EEXIST,
	           "connected prefix of port p0");
	p.len = 48;
	assert_int_equal(addr6_rule_route(&view, 0, &p, err, sizeof(err)), 0);
}

static int neigh(unsigned port, const char *a, const uint8_t *mac)
{
	uint8_t x[16];

	ip(a, x);
	return addr6_rule_neigh(&view, port, x, mac, err, sizeof(err));
}

static void test_neigh(void **state)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 9 };
	static const uint8_t mcast[6] = { 0x33, 0x33, 0, 0, 0, 1 };
	static const uint8_t zero[6];
	uint8_t x[16];

	(void)state;
	assert_int_equal(neigh(0, "2001:db8:1::9", mac), 0);
	assert_int_equal(neigh(0, "fe80::9", mac), 0);
	assert_int_equal(neigh(0, "2001:db8:1::9", NULL), 0);
	ASSERT_ERR(neigh(0, "2001:db8:2::9", mac), EINVAL, "not on a connected prefix of p0");
	ASSERT_ERR(neigh(0, "2001:db8:1::1", mac), EINVAL, "our own addresses (on port p0)");
	ASSERT_ERR(neigh(0, "ff02::1", mac), EINVAL, "not a unicast address");
	ASSERT_ERR(neigh(0, "2001:db8:1::9", mcast), EINVAL, "not a unicast MAC address");
	ASSERT_ERR(neigh(0, "2001:db8:1::9", zero), EINVAL, "not a unicast MAC address");
	ASSERT_ERR(neigh(2, "2001:db8:1::9", mac), EINVAL, "not an l3 port");
	/* without a message buffer: the code alone */
	ip("2001:db8:2::9", x);
	assert_int_equal(addr6_rule_neigh(&view, 0, x, mac, NULL, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_add, setup),
		cmocka_unit_test_setup(test_gateway, setup),
		cmocka_unit_test_setup(test_route, setup),
		cmocka_unit_test_setup(test_neigh, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
