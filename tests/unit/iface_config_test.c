/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interfaces[] in fwd.yaml (iface/iface_config.c, iface_check*.c): a good
 * file loads into the section the module owns, `config show` writes only
 * the keys not at their default and reads back equal, and each mistake is
 * reported at its file:line:col.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_test_util.h"
#include "iface/iface_config.h"

#define HEAD                                                                         \
	"ports:\n"                                                                   \
	"  - { name: p0, device: net_null0, mtu: 9000, addresses: [10.0.0.1/24] }\n" \
	"  - { name: p1, device: net_null1, mode: xconnect, peer: p2 }\n"            \
	"  - { name: p2, device: net_null2, mode: xconnect, peer: p1 }\n"            \
	"bridges: [ { name: br0 } ]\n"                                               \
	"acls: [ { name: a } ]\n"

static const char good[] = HEAD
        "interfaces:\n"
        "  - { name: p0.100, port: p0, vlan: 100, mtu: 1500, ra: true, rpf: strict, acl_in: a, "
        "tap: true, addresses: [10.100.0.1/24, \"2001:db8:100::1/64\"] }\n"
        "  - { name: p0.200, port: p0, vlan: 200, mode: bridge, bridge: br0 }\n"
        "  - { name: lo0, loopback: true, addresses: [192.0.2.1/32, \"2001:db8:ff::1/128\"], "
        "tap: true }\n";

static void test_good(void **state)
{
	struct fwd_config *cfg = load_good_str(good);
	const struct iface_conf *s = iface_conf(cfg);
	const struct fwd_conf_iface *v = iface_conf_find(cfg, "p0.100");
	const struct fwd_conf_iface *b = iface_conf_find(cfg, "p0.200");
	const struct fwd_conf_iface *lo = iface_conf_find(cfg, "lo0");

	(void)state;
	assert_int_equal(s->n, 3);
	assert_non_null(v);
	assert_non_null(b);
	assert_non_null(lo);
	assert_string_equal(v->port, "p0");
	assert_int_equal(v->vlan, 100);
	assert_int_equal(v->n_addresses, 2);
	assert_int_equal(v->rpf, FWD_RPF_STRICT);
	assert_true(v->ra && v->tap);
	assert_string_equal(v->acl_in, "a");
	assert_int_equal(iface_conf_mtu(cfg, v), 1500);
	assert_int_equal(iface_conf_mtu(cfg, b), 9000); /* the port's */
	assert_int_equal(b->mode, FWD_MODE_BRIDGE);
	assert_string_equal(b->bridge, "br0");
	assert_true(lo->loopback && lo->tap);
	assert_int_equal(lo->vlan, 0);
	assert_int_equal(lo->n_addresses, 2);
	assert_null(iface_conf_find(cfg, "p0"));
	fwd_config_free(cfg);
}

/* a VLAN's subnet is connected: a route's gateway on it is accepted */
static void test_gateway_on_vlan(void **state)
{
	static const char text[] =
	        HEAD "interfaces:\n"
	             "  - { name: v, port: p0, vlan: 7, addresses: [10.7.0.1/24, "
	             "\"2001:db8:7::1/64\"] }\n"
	             "routes:\n"
	             "  - { prefix: 198.51.100.0/24, via: 10.7.0.2 }\n"
	             "  - { prefix: \"2001:db8:99::/48\", via: \"2001:db8:7::2\" }\n";
	struct fwd_config *cfg = load_good_str(text);
	char *msg = NULL;

	(void)state;
	fwd_config_free(cfg);
	/* without the VLAN's address, the same gateway is off-link */
	cfg = load_str(HEAD "interfaces:\n  - { name: v, port: p0, vlan: 7 }\nroutes:\n"
	                    "  - { prefix: 198.51.100.0/24, via: 10.7.0.2 }\n",
	               &msg);
	assert_null(cfg);
	assert_non_null(strstr(msg, "gateway 10.7.0.2 is not on a connected subnet"));
	free(msg);
}

