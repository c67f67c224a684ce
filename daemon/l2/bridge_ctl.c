/* SPDX-License-Identifier: BSD-3-Clause */
/* Bridges on the control thread: slots, life cycle, learning notes, aging, counters. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_ring_elem.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/event.h"
#include "core/log.h"
#include "core/module.h"
#include "l2/bridge.h"
#include "stats/stats_ctl.h"
#include "port/port.h"
#include "core/counter.h"

struct bridge bridge_table[FWD_MAX_BRIDGES];
struct bridge *bridge_of_iface[FWD_MAX_IFACES];
struct rte_ring *bridge_notes;
const struct fwd_config *bridge_cfg;
static struct event *tick_ev;
static uint64_t last_age;
/* learn notes the full ring refused (workers ask again on a later frame) */
FWD_COUNTER(notes_lost, "bridge_learn_notes_lost");
/* new MACs not learned because their port was at its ports[].mac_max */
static FWD_COUNTER(mac_max_refused, "bridge_mac_max_refused");

struct bridge *bridge_by_name(const char *name)
{
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++)
		if (bridge_table[i].used && strcmp(bridge_table[i].name, name) == 0)
			return &bridge_table[i];
	return NULL;
}

/* Sum the per-worker counters of slot. */
static void wsum(unsigned slot, uint64_t *flooded, uint64_t *full, uint64_t *lost)
{
	*flooded = *full = *lost = 0;
	for (unsigned w = 0; w < FWD_MAX_WORKERS; w++) {
		*flooded += bridge_wstats[w].flooded[slot];
		*full += bridge_wstats[w].fdb_full[slot];
		*lost += bridge_wstats[w].notes_lost[slot];
	}
}

void bridge_counters(const struct bridge *b, struct bridge_ctrs *out)
{
	uint64_t flooded, full, lost;

	wsum(b->slot, &flooded, &full, &lost);
	out->learned = b->fdb.learned;
	out->moved = b->fdb.moved;
	out->aged = b->fdb.aged;
	out->flooded = flooded - b->base_flooded;
	out->fdb_full = b->fdb.refused + full - b->base_full;
	out->notes_lost = lost - b->base_lost;
}

/* `stats clear`: every bridge counts from zero again. */
static void bridge_stats_clear(void)
{
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++) {
		struct bridge *b = &bridge_table[i];
		if (!b->used)
			continue;
		wsum(b->slot, &b->base_flooded, &b->base_full, &b->base_lost);
		b->fdb.learned = b->fdb.moved = b->fdb.aged = b->fdb.refused = 0;
	}
}

RTE_INIT(bridge_stats_register)
{
	fwd_stats_on_clear(bridge_stats_clear);
}

int bridge_create(struct bridge *b, const struct fwd_conf_bridge *cb)
{
	unsigned slot = (unsigned)(b - bridge_table);
	int rc = fdb_init(&b->fdb, cb->fdb_max, cb->mac_aging_s, fwd.rcu, (int)rte_socket_id());

	if (rc < 0) {
		LOG(ERR,
		    "bridge %s: FDB of %u entries: out of memory (raise dpdk.memory_mb or lower "
		    "fdb_max)",
		    cb->name, cb->fdb_max);
		fdb_fini(&b->fdb);
		return rc;
	}
	b->slot = (uint8_t)slot;
	b->n_members = 0;
	snprintf(b->name, sizeof(b->name), "%s", cb->name);
	/* a reused slot starts from zero: the workers' counters only grow */
	wsum(slot, &b->base_flooded, &b->base_full, &b->base_lost);
	b->used = true;
	return 0;
}

/* Only for a bridge no worker can reach: without members, or workers stopped. */
void bridge_destroy(struct bridge *b)
{
	fdb_fini(&b->fdb);
	memset(b, 0, sizeof(*b));
}

/* fdb_event_hook: `fwdctl monitor fdb`. */
static void fdb_event(const struct fdb *f, const char *action, const struct rte_ether_addr *mac,
                      uint16_t port, int from)
{
	const struct bridge *b = container_of(f, const struct bridge, fdb);
	struct fwd_event *e = fwd_event_new(FWD_EVENT_FDB, action);

	if (e == NULL)
		return;
	snprintf(e->bridge, sizeof(e->bridge), "%s", b->name);
	snprintf(e->port, sizeof(e->port), "%s", fwd_ifaces[port].name);
	if (from >= 0)
		snprintf(e->from_port, sizeof(e->from_port), "%s", fwd_ifaces[from].name);
	fwd_mac_fmt(mac->addr_bytes, e->lladdr);
}

static void note_apply(uint64_t n, uint64_t now)
{
	unsigned id = (unsigned)(n >> 48);
	struct rte_ether_addr mac;
	struct bridge *b;

	/* a note from an interface that has left its bridge since is void */
	if (id >= FWD_MAX_IFACES || (b = bridge_of_iface[id]) == NULL)
		return;
	fdb_key_mac(n, &mac);
	if (fdb_learn(&b->fdb, &mac, (uint16_t)id, now) == FDB_QUOTA)
		mac_max_refused.value++;
}

unsigned bridge_poll(uint64_t now)
{
	uint64_t notes[256];
	unsigned n, total = 0;

	if (bridge_notes == NULL)
		return 0;
	do {
		n = rte_ring_sc_dequeue_burst_elem(bridge_notes, notes, sizeof(notes[0]),
		                                   RTE_DIM(notes), NULL);
		for (unsigned i = 0; i < n; i++)
			note_apply(notes[i], now);
		total += n;
	} while (n == RTE_DIM(notes) && total < BRIDGE_NOTES_RING);
	return total;
}

