/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the wire says about neighbours, whatever the protocol (ARP, NDP):
 * the policy of a careful router, as Linux's defaults. An existing entry is
 * confirmed, unless it is permanent (an operator's) or its MAC changed less
 * than NEIGH_LOCKTIME_MS ago; a new one is created only for a host that
 * asked for one of our addresses, and then stale, since a request is a
 * claim and not proof of two-way reachability; an unsolicited announcement
 * (gratuitous ARP, unsolicited NA) never creates one, or one host could
 * fill the table with a /16. Resolvers count the outcome under their own
 * names. Another host claiming one of our addresses is logged once per
 * address a minute.
 */
#include <string.h>

#include "nexthop/neigh_priv.h"

#define CONFLICT_SLOTS 64

/* Our addresses another host claimed, and when that was last logged. */
static struct {
	struct fwd_ip addr;
	uint64_t logged_ms;
} conflicts[CONFLICT_SLOTS];

enum neigh_heard_result neigh_heard(struct fwd_ip a, uint16_t port,
                                    const struct rte_ether_addr *mac, enum neigh_heard_how how)
{
	struct neigh *n = neigh_lookup(a, port);

	if (n == NULL) {
		if (how != NEIGH_HEARD_ASKED_US)
			return NEIGH_HEARD_IGNORED_UNKNOWN;
		return neigh_learn(a, port, mac) != NULL ? NEIGH_HEARD_LEARNT : NEIGH_HEARD_FULL;
	}
	if (n->state == NEIGH_PERMANENT)
		return NEIGH_HEARD_IGNORED_STATIC;
	if (neigh_mac_locked(n, mac))
		return NEIGH_HEARD_IGNORED_LOCKED;
	neigh_confirm(n, mac);
	return NEIGH_HEARD_CONFIRMED;
}

enum neigh_heard_result neigh_heard_advert(struct fwd_ip a, uint16_t port,
                                           const struct rte_ether_addr *mac, bool solicited,
                                           bool override)
{
	struct neigh *n = neigh_lookup(a, port);
	struct rte_ether_addr old;

	if (n == NULL)
		return NEIGH_HEARD_IGNORED_UNKNOWN;
	if (n->state == NEIGH_PERMANENT)
		return NEIGH_HEARD_IGNORED_STATIC;
	if (!neigh_knows_mac(n)) {
		if (mac == NULL)
			return NEIGH_HEARD_IGNORED_UNKNOWN;
		if (solicited)
			neigh_confirm(n, mac);
		else
			neigh_stale(n, mac);
		return NEIGH_HEARD_CONFIRMED;
	}
	old = n->mac;
	if (mac != NULL && !rte_is_same_ether_addr(mac, &old) && !override) {
		if (n->state == NEIGH_REACHABLE)
			neigh_stale(n, &old);
		return NEIGH_HEARD_IGNORED_NO_OVERRIDE;
	}
	/* stricter than Linux, whose NDP has no locktime: one host's stream of
	 * overriding NAs moves the entry at most once a NEIGH_LOCKTIME_MS (the
	 * first move after the MAC was learnt is taken at once, RFC 4861 7.2.5) */
	if (mac != NULL && neigh_mac_move_locked(n, mac))
		return NEIGH_HEARD_IGNORED_LOCKED;
	if (solicited) {
		neigh_confirm(n, mac != NULL ? mac : &old);
		return NEIGH_HEARD_CONFIRMED;
	}
	if (mac == NULL || rte_is_same_ether_addr(mac, &old))
		return NEIGH_HEARD_UNCHANGED;
	neigh_stale(n, mac);
	return NEIGH_HEARD_UPDATED;
}

void neigh_heard_reset(void)
{
	memset(conflicts, 0, sizeof(conflicts));
}

bool neigh_conflict_log_due(const struct fwd_ip *a)
{
	uint64_t now = neigh_hooks.now_ms();
	unsigned slot = 0;

	for (unsigned i = 0; i < CONFLICT_SLOTS; i++) {
		if (fwd_ip_eq(&conflicts[i].addr, a)) {
			slot = i;
			break;
		}
		if (conflicts[i].logged_ms < conflicts[slot].logged_ms)
			slot = i; /* else reuse the longest quiet one */
	}
	if (fwd_ip_eq(&conflicts[slot].addr, a) &&
	    now - conflicts[slot].logged_ms < NEIGH_CONFLICT_LOG_MS)
		return false;
	conflicts[slot].addr = *a;
	conflicts[slot].logged_ms = now;
	return true;
}
