/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Kernel ifindexes of control-plane interfaces back to fwd's interfaces
 * (cp/ifmap.c): ports and interface ids far above them (VLANs, loopbacks),
 * a recreated TAP's new index, a stale index mapping to nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cp/ifmap.h"

static int teardown(void **state)
{
	(void)state;
	cp_ifmap_clear();
	return 0;
}

static void test_ports_and_ifaces(void **state)
{
	(void)state;
	assert_int_equal(cp_ifmap_port(7), -1);
	assert_int_equal(cp_ifmap_set(0, 7), 0);
	assert_int_equal(cp_ifmap_set(4000, 8), 0); /* a VLAN interface's id */
	assert_int_equal(cp_ifmap_set(65535, 9), 0);
	assert_int_equal(cp_ifmap_port(7), 0);
	assert_int_equal(cp_ifmap_port(8), 4000);
	assert_int_equal(cp_ifmap_port(9), 65535);
	assert_int_equal(cp_ifmap_port(0), -1); /* no RTA_OIF */
	assert_int_equal(cp_ifmap_port(10), -1);
}

/* A TAP recreated (reload, a restart) has a new index: the old one is
 * stale and maps to nothing; an index the kernel hands to another
 * interface later moves to it. */
static void test_recreated(void **state)
{
	(void)state;
	assert_int_equal(cp_ifmap_set(100, 20), 0);
	assert_int_equal(cp_ifmap_set(100, 21), 0);
	assert_int_equal(cp_ifmap_port(20), -1);
	assert_int_equal(cp_ifmap_port(21), 100);
	assert_int_equal(cp_ifmap_set(100, 0), 0); /* gone */
	assert_int_equal(cp_ifmap_port(21), -1);
	assert_int_equal(cp_ifmap_set(101, 22), 0);
	assert_int_equal(cp_ifmap_set(102, 22), 0); /* 101's record was stale */
	assert_int_equal(cp_ifmap_port(22), 102);
	assert_int_equal(cp_ifmap_set(101, 0), 0); /* 101 does not take 102's */
	assert_int_equal(cp_ifmap_port(22), 102);
}

/* Thousands of VLAN interfaces each with its kernel interface. */
static void test_many(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(cp_ifmap_set((uint16_t)(32 + i), 1000 + i), 0);
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(cp_ifmap_port(1000 + i), (int)(32 + i));
	for (uint32_t i = 0; i < 5000; i += 2)
		assert_int_equal(cp_ifmap_set((uint16_t)(32 + i), 0), 0);
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(cp_ifmap_port(1000 + i), i % 2 ? (int)(32 + i) : -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ports_and_ifaces, teardown),
		cmocka_unit_test_teardown(test_recreated, teardown),
		cmocka_unit_test_teardown(test_many, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
