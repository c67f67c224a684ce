/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding database of one learning bridge: MAC -> member port,
 * learned from source addresses, aged out after mac_aging_s of silence,
 * bounded by fdb_max.
 *
 * Who writes what (doc/architecture.md, "Threads and tables": the control
 * thread is the only writer of shared tables):
 *  - Workers only read: one bulk lock-free lookup per burst in an rte_hash
 *    (RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF) whose data is a pointer to a
 *    struct fdb_entry. The one store they make is fdb_entry.seen, the last
 *    time the MAC sent on its port: a single aligned 64-bit store, at most
 *    once per FDB_REFRESH_DIV-th of a second per entry so a busy MAC does
 *    not bounce its cache line between workers.
 *  - What workers cannot do (learn a new MAC, follow a MAC onto another
 *    port) they ask the control thread for with an 8-byte note on a bounded
 *    ring (bridge.c), a few per burst; a lost note is counted and the next
 *    frame from that MAC asks again.
 *  - The control thread inserts, moves (one byte store of the port), ages
 *    and flushes. Deleted keys and their entries go back to the free lists
 *    through the hash's RCU defer queue (rte_hash_rcu_qsbr_add on the
 *    workers' QSBR variable), so an entry a worker found in its lookup is
 *    never reused under it.
 *  - Raising fdb_max beyond the table's room builds a bigger table, publishes
 *    it, waits for a grace period and frees the old one; lowering it evicts
 *    the least recently seen entries beyond the new maximum.
 *
 * When full, new MACs are not learned (frames from them are still
 * forwarded, and traffic to them is flooded) and each such frame counts in
 * fdb_full; known MACs keep refreshing and moving; nothing is evicted to
 * make room, so a MAC-flooding host cannot churn the table.
 *
 * A member port may also have a quota of learned MACs (ports[].mac_max):
 * past it, new MACs from that port are not learned either (counted in
 * mac_max_refused; their frames still go through, traffic to them floods),
 * so one host sending from thousands of MACs cannot take the whole table
 * from the other ports. A MAC moving onto a port at its quota still moves
 * (it is known, and must follow its station).
 */
#ifndef FWD_L2_FDB_H
#define FWD_L2_FDB_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>

#include "core/config.h"
#include "core/iface.h"

#define FDB_NIL         UINT32_MAX
#define FDB_REFRESH_DIV 8 /* workers store `seen` at most every 1/8 s per entry */

struct rte_hash;
struct rte_rcu_qsbr;

/* The hash key: the MAC in the low 6 bytes of a little-endian word, 0-padded.
 * Two loads straight into registers: going through a 6-byte copy on the
 * stack stalls the fast path on store forwarding. */
static inline uint64_t fdb_key(const struct rte_ether_addr *mac)
{
	uint32_t lo;
	uint16_t hi;

	memcpy(&lo, mac->addr_bytes, sizeof(lo));
	memcpy(&hi, mac->addr_bytes + sizeof(lo), sizeof(hi));
	return rte_le_to_cpu_32(lo) | (uint64_t)rte_le_to_cpu_16(hi) << 32;
}

static inline void fdb_key_mac(uint64_t key, struct rte_ether_addr *mac)
{
	for (unsigned i = 0; i < RTE_ETHER_ADDR_LEN; i++)
		mac->addr_bytes[i] = (uint8_t)(key >> (8 * i));
}

struct fdb_entry {
	uint64_t seen; /* fdb_clock of the last frame from mac on port: workers and control */
	uint16_t port; /* interface id; control writes (learn, move), workers read */
	bool live;     /* control only: in the hash (false once deleted) */
	struct rte_ether_addr mac; /* control only */
	uint32_t next_free;        /* control only: free list link */
};

struct fdb_table {
	struct rte_hash *h; /* key fdb_key(), data struct fdb_entry * */
	uint32_t n_ents;    /* the hash's key slots + 1: an entry is taken before its add */
	uint32_t free_head; /* control only */
	struct fdb_entry ents[];
};

struct fdb {
	struct fdb_table *tbl; /* RCU: workers load it once per burst; control replaces it */
	volatile uint8_t full; /* control writes, workers read: n_live == max, no learning */

	/* control thread only */
	struct rte_rcu_qsbr *rcu;
	int socket;
	uint32_t max;     /* fdb_max */
	uint32_t aging_s; /* mac_aging_s */
	uint32_t n_live;
	uint64_t learned, moved, aged, refused; /* refused: learn notes refused, full */
	/* by interface id (core/iface.h): a port or a VLAN member */
	uint32_t port_max[FWD_MAX_IFACES];     /* ports[].mac_max; 0: no quota */
	uint32_t port_live[FWD_MAX_IFACES];    /* live entries on each member */
	uint64_t port_refused[FWD_MAX_IFACES]; /* learn notes refused by a member's quota */
};

/*
 * Told of each learn, move, age and flush of an entry (control thread;
 * bridge_ctl.c turns them into `fwdctl monitor fdb` events). from: the
 * port a moving MAC left, else -1. NULL: nobody listens.
 */
typedef void (*fdb_event_fn)(const struct fdb *f, const char *action,
                             const struct rte_ether_addr *mac, uint16_t port, int from);
extern fdb_event_fn fdb_event_hook;

/* The clock of `seen` and aging; tests replace it (and fdb_hz, ticks per second). */
extern uint64_t (*fdb_clock)(void);
extern uint64_t fdb_hz;

enum fdb_learn_result {
	FDB_REFRESHED, /* known on that port */
	FDB_LEARNED,
	FDB_MOVED, /* known on another port: follows it */
	FDB_FULL,  /* unknown and no room: not learned */
	FDB_QUOTA, /* unknown and its port at its mac_max: not learned */
};

/* Returns 0 or -ENOMEM (logged by the caller). */
int fdb_init(struct fdb *f, uint32_t max, uint32_t aging_s, struct rte_rcu_qsbr *rcu, int socket);
/* Waits for a grace period, then frees everything; accepts a zeroed fdb. */
void fdb_fini(struct fdb *f);

/* A frame from mac arrived on port at now. Returns enum fdb_learn_result. */
int fdb_learn(struct fdb *f, const struct rte_ether_addr *mac, uint16_t port, uint64_t now);
/* Control-side lookup; NULL when absent. */
const struct fdb_entry *fdb_lookup(const struct fdb *f, const struct rte_ether_addr *mac);

/* Delete entries silent for more than aging_s, or on a member set in down (a
 * bitmap of FWD_MAX_IFACES bits by interface id; NULL: none). Returns how
 * many were deleted (also added to f->aged). */
unsigned fdb_age(struct fdb *f, uint64_t now, const uint64_t *down);
/* Delete every entry; returns how many. */
unsigned fdb_flush(struct fdb *f);
/* New fdb_max: grows the table when needed (-ENOMEM keeps the old one),
 * evicts the least recently seen entries beyond a lower one (*evicted). */
int fdb_set_max(struct fdb *f, uint32_t max, unsigned *evicted);

/* Iterate live entries: start with *pos = 0; NULL at the end. */
const struct fdb_entry *fdb_next(const struct fdb *f, uint32_t *pos);
/* Whole seconds since e was last seen. */
uint64_t fdb_entry_age_s(const struct fdb_entry *e, uint64_t now);

#endif
