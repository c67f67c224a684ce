/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the neighbour layer (control thread only): the entry, the table
 * (neigh_table.c), the state machine (neigh.c), what resolvers heard
 * (neigh_heard.c), hold queues (neigh_hold.c), operators' changes
 * (neigh_admin.c), life cycle (neigh_ctl.c) and RPC (neigh_rpc.c). Only
 * nexthop/ and unit tests include it (tests reach into entries); resolvers
 * (ip4/arp.c, ip6/ndp*.c) use nexthop/neigh.h.
 */
#ifndef FWD_NEIGH_PRIV_H
#define FWD_NEIGH_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/counter.h"
#include "core/punt.h"
#include "nexthop/neigh.h"

#define NEIGH_HOLD_MAX        16   /* packets held per unresolved neighbour */
#define NEIGH_HOLD_GLOBAL_MAX 4096 /* and in all of them together (neigh_hold_cap) */
#define NEIGH_RETRANS_MS      1000 /* between requests (incomplete) and probes (stale) */
#define NEIGH_MAX_PROBES      3
#define NEIGH_FAILED_MS       3000 /* a failed entry drops traffic this long before it may go */
#define NEIGH_UNRESOLVED_MAX  1024 /* default of dataplane.neigh_unresolved_max */
#define NEIGH_FAIL_LOG_MS     10000
#define NEIGH_LOCKTIME_MS     1000  /* a learnt MAC may change once a second (Linux locktime) */
#define NEIGH_DELAY_MS        5000  /* until an unconfirmed (stale) new entry is probed */
#define NEIGH_CONFLICT_LOG_MS 60000 /* one line per address of ours claimed by another host */
#define NEIGH_NO_TIMER        UINT32_MAX

struct neigh_held {
	struct rte_mbuf *m;
	uint16_t port; /* counted against: ingress port, or egress for our own packets */
	bool local;    /* originated by the control thread: no ICMP error about it */
};

struct neigh {
	struct fwd_ip addr;
	uint32_t nh;    /* its next hop; also its index in the table */
	uint32_t refs;  /* routes via it */
	uint32_t hnext; /* hash chain: next entry's nh, 0 at the end */
	uint32_t heap;  /* position in the timer heap, or NEIGH_NO_TIMER */
	uint16_t port;
	uint8_t state;             /* enum neigh_state */
	uint8_t probes;            /* requests sent in the current round (incomplete, stale) */
	bool in_rib;               /* its host route is in the RIB */
	bool in_lru;               /* on the eviction list: dynamic and refs == 0 */
	uint8_t origin;            /* who made it permanent (enum fwd_origin) */
	struct rte_ether_addr mac; /* valid when reachable, stale or permanent */
	uint64_t updated_ms;       /* last confirmation or state change */
	uint64_t mac_ms;           /* when mac was last learnt or changed (locktime) */
	uint64_t moved_ms;         /* when a learnt mac was last replaced, 0: never */
	struct neigh *lru_prev, *lru_next;
	uint64_t due_ms; /* timer deadline, when heap != NEIGH_NO_TIMER */
	uint8_t n_held, held_head;
	struct neigh_held held[NEIGH_HOLD_MAX]; /* FIFO ring */
};

extern uint64_t neigh_reachable_ms; /* dataplane.neigh_timeout_s */
extern uint32_t neigh_max; /* dataplane.neigh_max: entries on each family's eviction list */
/* dataplane.neigh_unresolved_max: incomplete entries traffic created (glean),
 * per family; one port may hold half of them (neigh_unresolved_port_max). */
extern uint32_t neigh_unresolved_max;
uint32_t neigh_unresolved_port_max(void);
/* Incomplete entries of family on interface port (NEIGH_ALL: on all). */
unsigned neigh_unresolved(uint8_t family, uint16_t port);

/* neigh_table.c: entries by next hop and by (address, port), and their timers. */
int neigh_table_init(uint32_t n_nexthops);
void neigh_table_fini(void); /* frees entries and held mbufs, touches no other table */
struct neigh *neigh_lookup(struct fwd_ip a, uint16_t port);
/* Entries in the hash chain a's key falls in (tests: the hash is keyed). */
uint32_t neigh_table_chain_len(struct fwd_ip a, uint16_t port);
struct neigh *neigh_by_nh(uint32_t nh);
/* The entry at next hop index >= *pos, advancing *pos past it; NULL at the end. */
struct neigh *neigh_iter(uint32_t *pos);
struct neigh *neigh_table_add(struct fwd_ip a, uint16_t port, uint32_t nh); /* NULL: ENOMEM */
void neigh_table_del(struct neigh *n);
uint64_t neigh_table_count(void);
void neigh_timer_set(struct neigh *n, uint64_t due_ms);
void neigh_timer_cancel(struct neigh *n);
/* The entry with the earliest deadline if it is due at now, taken off the heap. */
struct neigh *neigh_timer_pop(uint64_t now);
/* The eviction lists (one per family) hold exactly the dynamic entries no
 * route uses: call neigh_lru_sync after a change of state or refs; touch on
 * use or confirmation. */
