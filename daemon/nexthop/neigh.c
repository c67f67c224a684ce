/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour state machine (iproute2 names):
 *
 *   incomplete  created by a route, a packet (glean) or `neigh del` of a
 *               used static entry: a solicitation (ARP request, NS) at once, then every
 *               NEIGH_RETRANS_MS, NEIGH_MAX_PROBES in all; packets held.
 *   failed      no answer: held packets get an error to their sender and are
 *               dropped (no_neighbour); for NEIGH_FAILED_MS new packets are
 *               dropped the same way without new requests; then the entry
 *               goes if no route uses it, else waits for the next packet.
 *   reachable   confirmed by the wire (neigh_heard: an answer, a request from it) less
 *               than neigh_timeout_s ago; the next hop forwards.
 *   stale       not confirmed for neigh_timeout_s, or new from a request for
 *               our address (a claim, not proof, of two-way reachability):
 *               still forwards; unicast probes NEIGH_RETRANS_MS apart (a new
 *               entry's after NEIGH_DELAY_MS); no answer to NEIGH_MAX_PROBES:
 *               removed, or failed (next hop back to pending) if routes use it.
 *   permanent   static: never aged or probed, never changed by the wire.
 *
 * Dynamic entries are capped (neigh_cap.c): those no route uses at
 * neigh_max per family, a new one evicting the least recently used (by
 * what is sent and forwarded to it) of its family; those resolving for
 * traffic at neigh_unresolved_max per family, half of it per port.
 * Permanent entries and those routes use neither count nor are ever
 * evicted (a gateway whose last route goes joins the others, newest); a
 * route finds room in a full next-hop table by evicting an unused entry.
 *
 * Timers run from one libevent tick; time comes from neigh_hooks.now_ms so
 * tests can drive every transition with a fake clock.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/event.h"
#include "core/log.h"
#include "core/worker.h"
#include "core/vrf.h"
#include "nexthop/nexthop.h"
#include "nexthop/neigh_priv.h"
#include "port/port.h"

#define NEIGH_TICK_BUDGET 4096 /* timers run per tick, so RPC clients get their turn */

FWD_COUNTER(neigh_failures, "neigh_resolution_failures");
FWD_COUNTER(neigh_aged_out, "neigh_aged_out");
FWD_COUNTER(neigh_table_full, "neigh_table_full");

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct neigh_hooks neigh_hooks = {
	.now_ms = mono_ms,
	.tx = fwd_control_tx,
};
uint64_t neigh_reachable_ms = 300 * 1000;

static struct neigh_resolver resolvers[2]; /* IPv4, IPv6 */

/* Resolution failures, summarised in one line per NEIGH_FAIL_LOG_MS. */
static struct {
	unsigned n;
	struct fwd_ip addr; /* the first one since the last line */
	uint16_t port;
	bool logged;
	uint64_t last_ms;
} fail_log;

const char *neigh_state_name(enum neigh_state s)
{
	static const char *const names[] = {
		[NEIGH_INCOMPLETE] = "incomplete", [NEIGH_REACHABLE] = "reachable",
		[NEIGH_STALE] = "stale",           [NEIGH_FAILED] = "failed",
		[NEIGH_PERMANENT] = "permanent",
	};
	return (unsigned)s < RTE_DIM(names) ? names[s] : "?";
}

static struct neigh_resolver *resolver_of(uint8_t family)
{
	return &resolvers[family == AF_INET6];
}

void neigh_resolver_set(uint8_t family, const struct neigh_resolver *r)
{
	*resolver_of(family) = *r;
}

struct neigh_resolver *neigh_resolver(uint8_t family)
{
	struct neigh_resolver *r = resolver_of(family);

	return r->check != NULL ? r : NULL;
}

bool neigh_addr_ok(uint16_t port, const struct fwd_ip *a)
{
	const struct neigh_resolver *r = neigh_resolver(a->family);

	return r != NULL && r->check(port, a, NULL, NULL, 0) == 0;
}

static void solicit(const struct neigh *n, bool unicast)
{
	const struct neigh_resolver *r = neigh_resolver(n->addr.family);

	if (r != NULL)
		r->solicit(n->port, &n->addr, unicast ? &n->mac : NULL);
}

/* Reachable, stale and permanent entries have a MAC (their next hop forwards). */
static bool neigh_has_mac(const struct neigh *n)
{
	return n->state == NEIGH_REACHABLE || n->state == NEIGH_STALE ||
	       n->state == NEIGH_PERMANENT;
}

void neigh_event(const struct neigh *n, const char *action)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_NEIGH, action);

	if (e == NULL)
		return;
	fwd_ip_fmt(&n->addr, e->prefix);
	snprintf(e->port, sizeof(e->port), "%s", fwd_iface_name(n->port));
	if (n->port < FWD_MAX_IFACES && fwd_ifaces[n->port].vrf != FWD_VRF_DEFAULT)
		snprintf(e->vrf, sizeof(e->vrf), "%s", fwd_vrf_name(fwd_ifaces[n->port].vrf));
	snprintf(e->state, sizeof(e->state), "%s", neigh_state_name(n->state));
	if (neigh_has_mac(n))
		fwd_mac_fmt(n->mac.addr_bytes, e->lladdr);
}

