/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Duplicate Address Detection (RFC 4862 5.4) for our addresses, control
 * thread only. addr6 adds an address tentative and calls ndp_dad_start (a
 * hook registered below: ip6/addr6.h);
 * after a random delay of up to a second (5.4.2; Linux waits up to
 * rtr_solicit_delay, 1 s, before every DAD as well) one solicitation goes
 * from :: to the address's solicited-node group (DupAddrDetectTransmits 1),
 * and if nobody objects within RetransTimer (1 s) the address is ours:
 * addr6_dad_done(port, a, false). A solicitation from :: or an
 * advertisement for it meanwhile (ndp_input.c) makes it a duplicate.
 * While the interface is down (admin, or its port's link) nobody could
 * object: the run starts over, with a new delay, once it is up (Linux
 * waits for carrier too).
 *
 * At most one run per tentative address: ADDR6_MAX per interface (a port or
 * a VLAN), in a table of its own allocated by the control thread when the
 * interface first runs DAD and freed when the interface goes (ndp.c's
 * core/iface.h hook), so 4,000 VLANs without IPv6 cost a pointer each.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "core/iface.h"
#include "core/log.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ndp.h"
#include "ip6/ndp_priv.h"
#include "nexthop/neigh.h"

#define DAD_MAX_DELAY_MS 1000 /* MAX_RTR_SOLICITATION_DELAY */
#define DAD_RETRANS_MS   1000 /* RetransTimer */

FWD_COUNTER(ndp_dad_duplicate, "ndp_dad_duplicate");

struct dad_run {
	bool on;
	bool sent; /* the solicitation went: now waiting for objections */
	uint8_t addr[16];
	uint64_t due_ms;
};

static struct dad_run *runs[FWD_MAX_IFACES]; /* [ADDR6_MAX] each, or NULL */
static unsigned n_runs;

static struct dad_run *dad_find(uint16_t port, const uint8_t a[16])
{
	if (port >= FWD_MAX_IFACES || runs[port] == NULL)
		return NULL;
	for (unsigned i = 0; i < ADDR6_MAX; i++)
		if (runs[port][i].on && memcmp(runs[port][i].addr, a, 16) == 0)
			return &runs[port][i];
	return NULL;
}

/* A free run of port's (its table made on first use), or NULL. */
static struct dad_run *dad_new(uint16_t port)
{
	if (runs[port] == NULL && (runs[port] = calloc(ADDR6_MAX, sizeof(*runs[port]))) == NULL)
		return NULL;
	for (unsigned i = 0; i < ADDR6_MAX; i++)
		if (!runs[port][i].on) {
			runs[port][i].on = true;
			n_runs++;
			return &runs[port][i];
		}
	return NULL;
}

static void dad_end(struct dad_run *r)
{
	r->on = false;
	n_runs--;
}

void ndp_dad_start(uint16_t port, const uint8_t a[16])
{
	struct dad_run *r = dad_find(port, a);

	if (port >= FWD_MAX_IFACES)
		return;
	if (r == NULL && (r = dad_new(port)) == NULL) { /* no memory, or a bug */
		LOG(ERR, "no room for a DAD run on %s: address taken without DAD",
		    fwd_iface_name(port));
		addr6_dad_done(port, a, false);
		return;
	}
	memcpy(r->addr, a, 16);
	r->sent = false;
	r->due_ms = neigh_hooks.now_ms() + ndp_random_ms(DAD_MAX_DELAY_MS);
}

void ndp_dad_stop(uint16_t port, const uint8_t a[16])
{
	struct dad_run *r = dad_find(port, a);

	if (r != NULL)
		dad_end(r);
}

void ndp_dad_conflict(uint16_t port, const uint8_t a[16])
{
	ndp_dad_stop(port, a);
	ndp_dad_duplicate.value++;
	addr6_dad_done(port, a, true);
}

static void dad_step(uint16_t port, struct dad_run *r, uint64_t now)
{
	static const uint8_t any[16];
	uint8_t a[16];

	if (!ndp_port_ready(port)) { /* nobody would hear: again once it is up, after a delay */
		r->sent = false;
		r->due_ms = now + ndp_random_ms(DAD_MAX_DELAY_MS);
		return;
	}
	if (!r->sent) {
		ndp_send_ns(port, any, r->addr, NULL); /* lost: nobody heard it, the same */
		r->sent = true;
		r->due_ms = now + DAD_RETRANS_MS;
		return;
	}
	memcpy(a, r->addr, 16);
	dad_end(r);
	addr6_dad_done(port, a, false);
}

void ndp_dad_tick(uint64_t now)
{
	for (unsigned p = 0; p < FWD_MAX_IFACES && n_runs > 0; p++)
		for (unsigned i = 0; runs[p] != NULL && i < ADDR6_MAX; i++)
			if (runs[p][i].on && runs[p][i].due_ms <= now)
				dad_step((uint16_t)p, &runs[p][i], now);
}

/* Forget port's runs and free their table. */
static void dad_free(uint16_t port)
{
	for (unsigned i = 0; runs[port] != NULL && i < ADDR6_MAX; i++)
		if (runs[port][i].on)
			dad_end(&runs[port][i]);
	free(runs[port]);
	runs[port] = NULL;
}

void ndp_dad_reset(void)
{
	for (unsigned p = 0; p < FWD_MAX_IFACES; p++)
		dad_free((uint16_t)p);
	n_runs = 0;
}

void ndp_dad_gone(uint16_t port)
{
	if (port < FWD_MAX_IFACES)
		dad_free(port);
}

static const struct addr6_ndp_hooks ndp_addr6_hooks = {
	.dad_start = ndp_dad_start,
	.dad_stop = ndp_dad_stop,
	.port_changed = ndp_port_changed,
};

/* DAD and RAs follow addresses (ip6/addr6.h). */
RTE_INIT(ndp_addr6_hooks_reg)
{
	addr6_set_ndp_hooks(&ndp_addr6_hooks);
}
