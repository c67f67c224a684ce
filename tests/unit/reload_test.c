/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `config reload` against the running state: an in-process daemon (four
 * net_null l3 ports, workers not launched) reloaded from files, its
 * addresses, routes, FIB and neighbours dumped as text after each reload
 * and compared with a fresh start on the same file (every module's fini
 * and init: the tables made anew and the file applied from nothing).
 * Scenarios first (renumbering, swapping subnets, moving a gateway, the
 * same file twice, what fwdctl added, a reload that cannot be applied),
 * then a long random sequence of valid files.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "main/eal.h"
#include "main/lifecycle.h"
#include "core/log.h"
#include "core/module.h"
#include "core/reload.h"
#include "ip4/addr.h"
#include "iface/iface_config.h"
#include "ip6/addr6.h"
#include "core/running.h"
#include "route/route_core.h"
#include "ip6/route6.h"
#include "ip4/fib.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "ip4/rib.h"
#include "l3/l3.h"
#include "nexthop/neigh_priv.h"
#include "port/port.h"

#define DUMP_MAX    (1 << 16)
#define RANDOM_RUNS 150

/* the DPDK file prefix and the socket carry the pid: two make check runs at
 * once (two clones) must not share them (main() writes it) */
static char head[256];
#define HEAD_FMT                                                       \
	"dpdk: { lcores: \"0-1\", hugepages: false, memory_mb: 768,\n" \
	"        file_prefix: fwdrl-%d }\n"                            \
	"dataplane: { mbufs: 2047, fib_tbl8s: 256 }\n"                 \
	"control: { socket: /tmp/fwd-reload-test-%d.sock, socket_group: root }\n"

static char path[64];

/* The random sequence's VRFs: vrfs[] ("" none) and each port's `vrf` key
 * ("" none); conf() writes them, the scenarios leave them empty. */
static char conf_vrfs[128];
static char port_vrf[4][24];

/* The config text: head, then four l3 ports with the given address lists
 * (YAML flow lists without brackets), then rest. */
static const char *conf(const char *a0, const char *a1, const char *a2, const char *a3,
                        const char *rest)
{
	static char buf[1 << 16];

	snprintf(buf, sizeof(buf),
	         "%s%sports:\n"
	         "  - { name: p0, device: net_null0, %saddresses: [%s] }\n"
	         "  - { name: p1, device: net_null1, %saddresses: [%s] }\n"
	         "  - { name: p2, device: net_null2, %saddresses: [%s] }\n"
	         "  - { name: p3, device: net_null3, %saddresses: [%s] }\n%s",
	         head, conf_vrfs, port_vrf[0], a0, port_vrf[1], a1, port_vrf[2], a2, port_vrf[3],
	         a3, rest);
	return buf;
}

