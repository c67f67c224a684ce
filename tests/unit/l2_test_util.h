/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the l2 unit tests: a small EAL without hugepages or devices,
 * the workers' RCU variable (one reader, offline unless a test says so), an
 * mbuf pool, a fake clock in milliseconds, and configs from YAML text with
 * a port table that matches them (no devices behind it).
 * Include after <cmocka.h>.
 */
#ifndef L2_TEST_UTIL_H
#define L2_TEST_UTIL_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>

#include "core/config.h"
#include "core/daemon.h"
#include "l2/fdb.h"
#include "port/port.h"

#define POOL_SIZE 1023

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return fake_now;
}

static int l2_setup(void **state)
{
	char prefix[64];
	char *argv[] = { "l2_test",     "--no-huge", "-m", "256",  "--no-pci",
		         "--no-shconf", "-l",        "0",  prefix, "--log-level=lib.*:error" };

	(void)state;
	snprintf(prefix, sizeof(prefix), "--file-prefix=l2t%d", (int)getpid());
	if (rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])), argv) < 0)
		return -1;
	fwd.rcu = rte_zmalloc("rcu", rte_rcu_qsbr_get_memsize(1), RTE_CACHE_LINE_SIZE);
	if (fwd.rcu == NULL || rte_rcu_qsbr_init(fwd.rcu, 1) < 0 ||
	    rte_rcu_qsbr_thread_register(fwd.rcu, 0) < 0)
		return -1;
	fwd.pool = rte_pktmbuf_pool_create("l2_test", POOL_SIZE, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
	                                   SOCKET_ID_ANY);
	if (fwd.pool == NULL)
		return -1;
	fdb_clock = fake_clock;
	fdb_hz = 1000; /* the clock counts milliseconds */
	return 0;
}

static int l2_teardown(void **state)
{
	(void)state;
	rte_mempool_free(fwd.pool);
	rte_free(fwd.rcu);
	rte_eal_cleanup();
	return 0;
}

static inline struct fwd_config *config_from(const char *yaml)
{
	struct fwd_config *cfg = fwd_config_load_buf("test.yaml", yaml, strlen(yaml), stderr);

	assert_non_null(cfg);
	return cfg;
}

/* The port table the port module would build for cfg, without devices. */
static inline void ports_from(const struct fwd_config *cfg)
{
	memset(fwd_ports, 0, sizeof(fwd_ports));
	fwd_n_ports = cfg->n_ports;
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *cp = &cfg->ports[i];
		struct fwd_port *p = &fwd_ports[i];

		p->idx = (uint8_t)i;
		p->mode = cp->mode;
		p->admin_up = 1;
		snprintf(p->name, sizeof(p->name), "%s", cp->name);
		if (cp->mode == FWD_MODE_BRIDGE)
			p->bridge = (uint8_t)(fwd_config_bridge(cfg, cp->bridge) - cfg->bridges);
	}
}

static inline struct rte_ether_addr mac_of(const char *s)
{
	struct rte_ether_addr m;

	assert_int_equal(rte_ether_unformat_addr(s, &m), 0);
	return m;
}

#endif
