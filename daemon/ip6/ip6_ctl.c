/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 life cycle: FIB and RIB, NDP, the link-local address of every l3
 * port, the input workers hand IPv6 frames to (the config is applied by
 * l3/l3_config.c). */
#include <errno.h>
#include <string.h>

#include <rte_lcore.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/input.h"
#include "ip6/ndp.h"
#include "port/port.h"

#define RECLAIM_MS 100

struct fib6 *ip6_fib;
struct rib6 ip6_rib;
static struct event *reclaim_ev;

static void ip6_reclaim(void *arg)
{
	(void)arg;
	fib6_reclaim(ip6_fib);
}

static int ip6_init(const struct fwd_config *cfg)
{
	int rc;

	ip6_fib = fib6_create(cfg->dataplane.fib6_tbl8s, fwd.rcu, (int)rte_socket_id());
	if (ip6_fib == NULL) {
		LOG(ERR, "IPv6 FIB of %u groups: out of memory (raise dpdk.memory_mb)",
		    cfg->dataplane.fib6_tbl8s);
		return -ENOMEM;
	}
	rib6_init(&ip6_rib, ip6_fib);
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
	reclaim_ev = fwd_timer_every(RECLAIM_MS * 1000, ip6_reclaim, NULL);
	if (reclaim_ev == NULL)
		return -ENOMEM;
	if ((rc = ndp_init()) < 0)
		return rc;
	ip6_input_init();
	for (unsigned p = 0; p < fwd_n_ports; p++)
		if (fwd_ports[p].mode == FWD_MODE_L3 && (rc = addr6_port_up((uint8_t)p)) < 0)
			return rc;
	return 0;
}

static void ip6_fini(void)
{
	ip6_input_fini(); /* no worker input on a FIB about to go */
	for (unsigned p = 0; p < fwd_n_ports; p++)
		addr6_port_down((uint8_t)p);
	ndp_fini();
	fwd_timer_free(&reclaim_ev);
	rib6_clear(&ip6_rib);
	fib6_free(ip6_fib);
	ip6_fib = NULL;
	memset(ip6_addrs, 0, sizeof(ip6_addrs));
}

static struct fwd_module ip6_module = {
	.name = "ip6",
	.depends_on = "punt nexthop port",
	.init = ip6_init,
	.fini = ip6_fini,
};
FWD_MODULE(ip6_module);
