/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config loader: good files and their values, defaults, emit -> load
 * round trips, and every kind of bad file (exact position and message).
 * Stress and random input are in config_fuzz_test.c.
 * Run from the repository root, or set FWD_SRCDIR to it.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/config.h"

#include "config_bad_cases.h"
#include "config_test_util.h"

/* ------------------------------------------------------------ good files */

static void assert_defaults(const struct fwd_config *cfg)
{
	assert_string_equal(cfg->dpdk.lcores, "0-1");
	assert_true(cfg->dpdk.hugepages);
	assert_int_equal(cfg->dpdk.memory_mb, 512);
	assert_string_equal(cfg->dpdk.file_prefix, "fwd");
	assert_int_equal(cfg->dpdk.n_args, 0);
	assert_int_equal(cfg->dataplane.burst, 32);
	assert_int_equal(cfg->dataplane.mbufs, 16383);
	assert_int_equal(cfg->dataplane.idle_sleep_us, 0);
	assert_int_equal(cfg->dataplane.neigh_timeout_s, 300);
	assert_int_equal(cfg->dataplane.neigh_max, 16384);
	assert_string_equal(cfg->control.socket, FWD_SOCKET_DEFAULT);
	assert_string_equal(cfg->control.socket_group, "fwd");
	assert_string_equal(cfg->control.metrics, "");
	assert_string_equal(cfg->control.fpm, "");
	assert_int_equal(cfg->control.fpm_grace_s, 30);
	assert_string_equal(cfg->control.fpm_user, "frr");
	assert_int_equal(cfg->control.fpm_max_routes, 3000000);
	assert_int_equal(fwd_config_n_workers(cfg), 1);
}

static void assert_default_port(const struct fwd_conf_port *p)
{
	assert_int_equal(p->rx_queues, 1);
	assert_int_equal(p->rxd, 1024);
	assert_int_equal(p->txd, 1024);
	assert_int_equal(p->mtu, 1500);
}

static void test_new_defaults(void **state)
{
	struct fwd_config *cfg = fwd_config_new();

	(void)state;
	assert_non_null(cfg);
	assert_defaults(cfg);
	assert_int_equal(cfg->n_ports, 0);
	assert_null(fwd_config_port(cfg, "p0"));
	fwd_config_free(cfg);
	fwd_config_free(NULL);
}

