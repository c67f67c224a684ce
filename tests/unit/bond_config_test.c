/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bonds[] in fwd.yaml (bond/bond_config.c): a bond adds its port after the
 * file's, with the bond's port keys, its members take its MTU; `config
 * show` writes the bond under bonds[] only and reads back equal; each
 * mistake (a member with a port key of its own, a port in two bonds, an
 * unknown member, an empty bond, a name a port has) is reported at its
 * file:line:col.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bond/bond_config.h"
#include "config_test_util.h"

#define HEAD                                                  \
	"ports:\n"                                            \
	"  - { name: p0, device: net_null0 }\n"               \
	"  - { name: p1, device: net_null1, rx_queues: 2 }\n" \
	"  - { name: p2, device: net_null2, addresses: [10.0.0.1/24] }\n"

static const char good[] =
        HEAD "bonds:\n"
             "  - { name: bond0, members: [p0, p1], lacp: true, lacp_rate: fast, hash: l34,\n"
             "      min_links: 2, mtu: 9000, addresses: [10.20.0.1/24, \"2001:db8::1/64\"] }\n";

static void test_good(void **state)
{
	struct fwd_config *cfg = load_good_str(good);
	const struct fwd_conf_bond *b = bond_conf_find(cfg, "bond0");
	const struct fwd_conf_port *p = fwd_config_port(cfg, "bond0");

	(void)state;
	assert_non_null(b);
	assert_int_equal(b->n_members, 2);
	assert_string_equal(b->members[1], "p1");
	assert_true(b->lacp);
	assert_int_equal(b->lacp_rate, BOND_RATE_FAST);
	assert_int_equal(b->hash, BOND_HASH_L34);
	assert_int_equal(b->min_links, 2);
	/* the bond's port: after the file's, its keys, no device */
	assert_int_equal(cfg->n_ports, 4);
	assert_ptr_equal(p, &cfg->ports[3]);
	assert_true(p->bond);
	assert_string_equal(p->device, "");
	assert_int_equal(p->mtu, 9000);
	assert_int_equal(p->n_addresses, 2);
	/* the members run at the bond's MTU */
	assert_int_equal(cfg->ports[0].mtu, 9000);
	assert_int_equal(cfg->ports[1].mtu, 9000);
	assert_int_equal(cfg->ports[2].mtu, 1500);
	assert_ptr_equal(bond_conf_of_member(cfg, "p1"), b);
	assert_null(bond_conf_of_member(cfg, "p2"));
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

static void test_defaults_and_show(void **state)
{
	struct fwd_config *cfg = load_good_str(HEAD "bonds: [ { name: bond0, members: [p0] } ]\n");
	const struct fwd_conf_bond *b = bond_conf_find(cfg, "bond0");
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_true(b->lacp);
	assert_int_equal(b->lacp_rate, BOND_RATE_SLOW);
	assert_int_equal(b->hash, BOND_HASH_L2);
	assert_int_equal(b->min_links, 1);
	assert_int_equal(fwd_config_port(cfg, "bond0")->mode, FWD_MODE_L3);
	assert_int_equal(fwd_config_emit(cfg, f), 0);
	fclose(f);
	/* under bonds[] only, never as a port without a device */
	assert_non_null(strstr(text, "bonds:"));
	assert_null(strstr(text, "- name: \"bond0\"\n    device"));
	if (strstr(strstr(text, "bonds:"), "name: \"bond0\"") == NULL)
		fail_msg("no bond0 under bonds:\n%s", text);
	free(text);
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

/* text must be refused with each of the messages (file:line:col included). */
static void expect_errors(const char *text, const char *const *want, unsigned n)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_str(text, &msg);

	if (cfg != NULL)
		fail_msg("loaded:\n%s", text);
	for (unsigned i = 0; i < n; i++)
		if (strstr(msg, want[i]) == NULL)
			fail_msg("no \"%s\" in:\n%s", want[i], msg);
	free(msg);
}

static void test_member_keys(void **state)
{
	static const char *const want[] = {
		"mem.yaml:4:",
		"ports[2].addresses: port is a member of bond bond0: a member keeps only its "
		"device "
		"and queue keys, 'addresses' is the bond's",
		"ports[0].mode: port is a member of bond bond1",
		"ports[1].mtu: port is a member of bond bond1",
	};

	(void)state;
	expect_errors("ports:\n"
	              "  - { name: p0, device: net_null0, mode: bridge, bridge: b }\n"
	              "  - { name: p1, device: net_null1, mtu: 9000 }\n"
	              "  - { name: p2, device: net_null2, addresses: [10.0.0.1/24] }\n"
	              "bridges: [ { name: b } ]\n"
	              "bonds:\n"
	              "  - { name: bond0, members: [p2] }\n"
	              "  - { name: bond1, members: [p0, p1] }\n",
	              want, N(want));
}

static void test_members(void **state)
{
	static const char *const want[] = {
		"bonds[1].members[0]: port 'p1' is already a member of bond bond0",
		"bonds[0].members[1]: 'p9' is not a port of ports[]",
		"bonds[1].members[2]: port 'p0' is already a member of bond bond1",
		"bonds[2].name: 'p2' is already the name of a port",
		"bonds[0].min_links: 3 is more than the bond's 2 members",
	};

	(void)state;
	expect_errors(HEAD "bonds:\n"
	                   "  - { name: bond0, members: [p1, p9], min_links: 3 }\n"
	                   "  - { name: bond1, members: [p1, p0, p0] }\n"
	                   "  - { name: p2, members: [p2] }\n",
	              want, N(want));
}

/* What the checks of ports say of a bond's port points at the bond. */
static void test_bond_port_errors(void **state)
{
	static const char *const want[] = {
		"mem.yaml:7:47: bonds[1].addresses[0]: subnet 10.20.0.0/24 is already connected on "
		"port bond0",
	};

	(void)state;
	expect_errors(HEAD "bonds:\n"
	                   "  - { name: bond0, members: [p0], addresses: [10.20.0.1/24] }\n"
	                   "  - { name: bond1, members: [p1], addresses: [10.20.0.2/24] }\n",
	              want, N(want));
}

/* A bond takes vrf: like a port (vrf/ checks the name); its members do not. */
static void test_vrf(void **state)
{
	static const char *const want[] = {
		"ports[0].vrf: port is a member of bond bond1",
		"bonds[0].vrf: no such VRF",
	};
	struct fwd_config *cfg =
	        load_good_str(HEAD "vrfs: [ { name: blue, table: 10 } ]\n"
	                           "bonds:\n"
	                           "  - { name: bond0, members: [p0, p1], vrf: blue,\n"
	                           "      addresses: [10.0.0.1/24] }\n");

	(void)state;
	/* the same subnet as p2's, in another VRF */
	assert_string_equal(fwd_config_port(cfg, "bond0")->vrf, "blue");
	assert_round_trip(cfg);
	fwd_config_free(cfg);
	expect_errors("ports:\n"
	              "  - { name: p0, device: net_null0, vrf: blue }\n"
	              "  - { name: p1, device: net_null1 }\n"
	              "vrfs: [ { name: blue, table: 10 } ]\n"
	              "bonds:\n"
	              "  - { name: bond0, members: [p1], vrf: red }\n"
	              "  - { name: bond1, members: [p0] }\n",
	              want, N(want));
}

static void test_empty(void **state)
{
	static const char *const want[] = {
		"mem.yaml:6:29: bonds[0].members: a bond needs at least one member port",
	};

	(void)state;
	expect_errors(HEAD "bonds:\n"
	                   "  - { name: bond0, members: [] }\n",
	              want, N(want));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),        cmocka_unit_test(test_defaults_and_show),
		cmocka_unit_test(test_member_keys), cmocka_unit_test(test_members),
		cmocka_unit_test(test_empty),       cmocka_unit_test(test_bond_port_errors),
		cmocka_unit_test(test_vrf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