/* only keys away from their default; loads back equal */
static void test_emit(void **state)
{
	struct fwd_config *cfg = load_good_str(good), *none = load_good_str(HEAD);
	char *text = emit_text(cfg), *plain = emit_text(none);
	const char *lo = strstr(text, "name: \"lo0\"");

	(void)state;
	assert_round_trip(cfg);
	assert_round_trip(none);
	assert_null(strstr(plain, "interfaces")); /* none: not even "interfaces: []" */
	assert_non_null(strstr(text, "interfaces:"));
	assert_non_null(lo);
	assert_null(strstr(lo, "vlan:"));
	assert_null(strstr(lo, "mode:"));
	assert_null(strstr(lo, "mtu:"));
	assert_non_null(strstr(text, "vlan: 200"));
	assert_non_null(strstr(text, "rpf: strict"));
	assert_false(fwd_config_sections_equal(cfg, none));
	free(text);
	free(plain);
	fwd_config_free(cfg);
	fwd_config_free(none);
}

/* copies (the running config) own their section */
static void test_copy(void **state)
{
	struct fwd_config *cfg = load_good_str(good), *cp = malloc(sizeof(*cp));

	(void)state;
	assert_non_null(cp);
	*cp = *cfg;
	memset(&cp->dpdk, 0, sizeof(cp->dpdk));
	cp->routes = NULL;
	cp->neighs = NULL;
	cp->n_routes = cp->n_neighs = 0;
	assert_int_equal(fwd_config_dup_sections(cp, cfg), 0);
	assert_ptr_not_equal(iface_conf(cp)->ifaces, iface_conf(cfg)->ifaces);
	assert_true(fwd_config_sections_equal(cp, cfg));
	iface_conf_mut(cp)->ifaces[0].vlan = 101;
	assert_false(fwd_config_sections_equal(cp, cfg));
	fwd_config_free(cfg);
	fwd_config_free(cp);
}

struct bad {
	const char *items; /* the interfaces[] entries after HEAD and "interfaces:\n" */
	const char *msg;   /* the first message, with its position */
};