static void test_minimal(void **state)
{
	struct fwd_config *cfg = load_good(DATA_DIR "/good/minimal.yaml");

	(void)state;
	assert_defaults(cfg);
	assert_int_equal(cfg->n_ports, 1);
	assert_string_equal(cfg->ports[0].name, "p0");
	assert_string_equal(cfg->ports[0].device, "net_null0");
	assert_int_equal(cfg->ports[0].mode, FWD_MODE_L3);
	assert_default_port(&cfg->ports[0]);
	assert_int_equal(cfg->ports[0].n_addresses, 0);
	assert_int_equal(cfg->ports[0].pos.line, 3);
	assert_int_equal(cfg->ports[0].pos.col, 5);
	assert_int_equal(cfg->n_bridges + cfg->n_routes + cfg->n_neighs, 0);
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

static void check_sample_ports(const struct fwd_config *cfg)
{
	const struct fwd_conf_port *p;

	assert_int_equal(cfg->n_ports, 5);
	p = fwd_config_port(cfg, "p0");
	assert_non_null(p);
	assert_string_equal(p->device, "0000:03:00.0");
	assert_default_port(p);
	assert_int_equal(p->n_addresses, 2);
	assert_int_equal(p->addresses[0].family, AF_INET);
	assert_int_equal(p->addresses[0].v4, 0x0a000001);
	assert_int_equal(p->addresses[0].len, 24);
	assert_int_equal(p->addresses[1].family, AF_INET6);
	assert_int_equal(p->addresses[1].v6[15], 1);
	assert_int_equal(p->addresses[1].len, 64);
	assert_false(p->ra);
	assert_true(fwd_config_port(cfg, "p1")->ra);
	p = fwd_config_port(cfg, "p2");
	assert_int_equal(p->mode, FWD_MODE_XCONNECT);
	assert_string_equal(p->peer, "p3");
	assert_string_equal(p->device, "net_tap2,iface=t2");
	assert_string_equal(fwd_config_port(cfg, "p3")->peer, "p2");
	p = fwd_config_port(cfg, "p4");
	assert_int_equal(p->mode, FWD_MODE_BRIDGE);
	assert_string_equal(p->bridge, "br0");
	assert_int_equal(p->n_addresses, 0);
	assert_null(fwd_config_port(cfg, "p5"));
}

static void test_sample(void **state)
{
	struct fwd_config *cfg = load_good("conf/fwd.yaml");
	const struct fwd_conf_bridge *br;
	const uint8_t mac[6] = { 2, 0, 0, 0, 0, 2 };

	(void)state;
	assert_defaults(cfg);
	check_sample_ports(cfg);
	br = fwd_config_bridge(cfg, "br0");
	assert_non_null(br);
	assert_int_equal(br->mac_aging_s, 300);
	assert_int_equal(br->fdb_max, 16384);
	assert_null(fwd_config_bridge(cfg, "br1"));
	assert_int_equal(cfg->n_routes, 6);
	assert_int_equal(cfg->routes[5].n_via, 2); /* ECMP */
	assert_int_equal(cfg->routes[5].via[1].v4, 0xc00002fe);
	assert_int_equal(cfg->routes[0].prefix.len, 0);
	assert_int_equal(cfg->routes[0].via[0].v4, 0xc00002fe);
	assert_int_equal(cfg->routes[1].prefix.v4, 0xc6336400);
	assert_string_equal(cfg->routes[1].dev, "p0");
	assert_true(cfg->routes[2].blackhole);
	assert_int_equal(cfg->n_routes > 2 ? cfg->routes[2].n_via : 1, 0);
	assert_int_equal(cfg->routes[3].prefix.family, AF_INET6);
	assert_int_equal(cfg->routes[3].prefix.len, 0);
	assert_int_equal(cfg->routes[3].via[0].v6[0], 0xfe);
	assert_string_equal(cfg->routes[3].dev, "p1");
	assert_int_equal(cfg->routes[4].via[0].family, AF_INET6);
	assert_int_equal(cfg->n_neighs, 2);
	assert_int_equal(cfg->neighs[1].address.family, AF_INET6);
	assert_int_equal(cfg->neighs[0].address.v4, 0x0a000002);
	assert_memory_equal(cfg->neighs[0].mac, mac, 6);
	assert_string_equal(cfg->neighs[0].port, "p0");
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

static void test_flow_style(void **state)
{
	struct fwd_config *cfg = load_good(DATA_DIR "/good/flow.yaml");
	const uint8_t mac[6] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x02 };
	unsigned ids[4];

	(void)state;
	assert_string_equal(cfg->dpdk.lcores, "0,2-3");
	assert_int_equal(fwd_config_lcores(cfg, ids, N(ids)), 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[2], 3);
	assert_int_equal(fwd_config_n_workers(cfg), 2);
	assert_false(cfg->dpdk.hugepages);
	assert_int_equal(cfg->dpdk.memory_mb, 1024);
	assert_int_equal(cfg->dpdk.n_args, 3);
	assert_string_equal(cfg->dpdk.args[1], "--log-level=8");
	assert_int_equal(cfg->dataplane.burst, 64);
	assert_int_equal(cfg->dataplane.idle_sleep_us, 20);
	assert_string_equal(cfg->control.metrics, "127.0.0.1:9100");
	assert_int_equal(cfg->n_ports, 6);
	assert_int_equal(cfg->ports[0].mtu, 9000);
	assert_int_equal(cfg->ports[0].n_addresses, 2);
	assert_int_equal(cfg->n_bridges, 2);
	assert_int_equal(cfg->bridges[1].mac_aging_s, 300);
	assert_int_equal(cfg->n_routes, 4);
	assert_string_equal(cfg->routes[1].dev, "a");
	assert_int_equal(cfg->routes[3].prefix.len, 32);
	assert_memory_equal(cfg->neighs[0].mac, mac, 6);
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

static void test_block_style(void **state)
{
	struct fwd_config *cfg = load_good(DATA_DIR "/good/block.yaml");
	unsigned ids[2];

	(void)state;
	assert_int_equal(fwd_config_lcores(cfg, ids, N(ids)), 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 3);
	assert_int_equal(cfg->dpdk.n_args, 3);
	assert_string_equal(cfg->dpdk.args[1],
	                    "--vdev=net_pcap0,rx_pcap=/tmp/in.pcap,infinite_rx=1");
	assert_int_equal(cfg->n_ports, 2);
	assert_string_equal(cfg->ports[1].name, "wan0");
	assert_int_equal(cfg->ports[1].addresses[0].len, 31);
	assert_int_equal(cfg->neighs[0].address.v4, 0x0a000007);
	assert_int_equal(cfg->neighs[0].pos.line, 3);
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

/* config show: a route says blackhole/unreachable/prohibit only when true
 * (and dev or via only when it has them); the rest of the file every key. */
static void test_emit_route_defaults(void **state)
{
	struct fwd_config *cfg = load_good(DATA_DIR "/good/flow.yaml");
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(fwd_config_emit(cfg, f), 0);
	fclose(f);
	assert_null(strstr(text, "blackhole: false"));
	assert_null(strstr(text, "unreachable: false"));
	assert_null(strstr(text, "prohibit: false"));
	assert_non_null(strstr(text, "  - prefix: 10.99.0.0/16\n    blackhole: true\n"));
	assert_non_null(strstr(text, "  - prefix: 0.0.0.0/0\n    via: 192.0.2.2\n  - prefix:"));
	assert_non_null(strstr(text, "ra: false")); /* other defaults are still written */
	assert_round_trip(cfg);
	free(text);
	fwd_config_free(cfg);
}

/* Strings with YAML-significant characters survive emit -> load. */
static void test_emit_quoting(void **state)
{
	struct fwd_config *cfg = load_good(DATA_DIR "/good/minimal.yaml");

	(void)state;
	snprintf(cfg->ports[0].device, sizeof(cfg->ports[0].device), "%s",
	         "net_pcap0,rx_pcap=/tmp/a \"b\" \\c.pcap,iface=#x: y, [z] {w} &v *u !t 'q'");
	cfg->dpdk.args[cfg->dpdk.n_args++] = strdup("--vdev=net_null0,no-rx=1");
	cfg->dpdk.args[cfg->dpdk.n_args++] = strdup("- not a list item");
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

/* ------------------------------------------------------------ API */

static void test_lcores(void **state)
{
	static const struct {
		const char *s;
		int n;
		unsigned first, last;
	} cases[] = {
		{ "0-1", 2, 0, 1 },
		{ "0,2-3", 3, 0, 3 },
		{ "1,3", 2, 1, 3 },
		{ "3,1", 2, 3, 1 },
		{ "5,0-2", 4, 5, 2 },
		{ "0-127", 128, 0, 127 },
		{ "7-7,3", 2, 7, 3 },
		{ "(0-3)@1", -EINVAL },
		{ "0", -EINVAL },
		{ "", -EINVAL },
		{ "1-0", -EINVAL },
		{ "0,0", -EINVAL },
		{ "0-2,1", -EINVAL },
		{ "0,128", -EINVAL },
		{ "0,1,", -EINVAL },
		{ ",0,1", -EINVAL },
		{ "0, 1", -EINVAL },
		{ "00,1", -EINVAL },
		{ "0-1-2", -EINVAL },
		{ "0--1", -EINVAL },
		{ "0;1", -EINVAL },
		{ "99999999999999,1", -EINVAL },
		/* lcores on CPUs (fwd.yaml(5), dpdk.lcores) */
		{ "0@0,1@1,2@1", 3, 0, 2 },
		{ "0@0,3", 2, 0, 3 },
		{ "0@0,1@1023", 2, 0, 1 },
		{ "0@0,1@1024", -EINVAL },
		{ "0@,1", -EINVAL },
		{ "0@01,1", -EINVAL },
		{ "0-1@1,2", -EINVAL },
		{ "0@1@1,2", -EINVAL },
		{ "0@0,0@1", -EINVAL },
		{ "@1,0,1", -EINVAL },
	};
	struct fwd_config *cfg = fwd_config_new();
	unsigned ids[FWD_MAX_LCORES];

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		int n;

		snprintf(cfg->dpdk.lcores, sizeof(cfg->dpdk.lcores), "%s", cases[i].s);
		n = fwd_config_lcores(cfg, ids, N(ids));
		assert_int_equal(n, cases[i].n);
		assert_int_equal(fwd_config_lcores(cfg, NULL, 0), cases[i].n);
		assert_int_equal(fwd_config_n_workers(cfg), n < 0 ? n : n - 1);
		if (n > 0) {
			assert_int_equal(ids[0], cases[i].first);
			assert_int_equal(ids[n - 1], cases[i].last);
		}
	}
	snprintf(cfg->dpdk.lcores, sizeof(cfg->dpdk.lcores), "0-3");
	assert_int_equal(fwd_config_lcores(cfg, ids, 3), -ENOSPC);
	assert_false(fwd_config_lcores_mapped(cfg));
	assert_false(fwd_config_lcores_share_cpu(cfg));

	/* each lcore's CPU; sharing; a CPU the machine lacks, said clearly */
	int cpus[FWD_MAX_LCORES];
	char err[256];
	snprintf(cfg->dpdk.lcores, sizeof(cfg->dpdk.lcores), "0@0,1@1,2@1");
	assert_int_equal(fwd_config_lcore_cpus(cfg, ids, cpus, N(ids)), 3);
	assert_int_equal(ids[2], 2);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	assert_int_equal(cpus[2], 1);
	assert_true(fwd_config_lcores_mapped(cfg));
	assert_true(fwd_config_lcores_share_cpu(cfg));
	snprintf(cfg->dpdk.lcores, sizeof(cfg->dpdk.lcores), "0@0,5");
	assert_int_equal(fwd_config_lcore_cpus(cfg, ids, cpus, N(ids)), 2);
	assert_int_equal(cpus[1], 5); /* no @: the lcore's own id */
	snprintf(cfg->dpdk.lcores, sizeof(cfg->dpdk.lcores), "0@0,1@1000");
	assert_int_equal(fwd_config_check_cpus(cfg, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "lcore 1 would run on CPU 1000, which this machine"));
	snprintf(cfg->dpdk.lcores, sizeof(cfg->dpdk.lcores), "0,100");
	assert_int_equal(fwd_config_check_cpus(cfg, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "lcore 100 would run on CPU 100"));
	fwd_config_free(cfg);
}

static void test_mode_names(void **state)
{
	(void)state;
	assert_string_equal(fwd_port_mode_name(FWD_MODE_L3), "l3");
	assert_string_equal(fwd_port_mode_name(FWD_MODE_XCONNECT), "xconnect");
	assert_string_equal(fwd_port_mode_name(FWD_MODE_BRIDGE), "bridge");
	assert_string_equal(fwd_port_mode_name((enum fwd_port_mode)42), "?");
}

/* ------------------------------------------------------------ bad input */

static void test_bad_file(void **state)
{
	const struct bad_case *bc = *state;
	char rel[256], path[1024], prefix[1200], *msg = NULL;
	struct fwd_config *cfg;

	snprintf(rel, sizeof(rel), DATA_DIR "/bad/%s", bc->file);
	path_of(path, sizeof(path), rel);
	errno = 0;
	cfg = load_rel(rel, &msg);
	assert_null(cfg);
	assert_int_equal(errno, EINVAL);
	snprintf(prefix, sizeof(prefix), "%s:%u:%u: ", path, bc->line, bc->col);
	if (strncmp(msg, prefix, strlen(prefix)) != 0 || strstr(msg, bc->msg) == NULL)
		fail_msg("want \"%s...%s\", got:\n%s", prefix, bc->msg, msg);
	/* then the offending line and a caret */
	assert_non_null(strchr(strchr(msg, '\n') + 1, '^'));
	free(msg);
}

/* Every file in bad/ is in the table, so none is silently untested. */
static void test_bad_files_listed(void **state)
{
	char path[1024];
	struct dirent *e;
	DIR *d;
	unsigned files = 0;

	(void)state;
	path_of(path, sizeof(path), DATA_DIR "/bad");
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t i;

		if (e->d_name[0] == '.')
			continue;
		files++;
		for (i = 0; i < N(bad_cases) && strcmp(bad_cases[i].file, e->d_name); i++)
			;
		if (i == N(bad_cases))
			fail_msg("%s/%s has no entry in config_bad_cases.h", path, e->d_name);
	}
	closedir(d);
	assert_int_equal(files, N(bad_cases));
}

static void test_cannot_open(void **state)
{
	char *msg = NULL, path[1024];

	(void)state;
	errno = 0;
	assert_null(load_rel(DATA_DIR "/no-such-file.yaml", &msg));
	assert_int_equal(errno, ENOENT);
	path_of(path, sizeof(path), DATA_DIR "/no-such-file.yaml");
	assert_true(strncmp(msg, path, strlen(path)) == 0);
	assert_string_equal(msg + strlen(path), ": cannot open: No such file or directory\n");
	free(msg);
	assert_null(load_rel(DATA_DIR, &msg));
	assert_non_null(strstr(msg, ": cannot read: Is a directory"));
	free(msg);
	assert_null(fwd_config_load("/nonexistent/fwd.yaml", NULL));
}

/* Input that libyaml's reader refuses is reported at the right place too. */
/* Unless written, neigh_max leaves half the next hops to routes' gateways. */
static void test_neigh_max_default(void **state)
{
	static const char small[] =
	        "dataplane: { nexthops: 4096 }\nports: [ { name: p0, device: x } ]\n";
	static const char set[] = "dataplane: { nexthops: 4096, neigh_max: 4000 }\n"
	                          "ports: [ { name: p0, device: x } ]\n";
	struct fwd_config *cfg = fwd_config_load_buf("mem.yaml", small, strlen(small), stderr);

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(cfg->dataplane.neigh_max, 2048);
	fwd_config_free(cfg);
	cfg = fwd_config_load_buf("mem.yaml", set, strlen(set), stderr);
	assert_non_null(cfg);
	assert_int_equal(cfg->dataplane.neigh_max, 4000);
	fwd_config_free(cfg);
}

static void test_reader_errors(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		const char *want;
	} cases[] = {
		{ "ports:\n  - { name: p\xff }\n", 0, "mem.yaml:2:14: invalid input: " },
		{ "ports:\n  - x\0y\n", 14, "mem.yaml:2:6: invalid input: control characters" },
		{ "\xef\xbb\xbfports: []\n", 0, "mem.yaml:1:8: ports: at least one port" },
		{ "ports: []\r\n", 0, "mem.yaml:1:8: ports:" },
		{ "a: 1\r\nb: 2\r\n  c: 3\r\n", 0, "mem.yaml:3:4: syntax error" },
	};

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text), mlen;
		char *msg = NULL;
		FILE *f = open_memstream(&msg, &mlen);

		assert_null(fwd_config_load_buf("mem.yaml", cases[i].text, len, f));
		fclose(f);
		if (strncmp(msg, cases[i].want, strlen(cases[i].want)) != 0)
			fail_msg("case %zu: want \"%s\", got:\n%s", i, cases[i].want, msg);
		assert_null(strchr(msg, '\r'));
		free(msg);
	}
	assert_null(fwd_config_load_buf(NULL, NULL, 0, NULL));
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_defaults),
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_flow_style),
		cmocka_unit_test(test_block_style),
		cmocka_unit_test(test_emit_quoting),
		cmocka_unit_test(test_emit_route_defaults),
		cmocka_unit_test(test_lcores),
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test(test_bad_files_listed),
		cmocka_unit_test(test_cannot_open),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_neigh_max_default),
	};
	struct CMUnitTest bad[N(bad_cases)];
	int failed;

	for (size_t i = 0; i < N(bad_cases); i++)
		bad[i] = (struct CMUnitTest){ .name = bad_cases[i].file,
			                      .test_func = test_bad_file,
			                      .initial_state = &bad_cases[i] };
	failed = cmocka_run_group_tests_name("config", tests, NULL, NULL);
	return failed + _cmocka_run_group_tests("config_bad_files", bad, N(bad), NULL, NULL);
}
