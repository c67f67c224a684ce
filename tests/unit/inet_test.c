/* SPDX-License-Identifier: BSD-3-Clause */
/* Strict text forms of IPv4 addresses, prefixes and MACs (proto/fwd_inet.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "fwd_inet.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_ip4_good(void **state)
{
	static const struct {
		const char *s;
		uint32_t addr;
	} cases[] = {
		{ "0.0.0.0", 0 },
		{ "1.2.3.4", 0x01020304 },
		{ "10.0.0.1", 0x0a000001 },
		{ "255.255.255.255", 0xffffffff },
		{ "192.168.100.200", 0xc0a864c8 },
	};
	char buf[FWD_IP4_STRLEN];

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		uint32_t a = 0;

		assert_int_equal(fwd_ip4_parse(cases[i].s, &a), 0);
		assert_int_equal(a, cases[i].addr);
		assert_string_equal(fwd_ip4_fmt(a, buf), cases[i].s);
	}
}

static void test_ip4_bad(void **state)
{
	static const char *const bad[] = {
		"",           "1",         "1.2.3",    "1.2.3.4.5", "01.2.3.4",  "1.2.3.04",
		"1.2.3.256",  "256.0.0.0", "1.2.3.4 ", " 1.2.3.4",  "1.2.3.4x",  "1..3.4",
		"1.2.3.",     ".1.2.3",    "1.2.3.-1", "+1.2.3.4",  "0x1.2.3.4", "1.2.3.4/24",
		"1.2.3.1000", "1,2,3,4",   "a.b.c.d",  "1.2.3.4\n",
	};

	(void)state;
	for (size_t i = 0; i < N(bad); i++) {
		uint32_t a = 0x5a5a5a5a;

		assert_int_equal(fwd_ip4_parse(bad[i], &a), -EINVAL);
		assert_int_equal(a, 0x5a5a5a5a); /* nothing written */
	}
}

static void test_prefix_good(void **state)
{
	static const struct {
		const char *s;
		bool host_ok;
		uint32_t addr;
		uint8_t len;
		const char *fmt;
	} cases[] = {
		{ "0.0.0.0/0", false, 0, 0, "0.0.0.0/0" },
		{ "10.0.0.0/8", false, 0x0a000000, 8, "10.0.0.0/8" },
		{ "10.0.0.1/24", true, 0x0a000001, 24, "10.0.0.1/24" },
		{ "10.0.0.1/32", false, 0x0a000001, 32, "10.0.0.1/32" },
		{ "10.0.0.1", false, 0x0a000001, 32, "10.0.0.1/32" },
		{ "192.0.2.128/25", false, 0xc0000280, 25, "192.0.2.128/25" },
		{ "255.255.255.255/0", true, 0xffffffff, 0, "255.255.255.255/0" },
	};
	char buf[FWD_PREFIX4_STRLEN];

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct fwd_ip4_prefix p = { 0 };

		assert_int_equal(fwd_ip4_prefix_parse(cases[i].s, &p, cases[i].host_ok), 0);
		assert_int_equal(p.addr, cases[i].addr);
		assert_int_equal(p.len, cases[i].len);
		assert_string_equal(fwd_ip4_prefix_fmt(&p, buf), cases[i].fmt);
	}
}

static void test_prefix_bad(void **state)
{
	static const char *const bad[] = {
		"10.0.0.0/",   "10.0.0.0/33",  "10.0.0.0/033", "10.0.0.0/-1",  "10.0.0.0/08",
		"10.0.0.0/ 8", "10.0.0.0/8 ",  "/8",           "10.0.0/8",     "10.0.0.0/8/8",
		"10.0.0.0//8", "10.0.0.0/1e1", "10.0.0.0/+8",  "10.0.0.0/100", "",
	};

	(void)state;
	for (size_t i = 0; i < N(bad); i++) {
		struct fwd_ip4_prefix p = { 0x5a5a5a5a, 99 };

		assert_int_equal(fwd_ip4_prefix_parse(bad[i], &p, true), -EINVAL);
		assert_int_equal(p.len, 99);
	}
}

static void test_prefix_host_bits(void **state)
{
	struct fwd_ip4_prefix p;

	(void)state;
	assert_int_equal(fwd_ip4_prefix_parse("10.0.0.1/24", &p, false), -EINVAL);
	assert_int_equal(fwd_ip4_prefix_parse("10.0.0.1/24", &p, true), 0);
	assert_int_equal(fwd_ip4_prefix_parse("0.0.0.1/0", &p, false), -EINVAL);
	assert_int_equal(fwd_ip4_prefix_parse("10.0.0.128/25", &p, false), 0);
	assert_int_equal(fwd_ip4_prefix_parse("10.0.0.128/24", &p, false), -EINVAL);
}

static void test_mask_and_contains(void **state)
{
	struct fwd_ip4_prefix p = { 0x0a000000, 8 };
	struct fwd_ip4_prefix all = { 0, 0 };

	(void)state;
	assert_int_equal(fwd_ip4_mask(0), 0);
	assert_int_equal(fwd_ip4_mask(1), 0x80000000);
	assert_int_equal(fwd_ip4_mask(24), 0xffffff00);
	assert_int_equal(fwd_ip4_mask(32), 0xffffffff);
	assert_true(fwd_ip4_in_prefix(0x0a010203, &p));
	assert_false(fwd_ip4_in_prefix(0x0b000000, &p));
	assert_true(fwd_ip4_in_prefix(0xffffffff, &all));
}

static void test_mac(void **state)
{
	static const char *const bad[] = {
		"",
		"aa:bb:cc:dd:ee",
		"aa:bb:cc:dd:ee:ff:00",
		"aa-bb-cc-dd-ee-ff",
		"a:b:c:d:e:f",
		"aa:bb:cc:dd:ee:fg",
		"aabb.ccdd.eeff",
		"aa:bb:cc:dd:ee:ff ",
		" aa:bb:cc:dd:ee:ff",
		"aa:bb:cc:dd:ee:f",
		"aa:bb:cc:dd:eee:ff",
		"aa::cc:dd:ee:ff",
	};
	uint8_t mac[6], want[6] = { 0xaa, 0xbb, 0xcc, 0x0d, 0xee, 0x01 };
	char buf[FWD_MAC_STRLEN];

	(void)state;
	assert_int_equal(fwd_mac_parse("AA:bb:Cc:0D:ee:01", mac), 0);
	assert_memory_equal(mac, want, 6);
	assert_string_equal(fwd_mac_fmt(mac, buf), "aa:bb:cc:0d:ee:01");
	for (size_t i = 0; i < N(bad); i++) {
		memset(mac, 0x5a, sizeof(mac));
		assert_int_equal(fwd_mac_parse(bad[i], mac), -EINVAL);
		assert_int_equal(mac[0], 0x5a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ip4_good),
		cmocka_unit_test(test_ip4_bad),
		cmocka_unit_test(test_prefix_good),
		cmocka_unit_test(test_prefix_bad),
		cmocka_unit_test(test_prefix_host_bits),
		cmocka_unit_test(test_mask_and_contains),
		cmocka_unit_test(test_mac),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