/* HEAD is 6 lines, "interfaces:" line 7: the first item is on line 8 */
static const struct bad bad[] = {
	{ "  - { name: p0.100, port: p0, vlan: 100 }\n  - { name: x, port: p0, vlan: 100 }\n",
	  "mem.yaml:9:32: interfaces[1].vlan: VLAN 100 of port p0 is already interface "
	  "'p0.100' (line 8)" },
	{ "  - { name: v1, port: p0, vlan: 1 }\n  - { name: v1, port: p0, vlan: 2 }\n",
	  "mem.yaml:9:13: interfaces[1].name: duplicate interface name 'v1' (first at line 8)" },
	{ "  - { name: p0, port: p0, vlan: 1 }\n",
	  "mem.yaml:8:13: interfaces[0].name: 'p0' is already the name of a port (line 2)" },
	{ "  - { name: br0, loopback: true }\n",
	  "mem.yaml:8:13: interfaces[0].name: 'br0' is already the name of a bridge (line 5)" },
	{ "  - { name: abcdefghijklmnop, loopback: true }\n",
	  "mem.yaml:8:13: interfaces[0].name: 'abcdefghijklmnop' is longer than 15 characters" },
	{ "  - { name: v, port: p9, vlan: 1 }\n",
	  "mem.yaml:8:22: interfaces[0].port: no such port 'p9'" },
	{ "  - { name: v, port: p1, vlan: 1 }\n",
	  "mem.yaml:8:22: interfaces[0].port: port 'p1' is an xconnect port" },
	{ "  - { name: v, port: p0, vlan: 4095 }\n",
	  "mem.yaml:8:32: interfaces[0].vlan: 4095 is out of range (1..4094)" },
	{ "  - { name: v, port: p0, vlan: 0 }\n",
	  "mem.yaml:8:32: interfaces[0].vlan: 0 is out of range (1..4094)" },
	{ "  - { name: v, port: p0 }\n",
	  "mem.yaml:8:5: interfaces[0]: a VLAN interface needs a 'port' and a 'vlan'" },
	{ "  - { name: v, port: p0, vlan: 5, mtu: 9001 }\n",
	  "mem.yaml:8:40: interfaces[0].mtu: 9001 is above the MTU of port p0 (9000)" },
	{ "  - { name: lo, loopback: true, vlan: 5 }\n",
	  "mem.yaml:8:39: interfaces[0].vlan: a loopback has no 'vlan'" },
	{ "  - { name: lo, loopback: true, port: p0 }\n",
	  "mem.yaml:8:39: interfaces[0].port: a loopback has no 'port'" },
	{ "  - { name: lo, loopback: true, mode: l3 }\n",
	  "mem.yaml:8:39: interfaces[0].mode: a loopback has no 'mode'" },
	{ "  - { name: v, port: p0, vlan: 5, mode: xconnect }\n",
	  "mem.yaml:8:41: interfaces[0].mode: a VLAN interface is l3 or bridge" },
	{ "  - { name: v, port: p0, vlan: 5, mode: bridge, bridge: br9 }\n",
	  "mem.yaml:8:57: interfaces[0].bridge: no such bridge 'br9'" },
	{ "  - { name: v, port: p0, vlan: 5, mode: bridge, bridge: br0, addresses: [10.9.0.1/24] "
	  "}\n",
	  "mem.yaml:8:73: interfaces[0].addresses: only l3 interfaces have 'addresses'" },
	{ "  - { name: v, port: p0, vlan: 5, acl_in: zz }\n",
	  "mem.yaml:8:43: interfaces[0].acl_in: no such ACL 'zz'" },
	/* a VLAN's subnet against a port's: reported at the VLAN (start-up adds
	 * the ports' first), not at the port */
	{ "  - { name: v, port: p0, vlan: 5, addresses: [10.9.0.1/24, 10.0.0.2/24] }\n",
	  "mem.yaml:8:60: interfaces[0].addresses[1]: subnet 10.0.0.0/24 is already connected "
	  "on port p0" },
	{ "  - { name: v1, port: p0, vlan: 5, addresses: [\"2001:db8:5::1/64\"] }\n"
	  "  - { name: v2, port: p0, vlan: 6, addresses: [10.6.0.1/24, \"2001:db8:5::2/64\"] }\n",
	  "mem.yaml:9:61: interfaces[1].addresses[1]: prefix 2001:db8:5::/64 is already "
	  "connected on interface v1" },
	{ "  - { name: v1, port: p0, vlan: 5, addresses: [10.5.0.1/24] }\n"
	  "  - { name: lo, loopback: true, addresses: [10.5.0.1/32] }\n",
	  "mem.yaml:9:45: interfaces[1].addresses[0]: address 10.5.0.1 is already configured "
	  "(on interface v1)" },
	{ "  - { name: v, port: p0, vlan: 5, addresses: [10.5.0.255/24] }\n",
	  "mem.yaml:8:47: interfaces[0].addresses[0]: 10.5.0.255/24 is the broadcast address of "
	  "its subnet" },
	{ "  - { name: lo, loopback: true, addresses: [10.0.0.1/32] }\n",
	  "mem.yaml:8:45: interfaces[0].addresses[0]: address 10.0.0.1 is already configured "
	  "(on port p0)" },
	{ "  - { name: lo, loopback: true, addresses: [10.0.0.2/24] }\n",
	  "mem.yaml:8:45: interfaces[0].addresses[0]: subnet 10.0.0.0/24 is already connected "
	  "on port p0" },
	{ "  - { name: a, loopback: true, addresses: [\"2001:db8::1/128\"] }\n"
	  "  - { name: lo, loopback: true, addresses: [\"2001:db8::1/128\"] }\n",
	  "mem.yaml:9:45: interfaces[1].addresses[0]: address 2001:db8::1 is already "
	  "configured (on interface a)" },
	{ "  - { name: lo, loopback: true, addresses: [0.0.0.0/0] }\n",
	  "mem.yaml:8:45: interfaces[0].addresses[0]: 0.0.0.0/0 is not usable on an interface" },
	{ "  - { name: lo, loopback: true, tapp: true }\n",
	  "mem.yaml:8:33: interfaces[0]: unknown key 'tapp' (did you mean 'tap'?)" },
};

static void test_bad(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(bad); i++) {
		char text[2048], *msg = NULL;
		struct fwd_config *cfg;

		snprintf(text, sizeof(text), "%sinterfaces:\n%s", HEAD, bad[i].items);
		cfg = load_str(text, &msg);
		if (cfg != NULL || strstr(msg, bad[i].msg) != msg)
			fail_msg("case %u: expected\n%s\ngot\n%s", i, bad[i].msg, msg);
		free(msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good), cmocka_unit_test(test_gateway_on_vlan),
		cmocka_unit_test(test_emit), cmocka_unit_test(test_copy),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
