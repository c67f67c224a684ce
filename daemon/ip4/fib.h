/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 FIB: a DIR-24-8 table of next-hop indices, read by workers
 * without locks and written by the control thread only.
 *
 * Why not rte_lpm or rte_fib: rte_lpm keeps its rules in per-depth arrays
 * scanned linearly on every add (a million /24s take minutes to load), and
 * rte_fib (22.11) zeroes and reuses a freed tbl8 group at once, with no RCU
 * hook, so a worker racing a delete can read a zeroed entry. Here every
 * entry carries its prefix depth, so add and delete are O(entries covered)
 * and independent of the table size; entries are written with single
 * 32-bit stores, so readers see the old or the new next hop and never a
 * hole; and a tbl8 group is reused only after an RCU grace period.
 *
 * Next hop 0 means "no route": a lookup never needs a separate miss test.
 *
 * A prefix of /24 or shorter rewrites up to 2^24 tbl24 entries (a /0 all
 * of them, tens of milliseconds). `route load` bounds its work per turn
 * of the control loop with a budget (fib4_set_budget): such a write then
 * stops when the budget is spent and the rest waits as the FIB's pending
 * job, which fib4_step continues on a later turn. Meanwhile readers see
 * each entry old or new, as they do during any write; every other write
 * first finishes the job if it touches the job's remaining entries, so
 * changes still land in the order they were made (doc/architecture.md,
 * "Route load in slices").
 */
#ifndef FWD_IP4_FIB_H
#define FWD_IP4_FIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

#include "core/deferred.h"
#include "route/fib6.h"

/*
 * An entry: bit 31 says a tbl24 entry points to a tbl8 group, bit 30 that
 * a prefix covers it, bits 24-29 hold the prefix length, and bits 0-23 the
 * next-hop index (or the group number): a plain index into the next-hop
 * table (nexthop/nexthop.h), whatever the size of its entries.
 */
#define FIB4_EXT         0x80000000u
#define FIB4_VALID       0x40000000u
#define FIB4_DEPTH_SHIFT 24
#define FIB4_DEPTH_MASK  0x3f000000u
#define FIB4_NH_MASK     0x00ffffffu
#define FIB4_NH_MAX      FIB4_NH_MASK

struct rte_rcu_qsbr;

struct fib4 {
	/* read by workers */
	uint32_t *tbl24;    /* 2^24 entries */
	uint32_t *tbl8;     /* n_tbl8 groups of 256 entries */
	struct fib6 *small; /* the small layout (fib4_create_small) instead; NULL: none */

	/* control thread only */
	uint32_t n_tbl8;
	uint32_t n_free;
	uint32_t *free_groups; /* stack */
	uint32_t n_pending;    /* freed, waiting for a grace period */
	uint32_t pending_head;
	struct fib4_pending {
		uint32_t group;
		uint64_t token;
	} * pending; /* ring of n_tbl8 */
	struct rte_rcu_qsbr *rcu;
	/* the pending wide write: tbl24 entries [next, end) still to do */
	struct fib4_job {
		uint32_t next, end;
		uint32_t v; /* add: the prefix's entry; delete: its replacement */
		uint8_t len;
		bool del;
	} job;
	int64_t budget; /* entries wide writes may still visit (FIB4_NO_BUDGET) */
	/* run when the pending job completes (fib4_after_job) */
	struct fwd_deferred after;
};

#define FIB4_NO_BUDGET INT64_MAX

/* rcu may be NULL when no reader runs concurrently (tests, tools). */
struct fib4 *fib4_create(uint32_t n_tbl8, struct rte_rcu_qsbr *rcu, int socket);
/*
 * The small layout of the VRFs other than the default one (doc/
 * architecture.md, "VRFs"): the IPv6 FIB's trie with a 2^16 first table
 * (route/fib6.h, fib6_create_small), the address in its first four bytes,
 * a /17../32 one or two groups down; its groups start at n_tbl8 and double
 * up to max_tbl8. Every fib4_ function serves both layouts; the fast path
 * reads it through fib4_view_small and fib4_lookup_small.
 */
struct fib4 *fib4_create_small(uint32_t n_tbl8, uint32_t max_tbl8, struct rte_rcu_qsbr *rcu,
                               int socket);
void fib4_free(struct fib4 *f);

