/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the config tests: loading files below the source root (the
 * repository root, or $FWD_SRCDIR) with the loader's messages captured,
 * comparing configs, and the emit -> load round trip.
 * Include after <cmocka.h>.
 */
#ifndef CONFIG_TEST_UTIL_H
#define CONFIG_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

#define N(a)     (sizeof(a) / sizeof((a)[0]))
#define DATA_DIR "tests/unit/data/config"

static inline const char *srcdir(void)
{
	const char *d = getenv("FWD_SRCDIR");

	return d && d[0] ? d : ".";
}

static inline void path_of(char *buf, size_t size, const char *rel)
{
	assert_true((size_t)snprintf(buf, size, "%s/%s", srcdir(), rel) < size);
}

/* Load a file below the source root, capturing what the loader says. */
static inline struct fwd_config *load_rel(const char *rel, char **msg)
{
	char path[1024];
	size_t len;
	FILE *f = open_memstream(msg, &len);
	struct fwd_config *cfg;

	assert_non_null(f);
	path_of(path, sizeof(path), rel);
	cfg = fwd_config_load(path, f);
	fclose(f);
	return cfg;
}

static inline struct fwd_config *load_good(const char *rel)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_rel(rel, &msg);

	if (cfg == NULL)
		fail_msg("%s did not load:\n%s", rel, msg);
	free(msg);
	return cfg;
}

static inline struct fwd_config *load_str(const char *text, char **msg)
{
	size_t len;
	FILE *f = open_memstream(msg, &len);
	struct fwd_config *cfg;

	assert_non_null(f);
	cfg = fwd_config_load_buf("mem.yaml", text, strlen(text), f);
	fclose(f);
	return cfg;
}

/* Load text that must be valid; fail with what the loader said if not. */
static inline struct fwd_config *load_good_str(const char *text)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_str(text, &msg);

	if (cfg == NULL)
		fail_msg("did not load:\n%s", msg);
	free(msg);
	return cfg;
}

/* ------------------------------------------------------------ equality */

static inline void assert_port_equal(const struct fwd_conf_port *a, const struct fwd_conf_port *b)
{
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->device, b->device);
	assert_int_equal(a->mode, b->mode);
	assert_string_equal(a->peer, b->peer);
	assert_string_equal(a->bridge, b->bridge);
	assert_int_equal(a->rx_queues, b->rx_queues);
	assert_int_equal(a->rxd, b->rxd);
	assert_int_equal(a->txd, b->txd);
	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->ra, b->ra);
	assert_string_equal(a->vrf, b->vrf);
	assert_int_equal(a->n_addresses, b->n_addresses);
	for (unsigned k = 0; k < a->n_addresses; k++) {
		assert_int_equal(fwd_prefix_cmp(&a->addresses[k], &b->addresses[k]), 0);
	}
}

static inline void assert_tables_equal(const struct fwd_config *a, const struct fwd_config *b)
{
	assert_int_equal(a->n_bridges, b->n_bridges);
	for (unsigned i = 0; i < a->n_bridges; i++) {
		assert_string_equal(a->bridges[i].name, b->bridges[i].name);
		assert_int_equal(a->bridges[i].mac_aging_s, b->bridges[i].mac_aging_s);
		assert_int_equal(a->bridges[i].fdb_max, b->bridges[i].fdb_max);
	}
	assert_int_equal(a->n_routes, b->n_routes);
	for (unsigned i = 0; i < a->n_routes; i++) {
		assert_int_equal(fwd_prefix_cmp(&a->routes[i].prefix, &b->routes[i].prefix), 0);
		assert_int_equal(a->routes[i].blackhole, b->routes[i].blackhole);
		assert_int_equal(a->routes[i].unreachable, b->routes[i].unreachable);
		assert_int_equal(a->routes[i].prohibit, b->routes[i].prohibit);
		assert_int_equal(a->routes[i].n_via, b->routes[i].n_via);
		for (unsigned k = 0; k < a->routes[i].n_via; k++)
			assert_true(fwd_ip_eq(&a->routes[i].via[k], &b->routes[i].via[k]));
		assert_string_equal(a->routes[i].dev, b->routes[i].dev);
		assert_string_equal(a->routes[i].vrf, b->routes[i].vrf);
		assert_string_equal(a->routes[i].next_vrf, b->routes[i].next_vrf);
	}
	assert_int_equal(a->n_neighs, b->n_neighs);
	for (unsigned i = 0; i < a->n_neighs; i++) {
		assert_true(fwd_ip_eq(&a->neighs[i].address, &b->neighs[i].address));
		assert_memory_equal(a->neighs[i].mac, b->neighs[i].mac, 6);
		assert_string_equal(a->neighs[i].port, b->neighs[i].port);
	}
}

static inline void assert_config_equal(const struct fwd_config *a, const struct fwd_config *b)
{
	assert_string_equal(a->dpdk.lcores, b->dpdk.lcores);
	assert_int_equal(a->dpdk.hugepages, b->dpdk.hugepages);
	assert_int_equal(a->dpdk.memory_mb, b->dpdk.memory_mb);
	assert_string_equal(a->dpdk.file_prefix, b->dpdk.file_prefix);
	assert_int_equal(a->dpdk.n_args, b->dpdk.n_args);
	for (unsigned i = 0; i < a->dpdk.n_args; i++)
		assert_string_equal(a->dpdk.args[i], b->dpdk.args[i]);
	assert_int_equal(a->dataplane.burst, b->dataplane.burst);
	assert_int_equal(a->dataplane.mbufs, b->dataplane.mbufs);
	assert_int_equal(a->dataplane.idle_sleep_us, b->dataplane.idle_sleep_us);
	assert_int_equal(a->dataplane.neigh_timeout_s, b->dataplane.neigh_timeout_s);
	assert_string_equal(a->control.socket, b->control.socket);
	assert_string_equal(a->control.socket_group, b->control.socket_group);
	assert_string_equal(a->control.metrics, b->control.metrics);
	assert_int_equal(a->n_ports, b->n_ports);
	for (unsigned i = 0; i < a->n_ports; i++)
		assert_port_equal(&a->ports[i], &b->ports[i]);
	assert_tables_equal(a, b);
	assert_true(fwd_config_sections_equal(a, b)); /* the features' own sections */
}

/* emit -> load must give the same config, and emitting that again the same text. */
static inline void assert_round_trip(const struct fwd_config *cfg)
{
	char *text = NULL, *text2 = NULL, *msg = NULL;
	size_t len, len2;
	FILE *f = open_memstream(&text, &len);
	struct fwd_config *back;

	assert_int_equal(fwd_config_emit(cfg, f), 0);
	fclose(f);
	back = load_str(text, &msg);
	if (back == NULL)
		fail_msg("emitted config does not load:\n%s\n%s", msg, text);
	assert_config_equal(cfg, back);
	f = open_memstream(&text2, &len2);
	assert_int_equal(fwd_config_emit(back, f), 0);
	fclose(f);
	assert_string_equal(text, text2);
	fwd_config_free(back);
	free(text);
	free(text2);
	free(msg);
}

#endif