void neigh_set_state(struct neigh *n, enum neigh_state s, uint64_t now)
{
	/* a new state, or the same one with a MAC learnt just now (neigh_confirm, neigh_stale) */
	bool changed = s != n->state || (s != NEIGH_INCOMPLETE && n->mac_ms == now);

	int d = (s == NEIGH_INCOMPLETE) - (n->state == NEIGH_INCOMPLETE);

	if (d != 0)
		neigh_count_incomplete(n, d);
	n->state = s;
	nh_set_failed(n->nh, s == NEIGH_FAILED);
	if (s != NEIGH_STALE) /* the age of a stale entry counts from its last confirmation */
		n->updated_ms = now;
	neigh_lru_sync(n);
	if (changed)
		neigh_event(n, "state");
}

/* The host route goes to the neighbour on the port owning its subnet. */
static void rib_sync(struct neigh *n)
{
	const struct neigh_resolver *r = neigh_resolver(n->addr.family);
	bool want = r != NULL && neigh_addr_ok(n->port, &n->addr) &&
	            r->port_of(fwd_ifaces[n->port].vrf, &n->addr) == n->port;

	if (want && !n->in_rib) {
		/* a full FIB leaves the host on the glean path: slower, still correct */
		n->in_rib = r->host_add(&n->addr, n->nh) == 0;
	} else if (!want && n->in_rib) {
		if (r != NULL)
			r->host_del(&n->addr, n->nh);
		n->in_rib = false;
	}
}

void neigh_destroy(struct neigh *n)
{
	const struct neigh_resolver *r = neigh_resolver(n->addr.family);

	neigh_hold_fail(n);
	if (n->in_rib && r != NULL)
		r->host_del(&n->addr, n->nh);
	if (n->state == NEIGH_INCOMPLETE)
		neigh_count_incomplete(n, -1);
	nh_release(n->nh);
	neigh_table_del(n);
}

struct neigh *neigh_create(struct fwd_ip a, uint16_t port, bool dynamic)
{
	struct neigh *n;
	uint32_t nh;

	if (dynamic && neigh_max > 0)
		neigh_evict(a.family, neigh_max - 1);
	if ((dynamic && neigh_max == 0) || neigh_nh_alloc(&a, port, &nh) < 0) {
		neigh_table_full.value++;
		return NULL;
	}
	n = neigh_table_add(a, port, nh);
	if (n == NULL) {
		nh_release(nh);
		neigh_table_full.value++;
		return NULL;
	}
	neigh_count_incomplete(n, 1); /* calloc'ed: state is NEIGH_INCOMPLETE */
	n->updated_ms = neigh_hooks.now_ms();
	rib_sync(n);
	if (dynamic)
		neigh_lru_sync(n);
	return n;
}

void neigh_resolve_start(struct neigh *n)
{
	uint64_t now = neigh_hooks.now_ms();
	bool created = n->state == NEIGH_INCOMPLETE; /* new entries start there */

	neigh_set_state(n, NEIGH_INCOMPLETE, now);
	if (created)
		neigh_event(n, "state"); /* a resolution starts: say so for new entries too */
	nh_set_l2(n->nh, NULL);
	n->probes = 1;
	solicit(n, false);
	neigh_timer_set(n, now + NEIGH_RETRANS_MS);
}