static void write_conf(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* ---------------------------------------------------------------- dumps */

static void dump_addrs(FILE *f)
{
	char buf[FWD_PREFIX4_STRLEN];

	for (unsigned p = 0; p < fwd_n_ports; p++)
		for (unsigned i = 0; i < ip4_addrs[p].n; i++)
			fprintf(f, "addr %s %s %s\n", fwd_ports[p].name,
			        fwd_ip4_prefix_fmt(&ip4_addrs[p].a[i], buf),
			        fwd_origin_name(ip4_addrs[p].origin[i]));
}

static void dump_routes(FILE *f)
{
	char buf[FWD_PREFIX4_STRLEN], via[FWD_IP4_STRLEN];

	for (struct rib4_node *n = rib4_next_route(&ip4_ribs[0], 0, 0, true); n != NULL;
	     n = rib4_next_route(&ip4_ribs[0], n->addr, n->len, false)) {
		struct fwd_ip4_prefix p = { n->addr, n->len };
		const struct route4 *r = &n->route;
		fprintf(f, "route %s type %u origin %s via %s dev %u port %u\n",
		        fwd_ip4_prefix_fmt(&p, buf), r->type, fwd_origin_name(r->origin),
		        fwd_ip4_fmt(r->via, via), r->dev,
		        (unsigned)(r->type == ROUTE4_VIA ? nh_table[r->nh].port : r->dev));
	}
}

/* What the FIB does with the hosts the tests use. */
static void dump_fib(FILE *f)
{
	static const uint32_t nets[] = { 0x0a000000, 0x0a000100, 0x0a000200, 0x0a000300, 0x0a000400,
		                         0x0a000700, 0x0a000800, 0x0a010000, 0xc0000200, 0xc6336400,
		                         0xcb007100, 0xac100000, 0x64400000, 0x08080800 };
	static const uint8_t hosts[] = { 0,  1,   2,   3,   4,   5,   7,   9,   10, 11,
		                         12, 100, 101, 102, 200, 201, 202, 254, 255 };
	char ip[FWD_IP4_STRLEN], nip[FWD_IP_STRLEN];

	for (unsigned k = 0; k < RTE_DIM(nets); k++)
		for (unsigned h = 0; h < RTE_DIM(hosts); h++) {
			uint32_t a = nets[k] | hosts[h];
			uint32_t i = fib4_lookup(ip4_fibs[0], a);
			const struct nexthop *nh = &nh_table[i];
			fprintf(f, "fib %s type %u port %u ip %s\n", fwd_ip4_fmt(a, ip), nh->type,
			        nh->type >= NH_LOCAL ? 0u : nh->port, fwd_ip_fmt(nh_addr(i), nip));
		}
}

static int neigh_cmp(const void *a, const void *b)
{
	const struct neigh *x = *(const struct neigh *const *)a,
	                   *y = *(const struct neigh *const *)b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->addr.v4 < y->addr.v4 ? -1 : x->addr.v4 > y->addr.v4;
}

/* In (port, address) order: the table's next-hop order depends on history. */
static void dump_neighs(FILE *f)
{
	char ip[FWD_IP4_STRLEN], mac[FWD_MAC_STRLEN];
	struct neigh *v[1024];
	unsigned n = 0;
	uint32_t pos = 0;

	for (struct neigh *e = neigh_iter(&pos); e != NULL && n < RTE_DIM(v); e = neigh_iter(&pos))
		v[n++] = e;
	qsort(v, n, sizeof(v[0]), neigh_cmp);
	for (unsigned i = 0; i < n; i++) {
		bool perm = v[i]->state == NEIGH_PERMANENT;
		fprintf(f, "neigh %s %s state %u refs %u mac %s origin %s\n",
		        fwd_ip4_fmt(v[i]->addr.v4, ip), fwd_iface_name(v[i]->port), v[i]->state,
		        v[i]->refs, perm ? fwd_mac_fmt(v[i]->mac.addr_bytes, mac) : "-",
		        perm ? fwd_origin_name(v[i]->origin) : "-");
	}
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define IFACE_LINES (2 * FWD_MAX_LOGICAL)

/* The interface table: every VLAN and loopback with what the file sets, and
 * the loopbacks' IPv4 addresses, by name (ids are the table's choice: a
 * reload may reuse others). */
static void dump_ifaces(FILE *f)
{
	static char lines[IFACE_LINES][160];
	static char *sorted[IFACE_LINES];
	char buf[FWD_PREFIX4_STRLEN];
	const struct fwd_iface *ifp;
	unsigned n = 0;

	FWD_IFACE_FOREACH(ifp)
	{
		if (ifp->type == FWD_IFACE_PORT || n == IFACE_LINES)
			continue;
		snprintf(lines[n], sizeof(lines[n]),
		         "iface %s type %u port %u vlan %u mtu %u mode %u admin %u\n", ifp->name,
		         ifp->type, ifp->port, ifp->vlan, ifp->mtu, ifp->mode, ifp->admin_up);
		sorted[n] = lines[n];
		n++;
		for (unsigned i = 0; i < ip4_addrs[ifp->id].n && n < IFACE_LINES; i++, n++) {
			snprintf(lines[n], sizeof(lines[n]), "addr %s %s %s\n", ifp->name,
			         fwd_ip4_prefix_fmt(&ip4_addrs[ifp->id].a[i], buf),
			         fwd_origin_name(ip4_addrs[ifp->id].origin[i]));
			sorted[n] = lines[n];
		}
	}
	qsort(sorted, n, sizeof(sorted[0]), line_cmp);
	for (unsigned i = 0; i < n; i++)
		fputs(sorted[i], f);
}

static char *dump(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	dump_addrs(f);
	dump_routes(f);
	dump_fib(f);
	dump_neighs(f);
	dump_ifaces(f);
	fclose(f);
	return text;
}

/* ------------------------------------------------------------ actions */

/* Reload the file at path; 0 or -errno with the message in err. */
static int reload(char *err, size_t errlen)
{
	struct fwd_reload_log log = { 0 };
	int rc = fwd_reload(path, &log, err, errlen);

	fwd_reload_log_free(&log);
	return rc;
}

static void reload_ok(void)
{
	char err[1024] = "";
	int rc = reload(err, sizeof(err));

	if (rc != 0)
		fail_msg("reload refused: %s", err);
}

/* The state after every module started anew on the file at path. */
static char *fresh_dump(void)
{
	struct fwd_config *cfg = fwd_config_load(path, stderr);

	assert_non_null(cfg);
	fwd_modules_fini();
	fwd_config_free(fwd.cfg);
	fwd.cfg = cfg;
	assert_int_equal(fwd_modules_init(cfg), 0);
	return dump();
}

/* On a difference: the config and a diff of the two states, on stderr. */
static void show_diff(const char *text, const char *a, const char *b)
{
	char pa[80], pb[80], cmd[200];
	FILE *f;

	snprintf(pa, sizeof(pa), "%s.reloaded", path);
	snprintf(pb, sizeof(pb), "%s.fresh", path);
	if ((f = fopen(pa, "w")) != NULL) {
		fputs(a, f);
		fclose(f);
	}
	if ((f = fopen(pb, "w")) != NULL) {
		fputs(b, f);
		fclose(f);
	}
	fprintf(stderr, "--- config\n%s--- diff reloaded fresh\n", text);
	snprintf(cmd, sizeof(cmd), "diff %s %s >&2", pa, pb);
	if (system(cmd) < 0)
		fprintf(stderr, "(diff did not run)\n");
	unlink(pa);
	unlink(pb);
}

/* Reload text, then check the state equals a fresh start on it. */
static void reload_and_compare(const char *text)
{
	char *after, *fresh;

	write_conf(text);
	reload_ok();
	after = dump();
	fresh = fresh_dump();
	if (strcmp(after, fresh) != 0) {
		show_diff(text, after, fresh);
		fail_msg("reload and fresh start differ");
	}
	free(after);
	free(fresh);
}

static bool has_line(const char *text, const char *line)
{
	const char *p = strstr(text, line);

	return p != NULL && (p == text || p[-1] == '\n');
}

static void assert_state_has(const char *line)
{
	char *d = dump();

	if (!has_line(d, line))
		fail_msg("state lacks \"%s\":\n%s", line, d);
	free(d);
}

static void assert_state_lacks(const char *line)
{
	char *d = dump();

	if (has_line(d, line))
		fail_msg("state has \"%s\"", line);
	free(d);
}

/* ----------------------------------------------------------- scenarios */

static const char *route_gw = "routes:\n  - { prefix: 0.0.0.0/0, via: 10.0.2.2 }\n";

/* The measured bug: renumbering p1 inside its subnet lost the default route for good. */
static void test_renumber_keeps_routes(void **state)
{
	(void)state;
	reload_and_compare(conf("10.0.1.1/24", "10.0.2.1/24", "", "", route_gw));
	reload_and_compare(conf("10.0.1.1/24", "10.0.2.9/24", "", "", route_gw));
	assert_state_has("route 0.0.0.0/0 type 1 origin config via 10.0.2.2 dev 65535 port 1");
	assert_state_has("addr p1 10.0.2.9/24 config");
	assert_state_lacks("addr p1 10.0.2.1/24 config");
	reload_and_compare(conf("10.0.1.1/24", "10.0.2.9/24", "", "", route_gw));
}

static void test_swap_subnets(void **state)
{
	(void)state;
	reload_and_compare(
	        conf("10.0.1.1/24", "10.0.2.1/24", "", "",
	             "routes:\n  - { prefix: 192.0.2.0/24, via: 10.0.1.2 }\n"
	             "neighbors:\n"
	             "  - { address: 10.0.1.7, mac: \"02:00:00:00:00:07\", port: p0 }\n"));
	reload_and_compare(
	        conf("10.0.2.1/24", "10.0.1.1/24", "", "",
	             "routes:\n  - { prefix: 192.0.2.0/24, via: 10.0.1.2 }\n"
	             "neighbors:\n"
	             "  - { address: 10.0.1.7, mac: \"02:00:00:00:00:07\", port: p1 }\n"));
	assert_state_has("route 192.0.2.0/24 type 1 origin config via 10.0.1.2 dev 65535 port 1");
	assert_state_has("neigh 10.0.1.7 p1 state 4 refs 0 mac 02:00:00:00:00:07 origin config");
}

static void test_move_gateway(void **state)
{
	(void)state;
	reload_and_compare(conf("10.0.1.1/24", "10.0.2.1/24", "10.0.3.1/24", "",
	                        "routes:\n  - { prefix: 198.51.100.0/24, via: 10.0.1.2 }\n"));
	/* the gateway's subnet moves to p2; the route follows it */
	reload_and_compare(conf("10.0.4.1/24", "10.0.2.1/24", "10.0.1.1/24", "",
	                        "routes:\n  - { prefix: 198.51.100.0/24, via: 10.0.1.2 }\n"));
	assert_state_has(
	        "route 198.51.100.0/24 type 1 origin config via 10.0.1.2 dev 65535 port 2");
	/* the route moves to a gateway on another port's subnet */
	reload_and_compare(conf("10.0.4.1/24", "10.0.2.1/24", "10.0.1.1/24", "",
	                        "routes:\n  - { prefix: 198.51.100.0/24, via: 10.0.2.2 }\n"));
	assert_state_has(
	        "route 198.51.100.0/24 type 1 origin config via 10.0.2.2 dev 65535 port 1");
}

static void test_same_file_twice(void **state)
{
	struct fwd_reload_log log = { 0 };
	char err[256];
	const char *text = conf("10.0.1.1/24, 10.0.5.1/30", "10.0.2.1/24", "", "",
	                        "routes:\n  - { prefix: 0.0.0.0/0, via: 10.0.2.2 }\n"
	                        "  - { prefix: 203.0.113.0/24, blackhole: true }\n");

	(void)state;
	reload_and_compare(text);
	write_conf(text);
	assert_int_equal(fwd_reload(path, &log, err, sizeof(err)), 0);
	assert_int_equal(log.n, 0); /* nothing to do */
	fwd_reload_log_free(&log);
}

/* What fwdctl added stays, unless the file now says otherwise about it. */
static void test_rpc_changes(void **state)
{
	struct fwd_ip4_prefix a = { 0x0a000801, 24 }; /* 10.0.8.1/24 */
	struct route4_req r = { .prefix = { 0xc0000200, 24 },
		                .type = ROUTE4_VIA,
		                .n_via = 1,
		                .via = { 0x0a000802 },
		                .dev = { -1 },
		                .origin = FWD_ORIGIN_RPC };
	char err[256];

	(void)state;
	reload_and_compare(conf("10.0.1.1/24", "", "", "", ""));
	assert_int_equal(addr4_add(1, &a, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_int_equal(route4_add(&r, err, sizeof(err)), 0);
	write_conf(conf("10.0.1.1/24", "10.0.2.1/24", "", "", ""));
	reload_ok();
	assert_state_has("addr p1 10.0.8.1/24 rpc");
	assert_state_has("route 192.0.2.0/24 type 1 origin rpc via 10.0.8.2 dev 65535 port 1");
	/* the file puts the subnet on p2: fwdctl's address and its route go */
	write_conf(conf("10.0.1.1/24", "10.0.2.1/24", "10.0.8.9/24", "", ""));
	reload_ok();
	assert_state_lacks("addr p1 10.0.8.1/24 rpc");
	assert_state_has("route 192.0.2.0/24 type 1 origin rpc via 10.0.8.2 dev 65535 port 2");
	/* a config route deleted by fwdctl comes back: the running state is the reference */
	write_conf(conf("10.0.1.1/24", "10.0.2.1/24", "", "", route_gw));
	reload_ok();
	struct fwd_ip4_prefix def = { 0, 0 };
	assert_int_equal(route4_del(0, &def, err, sizeof(err)), 0);
	reload_ok();
	assert_state_has("route 0.0.0.0/0 type 1 origin config via 10.0.2.2 dev 65535 port 1");
}

/* A reload whose routes do not fit the FIB is refused with nothing changed. */
static void test_refused_reload_changes_nothing(void **state)
{
	static char rest[1 << 15];
	char *before, *after, err[1024] = "";
	size_t len = 0;

	(void)state;
	reload_and_compare(conf("10.0.1.1/24", "10.0.2.1/24", "", "", route_gw));
	before = dump();
	/* 300 /25 routes in 300 /24s need 300 tbl8 groups: there are 256 */
	len += (size_t)snprintf(rest + len, sizeof(rest) - len, "routes:\n");
	for (unsigned i = 0; i < 300; i++)
		len += (size_t)snprintf(rest + len, sizeof(rest) - len,
		                        "  - { prefix: 100.%u.%u.0/25, via: 10.0.1.%u }\n",
		                        64 + i / 256, i % 256, 2 + i % 3);
	write_conf(conf("10.0.1.9/24", "10.0.3.1/24", "", "", rest));
	assert_int_equal(reload(err, sizeof(err)) < 0, 1);
	assert_non_null(strstr(err, "FIB full"));
	assert_non_null(strstr(err, "nothing was changed"));
	after = dump();
	assert_string_equal(before, after);
	free(before);
	free(after);
}

/* ------------------------------------------------------ random sequence */

static unsigned rnd(unsigned n)
{
	return (unsigned)random() % n;
}

/* Subnet j of the test: 10.0.j.0/24, and 10.1.0.0/30 for j = 5. */
static void subnet_addr(unsigned j, unsigned host, char *out, size_t len)
{
	if (j == 5)
		snprintf(out, len, "10.1.0.%u/30", 1 + host % 2);
	else
		snprintf(out, len, "10.0.%u.%u/24", j, host);
}

/* The VRFs of the random files: default always, blue and red each in some
 * files (a file without one deletes it and moves what was in it). */
static const char *const vrf_names[] = { "default", "blue", "red" };
static const unsigned vrf_tables[] = { 254, 10, 20 };

/* vrfs[] of a random file into conf_vrfs; the VRFs it has, bit k for vrf_names[k]. */
static unsigned random_vrfs(void)
{
	unsigned have = 1;
	size_t len = 0;

	conf_vrfs[0] = '\0';
	for (unsigned k = 1; k < RTE_DIM(vrf_names); k++) {
		if (rnd(2) == 0)
			continue;
		have |= 1u << k;
		len += (size_t)snprintf(conf_vrfs + len, sizeof(conf_vrfs) - len,
		                        "%s  - { name: %s, table: %u }\n", len ? "" : "vrfs:\n",
		                        vrf_names[k], vrf_tables[k]);
	}
	return have;
}

/* One of the VRFs in have, at random. */
static unsigned pick_vrf(unsigned have)
{
	unsigned k;

	do
		k = rnd(RTE_DIM(vrf_names));
	while (!(have & (1u << k)));
	return k;
}

/* ", vrf: NAME" (nothing, or "vrf: default" once in a while, for the default) */
static const char *vrf_key(unsigned k, char *buf, size_t len)
{
	if (k == 0 && rnd(4) != 0)
		return "";
	snprintf(buf, len, ", vrf: %s", vrf_names[k]);
	return buf;
}

/* interfaces[]: some of v0..v3 (a port and VLAN each, maybe an MTU; a
 * name may move to another VLAN between files) and of lo0..lo1, with some
 * of three addresses (which may move between them); each in a VRF of have. */
static void random_ifaces(char *out, size_t size, unsigned have)
{
	char vk[24];
	unsigned used = 0, owner[3];
	char lo_addrs[2][80] = { "", "" };
	size_t len = (size_t)snprintf(out, size, "interfaces:\n");

	for (unsigned k = 0; k < 4; k++) {
		unsigned port = rnd(4), vlan = 10 + rnd(3), bit = 1u << (port * 3 + vlan - 10);

		if (rnd(2) == 0 || (used & bit))
			continue;
		used |= bit;
		len += (size_t)snprintf(out + len, size - len,
		                        "  - { name: v%u, port: p%u, vlan: %u%s%s }\n", k, port,
		                        vlan, rnd(3) == 0 ? ", mtu: 1400" : "",
		                        vrf_key(pick_vrf(have), vk, sizeof(vk)));
	}
	for (unsigned j = 0; j < 3; j++) {
		char *l = (owner[j] = rnd(3)) > 0 ? lo_addrs[owner[j] - 1] : NULL;

		if (l != NULL)
			snprintf(l + strlen(l), sizeof(lo_addrs[0]) - strlen(l), "%s198.18.0.%u/32",
			         l[0] ? ", " : "", j + 1);
	}
	for (unsigned k = 0; k < 2; k++)
		if (rnd(2) == 0)
			len += (size_t)snprintf(
			        out + len, size - len,
			        "  - { name: lo%u, loopback: true, addresses: [%s]%s }\n", k,
			        lo_addrs[k], vrf_key(pick_vrf(have), vk, sizeof(vk)));
	if (len == strlen("interfaces:\n"))
		out[0] = '\0';
}

/* Port p's VRF and the `vrf` key conf() writes for it. */
static unsigned random_port_vrf(unsigned p, unsigned have)
{
	unsigned k = pick_vrf(have);

	port_vrf[p][0] = '\0';
	if (k != 0 || rnd(4) == 0)
		snprintf(port_vrf[p], sizeof(port_vrf[p]), "vrf: %s, ", vrf_names[k]);
	return k;
}

/* "  - { prefix: P, vrf: A, next_vrf: B }" with A and B two VRFs of have,
 * or nothing when have is the default only. */
static size_t next_vrf_route(char *out, size_t size, const char *prefix, unsigned have)
{
	unsigned a = pick_vrf(have), b = pick_vrf(have);
	char vk[24];

	if (have == 1)
		return 0;
	while (b == a)
		b = pick_vrf(have);
	return (size_t)snprintf(out, size, "  - { prefix: %s%s, next_vrf: %s }\n", prefix,
	                        vrf_key(a, vk, sizeof(vk)), vrf_names[b]);
}

/* A valid file: each subnet on at most one port, routes via hosts of them
 * (in their port's VRF), blackholes and next_vrf routes in any VRF. */
static const char *random_conf(void)
{
	static const char *const pool[] = { "0.0.0.0/0",      "192.0.2.0/24",  "198.51.100.0/24",
		                            "203.0.113.0/25", "172.16.0.0/12", "100.64.0.0/10",
		                            "8.8.8.0/24",     "10.0.7.0/24" };
	static char addrs[4][160], rest[4096];
	int owner[6];
	size_t len = 0;
	unsigned owned[6], n_owned = 0, n_neighs = 0, used_neigh = 0, have = random_vrfs(), pvrf[4];
	const char *text;
	char vk[24];

	memset(addrs, 0, sizeof(addrs));
	for (unsigned p = 0; p < 4; p++)
		pvrf[p] = random_port_vrf(p, have);
	for (unsigned j = 0; j < 6; j++) {
		char a[32];
		owner[j] = rnd(6) < 4 ? (int)rnd(4) : -1;
		if (owner[j] < 0)
			continue;
		if (j < 5)
			owned[n_owned++] = j;
		subnet_addr(j, 1 + rnd(3), a, sizeof(a));
		char *l = addrs[owner[j]];
		snprintf(l + strlen(l), sizeof(addrs[0]) - strlen(l), "%s%s", l[0] ? ", " : "", a);
		if (j < 5 && rnd(4) == 0) { /* a second address on the same subnet */
			subnet_addr(j, 10 + rnd(3), a, sizeof(a));
			snprintf(l + strlen(l), sizeof(addrs[0]) - strlen(l), ", %s", a);
		}
	}
	len += (size_t)snprintf(rest, sizeof(rest), "routes:\n");
	for (unsigned i = 0; i < RTE_DIM(pool); i++) {
		if (rnd(2) == 0)
			continue;
		if (rnd(5) == 0 && have != 1) {
			len += next_vrf_route(rest + len, sizeof(rest) - len, pool[i], have);
			continue;
		}
		if (n_owned == 0 || rnd(4) == 0) {
			len += (size_t)snprintf(rest + len, sizeof(rest) - len,
			                        "  - { prefix: %s, blackhole: true%s }\n", pool[i],
			                        vrf_key(pick_vrf(have), vk, sizeof(vk)));
			continue;
		}
		unsigned j = owned[rnd(n_owned)];
		char dev[16] = "";
		if (rnd(3) == 0)
			snprintf(dev, sizeof(dev), ", dev: p%d", owner[j]);
		len += (size_t)snprintf(rest + len, sizeof(rest) - len,
		                        "  - { prefix: %s, via: 10.0.%u.%u%s%s }\n", pool[i], j,
		                        100 + rnd(3), dev, vrf_key(pvrf[owner[j]], vk, sizeof(vk)));
	}
	len += (size_t)snprintf(rest + len, sizeof(rest) - len, "neighbors:\n");
	for (unsigned k = n_owned > 0 ? rnd(4) : 0; k > 0; k--) {
		unsigned j = owned[rnd(n_owned)], h = rnd(3), bit = 1u << (j * 3 + h);
		if (used_neigh & bit)
			continue;
		used_neigh |= bit;
		n_neighs++;
		len += (size_t)snprintf(rest + len, sizeof(rest) - len,
		                        "  - { address: 10.0.%u.%u, mac: \"02:00:00:00:00:0%u\", "
		                        "port: p%d }\n",
		                        j, 200 + h, 1 + rnd(2), owner[j]);
	}
	if (n_neighs == 0)
		len -= strlen("neighbors:\n");
	rest[len] = '\0';
	if (strcmp(rest, "routes:\n") == 0)
		rest[0] = '\0';
	if (strncmp(rest, "routes:\nneighbors:", 18) == 0) /* no routes */
		memmove(rest, rest + 8, strlen(rest + 8) + 1);
	len = strlen(rest);
	if (len >= 8 && strcmp(rest + len - 8, "routes:\n") == 0)
		len -= 8; /* no routes, and interfaces follow */
	random_ifaces(rest + len, sizeof(rest) - len, have);
	text = conf(addrs[0], addrs[1], addrs[2], addrs[3], rest);
	conf_vrfs[0] = '\0';
	memset(port_vrf, 0, sizeof(port_vrf));
	return text;
}

/*
 * A long sequence of random valid files applied by reload, with the state
 * after each recorded; then each file started fresh and compared. The
 * sequence runs without the fresh starts in between, so that what reloads
 * leave behind builds up as it would in a long-running daemon.
 */
static void test_random_sequence(void **state)
{
	static char *texts[RANDOM_RUNS], *dumps[RANDOM_RUNS];

	(void)state;
	srandom(20261123);
	for (unsigned i = 0; i < RANDOM_RUNS; i++) {
		texts[i] = strdup(random_conf());
		write_conf(texts[i]);
		reload_ok();
		dumps[i] = dump();
	}
	for (unsigned i = 0; i < RANDOM_RUNS; i++) {
		write_conf(texts[i]);
		char *fresh = fresh_dump();
		if (strcmp(dumps[i], fresh) != 0) {
			show_diff(texts[i], dumps[i], fresh);
			fail_msg("reload %u and a fresh start differ", i);
		}
		free(fresh);
		free(texts[i]);
		free(dumps[i]);
	}
}

/*
 * A loopback's addresses from the file are installed, move with the file
 * (from a port too, in one reload) and go with the loopback; fwdctl's stay
 * until the file configures the same address.
 */
static void test_loopback_addresses(void **state)
{
	static const char lo0[] = "interfaces:\n"
	                          "  - { name: lo0, loopback: true, addresses: [192.0.2.1/32] }\n"
	                          "  - { name: lo1, loopback: true }\n";
	static const char lo1[] = "interfaces:\n"
	                          "  - { name: lo0, loopback: true }\n"
	                          "  - { name: lo1, loopback: true, addresses: [192.0.2.1/32, "
	                          "10.0.1.1/32] }\n";
	static const char lo0_9[] =
	        "interfaces:\n"
	        "  - { name: lo0, loopback: true }\n"
	        "  - { name: lo1, loopback: true, addresses: [198.18.0.9/32] }\n";
	struct fwd_ip4_prefix rpc = { 0xc6120009, 32 }; /* 198.18.0.9/32 */
	char err[256];

	(void)state;
	reload_and_compare(conf("10.0.1.1/24", "", "", "", lo0));
	assert_state_has("addr lo0 192.0.2.1/32 config");
	assert_state_lacks("addr lo1 192.0.2.1/32 config");
	/* fwdctl's address on a loopback stays, until the file takes it */
	assert_int_equal(
	        addr4_add(fwd_iface_by_name("lo0")->id, &rpc, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	write_conf(conf("10.0.2.1/24", "", "", "", lo1));
	reload_ok();
	assert_state_has("addr lo0 198.18.0.9/32 rpc");
	write_conf(conf("10.0.2.1/24", "", "", "", lo0_9));
	reload_ok();
	assert_state_lacks("addr lo0 198.18.0.9/32 rpc");
	assert_state_has("addr lo1 198.18.0.9/32 config");
	reload_and_compare(conf("10.0.2.1/24", "", "", "", lo1));
	assert_state_lacks("addr lo0 192.0.2.1/32 config");
	assert_state_has("addr lo1 192.0.2.1/32 config");
	assert_state_has("addr lo1 10.0.1.1/32 config");
	assert_state_lacks("addr p0 10.0.1.1/24 config");
	reload_and_compare(conf("10.0.2.1/24", "", "", "", ""));
	assert_state_lacks("addr lo1 192.0.2.1/32 config");
	assert_state_lacks("iface lo1");
}

#define V6 "2001:db8:100::1/64"

#define VLAN_IF(addrs, more) \
	"interfaces:\n  - { name: v100, port: p0, vlan: 100, addresses: [" addrs "]" more " }\n"

/* `config show` of v100: what runs (fwdctl's address too), ra and rpf. */
static void assert_running_vlan(unsigned n_addresses, bool ra, enum fwd_rpf rpf)
{
	uint64_t omitted = 0;
	struct fwd_config *run = fwd_running_config(&omitted);
	const struct fwd_conf_iface *f;

	assert_non_null(run);
	assert_non_null(f = iface_conf_find(run, "v100"));
	assert_int_equal(f->n_addresses, n_addresses);
	assert_int_equal(f->ra, ra);
	assert_int_equal(f->rpf, rpf);
	fwd_config_free(run);
}

/*
 * A VLAN's addresses, ra and rpf from the file; an address moves between a
 * port and a VLAN both ways in one reload; fwdctl's stays; deleting the
 * VLAN (gone from the file) takes its addresses.
 */
static void test_vlan_addresses(void **state)
{
	struct fwd_ip4_prefix rpc = { 0x0a650001, 24 }; /* 10.101.0.1/24 */
	struct fwd_ip6_prefix v6 = { .addr = { 0x20, 0x01, 0x0d, 0xb8, 1, 0, [15] = 1 },
		                     .len = 64 };
	const struct fwd_iface *v;
	char err[256];

	(void)state;
	reload_and_compare(conf("10.0.1.1/24", "", "", "",
	                        VLAN_IF("10.100.0.1/24, \"" V6 "\"", ", ra: true, rpf: strict")));
	assert_state_has("addr v100 10.100.0.1/24 config");
	assert_non_null(v = fwd_iface_by_name("v100"));
	assert_int_equal(v->rpf, FWD_RPF_STRICT);
	assert_true(ip6_addrs[v->id].ra);
	assert_true(ip6_addrs[v->id].n >= 1); /* its link-local */
	assert_int_equal(addr4_add(v->id, &rpc, FWD_ORIGIN_RPC, err, sizeof(err)), 0);
	assert_running_vlan(3, true, FWD_RPF_STRICT);
	assert_int_equal(addr6_state(v->id, v6.addr), ADDR6_TENTATIVE); /* DAD is NDP's */
	/* the VLAN's address moves to p1 and p1's to the VLAN */
	write_conf(conf("10.0.1.1/24", "10.100.0.1/24, \"" V6 "\"", "", "",
	                VLAN_IF("10.0.2.1/24", "")));
	reload_ok();
	assert_int_equal(addr6_state(v->id, v6.addr), -1);
	assert_true(addr6_state(1, v6.addr) >= 0);
	assert_state_has("addr p1 10.100.0.1/24 config");
	assert_state_has("addr v100 10.0.2.1/24 config");
	assert_state_has("addr v100 10.101.0.1/24 rpc");
	assert_int_equal(v->rpf, FWD_RPF_OFF);
	assert_false(ip6_addrs[v->id].ra);
	write_conf(conf("10.0.1.1/24", "10.0.2.1/24", "", "",
	                VLAN_IF("10.100.0.1/24, \"" V6 "\"", "")));
	reload_ok();
	assert_true(addr6_state(v->id, v6.addr) >= 0);
	assert_int_equal(addr6_state(1, v6.addr), -1);
	assert_state_has("addr p1 10.0.2.1/24 config");
	assert_state_has("addr v100 10.100.0.1/24 config");
	/* the file gives fwdctl's subnet to p1: fwdctl's address goes */
	reload_and_compare(
	        conf("10.0.1.1/24", "10.101.0.7/24", "", "", VLAN_IF("10.100.0.1/24", "")));
	assert_state_lacks("addr v100 10.101.0.1/24 rpc");
	/* the VLAN's subnet is connected on the VLAN itself */
	const struct nexthop *nh = &nh_table[fib4_lookup(ip4_fibs[0], 0x0a640005)]; /* 10.100.0.5 */
	assert_int_equal(nh->type, NH_CONNECTED);
	assert_int_equal(nh->iface, v->id);
	reload_and_compare(conf("10.0.1.1/24", "", "", "", ""));
	assert_state_lacks("iface v100");
	assert_false(addr4_is_local(0, 0x0a640001)); /* 10.100.0.1 */
}

/* The static neighbour of neigh_iter at address a (host order), or NULL. */
static const struct neigh *neigh_at(uint32_t a)
{
	uint32_t pos = 0;

	for (struct neigh *e = neigh_iter(&pos); e != NULL; e = neigh_iter(&pos))
		if (e->addr.family == AF_INET && e->addr.v4 == a)
			return e;
	return NULL;
}

/* routes[].dev and neighbors[].port naming a VLAN interface land on it, at
 * start-up as on a reload (they once resolved to port 0, p0). */
static void test_vlan_routes_neighbours(void **state)
{
	const struct fwd_iface *v;
	const struct neigh *n;
	const struct nexthop *nh;

	(void)state;
	reload_and_compare(conf(
	        "10.0.1.1/24", "", "", "",
	        "routes:\n"
	        "  - { prefix: 192.0.2.0/24, via: 10.100.0.2, dev: v100 }\n"
	        "  - { prefix: 198.51.100.0/24, dev: v100 }\n"
	        "  - { prefix: 203.0.113.0/24, via: [10.100.0.2, 10.100.0.3] }\n"
	        "neighbors:\n"
	        "  - { address: 10.100.0.7, mac: \"02:00:00:00:00:07\", port: v100 }\n" VLAN_IF(
	                "10.100.0.1/24", "")));
	assert_non_null(v = fwd_iface_by_name("v100"));
	assert_non_null(n = neigh_at(0x0a640007)); /* 10.100.0.7 */
	assert_int_equal(n->port, v->id);
	assert_int_equal(n->state, NEIGH_PERMANENT);
	nh = &nh_table[fib4_lookup(ip4_fibs[0], 0xc0000205)]; /* 192.0.2.5: via 10.100.0.2 */
	assert_int_equal(nh->iface, v->id);
	nh = &nh_table[fib4_lookup(ip4_fibs[0], 0xc6336405)]; /* 198.51.100.5: on v100's link */
	assert_int_equal(nh->iface, v->id);
	/* an ECMP group's members as route list and the reload see them */
	struct rib4_node *g = rib4_find(&ip4_ribs[0], 0xcb007100, 24); /* 203.0.113.0/24 */
	struct l3_route r;
	assert_non_null(g);
	l3_route_from_rib(&r, g->route.type, g->route.origin, g->route.dev, g->route.nh);
	assert_int_equal(r.n_nh, 2);
	assert_int_equal(r.nh[0].dev, v->id);
	assert_int_equal(r.nh[1].dev, v->id);
	reload_and_compare(conf("10.0.1.1/24", "", "", "", ""));
	assert_null(neigh_at(0x0a640007));
}

/* ------------------------------------------------------------ the daemon */

static int daemon_up(void **state)
{
	(void)state;
	fwd_log_level = FWD_LOG_ERR;
	snprintf(path, sizeof(path), "/tmp/fwd-reload-test-%d.yaml", (int)getpid());
	snprintf(head, sizeof(head), HEAD_FMT, (int)getpid(), (int)getpid());
	write_conf(conf("10.0.1.1/24", "", "", "", ""));
	fwd.cfg = fwd_config_load(path, stderr);
	if (fwd.cfg == NULL || fwd_eal_init(fwd.cfg, "reload_test") < 0 ||
	    fwd_dataplane_up(false) < 0)
		return -1;
	return 0;
}

static int daemon_down(void **state)
{
	(void)state;
	fwd_dataplane_down();
	fwd_eal_cleanup();
	fwd_config_free(fwd.cfg);
	fwd.cfg = NULL;
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_renumber_keeps_routes),
		cmocka_unit_test(test_swap_subnets),
		cmocka_unit_test(test_move_gateway),
		cmocka_unit_test(test_same_file_twice),
		cmocka_unit_test(test_loopback_addresses),
		cmocka_unit_test(test_vlan_addresses),
		cmocka_unit_test(test_vlan_routes_neighbours),
		cmocka_unit_test(test_rpc_changes),
		cmocka_unit_test(test_refused_reload_changes_nothing),
		cmocka_unit_test(test_random_sequence),
	};

	return cmocka_run_group_tests(tests, daemon_up, daemon_down);
}
