/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Interfaces named by routes[].dev and neighbors[].port in fwd.yaml: how
 * the checks find them (fwd_config_iface_index: a port by its index, an
 * interfaces[] entry beside the ports) and each wrong name reported at its
 * file:line:col.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_test_util.h"

#define HEAD                                                                \
	"ports:\n"                                                          \
	"  - { name: p0, device: net_null0, addresses: [10.0.0.1/24] }\n"   \
	"  - { name: p1, device: net_null1, addresses: [172.16.0.1/16] }\n" \
	"interfaces:\n"                                                     \
	"  - { name: p0.100, port: p0, vlan: 100 }\n"                       \
	"  - { name: lo0, loopback: true, addresses: [192.0.2.1/32] }\n"

static void test_index(void **state)
{
	struct fwd_config *cfg = load_good_str(HEAD);

	(void)state;
	assert_int_equal(fwd_config_iface_index(cfg, "p0"), 0);
	assert_int_equal(fwd_config_iface_index(cfg, "p1"), 1);
	assert_int_equal(fwd_config_iface_index(cfg, "p0.100"), FWD_MAX_PORTS);
	assert_int_equal(fwd_config_iface_index(cfg, "lo0"), FWD_MAX_PORTS + 1);
	assert_int_equal(fwd_config_iface_index(cfg, "p0.77"), -1);
	assert_int_equal(fwd_config_iface_index(cfg, ""), -1);
	assert_int_equal(fwd_config_port_index(cfg, "p0.100"), -1); /* ports only */
	fwd_config_free(cfg);
}

/* A port keeps working as before: routes and neighbours on p1. */
static void test_good(void **state)
{
	struct fwd_config *cfg = load_good_str(
	        HEAD "routes:\n"
	             "  - { prefix: 198.51.100.0/24, via: 172.16.0.2, dev: p1 }\n"
	             "neighbors:\n"
	             "  - { address: 10.0.0.2, mac: \"02:00:00:00:00:02\", port: p0 }\n");

	(void)state;
	assert_int_equal(cfg->n_routes, 1);
	assert_int_equal(cfg->n_neighs, 1);
	fwd_config_free(cfg);
}

struct bad {
	const char *tail; /* after HEAD (6 lines): line 7 on */
	const char *msg;  /* the first message, with its position */
};

static const struct bad bad[] = {
	{ "routes:\n  - { prefix: 198.51.100.0/24, via: 10.0.0.2, dev: p0.77 }\n",
	  "mem.yaml:8:52: routes[0].dev: no such port or interface 'p0.77'" },
	{ "routes:\n  - { prefix: 198.51.100.0/24, dev: p0.77 }\n",
	  "mem.yaml:8:37: routes[0].dev: no such port or interface 'p0.77'" },
	{ "routes:\n  - { prefix: 198.51.100.0/24, blackhole: true, dev: p0.100 }\n",
	  "mem.yaml:8:54: routes[0].dev: a blackhole route has no egress interface" },
	{ "neighbors:\n  - { address: 10.0.0.2, mac: \"02:00:00:00:00:02\", port: p0.77 }\n",
	  "mem.yaml:8:58: neighbors[0].port: no such port or interface 'p0.77'" },
};

static void test_bad(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(bad); i++) {
		char text[2048], *msg = NULL;
		struct fwd_config *cfg;

		snprintf(text, sizeof(text), "%s%s", HEAD, bad[i].tail);
		cfg = load_str(text, &msg);
		if (cfg != NULL || strstr(msg, bad[i].msg) != msg)
			fail_msg("case %u: expected\n%s\ngot\n%s", i, bad[i].msg, msg);
		free(msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
