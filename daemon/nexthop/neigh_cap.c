/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table's caps (control thread). Dynamic entries no route
 * uses: neigh_max per family (as Linux's ARP and ND tables each have
 * gc_thresh3), a new one evicting the least recently used of its family,
 * where use is what the control thread sends and what workers forward:
 * they mark an entry per epoch (nh_mark_used, nexthop/nexthop.h), folded
 * into the eviction lists once a second, and an entry marked since the last
 * fold is passed over by an eviction too, so a flood of new entries evicts
 * the unused ones first. Entries resolving for traffic (glean):
 * neigh_unresolved_max per family, half of it per interface, so a scan in
 * one family or through one link (a VLAN) leaves the others room.
 */
#include <errno.h>
#include <string.h>

#include "nexthop/neigh_priv.h"
#include "nexthop/nexthop.h"

#define NEIGH_USE_EPOCH_MS 1000 /* workers' marks of use are folded in this often */
#define NEIGH_SPARE_MAX    64   /* used entries an eviction passes over, at most */

FWD_COUNTER(neigh_evicted, "neigh_evicted");
FWD_COUNTER(neigh_unresolved_full, "neigh_unresolved_full");
FWD_COUNTER(neigh_unresolved_port_full, "neigh_unresolved_port_full");

uint32_t neigh_max = UINT32_MAX;
uint32_t neigh_unresolved_max = NEIGH_UNRESOLVED_MAX;

/* entries in NEIGH_INCOMPLETE by family (IPv4, IPv6) and interface, and per family */
static unsigned n_incomplete[2][FWD_MAX_IFACES], n_incomplete_fam[2];
static uint64_t use_epoch_ms; /* when nh_use_epoch last advanced */

void neigh_cap_reset(uint32_t n_nexthops)
{
	neigh_max = n_nexthops; /* no cap below the table's until neigh_set_max */
	neigh_unresolved_max = NEIGH_UNRESOLVED_MAX;
	memset(n_incomplete, 0, sizeof(n_incomplete));
	memset(n_incomplete_fam, 0, sizeof(n_incomplete_fam));
	use_epoch_ms = neigh_hooks.now_ms();
}

void neigh_count_incomplete(const struct neigh *n, int d)
{
	unsigned f = n->addr.family == AF_INET6;

	n_incomplete[f][n->port] += (unsigned)d;
	n_incomplete_fam[f] += (unsigned)d;
}

unsigned neigh_unresolved(uint8_t family, uint16_t port)
{
	unsigned f = family == AF_INET6;

	return port < FWD_MAX_IFACES ? n_incomplete[f][port] : n_incomplete_fam[f];
}

uint32_t neigh_unresolved_port_max(void)
{
	return RTE_MAX(neigh_unresolved_max / 2, 1u);
}

/* Evict the least recently used unused entries of family until at most
 * keep are left; one workers forwarded by since the last fold goes to the
 * back instead (a flood's new entries may come faster than the folds). */
void neigh_evict(uint8_t family, uint32_t keep)
{
	unsigned spared = 0;
	struct neigh *old;

	while (neigh_lru_count(family) > keep && (old = neigh_lru_oldest(family)) != NULL) {
		if (spared < NEIGH_SPARE_MAX && nh_used_this_epoch(old->nh) &&
		    neigh_lru_count(family) > 1) {
			spared++;
			neigh_lru_touch(old);
			continue;
		}
		neigh_evicted.value++;
		neigh_destroy(old);
	}
}

void neigh_use_fold(uint64_t now)
{
	uint32_t pos = 0;
	struct neigh *n;

	if (now - use_epoch_ms < NEIGH_USE_EPOCH_MS)
		return;
	use_epoch_ms = now;
	while ((n = neigh_iter(&pos)) != NULL)
		if (n->in_lru && nh_used_this_epoch(n->nh))
			neigh_lru_touch(n);
	nh_use_epoch_next();
}

int neigh_nh_alloc(const struct fwd_ip *a, uint16_t port, uint32_t *nh)
{
	uint8_t f = a->family;

	if (nh_alloc(a, port, nh) == 0)
		return 0;
	if (neigh_lru_oldest(f) == NULL)
		f = f == AF_INET6 ? AF_INET : AF_INET6;
	if (neigh_lru_oldest(f) == NULL)
		return -ENOSPC;
	neigh_evict(f, neigh_lru_count(f) - 1);
	return nh_alloc(a, port, nh);
}

struct neigh *neigh_new_resolving(struct fwd_ip a, uint16_t port)
{
	struct neigh *n;

	if (neigh_unresolved(a.family, NEIGH_ALL) >= neigh_unresolved_max) {
		neigh_unresolved_full.value++;
		neigh_table_full.value++;
		return NULL;
	}
	if (neigh_unresolved(a.family, port) >= neigh_unresolved_port_max()) {
		neigh_unresolved_port_full.value++;
		neigh_table_full.value++;
		return NULL;
	}
	n = neigh_create(a, port, true);
	if (n != NULL)
		neigh_resolve_start(n);
	return n;
}

void neigh_set_max(uint32_t max)
{
	neigh_max = max;
	neigh_evict(AF_INET, max);
	neigh_evict(AF_INET6, max);
}
