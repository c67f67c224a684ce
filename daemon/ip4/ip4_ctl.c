/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 life cycle: FIB, RIB and ARP (the config is applied by l3/l3_config.c). */
#include <errno.h>
#include <string.h>

#include <rte_lcore.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "ip4/addr.h"
#include "ip4/arp.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "port/port.h"

#define RECLAIM_MS 100

struct fib4 *ip4_fib;
struct rib4 ip4_rib;
static struct event *reclaim_ev;

static void ip4_reclaim(void *arg)
{
	(void)arg;
	fib4_reclaim(ip4_fib);
}

static int ip4_init(const struct fwd_config *cfg)
{
	int socket = (int)rte_socket_id(), rc;

	ip4_fib = fib4_create(cfg->dataplane.fib_tbl8s, fwd.rcu, socket);
	if (ip4_fib == NULL) {
		LOG(ERR, "FIB of %u tbl8 groups: out of memory (raise dpdk.memory_mb)",
		    cfg->dataplane.fib_tbl8s);
		return -ENOMEM;
	}
	rib4_init(&ip4_rib, ip4_fib);
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
	reclaim_ev = fwd_timer_every(RECLAIM_MS * 1000, ip4_reclaim, NULL);
	if (reclaim_ev == NULL || (rc = arp_init()) < 0)
		return reclaim_ev == NULL ? -ENOMEM : rc;
	return 0;
}

static void ip4_fini(void)
{
	arp_fini();
	fwd_timer_free(&reclaim_ev);
	rib4_clear(&ip4_rib);
	fib4_free(ip4_fib);
	ip4_fib = NULL;
	memset(ip4_addrs, 0, sizeof(ip4_addrs));
}

static struct fwd_module ip4_module = {
	.name = "ip4",
	.depends_on = "punt nexthop",
	.init = ip4_init,
	.fini = ip4_fini,
};
FWD_MODULE(ip4_module);