/* n is about to take mac: when it is a new one, note when (and when a
 * learnt one was replaced, for NDP's locktime). */
static void neigh_mac_note(struct neigh *n, const struct rte_ether_addr *mac, uint64_t now)
{
	if (neigh_has_mac(n) && rte_is_same_ether_addr(mac, &n->mac))
		return;
	if (neigh_has_mac(n))
		n->moved_ms = now;
	n->mac_ms = now;
}

void neigh_confirm(struct neigh *n, const struct rte_ether_addr *mac)
{
	uint64_t now = neigh_hooks.now_ms();

	if (n->state == NEIGH_PERMANENT)
		return;
	neigh_mac_note(n, mac, now);
	rte_ether_addr_copy(mac, &n->mac);
	neigh_set_state(n, NEIGH_REACHABLE, now);
	n->probes = 0;
	nh_set_l2(n->nh, mac);
	neigh_timer_set(n, now + neigh_reachable_ms);
	neigh_lru_touch(n);
	neigh_hold_release(n);
}

bool neigh_mac_move_locked(const struct neigh *n, const struct rte_ether_addr *mac)
{
	return n->moved_ms != 0 && neigh_has_mac(n) && n->state != NEIGH_PERMANENT &&
	       !rte_is_same_ether_addr(mac, &n->mac) &&
	       neigh_hooks.now_ms() - n->moved_ms < NEIGH_LOCKTIME_MS;
}

bool neigh_mac_locked(const struct neigh *n, const struct rte_ether_addr *mac)
{
	return neigh_has_mac(n) && n->state != NEIGH_PERMANENT &&
	       !rte_is_same_ether_addr(mac, &n->mac) &&
	       neigh_hooks.now_ms() - n->mac_ms < NEIGH_LOCKTIME_MS;
}

void neigh_stale(struct neigh *n, const struct rte_ether_addr *mac)
{
	uint64_t now = neigh_hooks.now_ms();

	neigh_mac_note(n, mac, now);
	rte_ether_addr_copy(mac, &n->mac);
	n->updated_ms = now;
	neigh_set_state(n, NEIGH_STALE, now);
	n->probes = 0;
	nh_set_l2(n->nh, mac);
	/* soon proven (its reply makes it reachable) or gone, as Linux's first probe */
	neigh_timer_set(n, now + RTE_MIN((uint64_t)NEIGH_DELAY_MS, neigh_reachable_ms));
	neigh_hold_release(n);
}

struct neigh *neigh_learn(struct fwd_ip a, uint16_t port, const struct rte_ether_addr *mac)
{
	struct neigh *n = neigh_create(a, port, true);

	if (n != NULL)
		neigh_stale(n, mac);
	return n;
}

bool neigh_knows_mac(const struct neigh *n)
{
	return neigh_has_mac(n);
}

static void fail_log_flush(uint64_t now)
{
	char a[FWD_IP_STRLEN];

	if (fail_log.n == 0 || (fail_log.logged && now - fail_log.last_ms < NEIGH_FAIL_LOG_MS))
		return;
	LOG(NOTICE, "%u neighbour%s failed to resolve in the last %u s, e.g. %s on %s", fail_log.n,
	    fail_log.n == 1 ? "" : "s", NEIGH_FAIL_LOG_MS / 1000, fwd_ip_fmt(&fail_log.addr, a),
	    fail_log.port < FWD_MAX_IFACES ? fwd_iface_name(fail_log.port) : "?");
	fail_log.n = 0;
	fail_log.logged = true;
	fail_log.last_ms = now;
}

static void neigh_fail(struct neigh *n, uint64_t now)
{
	neigh_set_state(n, NEIGH_FAILED, now);
	nh_set_l2(n->nh, NULL);
	n->probes = 0;
	neigh_hold_fail(n);
	neigh_timer_set(n, now + NEIGH_FAILED_MS);
}

/* Send the next request or probe of the round; false when the round is over. */
static bool neigh_retry(struct neigh *n, uint64_t now)
{
	if (n->probes >= NEIGH_MAX_PROBES)
		return false;
	n->probes++;
	solicit(n, n->state == NEIGH_STALE);
	neigh_timer_set(n, now + NEIGH_RETRANS_MS);
	return true;
}

