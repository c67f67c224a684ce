/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Router Advertisements (RFC 4861 6.2) on interfaces (ports and VLAN
 * interfaces) with `ra: true`, control thread only, so hosts configure
 * themselves with SLAAC (RFC 4862). A VLAN's RAs leave tagged
 * (fwd_control_tx), from its link-local address, with its prefixes and MTU;
 * an interface that goes sends its last RA (lifetime 0) first.
 *
 * When: unsolicited, to all nodes, every 200-600 s at random (Min and
 * MaxRtrAdvInterval), the first three (MAX_INITIAL_RTR_ADVERTISEMENTS) at
 * most 16 s apart, again when the port starts advertising or its addresses
 * change; an answer to a Router Solicitation after a random 0-0.5 s
 * (MAX_RA_DELAY_TIME), multicast too; never two multicast RAs within 3 s
 * (MIN_DELAY_BETWEEN_RAS): a solicitation meanwhile is answered by the one
 * scheduled 3 s after the last. When `ra` is turned off, one last RA with
 * router lifetime 0 (6.2.5) so hosts stop using us at once.
 *
 * What: hop limit 64 for hosts, M = O = 0 (SLAAC, no DHCPv6), router
 * lifetime 1800 s, reachable time and retrans timer 0 (unspecified), our
 * SLLA, the interface's MTU, and a Prefix Information option (on-link,
 * autonomous; valid 30 days, preferred 7) for each global /64 prefix of the
 * port. From the port's link-local address only once it is preferred
 * (RFC 4861 6.1.2: hosts drop RAs from any other source), hop limit 255; a
 * due RA waits for that, and for the port to be up.
 */
#include <errno.h>
#include <string.h>

#include "core/log.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ndp.h"
#include "ip6/ndp_guard.h"
#include "ip6/ndp_priv.h"
#include "ip6/output.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define RA_MIN_INTERVAL_MS     200000 /* MinRtrAdvInterval */
#define RA_MAX_INTERVAL_MS     600000 /* MaxRtrAdvInterval */
#define RA_MAX_INITIAL         3      /* MAX_INITIAL_RTR_ADVERTISEMENTS */
#define RA_INITIAL_INTERVAL_MS 16000  /* MAX_INITIAL_RTR_ADVERT_INTERVAL */
#define RA_MIN_DELAY_MS        3000   /* MIN_DELAY_BETWEEN_RAS */
#define RA_MAX_DELAY_MS        500    /* MAX_RA_DELAY_TIME */
#define RA_LIFETIME_S          1800   /* AdvDefaultLifetime: 3 x MaxRtrAdvInterval */
#define RA_HOP_LIMIT           64     /* AdvCurHopLimit */
#define RA_PREFIX_VALID_S      2592000
#define RA_PREFIX_PREFERRED_S  604800
#define RA_PREFIX_L            0x80 /* on-link */
#define RA_PREFIX_A            0x40 /* autonomous address configuration */

FWD_COUNTER(ndp_ra_tx, "ndp_ra_tx");

static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };

/* Small enough to keep for every interface id (plan: FWD_MAX_IFACES x 24 bytes). */
static struct ra_port {
	bool on;          /* ports[].ra, interfaces[].ra */
	bool sent;        /* last_ms is valid */
	uint8_t initial;  /* RAs sent since it started advertising or changed */
	uint64_t next_ms; /* the next RA is due; 0: none planned */
	uint64_t last_ms; /* the last one went */
} ra[FWD_MAX_IFACES];
static unsigned n_on; /* entries with on set: the tick skips the table without */

bool ndp_ra_enabled(uint16_t port)
{
	return port < FWD_MAX_IFACES && ra[port].on;
}

/* The port's global /64 prefixes, each once; returns how many. */
static unsigned ra_prefixes(uint16_t port, uint8_t out[ADDR6_MAX][16])
{
	const struct ip6_port_addrs *pa = &ip6_addrs[port];
	unsigned n = 0;

	for (unsigned i = 0; i < pa->n; i++) {
		uint8_t p[16];
		unsigned j;

		if (pa->a[i].len != 64 || ip6_is_linklocal(pa->a[i].addr) ||
		    ip6_is_multicast(pa->a[i].addr))
			continue;
		memcpy(p, pa->a[i].addr, 8);
		memset(p + 8, 0, 8);
		for (j = 0; j < n && memcmp(out[j], p, 16) != 0; j++)
			;
		if (j == n)
			memcpy(out[n++], p, 16);
	}
	return n;
}

static uint8_t *ra_opt_mtu(uint8_t *p, uint16_t mtu)
{
	struct ndp_opt_mtu *o = (struct ndp_opt_mtu *)p;

	o->type = NDP_OPT_MTU;
	o->len = 1;
	o->mtu = rte_cpu_to_be_32(mtu);
	return p + sizeof(*o);
}

