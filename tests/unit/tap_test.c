/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the frames the kernel writes on a control-plane port's TAP go
 * (cp/tap_class.c: tap_down_class).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cp/tap.h"

static const uint8_t ours6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

static bool local4(uint16_t iface, uint32_t ip)
{
	(void)iface;
	return ip == 0x0a000001; /* 10.0.0.1 */
}

static bool local6(uint16_t iface, const uint8_t ip[16])
{
	(void)iface;
	return memcmp(ip, ours6, 16) == 0;
}

static uint8_t f[2048];

/* An IPv4 frame src -> dst, proto, len bytes of IP. */
static unsigned frame4(uint32_t src, uint32_t dst, uint8_t proto, unsigned len)
{
	memset(f, 0, sizeof(f));
	f[12] = 0x08;
	f[14] = 0x45;
	f[16] = (uint8_t)(len >> 8), f[17] = (uint8_t)len;
	f[22] = 64, f[23] = proto;
	for (int i = 0; i < 4; i++) {
		f[26 + i] = (uint8_t)(src >> (24 - 8 * i));
		f[30 + i] = (uint8_t)(dst >> (24 - 8 * i));
	}
	return 14 + len;
}

/* An IPv6 frame from src to dst (ff02::x when group), ICMPv6 of type. */
static unsigned frame6(const uint8_t src[16], bool group, uint8_t nh, uint8_t type)
{
	memset(f, 0, sizeof(f));
	f[12] = 0x86, f[13] = 0xdd;
	f[14] = 0x60;
	f[19] = 8; /* payload length */
	f[20] = nh;
	f[21] = 255;
	memcpy(f + 22, src, 16);
	f[38] = group ? 0xff : 0x20, f[39] = group ? 0x02 : 0x01, f[53] = 5;
	f[54] = type;
	return 14 + 40 + 8;
}

#define C(len, mtu) tap_down_class(f, (len), (mtu), local4, local6, 0)

static void test_ipv4(void **state)
{
	unsigned n;

	(void)state;
	n = frame4(0x0a000001, 0x0a000102, 6, 40);
	assert_int_equal(C(n, 1500), TAP_DOWN_ROUTE4);
	assert_int_equal(C(n, 39), TAP_DOWN_TOO_BIG);
	assert_int_equal(C(n - 1, 1500), TAP_DOWN_INVALID); /* cut short */
	n = frame4(0x0a000001, 0xe0000005, 89, 40);         /* OSPF hello */
	assert_int_equal(C(n, 1500), TAP_DOWN_LINK);
	n = frame4(0x0a000001, 0xffffffff, 17, 40);
	assert_int_equal(C(n, 1500), TAP_DOWN_LINK);
	n = frame4(0x0a000001, 0xef010101, 17, 40); /* wider multicast: not routed */
	assert_int_equal(C(n, 1500), TAP_DOWN_INVALID);
	n = frame4(0x0a000009, 0x0a000102, 6, 40); /* a source not ours */
	assert_int_equal(C(n, 1500), TAP_DOWN_NOT_OURS);
	n = frame4(0x0a000009, 0xe0000005, 89, 40);
	assert_int_equal(C(n, 1500), TAP_DOWN_NOT_OURS);
	f[14] = 0x44; /* IHL 4 */
	assert_int_equal(C(n, 1500), TAP_DOWN_INVALID);
}

