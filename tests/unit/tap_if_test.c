/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the kernel interface of a port, a VLAN interface or a loopback
 * follows (cp/tap_if.c): which interfaces want one, and the view a TAP
 * syncs from (name, MAC, MTU, admin state, carrier, link).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/iface.h"
#include "core/ports.h"
#include "cp/tap_priv.h"

static uint16_t vlan, vlan_notap, lo;

static int setup(void **state)
{
	(void)state;
	fwd_iface_reset();
	memset(fwd_ports, 0, sizeof(fwd_ports));
	fwd_n_ports = 1;
	snprintf(fwd_ports[0].name, sizeof(fwd_ports[0].name), "p0");
	fwd_ports[0].mtu = 9000;
	fwd_ports[0].admin_up = 1;
	fwd_ports[0].link_up = true;
	fwd_ports[0].mac.addr_bytes[5] = 7;
	fwd_iface_port_sync(0);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 1500, &vlan), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.200", 0, 200, 0, &vlan_notap), 0);
	assert_int_equal(fwd_iface_loopback_add("lo0", &lo), 0);
	fwd_ifaces[vlan].tap = true;
	fwd_ifaces[lo].tap = true;
	return 0;
}

static void test_wanted(void **state)
{
	(void)state;
	assert_true(tap_if_wanted(vlan));
	assert_true(tap_if_wanted(lo));
	assert_false(tap_if_wanted(vlan_notap));
	fwd_ifaces[vlan_notap].tap = true;
	assert_true(tap_if_wanted(vlan_notap));
	fwd_ifaces[vlan_notap].mode = FWD_MODE_BRIDGE; /* a bridge member: none */
	assert_false(tap_if_wanted(vlan_notap));
	assert_false(tap_if_wanted(0)); /* a port's: ports[].tap, tap.c */
	assert_false(tap_if_wanted(FWD_MAX_IFACES - 1));
	assert_false(tap_if_wanted(UINT16_MAX));
}

static void test_vlan_view(void **state)
{
	struct tap_view v;

	(void)state;
	assert_true(tap_if_view(vlan, &v));
	assert_string_equal(v.name, "p0.100");
	assert_string_equal(tap_if_name(vlan), "p0.100");
	assert_non_null(v.mac);
	assert_int_equal(v.mac->addr_bytes[5], 7); /* the port's */
	assert_int_equal(v.mtu, 1500);
	assert_true(v.has_link && v.up && v.carrier);
	/* the link follows the port, the admin state the interface */
	fwd_ports[0].link_up = false;
	assert_true(tap_if_view(vlan, &v));
	assert_false(v.carrier);
	assert_true(v.up);
	fwd_ports[0].link_up = true;
	assert_int_equal(fwd_iface_set_admin(vlan, false), 0);
	assert_true(tap_if_view(vlan, &v));
	assert_false(v.up);
	assert_true(v.carrier);
	fwd_ports[0].admin_up = 0; /* the port down: no carrier on its VLANs */
	assert_true(tap_if_view(vlan, &v));
	assert_false(v.carrier);
	fwd_ports[0].admin_up = 1;
	assert_true(tap_if_view(vlan_notap, &v));
	assert_int_equal(v.mtu, 9000); /* the port's by default */
}

static void test_loopback_view(void **state)
{
	struct tap_view v;

	(void)state;
	fwd_ports[0].link_up = false;
	assert_true(tap_if_view(lo, &v));
	assert_string_equal(v.name, "lo0");
	assert_null(v.mac); /* the kernel's own */
	assert_false(v.has_link);
	assert_true(v.up && v.carrier); /* always */
	assert_true(v.mtu <= FRAME_MAX - 18);
}

static void test_gone(void **state)
{
	struct tap_view v;

	(void)state;
	assert_int_equal(fwd_iface_del(vlan), 0); /* the delete hook: no TAP, nothing */
	assert_false(tap_if_view(vlan, &v));
	assert_false(tap_if_wanted(vlan));
	assert_string_equal(tap_if_name(vlan), "?");
	assert_false(tap_if_view(FWD_MAX_IFACES, &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_wanted, setup),
		cmocka_unit_test_setup(test_vlan_view, setup),
		cmocka_unit_test_setup(test_loopback_view, setup),
		cmocka_unit_test_setup(test_gone, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