static uint8_t *ra_opt_prefix(uint8_t *p, const uint8_t prefix[16])
{
	struct ndp_opt_prefix *o = (struct ndp_opt_prefix *)p;

	o->type = NDP_OPT_PREFIX;
	o->len = sizeof(*o) / 8;
	o->prefix_len = 64;
	o->flags = RA_PREFIX_L | RA_PREFIX_A;
	o->valid_s = rte_cpu_to_be_32(RA_PREFIX_VALID_S);
	o->preferred_s = rte_cpu_to_be_32(RA_PREFIX_PREFERRED_S);
	memcpy(o->prefix, prefix, 16);
	return p + sizeof(*o);
}

/* One RA to all nodes on port; -EAGAIN while the port cannot send one. */
static int ra_send(uint16_t port, uint16_t lifetime_s)
{
	const struct ip6_port_addrs *pa = &ip6_addrs[port];
	uint8_t prefixes[ADDR6_MAX][16], *p;
	unsigned n;
	struct rte_mbuf *m;
	struct ndp_ra *h;

	if (!ndp_port_ready(port) || pa->n == 0 || pa->state[0] != ADDR6_PREFERRED ||
	    !ip6_is_linklocal(pa->a[0].addr))
		return -EAGAIN;
	n = ra_prefixes(port, prefixes);
	m = ndp_frame(port, NULL, pa->a[0].addr, all_nodes,
	              (uint16_t)(sizeof(*h) + sizeof(struct ndp_opt_lladdr) +
	                         sizeof(struct ndp_opt_mtu) + n * sizeof(struct ndp_opt_prefix)));
	if (m == NULL)
		return -ENOBUFS;
	h = ndp_icmp_of(m);
	h->h.type = NDP_RA;
	h->cur_hop_limit = RA_HOP_LIMIT;
	h->lifetime_s = rte_cpu_to_be_16(lifetime_s);
	p = ndp_opt_lladdr((uint8_t *)(h + 1), NDP_OPT_SLLA, ip6_link_mac(port));
	p = ra_opt_mtu(p, ip6_link_mtu(port));
	for (unsigned i = 0; i < n; i++)
		p = ra_opt_prefix(p, prefixes[i]);
	if (ndp_send(m, port) < 0)
		return -ENOBUFS;
	ndp_ra_tx.value++;
	return 0;
}

/* The soonest a multicast RA may go. */
static uint64_t ra_earliest(const struct ra_port *r, uint64_t now)
{
	return r->sent && now < r->last_ms + RA_MIN_DELAY_MS ? r->last_ms + RA_MIN_DELAY_MS : now;
}

/* Plan an RA for t, unless one is planned sooner. */
static void ra_plan(struct ra_port *r, uint64_t t)
{
	if (r->next_ms == 0 || t < r->next_ms)
		r->next_ms = t;
}

void ndp_port_changed(uint16_t port, bool on)
{
	struct ra_port *r = port < FWD_MAX_IFACES ? &ra[port] : NULL;

	if (r == NULL)
		return;
	if (!on) {
		/* the last word: do not use us as a default router (6.2.5) */
		if (r->on && ra_send(port, 0) == 0) {
			r->sent = true;
			r->last_ms = neigh_hooks.now_ms();
		}
		n_on -= r->on;
		r->on = false;
		r->next_ms = 0;
		ndp_guard_rs_set(port, false);
		return;
	}
	n_on += !r->on;
	r->on = true;
	ndp_guard_rs_set(port, true);
	r->initial = 0; /* new information: a few RAs in quick succession (6.2.4) */
	ra_plan(r, ra_earliest(r, neigh_hooks.now_ms()));
}

void ndp_ra_solicited(uint16_t port)
{
	struct ra_port *r = &ra[port];
	uint64_t now = neigh_hooks.now_ms();
	uint64_t delay = ndp_random_ms(RA_MAX_DELAY_MS);

	/* 6.2.6: within 3 s of the last, 3 s after it plus the delay */
	ra_plan(r, ra_earliest(r, now) + delay);
}

/* The next unsolicited RA after one sent at now. */
static uint64_t ra_interval(const struct ra_port *r)
{
	uint64_t t = RA_MIN_INTERVAL_MS + ndp_random_ms(RA_MAX_INTERVAL_MS - RA_MIN_INTERVAL_MS);

	return r->initial < RA_MAX_INITIAL ? RTE_MIN(t, (uint64_t)RA_INITIAL_INTERVAL_MS) : t;
}

void ndp_ra_tick(uint64_t now)
{
	for (unsigned p = 0; p < FWD_MAX_IFACES && n_on > 0; p++) {
		struct ra_port *r = &ra[p];

		if (!r->on || r->next_ms == 0 || r->next_ms > now)
			continue;
		/* until the link-local address is ours and the port up: next tick */
		if (ra_send((uint16_t)p, RA_LIFETIME_S) == -EAGAIN)
			continue;
		r->sent = true;
		r->last_ms = now;
		r->initial += r->initial < RA_MAX_INITIAL;
		r->next_ms = now + ra_interval(r);
	}
}

void ndp_ra_reset(void)
{
	memset(ra, 0, sizeof(ra));
	n_on = 0;
}

void ndp_ra_gone(uint16_t port)
{
	if (port >= FWD_MAX_IFACES)
		return;
	ndp_port_changed(port, false);
	ra[port] = (struct ra_port){ 0 };
}