static void test_ipv6(void **state)
{
	static const uint8_t other[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	static const uint8_t any[16];
	unsigned n;

	(void)state;
	n = frame6(ours6, false, 6, 0);
	assert_int_equal(C(n, 1500), TAP_DOWN_ROUTE6);
	n = frame6(ours6, true, 89, 0); /* OSPFv3 to ff02::5 */
	assert_int_equal(C(n, 1500), TAP_DOWN_ROUTE6);
	for (uint8_t type = 133; type <= 137; type++) {
		n = frame6(ours6, true, 58, type);
		assert_int_equal(C(n, 1500), TAP_DOWN_NDP);
	}
	n = frame6(ours6, false, 58, 129); /* echo reply */
	assert_int_equal(C(n, 1500), TAP_DOWN_ROUTE6);
	n = frame6(other, false, 6, 0);
	assert_int_equal(C(n, 1500), TAP_DOWN_NOT_OURS);
	n = frame6(any, true, 58, 143); /* MLD report before an address */
	assert_int_equal(C(n, 1500), TAP_DOWN_ROUTE6);
	n = frame6(any, false, 6, 0);
	assert_int_equal(C(n, 1500), TAP_DOWN_NOT_OURS);
	n = frame6(ours6, false, 6, 0);
	assert_int_equal(C(n, 47), TAP_DOWN_TOO_BIG);
	f[19] = 200; /* payload length beyond the frame */
	assert_int_equal(C(n, 1500), TAP_DOWN_INVALID);
	/* a hop-by-hop header running past the end */
	n = frame6(ours6, true, 0, 0);
	f[54] = 58, f[55] = 10;
	assert_int_equal(C(n, 1500), TAP_DOWN_INVALID);
}

static void test_other(void **state)
{
	(void)state;
	memset(f, 0, sizeof(f));
	f[12] = 0x08, f[13] = 0x06; /* ARP: the TAP is NOARP, fwd speaks ARP */
	assert_int_equal(C(42, 1500), TAP_DOWN_ARP);
	f[12] = 0x88, f[13] = 0xcc; /* LLDP */
	assert_int_equal(C(60, 1500), TAP_DOWN_INVALID);
	assert_int_equal(C(13, 1500), TAP_DOWN_INVALID);
	assert_int_equal(C(0, 1500), TAP_DOWN_INVALID);
	for (unsigned i = 0; i < TAP_DOWN_MAX; i++)
		assert_non_null(tap_down_names[i]);
}

/* A loopback's TAP has no link: what would go out of one is dropped, what
 * is routed is routed. */
static void test_nolink(void **state)
{
	unsigned n;

	(void)state;
	n = frame4(0x0a000001, 0x0a000102, 6, 40);
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_ROUTE4);
	n = frame4(0x0a000001, 0xe0000005, 89, 40); /* OSPF hello */
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_NO_LINK);
	n = frame4(0x0a000001, 0xffffffff, 17, 40);
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_NO_LINK);
	n = frame6(ours6, false, 6, 0); /* to 2001:db8::5: routed */
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_ROUTE6);
	n = frame6(ours6, true, 89, 0); /* OSPFv3 to ff02::5 */
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_NO_LINK);
	f[38] = 0xfe, f[39] = 0x80; /* to fe80::5 */
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_NO_LINK);
	n = frame6(ours6, true, 58, 135); /* NDP stays NDP */
	assert_int_equal(tap_down_nolink(C(n, 1500), f, n), TAP_DOWN_NDP);
	assert_int_equal(tap_down_nolink(TAP_DOWN_ROUTE6, f, 20), TAP_DOWN_ROUTE6);
}

static int owner4(uint32_t ip)
{
	return ip == 0xc0000201 ? 40 : -1; /* 192.0.2.1: a loopback's */
}

static int owner6(const uint8_t ip[16])
{
	return memcmp(ip, ours6, 16) == 0 ? 41 : -1;
}

/* Which interface a frame going up is for: a loopback's address takes it
 * to the loopback's TAP. */
static void test_up_owner(void **state)
{
	unsigned n;

	(void)state;
	n = frame4(0x0a000009, 0xc0000201, 6, 40);
	assert_int_equal(tap_up_owner(f, n, owner4, owner6), 40);
	assert_int_equal(tap_up_owner(f, 14 + 19, owner4, owner6), -1); /* cut short */
	n = frame4(0x0a000009, 0x0a000001, 6, 40);
	assert_int_equal(tap_up_owner(f, n, owner4, owner6), -1);
	n = frame6(ours6, false, 6, 0); /* to 2001:db8::5 */
	assert_int_equal(tap_up_owner(f, n, owner4, owner6), -1);
	memcpy(f + 38, ours6, 16); /* to ours6 */
	assert_int_equal(tap_up_owner(f, n, owner4, owner6), 41);
	assert_int_equal(tap_up_owner(f, 14 + 39, owner4, owner6), -1);
	f[12] = 0x08, f[13] = 0x06; /* ARP */
	assert_int_equal(tap_up_owner(f, n, owner4, owner6), -1);
	assert_int_equal(tap_up_owner(f, 10, owner4, owner6), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4),     cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_other),    cmocka_unit_test(test_nolink),
		cmocka_unit_test(test_up_owner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