static void neigh_timer(struct neigh *n, uint64_t now)
{
	switch (n->state) {
	case NEIGH_INCOMPLETE:
		if (neigh_retry(n, now))
			return;
		neigh_failures.value++;
		if (fail_log.n++ == 0) {
			fail_log.addr = n->addr;
			fail_log.port = n->port;
		}
		neigh_fail(n, now);
		return;
	case NEIGH_REACHABLE:
		neigh_set_state(n, NEIGH_STALE, now);
		n->probes = 0;
		neigh_retry(n, now);
		return;
	case NEIGH_STALE:
		if (neigh_retry(n, now))
			return;
		neigh_aged_out.value++;
		if (n->refs == 0)
			neigh_destroy(n);
		else
			neigh_fail(n, now);
		return;
	case NEIGH_FAILED:
		/* a used entry stays failed until a packet restarts it */
		if (n->refs == 0)
			neigh_destroy(n);
		return;
	default:
		return;
	}
}

void neigh_tick(void)
{
	uint64_t now = neigh_hooks.now_ms();
	unsigned budget = NEIGH_TICK_BUDGET;
	struct neigh *n;

	nh_l2_poll(neigh_l2_published); /* new MACs whose grace period has passed */
	neigh_use_fold(now);
	while (budget-- > 0 && (n = neigh_timer_pop(now)) != NULL)
		neigh_timer(n, now);
	fail_log_flush(now); /* after the batch: failures at the same time make one line */
}

/* ------------------------------------------------------------- public API */

int neigh_ref(struct fwd_ip a, uint16_t port, uint32_t *nh)
{
	struct neigh *n;

	if (!neigh_iface_ok(port))
		return -EINVAL;
	n = neigh_lookup(a, port);
	if (n == NULL) {
		n = neigh_create(a, port, false);
		if (n == NULL)
			return -ENOSPC;
		n->refs++;
		neigh_resolve_start(n);
	} else {
		n->refs++;
		neigh_lru_sync(n);
		if (n->state == NEIGH_FAILED && n->heap == NEIGH_NO_TIMER)
			neigh_resolve_start(n); /* a new route: worth another try */
	}
	*nh = n->nh;
	return 0;
}

void neigh_unref(uint32_t nh)
{
	struct neigh *n = neigh_by_nh(nh);

	if (n == NULL || n->refs == 0 || --n->refs > 0)
		return;
	/* unused and not resolving for packets it holds: nothing to keep (a packet
	 * would glean it again), so a reload leaves what a fresh start would */
	if ((n->state == NEIGH_FAILED && n->heap == NEIGH_NO_TIMER) ||
	    (n->state == NEIGH_INCOMPLETE && n->n_held == 0) || !neigh_addr_ok(n->port, &n->addr)) {
		neigh_destroy(n);
		return;
	}
	/* unused now: it counts against neigh_max; the next new entry trims the
	 * list back to the cap, so removing a route never evicts another entry */
	neigh_lru_sync(n);
}

void neigh_addresses_changed(void)
{
	uint32_t pos = 0;
	struct neigh *n;

	while ((n = neigh_iter(&pos)) != NULL) {
		if (n->refs == 0 && !neigh_addr_ok(n->port, &n->addr))
			neigh_destroy(n);
		else
			rib_sync(n);
	}
}

/* ------------------------------------------------------------- life cycle */

int neigh_module_init(uint32_t n_nexthops, uint32_t timeout_s)
{
	int rc = neigh_table_init(n_nexthops);

	if (rc < 0)
		return rc;
	neigh_reachable_ms = (uint64_t)timeout_s * 1000;
	neigh_cap_reset(n_nexthops);
	memset(&fail_log, 0, sizeof(fail_log));
	neigh_heard_reset();
	fwd_punt_register(FWD_PUNT_RESOLVE, neigh_punt_resolve);
	return 0;
}

void neigh_module_fini(void)
{
	fwd_punt_register(FWD_PUNT_RESOLVE, NULL);
	neigh_table_fini();
	neigh_cap_reset(0);
}

void neigh_set_timeout(uint32_t timeout_s)
{
	neigh_reachable_ms = (uint64_t)timeout_s * 1000;
}