void neigh_lru_sync(struct neigh *n);
void neigh_lru_touch(struct neigh *n);
struct neigh *neigh_lru_oldest(uint8_t family); /* NULL when none may be evicted */
uint32_t neigh_lru_count(uint8_t family);

/* neigh.c: the state machine. */
int neigh_module_init(uint32_t n_nexthops, uint32_t timeout_s); /* no timer event: tests */
void neigh_module_fini(void);
void neigh_set_state(struct neigh *n, enum neigh_state s, uint64_t now);
/* `fwdctl monitor neigh`: n as it is now, with action (state, del). */
void neigh_event(const struct neigh *n, const char *action);
/* A new entry, incomplete, with its next hop pending; NULL when full.
 * dynamic: no route will hold it, so it counts against neigh_max. */
struct neigh *neigh_create(struct fwd_ip a, uint16_t port, bool dynamic);
void neigh_destroy(struct neigh *n); /* only for entries no route uses */
void neigh_tick(void);               /* run due timers; neigh_ctl.c calls it every 100 ms */
/* The wire confirmed that n is at mac (neigh_heard). */
void neigh_confirm(struct neigh *n, const struct rte_ether_addr *mac);
/* Would mac replace n's within NEIGH_LOCKTIME_MS of its last change? */
bool neigh_mac_locked(const struct neigh *n, const struct rte_ether_addr *mac);
/* Would mac replace n's within NEIGH_LOCKTIME_MS of the last time a learnt
 * MAC was replaced (NDP: the first override after learning is taken at once,
 * RFC 4861 7.2.5; a host flipping its MAC moves the entry once a second)? */
bool neigh_mac_move_locked(const struct neigh *n, const struct rte_ether_addr *mac);
/* A new dynamic entry for a host that asked for one of our addresses:
 * stale (its answer to a probe makes it reachable); NULL when full. */
struct neigh *neigh_learn(struct fwd_ip a, uint16_t port, const struct rte_ether_addr *mac);
/* n is at mac, not proven reachable: stale (held packets go), probed soon. */
void neigh_stale(struct neigh *n, const struct rte_ether_addr *mac);
/* Does n have a link address (reachable, stale, permanent)? */
bool neigh_knows_mac(const struct neigh *n);
/* Back to incomplete: request now, retries on the timer. */
void neigh_resolve_start(struct neigh *n);
/* A new entry for a packet to an unknown host (glean), resolving; NULL when
 * full or too many are resolving already. */
struct neigh *neigh_new_resolving(struct fwd_ip a, uint16_t port);
/* Is a usable as a neighbour on port (the family's resolver says)? */
bool neigh_addr_ok(uint16_t port, const struct fwd_ip *a);

/* neigh_cap.c: the caps on dynamic and on resolving entries, eviction by use. */
void neigh_cap_reset(uint32_t n_nexthops);                 /* module init and fini */
void neigh_count_incomplete(const struct neigh *n, int d); /* n enters (1) or leaves (-1) */
/* Evict the least recently used unused entries of family down to keep. */
void neigh_evict(uint8_t family, uint32_t keep);
/* Workers' marks of use into the eviction lists, once a NEIGH_USE_EPOCH_MS. */
void neigh_use_fold(uint64_t now);
/* A next hop for a new entry; a full table gives up an unused entry's. */
int neigh_nh_alloc(const struct fwd_ip *a, uint16_t port, uint32_t *nh);

/* neigh_heard.c */
void neigh_heard_reset(void); /* forget which address conflicts were logged */

/* neigh_hold.c: packets to a neighbour, held while it resolves. */
void neigh_send(struct neigh *n, struct rte_mbuf *m, uint16_t port, bool local);
void neigh_hold_release(struct neigh *n); /* resolved: send them in order */
void neigh_l2_published(uint32_t nh);     /* nh_l2_poll: n's new MAC is out */
void neigh_hold_fail(struct neigh *n);    /* failed: ICMP host unreachable, no_neighbour */
void neigh_hold_free(struct neigh *n);    /* shutdown: just free them */
unsigned neigh_held_total(void);
/* Packets all hold queues may pin: NEIGH_HOLD_GLOBAL_MAX, or a quarter of
 * dataplane.mbufs (the pool without what af_xdp keeps) when that is less,
 * so a scan never starves the receivers. */
unsigned neigh_hold_cap(void);
void neigh_punt_resolve(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

/* Counters (global section of `fwdctl stats`). */
extern struct fwd_counter neigh_failures, neigh_aged_out, neigh_table_full, neigh_evicted,
        neigh_stale_punts, neigh_unresolved_full, neigh_unresolved_port_full;

#endif