/* The members of b whose entries go: down (with a VLAN's port), or gone. */
static void gone_members(const struct bridge *b, uint64_t down[FWD_MAX_IFACES / 64 + 1])
{
	memset(down, 0, (FWD_MAX_IFACES / 64 + 1) * sizeof(uint64_t));
	for (unsigned id = 0; id < FWD_MAX_IFACES; id++) {
		const struct fwd_iface *ifp = &fwd_ifaces[id];
		bool up;

		if (id < FWD_MAX_PORTS) /* no such port: no entry names it */
			up = id >= fwd_n_ports || fwd_ports[id].admin_up;
		else /* a VLAN of b (bridge_of_iface), whose port is up too */
			up = bridge_of_iface[id] == b && ifp->admin_up &&
			     ifp->port < FWD_MAX_PORTS && fwd_ports[ifp->port].admin_up;
		if (!up)
			down[id / 64] |= UINT64_C(1) << (id % 64);
	}
}

void bridge_forget_left(struct bridge *b)
{
	uint64_t down[FWD_MAX_IFACES / 64 + 1];

	gone_members(b, down);
	fdb_age(&b->fdb, fdb_clock(), down);
}

void bridge_age(uint64_t now)
{
	uint64_t down[FWD_MAX_IFACES / 64 + 1];

	/* what was learned on a member that went down cannot be reached there now */
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++) {
		if (!bridge_table[i].used)
			continue;
		gone_members(&bridge_table[i], down);
		fdb_age(&bridge_table[i].fdb, now, down);
	}
}

static void bridge_tick(void *arg)
{
	uint64_t now = fdb_clock();

	(void)arg;
	bridge_poll(now);
	if (now - last_age >= fdb_hz * BRIDGE_AGE_MS / 1000) {
		bridge_age(now);
		last_age = now;
		notes_lost.value = 0;
		for (unsigned w = 0; w < FWD_MAX_WORKERS; w++)
			for (unsigned b = 0; b < FWD_MAX_BRIDGES; b++)
				notes_lost.value += bridge_wstats[w].notes_lost[b];
	}
}

static int add_members(const struct fwd_config *cfg)
{
	unsigned n = 0;

	for (unsigned p = 0; p < fwd_n_ports; p++) {
		struct bridge *b = &bridge_table[fwd_ports[p].bridge];
		if (fwd_ports[p].mode != FWD_MODE_BRIDGE)
			continue;
		if (!b->used)
			return -EINVAL; /* the loader guarantees the bridge exists */
		b->members[b->n_members++] = (uint16_t)p;
		b->fdb.port_max[p] = cfg->ports[p].mac_max;
		bridge_of_iface[p] = b;
		n++;
	}
	return (int)n;
}

int bridge_tick_start(void)
{
	if (fwd.evbase == NULL || tick_ev != NULL) /* unit tests drive the poll and aging */
		return 0;
	tick_ev = fwd_timer_every(BRIDGE_POLL_MS * 1000, bridge_tick, NULL);
	if (tick_ev == NULL)
		return -ENOMEM;
	return 0;
}

static int init(const struct fwd_config *cfg)
{
	int rc, members;

	if (fdb_hz == 0)
		fdb_hz = rte_get_tsc_hz();
	bridge_note_gap = fdb_hz * 2 * BRIDGE_POLL_MS / 1000;
	bridge_refresh_gap = fdb_hz / FDB_REFRESH_DIV;
	last_age = fdb_clock();
	bridge_cfg = cfg;
	fdb_event_hook = fdb_event;
	bridge_notes = rte_ring_create_elem("fwd_fdb_notes", sizeof(uint64_t), BRIDGE_NOTES_RING,
	                                    (int)rte_socket_id(), RING_F_SC_DEQ);
	if (bridge_notes == NULL) {
		LOG(ERR, "learning ring: %s", rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (unsigned i = 0; i < cfg->n_bridges; i++)
		if ((rc = bridge_create(&bridge_table[i], &cfg->bridges[i])) < 0)
			return rc;
	if ((members = add_members(cfg)) < 0)
		return members;
	/* bridges added by a reload have no members: no timer needed without members now */
	bridge_members_sync(FWD_IFACE_NONE); /* VLANs are made later: their hooks add them */
	return members > 0 ? bridge_tick_start() : 0;
}

int bridge_module_init(const struct fwd_config *cfg)
{
	int rc = init(cfg);

	if (rc < 0)
		bridge_module_fini(); /* the module runner only finis modules that started */
	return rc;
}

void bridge_module_fini(void)
{
	fwd_timer_free(&tick_ev);
	for (unsigned i = 0; i < FWD_MAX_BRIDGES; i++)
		if (bridge_table[i].used)
			bridge_destroy(&bridge_table[i]);
	memset(bridge_of_iface, 0, sizeof(bridge_of_iface));
	bridge_cfg = NULL;
	rte_ring_free(bridge_notes);
	bridge_notes = NULL;
}

static struct fwd_module bridge_module = {
	.name = "bridge",
	.depends_on = "punt",
	.init = bridge_module_init,
	.fini = bridge_module_fini,
	.reload_check = bridge_reload_check,
	.reload_apply = bridge_reload_apply,
};
FWD_MODULE(bridge_module);
