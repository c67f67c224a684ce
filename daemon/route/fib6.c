/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 FIB (fib6.h): a multibit trie of 32-bit entries, 24 bits at the
 * first level (2^24 entries, 64 MiB), then 8 bits per level in 256-entry
 * tbl8 groups (1 KiB each), thirteen levels down to /128.
 *
 * Why not DPDK's: rte_lpm6 and rte_fib6 (trie) have this very shape, but
 * in 22.11 neither can be used by lock-free readers while it changes:
 *   - both put a freed tbl8 group back in their pool at once and hand it
 *     out on the next add (rte_lpm6 zeroes it, rte_fib6 refills it), with
 *     no RCU hook (22.11 has one only for IPv4's rte_lpm), so a worker that
 *     read the pointer before the delete can read another prefix's entries;
 *   - rte_lpm6 holds 21-bit next hops (fwd's indices take 22; a larger
 *     one is cut silently) and refuses ::/0; rte_fib6 keeps a second RIB
 *     (rte_rib6) that every change searches, and looks up only in bulk
 *     through a function pointer.
 * So this is the IPv4 FIB's design (ip4/fib.h) carried to fourteen levels:
 *   - every entry carries its prefix length, so add and delete touch only
 *     the entries the prefix covers (and the groups below them), with no
 *     search of the RIB: an add overwrites entries no longer than itself,
 *     a delete hands entries of exactly its length to the parent the RIB
 *     names;
 *   - entries are written with single 32-bit stores, and a new group is
 *     filled before the release store that links it, so a reader sees the
 *     old or the new next hop, never a hole;
 *   - a group whose entries all equal again what its parent entry would
 *     hold is folded back into that entry, and its memory is reused only
 *     after an RCU grace period;
 *   - an add first counts the groups its path lacks: -ENOSPC leaves the
 *     table untouched.
 * A pointer entry holds its group's first index, not its number, so a
 * lookup level is one OR of the next address byte and one load (fib6.h):
 * 40 instructions for a /64 where rte_lpm6_lookup takes 99. A table of
 * 200,000 prefixes shaped as today's takes about 150,000 groups
 * (tests/bench/README.md, "IPv6 FIB").
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fwd_inet.h"
#include "route/fib6.h"

#define GROUP_SIZE 256u
#define JOB_BLOCK  1024u /* tbl24 entries a job does between budget checks */

static inline uint32_t entry(uint32_t nh, uint8_t len)
{
	return FIB6_VALID | (uint32_t)len << FIB6_DEPTH_SHIFT | nh;
}

static inline unsigned depth_of(uint32_t e)
{
	return (e & FIB6_DEPTH_MASK) >> FIB6_DEPTH_SHIFT;
}

/* The longest prefix the entries of a level-l table stand for (l = 0: tbl24). */
static inline unsigned level_bits(const struct fib6 *f, unsigned level)
{
	return f->top_bits + 8 * level;
}

static inline uint32_t top_size(const struct fib6 *f)
{
	return 1u << f->top_bits;
}

/* The first table's index of ip: its first 3 bytes, or 2 (the small layout). */
static inline uint32_t top24(const struct fib6 *f, const uint8_t ip[16])
{
	if (f->top_bits == 16)
		return (uint32_t)ip[0] << 8 | ip[1];
	return (uint32_t)ip[0] << 16 | (uint32_t)ip[1] << 8 | ip[2];
}

/* The address byte that indexes a level-l group (l >= 1). */
static inline uint8_t level_byte(const struct fib6 *f, const uint8_t ip[16], unsigned level)
{
	return ip[f->top_bits / 8 - 1 + level];
}

/* Single 32-bit stores: a reader sees the old or the new entry, never a mix. */
static inline void store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline uint32_t *group_entries(struct fib6 *f, uint32_t ext)
{
	return &f->tbl8[ext & FIB6_GROUP_MASK];
}

static struct fib6 *fib6_make(uint8_t top_bits, uint32_t n_tbl8, uint32_t n_host_tbl8,
                              struct rte_rcu_qsbr *rcu, int socket)
{
	struct fib6 *f = calloc(1, sizeof(*f));
	uint32_t total = n_tbl8 + n_host_tbl8;

	if (f == NULL || n_tbl8 < FIB6_TBL8_MIN + (top_bits == 16) || n_tbl8 > FIB6_TBL8_MAX ||
	    n_host_tbl8 > FIB6_TBL8_MAX - n_tbl8)
		goto fail;
	f->top_bits = top_bits;
	f->n_tbl8 = total;
	f->max_tbl8 = total;
	f->host_first = n_tbl8;
	f->rcu = rcu;
	f->socket = socket;
	f->tbl24 = rte_zmalloc_socket("fib6_tbl24", top_size(f) * sizeof(uint32_t),
	                              RTE_CACHE_LINE_SIZE, socket);
	f->tbl8 = rte_zmalloc_socket("fib6_tbl8", (size_t)total * GROUP_SIZE * sizeof(uint32_t),
	                             RTE_CACHE_LINE_SIZE, socket);
	f->free_groups = malloc(n_tbl8 * sizeof(*f->free_groups));
	f->host_free = malloc((n_host_tbl8 > 0 ? n_host_tbl8 : 1) * sizeof(*f->host_free));
	f->pending = malloc(total * sizeof(*f->pending));
	if (f->tbl24 == NULL || f->tbl8 == NULL || f->free_groups == NULL || f->host_free == NULL ||
	    f->pending == NULL)
		goto fail;
	/* hand out low group numbers first: they share pages with recent ones */
	for (uint32_t i = 0; i < n_tbl8; i++)
		f->free_groups[i] = n_tbl8 - 1 - i;
	for (uint32_t i = 0; i < n_host_tbl8; i++)
		f->host_free[i] = total - 1 - i;
	f->n_free = n_tbl8;
	f->n_host_free = n_host_tbl8;
	f->budget = FIB6_NO_BUDGET;
	return f;
fail:
	fib6_free(f);
	return NULL;
}

struct fib6 *fib6_create_pools(uint32_t n_tbl8, uint32_t n_host_tbl8, struct rte_rcu_qsbr *rcu,
                               int socket)
{
	return fib6_make(24, n_tbl8, n_host_tbl8, rcu, socket);
}

struct fib6 *fib6_create(uint32_t n_tbl8, struct rte_rcu_qsbr *rcu, int socket)
{
	return fib6_create_pools(n_tbl8, 0, rcu, socket);
}

struct fib6 *fib6_create_small(uint32_t n_tbl8, uint32_t max_tbl8, struct rte_rcu_qsbr *rcu,
                               int socket)
{
	struct fib6 *f = fib6_make(16, n_tbl8, 0, rcu, socket);

	uint32_t cap = RTE_MIN(max_tbl8, (uint32_t)FIB6_TBL8_MAX);

	if (f != NULL)
		f->max_tbl8 = RTE_MAX(n_tbl8, cap);
	return f;
}

void fib6_free(struct fib6 *f)
{
	if (f == NULL)
		return;
	rte_free(f->tbl24);
	rte_free(f->tbl8);
	free(f->free_groups);
	free(f->host_free);
	free(f->pending);
	free(f);
}

void fib6_reclaim(struct fib6 *f)
{
	while (f->n_pending > 0) {
		struct fib6_pending *p = &f->pending[f->pending_head];
		if (f->rcu != NULL && rte_rcu_qsbr_check(f->rcu, p->token, false) != 1)
			break;
		if (p->group >= f->host_first) {
			f->host_free[f->n_host_free++] = p->group;
			f->n_host_pending--;
		} else {
			f->free_groups[f->n_free++] = p->group;
		}
		f->pending_head = (f->pending_head + 1) % f->n_tbl8;
		f->n_pending--;
	}
}

/* Does a write for pool take the hosts' groups? Only where the FIB has them. */
static bool hosts_pool(const struct fib6 *f, enum fib6_pool pool)
{
	return pool == FIB6_POOL_HOSTS && f->host_first < f->n_tbl8;
}

static uint32_t pool_free(const struct fib6 *f, bool hosts)
{
	return hosts ? f->n_host_free : f->n_free;
}

static uint32_t pool_pending(const struct fib6 *f, bool hosts)
{
	return hosts ? f->n_host_pending : f->n_pending - f->n_host_pending;
}

uint32_t fib6_pool_room(const struct fib6 *f, enum fib6_pool pool)
{
	bool hosts = hosts_pool(f, pool);

	return pool_free(f, hosts) + pool_pending(f, hosts);
}

/*
 * The small layout's pool grows (no hosts' pool then): a copy of the
 * groups, larger, published with a release store; the new groups are
 * handed out, and the old copy freed, only once no worker can still hold
 * the old one (a worker could follow an entry to a new group through it).
 * The pending ring is laid out again from its head.
 */
static void fib6_grow(struct fib6 *f, uint32_t need)
{
	uint32_t old = f->n_tbl8, want = RTE_MAX(2 * old, old + need);
	uint32_t n = RTE_MIN(f->max_tbl8, want);
	uint32_t *tbl8 = rte_malloc_socket("fib6_tbl8", (size_t)n * GROUP_SIZE * sizeof(uint32_t),
	                                   RTE_CACHE_LINE_SIZE, f->socket);
	uint32_t *free_groups = malloc(n * sizeof(*free_groups));
	struct fib6_pending *pending = malloc(n * sizeof(*pending));
	uint32_t *was = f->tbl8;

	if (tbl8 == NULL || free_groups == NULL || pending == NULL || f->host_first != old) {
		rte_free(tbl8);
		free(free_groups);
		free(pending);
		return;
	}
	memcpy(tbl8, was, (size_t)old * GROUP_SIZE * sizeof(uint32_t));
	memset(tbl8 + (size_t)old * GROUP_SIZE, 0,
	       (size_t)(n - old) * GROUP_SIZE * sizeof(uint32_t));
	memcpy(free_groups, f->free_groups, f->n_free * sizeof(*free_groups));
	for (uint32_t i = 0; i < f->n_pending; i++)
		pending[i] = f->pending[(f->pending_head + i) % old];
	__atomic_store_n(&f->tbl8, tbl8, __ATOMIC_RELEASE);
	if (f->rcu != NULL)
		rte_rcu_qsbr_synchronize(f->rcu, RTE_QSBR_THRID_INVALID);
	rte_free(was);
	free(f->free_groups);
	free(f->pending);
	f->free_groups = free_groups;
	f->pending = pending;
	f->pending_head = 0;
	for (uint32_t g = n; g-- > old;) /* low numbers first, as at creation */
		f->free_groups[f->n_free++] = g;
	f->n_tbl8 = n;
	f->host_first = n;
}

/*
 * Make n groups of a pool free. Routes wait out the readers of freed groups
 * if need be; hosts never do: a flood of neighbours must not cost the
 * control thread a blocking wait each, and their host routes are retried.
 */
static int groups_reserve(struct fib6 *f, uint32_t n, bool hosts)
{
	if (pool_free(f, hosts) < n)
		fib6_reclaim(f);
	if (!hosts && f->n_free + pool_pending(f, false) < n && f->n_tbl8 < f->max_tbl8)
		fib6_grow(f, n - f->n_free);
	if (!hosts && f->n_free < n && f->n_free + pool_pending(f, false) >= n) {
		/* the spare groups are still visible to some worker: wait them out */
		rte_rcu_qsbr_synchronize(f->rcu, RTE_QSBR_THRID_INVALID);
		fib6_reclaim(f);
	}
	return pool_free(f, hosts) < n ? -ENOSPC : 0;
}

static void group_defer_free(struct fib6 *f, uint32_t group)
{
	uint32_t tail = (f->pending_head + f->n_pending) % f->n_tbl8;

	f->pending[tail].group = group;
	f->pending[tail].token = f->rcu != NULL ? rte_rcu_qsbr_start(f->rcu) : 0;
	f->n_pending++;
	f->n_host_pending += group >= f->host_first;
}

/* Hang a reserved group under *slot, every entry a copy of what it held. */
static void group_link(struct fib6 *f, uint32_t *slot, bool hosts)
{
	uint32_t group = hosts ? f->host_free[--f->n_host_free] : f->free_groups[--f->n_free];
	uint32_t *g = &f->tbl8[group * GROUP_SIZE];

	for (uint32_t i = 0; i < GROUP_SIZE; i++)
		g[i] = *slot;
	/* the group must be complete before a worker can follow the pointer */
	__atomic_store_n(slot, FIB6_EXT | group * GROUP_SIZE, __ATOMIC_RELEASE);
}

/*
 * Fold the level-l group under *slot back into it when its entries are all
 * equal and no longer than what *slot itself stands for. Returns whether
 * it did. Only a delete can make a group foldable, and only on the deleted
 * prefix's own path: so every group in use holds a longer prefix or a
 * group, and the groups in use are exactly those the prefixes need.
 */
static bool group_fold(struct fib6 *f, uint32_t *slot, unsigned level)
{
	const uint32_t *g = group_entries(f, *slot);
	uint32_t first = g[0];

	if ((first & FIB6_EXT) ||
	    ((first & FIB6_VALID) && depth_of(first) > level_bits(f, level - 1)))
		return false;
	for (uint32_t i = 1; i < GROUP_SIZE; i++)
		if (g[i] != first)
			return false;
	uint32_t group = (*slot & FIB6_GROUP_MASK) / GROUP_SIZE;
	__atomic_store_n(slot, first, __ATOMIC_RELEASE);
	group_defer_free(f, group);
	return true;
}

/* Point the entries [first, first + n) of a table, and of the groups below
 * them, at v where no longer prefix holds them; returns the entries visited. */
static uint64_t set_entries(struct fib6 *f, uint32_t *tbl, uint32_t first, uint32_t n, uint8_t len,
                            uint32_t v)
{
	uint64_t visited = n;

	for (uint32_t i = first; i < first + n; i++) {
		uint32_t e = tbl[i];
		if (e & FIB6_EXT)
			visited += set_entries(f, group_entries(f, e), 0, GROUP_SIZE, len, v);
		else if (!(e & FIB6_VALID) || depth_of(e) <= len)
			store(&tbl[i], v);
	}
	return visited;
}

/*
 * Hand the entries of length len in [first, first + n) of a table, and in
 * the groups below them, to repl. Those groups stay: each still holds the
 * longer prefix it was made for.
 */
static uint64_t unset_entries(struct fib6 *f, uint32_t *tbl, uint32_t first, uint32_t n,
                              uint8_t len, uint32_t repl)
{
	uint64_t visited = n;

	for (uint32_t i = first; i < first + n; i++) {
		uint32_t e = tbl[i];
		if (e & FIB6_EXT)
			visited += unset_entries(f, group_entries(f, e), 0, GROUP_SIZE, len, repl);
		else if ((e & FIB6_VALID) && depth_of(e) == len)
			store(&tbl[i], repl);
	}
	return visited;
}

bool fib6_step(struct fib6 *f)
{
	struct fib6_job *j = &f->job;

	while (j->next < j->end && f->budget > 0) {
		uint32_t n = j->end - j->next > JOB_BLOCK ? JOB_BLOCK : j->end - j->next;
		uint64_t visited = j->del ? unset_entries(f, f->tbl24, j->next, n, j->len, j->v)
		                          : set_entries(f, f->tbl24, j->next, n, j->len, j->v);
		if (f->budget != FIB6_NO_BUDGET)
			f->budget -= (int64_t)visited;
		j->next += n;
	}
	if (!fib6_pending(f) && f->after.n > 0)
		fwd_deferred_run(&f->after); /* it may write to the FIB */
	return fib6_pending(f);
}

void fib6_finish(struct fib6 *f)
{
	int64_t budget = f->budget;

	f->budget = FIB6_NO_BUDGET;
	fib6_step(f);
	f->budget = budget;
}

void fib6_set_budget(struct fib6 *f, int64_t entries)
{
	f->budget = entries;
}

void fib6_after_job(struct fib6 *f, void (*fn)(uint32_t), uint32_t arg)
{
	if (fib6_pending(f) && fwd_deferred_add(&f->after, fn, arg))
		return;
	fib6_finish(f); /* runs those kept */
	fn(arg);
}

/*
 * Before a write to tbl24 entries [first, end) (or below them): finish the
 * pending job if the write touches what it has still to do, or is wide
 * itself (one job at a time); as in the IPv4 FIB.
 */
static void job_settle(struct fib6 *f, uint32_t first, uint32_t end, bool wide)
{
	if (fib6_pending(f) && (wide || (first < f->job.end && f->job.next < end)))
		fib6_finish(f);
}

/* Start a wide write of tbl24 [first, first + n) and do what the budget allows. */
static void job_start(struct fib6 *f, uint32_t first, uint32_t n, uint8_t len, uint32_t v, bool del)
{
	job_settle(f, first, first + n, true);
	f->job = (struct fib6_job){
		.next = first, .end = first + n, .v = v, .len = len, .del = del
	};
	fib6_step(f);
}

/* The level whose table holds the last bits of a prefix of length len. */
static inline unsigned last_level(const struct fib6 *f, uint8_t len)
{
	return len <= f->top_bits ? 0 : (len - f->top_bits + 7) / 8u;
}

/* Where a prefix's entries start in its last table, and how many there are. */
static inline void prefix_range(const struct fib6 *f, const uint8_t ip[16], uint8_t len,
                                uint32_t *first, uint32_t *n)
{
	unsigned level = last_level(f, len);

	*first = level == 0 ? top24(f, ip) : level_byte(f, ip, level);
	*n = 1u << (level_bits(f, level) - len);
}

/* The slot in the level-(l-1) table that leads to the level-l group of ip. */
static inline uint32_t slot_index(const struct fib6 *f, const uint8_t ip[16], unsigned level)
{
	return level == 1 ? top24(f, ip) : level_byte(f, ip, level - 1);
}

/* How many groups the path of ip down to level last lacks. */
static uint32_t groups_missing(const struct fib6 *f, const uint8_t ip[16], unsigned last)
{
	uint32_t e = f->tbl24[top24(f, ip)];
	unsigned level = 1;

	while (level <= last && (e & FIB6_EXT)) {
		e = f->tbl8[(e & FIB6_GROUP_MASK) | level_byte(f, ip, level)];
		level++;
	}
	return last + 1 - level;
}

int fib6_add(struct fib6 *f, const uint8_t ip[16], uint8_t len, uint32_t nh)
{
	return fib6_add_pool(f, ip, len, nh, FIB6_POOL_ROUTES);
}

int fib6_add_pool(struct fib6 *f, const uint8_t ip[16], uint8_t len, uint32_t nh,
                  enum fib6_pool pool)
{
	bool hosts = hosts_pool(f, pool);
	uint8_t a[16];
	uint32_t *tbl, first, n;
	unsigned last = last_level(f, len);

	if (len > 128 || nh == 0 || nh > FIB6_NH_MAX)
		return -EINVAL;
	memcpy(a, ip, sizeof(a));
	fwd_ip6_mask(a, len);
	if (last == 0) {
		prefix_range(f, a, len, &first, &n);
		job_start(f, first, n, len, entry(nh, len), false);
		return 0;
	}
	job_settle(f, top24(f, a), top24(f, a) + 1, false);
	int rc = groups_reserve(f, groups_missing(f, a, last), hosts);
	if (rc < 0) {
		f->refused[pool == FIB6_POOL_HOSTS]++;
		f->refused_room[pool == FIB6_POOL_HOSTS] = fib6_pool_room(f, pool);
		return rc;
	}
	tbl = f->tbl24;
	for (unsigned level = 1; level <= last; level++) {
		uint32_t *slot = &tbl[slot_index(f, a, level)];
		if (!(*slot & FIB6_EXT))
			group_link(f, slot, hosts);
		tbl = group_entries(f, *slot);
	}
	prefix_range(f, a, len, &first, &n);
	set_entries(f, tbl, first, n, len, entry(nh, len));
	return 0;
}

void fib6_del(struct fib6 *f, const uint8_t ip[16], uint8_t len, int parent_len, uint32_t parent_nh)
{
	uint32_t repl = parent_len < 0 ? 0 : entry(parent_nh, (uint8_t)parent_len);
	uint32_t *path[FIB6_LEVELS + 2], *tbl = f->tbl24, first, n;
	unsigned last = last_level(f, len);
	uint8_t a[16];

	if (len > 128)
		return;
	memcpy(a, ip, sizeof(a));
	fwd_ip6_mask(a, len);
	if (last == 0) {
		prefix_range(f, a, len, &first, &n);
		job_start(f, first, n, len, repl, true);
		return;
	}
	job_settle(f, top24(f, a), top24(f, a) + 1, false);
	for (unsigned level = 1; level <= last; level++) {
		path[level] = &tbl[slot_index(f, a, level)];
		if (!(*path[level] & FIB6_EXT))
			return; /* nothing that long here */
		tbl = group_entries(f, *path[level]);
	}
	prefix_range(f, a, len, &first, &n);
	unset_entries(f, tbl, first, n, len, repl);
	/* fold the path bottom up, as far as the groups became plain */
	for (unsigned level = last; level >= 1 && group_fold(f, path[level], level); level--)
		;
}

size_t fib6_memory(const struct fib6 *f)
{
	return top_size(f) * sizeof(uint32_t) + (size_t)f->n_tbl8 * GROUP_SIZE * sizeof(uint32_t) +
	       f->n_tbl8 * (sizeof(*f->free_groups) + sizeof(*f->pending));
}

uint32_t fib6_tbl8_used(const struct fib6 *f)
{
	return f->n_tbl8 - f->n_free - f->n_host_free - f->n_pending;
}

uint32_t fib6_host_tbl8_used(const struct fib6 *f)
{
	return f->n_tbl8 - f->host_first - f->n_host_free - f->n_host_pending;
}