/*
 * Point prefix ip/len at nh (1..FIB4_NH_MAX), replacing what the prefix
 * itself had and leaving more specific prefixes alone. -ENOSPC when a
 * tbl8 group is needed and none is free.
 */
int fib4_add(struct fib4 *f, uint32_t ip, uint8_t len, uint32_t nh);

/*
 * Remove prefix ip/len: its entries fall back to its parent, the longest
 * shorter prefix still installed (parent_len < 0: none, "no route").
 */
void fib4_del(struct fib4 *f, uint32_t ip, uint8_t len, int parent_len, uint32_t parent_nh);

/* Recycle tbl8 groups whose grace period has ended (non-blocking). */
void fib4_reclaim(struct fib4 *f);

/*
 * Sliced writes. fib4_set_budget: how many entries (a tbl24 entry counts
 * one, a tbl8 group under it 256 more) wide writes may visit from now on
 * before they stop and leave a pending job; FIB4_NO_BUDGET (the default)
 * makes every write complete at once. Set a budget only around work that
 * then steps the job to its end (`route load`), and put FIB4_NO_BUDGET
 * back before the control loop runs anything else.
 */
void fib4_set_budget(struct fib4 *f, int64_t entries);
static inline bool fib4_budget_spent(const struct fib4 *f)
{
	return f->budget <= 0;
}
static inline bool fib4_pending(const struct fib4 *f)
{
	return f->job.next < f->job.end;
}
/* Continue the pending job within the budget; returns fib4_pending(f). */
bool fib4_step(struct fib4 *f);
/* Complete the pending job whatever the budget. */
void fib4_finish(struct fib4 *f);
/*
 * Call fn(arg) once no entry can hold a value the last write replaced: at
 * once, or when the pending job completes. A route's old next hop is
 * released so: entries the job has not reached still point at it, and a
 * released next hop may be reclaimed (NH_NONE) or handed to another
 * neighbour before the job reaches them.
 */
void fib4_after_job(struct fib4 *f, void (*fn)(uint32_t), uint32_t arg);

size_t fib4_memory(const struct fib4 *f);
uint32_t fib4_tbl8_used(const struct fib4 *f);

/* The tables of a FIB, read once per burst into registers: stores to packet
 * bytes may alias anything, so the compiler would reload them per packet. */
struct fib4_view {
	const uint32_t *tbl24;
	const uint32_t *tbl8;
};

static inline struct fib4_view fib4_view(const struct fib4 *f)
{
	return (struct fib4_view){ f->tbl24, f->tbl8 };
}

/* The next-hop index of an address given as its top 24 bits and where its
 * low 8 are (read only when a tbl8 group decides). */
static inline uint32_t fib4_lookup_top(struct fib4_view v, uint32_t top24, const uint8_t *low8)
{
	uint32_t e = v.tbl24[top24];

	if (unlikely(e & FIB4_EXT))
		e = v.tbl8[(e & FIB4_NH_MASK) << 8 | *low8];
	return e & FIB4_NH_MASK;
}

static inline uint32_t fib4_lookup_view(struct fib4_view v, uint32_t ip)
{
	uint8_t low8 = (uint8_t)ip;

	return fib4_lookup_top(v, ip >> 8, &low8);
}

/* The small layout's tables (read per burst: its groups move when they grow). */
static inline struct fib4_view fib4_view_small(const struct fib4 *f)
{
	return (struct fib4_view){ f->small->tbl24, f->small->tbl8 };
}

/* The next-hop index of ip in the small layout: route/fib6.h's entries. */
static inline uint32_t fib4_lookup_small(struct fib4_view v, uint32_t ip)
{
	uint32_t e = v.tbl24[ip >> 16];

	if (unlikely(e & FIB6_EXT)) {
		e = v.tbl8[(e & FIB6_GROUP_MASK) | (ip >> 8 & 0xff)];
		if (e & FIB6_EXT)
			e = v.tbl8[(e & FIB6_GROUP_MASK) | (ip & 0xff)];
	}
	return e & FIB6_NH_MASK;
}

/* Either layout (the control thread, slow paths). */
static inline uint32_t fib4_lookup(const struct fib4 *f, uint32_t ip)
{
	if (unlikely(f->small != NULL))
		return fib4_lookup_small(fib4_view_small(f), ip);
	return fib4_lookup_view(fib4_view(f), ip);
}

#endif
