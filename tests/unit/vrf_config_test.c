/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vrfs[] and the vrf keys in fwd.yaml (vrf/vrf_config.c, vrf/vrf_check.c,
 * the interfaces' row in iface/): a good file loads, `config show` writes
 * the keys back and they load equal, the config's VRF numbering, and each
 * mistake reported at its file:line:col.
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
#include "vrf/vrf_config.h"

#define HEAD                                                                         \
	"vrfs:\n"                                                                    \
	"  - { name: blue, table: 10 }\n"                                            \
	"  - { name: red, table: 20 }\n"                                             \
	"bridges: [ { name: br0 } ]\n"                                               \
	"ports:\n"                                                                   \
	"  - { name: p0, device: net_null0, vrf: blue, addresses: [10.0.0.1/24] }\n" \
	"  - { name: p1, device: net_null1, vrf: red }\n"                            \
	"  - { name: p2, device: net_null2, mode: bridge, bridge: br0 }\n"

static const char good[] = HEAD "interfaces:\n"
                                "  - { name: p1.5, port: p1, vlan: 5, vrf: blue }\n"
                                "  - { name: lo0, loopback: true, vrf: red }\n"
                                "routes:\n"
                                "  - { prefix: 0.0.0.0/0, vrf: blue, next_vrf: default }\n"
                                "  - { prefix: 0.0.0.0/0, vrf: red, next_vrf: blue }\n"
                                "  - { prefix: 0.0.0.0/0, blackhole: true }\n"
                                "  - { prefix: 10.9.0.0/16, vrf: blue, via: 10.0.0.2 }\n"
                                "  - { prefix: 10.9.0.0/16, vrf: red, blackhole: true }\n";

static void test_good(void **state)
{
	struct fwd_config *cfg = load_good_str(good);
	const struct vrf_conf *s = vrf_conf(cfg);

	(void)state;
	assert_int_equal(s->n, 2);
	assert_string_equal(s->vrfs[0].name, "blue");
	assert_int_equal(s->vrfs[0].table, 10);
	assert_int_equal(s->vrfs[1].table, 20);
	assert_int_equal(vrf_conf_find(cfg, "red")->table, 20);
	assert_null(vrf_conf_find(cfg, "default"));
	assert_true(vrf_conf_known(cfg, "default"));
	assert_true(vrf_conf_known(cfg, ""));
	assert_false(vrf_conf_known(cfg, "green"));
	assert_string_equal(cfg->ports[0].vrf, "blue");
	assert_string_equal(cfg->ports[2].vrf, "");
	assert_string_equal(iface_conf_find(cfg, "p1.5")->vrf, "blue");
	assert_string_equal(iface_conf_find(cfg, "lo0")->vrf, "red");
	assert_string_equal(cfg->routes[0].next_vrf, "default");
	assert_string_equal(cfg->routes[1].vrf, "red");
	assert_int_equal(fwd_config_vrf_index(cfg, ""), 0);
	assert_int_equal(fwd_config_vrf_index(cfg, "default"), 0);
	assert_int_equal(fwd_config_vrf_index(cfg, "blue"), 1);
	assert_int_equal(fwd_config_vrf_index(cfg, "red"), 2);
	assert_int_equal(fwd_config_vrf_index(cfg, "green"), -1);
	fwd_config_free(cfg);
}

/* config show writes vrfs[] and every vrf key back; none without VRFs */
static void test_emit(void **state)
{
	struct fwd_config *cfg = load_good_str(good);
	struct fwd_config *none = load_good_str("ports: [ { name: p0, device: net_null0 } ]\n");
	char *text = emit_text(cfg), *plain = emit_text(none);

	(void)state;
	assert_round_trip(cfg);
	assert_round_trip(none);
	assert_non_null(strstr(text, "vrfs:"));
	assert_non_null(strstr(text, "next_vrf: \"default\""));
	assert_non_null(strstr(text, "vrf: \"red\""));
	/* no VRF keys (control.vrf_backend is a control key, written always) */
	assert_null(strstr(plain, "vrfs:"));
	assert_null(strstr(plain, " vrf:"));
	assert_null(strstr(plain, "next_vrf"));
	assert_false(fwd_config_sections_equal(cfg, none));
	free(text);
	free(plain);
	fwd_config_free(cfg);
	fwd_config_free(none);
}

/* the same subnet in two VRFs is fine, twice in one is not; a route's
 * gateway must be on a subnet of its own VRF */
static void test_overlap(void **state)
{
	static const char two[] = "vrfs: [ { name: blue, table: 10 }, { name: red, table: 20 } ]\n"
	                          "ports:\n"
	                          "  - { name: p0, device: net_null0, vrf: blue, addresses: "
	                          "[10.0.0.1/24, \"2001:db8::1/64\"] }\n"
	                          "  - { name: p1, device: net_null1, vrf: red, addresses: "
	                          "[10.0.0.1/24, \"2001:db8::1/64\"] }\n"
	                          "interfaces: [ { name: lo0, loopback: true, vrf: red, addresses: "
	                          "[192.0.2.1/32] } ]\n"
	                          "routes:\n"
	                          "  - { prefix: 10.9.0.0/16, vrf: blue, via: 10.0.0.2 }\n"
	                          "  - { prefix: 10.9.0.0/16, vrf: red, via: 10.0.0.3 }\n";
	char *msg = NULL;
	struct fwd_config *cfg = load_good_str(two);

	(void)state;
	fwd_config_free(cfg);
	cfg = load_str("vrfs: [ { name: blue, table: 10 } ]\n"
	               "ports:\n"
	               "  - { name: p0, device: net_null0, vrf: blue, addresses: [10.0.0.1/24] }\n"
	               "  - { name: p1, device: net_null1, vrf: blue, addresses: [10.0.0.2/24] }\n",
	               &msg);
	assert_null(cfg);
	assert_non_null(strstr(msg, "subnet 10.0.0.0/24 is already connected on port p0"));
	free(msg);
	cfg = load_str("vrfs: [ { name: blue, table: 10 } ]\n"
	               "ports:\n"
	               "  - { name: p0, device: net_null0, vrf: blue, addresses: [10.0.0.1/24] }\n"
	               "routes: [ { prefix: 10.9.0.0/16, via: 10.0.0.2 } ]\n",
	               &msg);
	assert_null(cfg); /* the gateway is blue's, the route the default VRF's */
	assert_non_null(
	        strstr(msg, "routes[0].via: gateway 10.0.0.2 is not on a connected subnet"));
	free(msg);
}

/* copies (the running config) own their section */
static void test_copy(void **state)
{
	struct fwd_config *a = load_good_str(good), *b = load_good_str(good);

	(void)state;
	assert_true(fwd_config_sections_equal(a, b));
	((struct fwd_conf_vrf *)vrf_conf(b)->vrfs)[1].table = 21;
	assert_false(fwd_config_sections_equal(a, b));
	fwd_config_free(a);
	fwd_config_free(b);
}

struct bad {
	const char *tail; /* after HEAD (8 lines: the first added line is 9) */
	const char *msg;  /* the first message, with its position */
};

static const struct bad bad[] = {
	{ "vrfs2: []\n", "mem.yaml:9:1: unknown key 'vrfs2'" },
	{ "routes:\n  - { prefix: 0.0.0.0/0, vrf: green, blackhole: true }\n",
	  "mem.yaml:10:31: routes[0].vrf: no such VRF 'green'" },
	{ "routes:\n  - { prefix: 0.0.0.0/0, vrf: blue, next_vrf: blue }\n",
	  "mem.yaml:10:47: routes[0].next_vrf: a route's next_vrf must be another VRF" },
	{ "routes:\n  - { prefix: 0.0.0.0/0, next_vrf: default }\n",
	  "mem.yaml:10:36: routes[0].next_vrf: a route's next_vrf must be another VRF" },
	{ "routes:\n  - { prefix: 0.0.0.0/0, next_vrf: green }\n",
	  "mem.yaml:10:36: routes[0].next_vrf: no such VRF 'green'" },
	{ "routes:\n  - { prefix: 0.0.0.0/0, next_vrf: blue, via: 10.0.0.2 }\n",
	  "mem.yaml:10:36: routes[0].next_vrf: a next_vrf route has no via, dev" },
	{ "routes:\n  - { prefix: 10.1.0.0/16, vrf: blue, blackhole: true }\n"
	  "  - { prefix: 10.1.0.0/16, vrf: blue, unreachable: true }\n",
	  "mem.yaml:11:15: routes[1].prefix: duplicate route for 10.1.0.0/16 (first at line 10)" },
	{ "routes:\n  - { prefix: 10.1.0.0/16, blackhole: true }\n"
	  "  - { prefix: 10.1.0.0/16, vrf: default, blackhole: true }\n",
	  "mem.yaml:11:15: routes[1].prefix: duplicate route for 10.1.0.0/16 (first at line 10)" },
	{ "interfaces:\n  - { name: v, port: p0, vlan: 5, vrf: green }\n",
	  "mem.yaml:10:40: interfaces[0].vrf: no such VRF 'green'" },
	{ "interfaces:\n  - { name: v, port: p0, vlan: 5, mode: bridge, bridge: br0, vrf: red }\n",
	  "mem.yaml:10:67: interfaces[0].vrf: only l3 interfaces are in a VRF" },
};

/* mistakes in the head itself: the whole file given */
static const struct bad bad_head[] = {
	{ "vrfs: [ { name: blue, table: 10 }, { name: blue, table: 11 } ]\n"
	  "ports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:44: vrfs[1].name: duplicate VRF name 'blue' (first at line 1)" },
	{ "vrfs: [ { name: blue, table: 10 }, { name: red, table: 10 } ]\n"
	  "ports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:56: vrfs[1].table: table 10 is VRF 'blue''s already (line 1)" },
	{ "vrfs: [ { name: blue, table: 254 } ]\nports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:30: vrfs[0].table: table 254 is reserved" },
	{ "vrfs: [ { name: blue, table: 255 } ]\nports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:30: vrfs[0].table: table 255 is reserved" },
	{ "vrfs: [ { name: blue, table: 0 } ]\nports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:30: vrfs[0].table: 0 is out of range" },
	{ "vrfs: [ { name: blue } ]\nports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:9: vrfs[0]: missing required key 'table'" },
	{ "vrfs: [ { name: default, table: 10 } ]\nports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:17: vrfs[0].name: 'default' is the VRF every interface is in" },
	{ "vrfs: [ { name: abcdefghijklmnop, table: 10 } ]\n"
	  "ports: [ { name: p0, device: net_null0 } ]\n",
	  "mem.yaml:1:17: vrfs[0].name: invalid value 'abcdefghijklmnop': a VRF's name has at most "
	  "15 characters" },
	{ "ports: [ { name: p0, device: net_null0, vrf: blue } ]\n",
	  "mem.yaml:1:46: ports[0].vrf: no such VRF 'blue'" },
	{ "vrfs: [ { name: blue, table: 10 } ]\n"
	  "ports: [ { name: p0, device: net_null0, mode: xconnect, peer: p1, vrf: blue },\n"
	  "         { name: p1, device: net_null1, mode: xconnect, peer: p0 } ]\n",
	  "mem.yaml:2:72: ports[0].vrf: only l3 interfaces are in a VRF" },
};

static void expect_bad(const char *text, const char *want, unsigned i)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_str(text, &msg);

	if (cfg != NULL || strstr(msg, want) != msg)
		fail_msg("case %u: expected\n%s\ngot\n%s", i, want, msg ? msg : "(loaded)");
	free(msg);
}

static void test_bad(void **state)
{
	char text[2048];

	(void)state;
	for (unsigned i = 0; i < N(bad); i++) {
		snprintf(text, sizeof(text), "%s%s", HEAD, bad[i].tail);
		expect_bad(text, bad[i].msg, i);
	}
	for (unsigned i = 0; i < N(bad_head); i++)
		expect_bad(bad_head[i].tail, bad_head[i].msg, 100 + i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good), cmocka_unit_test(test_emit),
		cmocka_unit_test(test_copy), cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
