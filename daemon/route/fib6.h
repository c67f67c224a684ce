/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 FIB: next-hop indices by longest prefix, read by workers without
 * locks and written by the control thread only; freed memory is reused
 * only after an RCU grace period, as in the IPv4 FIB (ip4/fib.h).
 *
 * Next hop 0 means "no route": a lookup never needs a separate miss test.
 * Indices are plain indices into the next-hop table (nexthop/nexthop.h),
 * at most FIB6_NH_MAX.
 *
 * A multibit trie (fib6.c says why this one): a table of 2^24 entries for
 * the first three bytes of the address, then one level of 256-entry tbl8
 * groups for each further byte. struct fib6 and the lookup are here so
 * that the fast path inlines them.
 *
 * A prefix of /24 or shorter rewrites up to 2^24 first-level entries and
 * the groups under them: with a budget (fib6_set_budget, for `route
 * load`) such a write stops when the budget is spent and the rest waits
 * as the pending job that fib6_step continues, as in the IPv4 FIB
 * (ip4/fib.h, doc/architecture.md "Route load in slices").
 *
 * Groups come from two pools (fib6_create_pools): routes' and hosts'. A
 * host route (a neighbour's /128) takes the groups its path lacks from the
 * hosts' pool, so that hosts an on-link attacker makes up by the thousand
 * can never take the groups routes need (doc/architecture.md, "Neighbour
 * host routes"). A group stays in the pool it came from whoever shares it.
 */
#ifndef FWD_IP6_FIB_H
#define FWD_IP6_FIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#include "core/deferred.h"

/*
 * An entry is one of:
 *   - a pointer to a tbl8 group: bit 31 (FIB6_EXT) set and bits 8-29 the
 *     group number, that is bits 0-29 the index of the group's first entry
 *     in tbl8, so that a lookup only ORs the next address byte in;
 *   - a prefix's entry: bit 30 (FIB6_VALID) set, bits 22-29 the prefix
 *     length (0-128) and bits 0-21 the next-hop index;
 *   - 0: no prefix covers it.
 */
#define FIB6_EXT         0x80000000u
#define FIB6_VALID       0x40000000u
#define FIB6_GROUP_MASK  0x3fffff00u
#define FIB6_DEPTH_SHIFT 22
#define FIB6_DEPTH_MASK  0x3fc00000u
#define FIB6_NH_MASK     0x003fffffu
#define FIB6_NH_MAX      FIB6_NH_MASK
/* tbl8 levels under the 2^24 table: bytes 3 to 15 (the small layout's
 * 2^16 table: bytes 2 to 15, FIB6_LEVELS + 1) */
#define FIB6_LEVELS 13
/* Group counts fib6_create accepts: room for one /128 (a group per level),
 * so an empty FIB takes any prefix; at most what bits 8-29 can number. */
#define FIB6_TBL8_MIN FIB6_LEVELS
#define FIB6_TBL8_MAX (FIB6_GROUP_MASK / 256 + 1)

enum fib6_pool {
	FIB6_POOL_ROUTES,
	FIB6_POOL_HOSTS, /* the routes' own when the FIB has no hosts' pool */
};

struct rte_rcu_qsbr;

struct fib6 {
	/* read by workers */
	uint32_t *tbl24; /* 2^top_bits entries */
	uint32_t *tbl8;  /* n_tbl8 groups of 256 entries; replaced when it grows */

	/* control thread only */
	uint8_t top_bits;      /* 24, or 16: the small layout (fib6_create_small) */
	uint32_t max_tbl8;     /* what the routes' pool may grow to (n_tbl8: fixed) */
	uint32_t n_tbl8;       /* both pools: groups [0, host_first) are the routes' */
	uint32_t host_first;   /* groups [host_first, n_tbl8) the hosts' (none: n_tbl8) */
	uint32_t n_free;       /* the routes' pool */
	uint32_t *free_groups; /* stack */
	uint32_t n_host_free;  /* the hosts' pool */
	uint32_t *host_free;   /* stack */
	uint32_t n_pending;    /* freed, waiting for a grace period (both pools) */
	uint32_t n_host_pending;
	uint32_t pending_head;
	struct fib6_pending {
		uint32_t group;
		uint64_t token;
	} * pending; /* ring of n_tbl8 */
	struct rte_rcu_qsbr *rcu;
	int socket;
	/* the pending wide write: tbl24 entries [next, end) still to do */
	struct fib6_job {
		uint32_t next, end;
		uint32_t v; /* add: the prefix's entry; delete: its replacement */
		uint8_t len;
		bool del;
	} job;
	int64_t budget; /* entries wide writes may still visit (FIB6_NO_BUDGET) */
	/* run when the pending job completes (fib6_after_job) */
	struct fwd_deferred after;
	uint64_t refused[2];      /* adds refused for space, by enum fib6_pool */
	uint32_t refused_room[2]; /* fib6_pool_room at the last refusal */
};

#define FIB6_NO_BUDGET INT64_MAX

/* rcu may be NULL when no reader runs concurrently (tests, tools).
 * n_tbl8: FIB6_TBL8_MIN..FIB6_TBL8_MAX (NULL otherwise, as on no memory),
 * the routes' groups; n_host_tbl8 more for host routes (0: they share the
 * routes'), both together at most FIB6_TBL8_MAX. fib6_create: no hosts' pool. */
struct fib6 *fib6_create_pools(uint32_t n_tbl8, uint32_t n_host_tbl8, struct rte_rcu_qsbr *rcu,
                               int socket);
struct fib6 *fib6_create(uint32_t n_tbl8, struct rte_rcu_qsbr *rcu, int socket);
/*
 * The small layout, for the tables of VRFs other than the default one
 * (doc/architecture.md, "VRFs"): a first table of 2^16 entries (256 KiB)
 * and groups from one pool of n_tbl8 that doubles when full, up to
 * max_tbl8: a larger copy is published with a release store and the old
 * one freed after a grace period (workers read the group array once per
 * burst). IPv4 VRFs use it too (ip4/fib.h), an address in the first four
 * bytes. Look up with fib6_lookup_small.
 */
struct fib6 *fib6_create_small(uint32_t n_tbl8, uint32_t max_tbl8, struct rte_rcu_qsbr *rcu,
                               int socket);
void fib6_free(struct fib6 *f);
/*
 * Point prefix ip/len at nh (1..FIB6_NH_MAX), replacing what the prefix
 * itself had and leaving more specific prefixes alone. -ENOSPC, with the
 * table unchanged, when the tbl8 groups the prefix needs are not free in
 * pool (fib6_add: the routes'); counted in refused[pool].
 */
int fib6_add_pool(struct fib6 *f, const uint8_t ip[16], uint8_t len, uint32_t nh,
                  enum fib6_pool pool);
int fib6_add(struct fib6 *f, const uint8_t ip[16], uint8_t len, uint32_t nh);
/*
 * Remove prefix ip/len: its entries fall back to its parent, the longest
 * shorter prefix still installed (parent_len < 0: none, "no route").
 */
void fib6_del(struct fib6 *f, const uint8_t ip[16], uint8_t len, int parent_len,
              uint32_t parent_nh);
/* Recycle tbl8 groups whose grace period has ended (non-blocking). */
void fib6_reclaim(struct fib6 *f);
/* Sliced writes, as fib4_set_budget and its kin (ip4/fib.h): an entry
 * counts one, a group under it 256 more at each level. */
void fib6_set_budget(struct fib6 *f, int64_t entries);
static inline bool fib6_budget_spent(const struct fib6 *f)
{
	return f->budget <= 0;
}
static inline bool fib6_pending(const struct fib6 *f)
{
	return f->job.next < f->job.end;
}
bool fib6_step(struct fib6 *f);
void fib6_finish(struct fib6 *f);
/*
 * Call fn(arg) once no entry can hold a value the last write replaced: at
 * once, or when the pending job completes (a route's old next hop is
 * released then, never while entries the job has not reached point at it).
 */
void fib6_after_job(struct fib6 *f, void (*fn)(uint32_t), uint32_t arg);
size_t fib6_memory(const struct fib6 *f);
/* Groups in use, in both pools or in the hosts' pool alone (0 when none). */
uint32_t fib6_tbl8_used(const struct fib6 *f);
uint32_t fib6_host_tbl8_used(const struct fib6 *f);
/* Free groups in pool, those waiting out their grace period included. */
uint32_t fib6_pool_room(const struct fib6 *f, enum fib6_pool pool);

/* The tables of a FIB, read once per burst into registers: stores to packet
 * bytes may alias anything, so the compiler would reload them per packet. */
struct fib6_view {
	const uint32_t *tbl24;
	const uint32_t *tbl8;
};

static inline struct fib6_view fib6_view(const struct fib6 *f)
{
	return (struct fib6_view){ f->tbl24, f->tbl8 };
}

/*
 * One load per level: the 2^24 table by the first three bytes, then a
 * group by each next byte for as long as entries point to groups. A
 * pointer entry ORed with the byte is the next entry's index with FIB6_EXT
 * (and the clear bit 30) on top, and times four in 32 bits its offset in
 * bytes: the shift drops the flag, so a level is four instructions and a
 * branch (x86: movzbl, or, lea, mov, test/js). Unrolled 4 times, the byte
 * loads need no pointer increments; a /64 is 5 levels below tbl24.
 */
static inline uint32_t fib6_lookup_view(struct fib6_view v, const uint8_t ip[16])
{
	const uint8_t *next = ip + 3;
	uint32_t top, e;

	memcpy(&top, ip, sizeof(top));
	e = v.tbl24[rte_be_to_cpu_32(top) >> 8];
#pragma GCC unroll 4
	while (e & FIB6_EXT)
		e = *(const uint32_t *)((const char *)v.tbl8 + ((e | *next++) << 2));
	return e & FIB6_NH_MASK;
}

/* The same over the small layout's 2^16 table (first two bytes). */
static inline uint32_t fib6_lookup_small(struct fib6_view v, const uint8_t ip[16])
{
	const uint8_t *next = ip + 2;
	uint16_t top;
	uint32_t e;

	memcpy(&top, ip, sizeof(top));
	e = v.tbl24[rte_be_to_cpu_16(top)];
#pragma GCC unroll 4
	while (e & FIB6_EXT)
		e = *(const uint32_t *)((const char *)v.tbl8 + ((e | *next++) << 2));
	return e & FIB6_NH_MASK;
}

/* Either layout (the control thread, slow paths). */
static inline uint32_t fib6_lookup(const struct fib6 *f, const uint8_t ip[16])
{
	if (f->top_bits != 24)
		return fib6_lookup_small(fib6_view(f), ip);
	return fib6_lookup_view(fib6_view(f), ip);
}

#endif
