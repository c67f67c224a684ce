/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "ip4/fib.h"

#define TBL24_SIZE (1u << 24)
#define GROUP_SIZE 256u
#define JOB_BLOCK  1024u /* tbl24 entries a job does between budget checks */

static inline uint32_t entry(uint32_t nh, uint8_t depth)
{
	return FIB4_VALID | ((uint32_t)depth << FIB4_DEPTH_SHIFT) | nh;
}

/* The group number of a tbl24 entry that points to one. */
static inline uint32_t group_of(uint32_t e)
{
	return e & FIB4_NH_MASK;
}

static inline unsigned depth_of(uint32_t e)
{
	return (e & FIB4_DEPTH_MASK) >> FIB4_DEPTH_SHIFT;
}

/* Single 32-bit stores: a reader sees the old or the new entry, never a mix. */
static inline void store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

struct fib4 *fib4_create(uint32_t n_tbl8, struct rte_rcu_qsbr *rcu, int socket)
{
	struct fib4 *f = calloc(1, sizeof(*f));

	if (f == NULL || n_tbl8 == 0 || n_tbl8 > FIB4_NH_MAX)
		goto fail;
	f->n_tbl8 = n_tbl8;
	f->rcu = rcu;
	f->tbl24 = rte_zmalloc_socket("fib4_tbl24", TBL24_SIZE * sizeof(uint32_t),
	                              RTE_CACHE_LINE_SIZE, socket);
	f->tbl8 = rte_zmalloc_socket("fib4_tbl8", (size_t)n_tbl8 * GROUP_SIZE * sizeof(uint32_t),
	                             RTE_CACHE_LINE_SIZE, socket);
	f->free_groups = malloc(n_tbl8 * sizeof(*f->free_groups));
	f->pending = malloc(n_tbl8 * sizeof(*f->pending));
	if (f->tbl24 == NULL || f->tbl8 == NULL || f->free_groups == NULL || f->pending == NULL)
		goto fail;
	/* hand out low group numbers first: they share pages with recent ones */
	for (uint32_t i = 0; i < n_tbl8; i++)
		f->free_groups[i] = n_tbl8 - 1 - i;
	f->n_free = n_tbl8;
	f->budget = FIB4_NO_BUDGET;
	return f;
fail:
	fib4_free(f);
	return NULL;
}

struct fib4 *fib4_create_small(uint32_t n_tbl8, uint32_t max_tbl8, struct rte_rcu_qsbr *rcu,
                               int socket)
{
	struct fib4 *f = calloc(1, sizeof(*f));

	if (f != NULL && (f->small = fib6_create_small(n_tbl8, max_tbl8, rcu, socket)) != NULL) {
		f->budget = FIB4_NO_BUDGET;
		return f;
	}
	free(f);
	return NULL;
}

/* The small layout's key: the address in the first four bytes. */
static inline void small_key(uint32_t ip, uint8_t a[16])
{
	uint32_t be = rte_cpu_to_be_32(ip);

	memset(a, 0, 16);
	memcpy(a, &be, sizeof(be));
}

void fib4_free(struct fib4 *f)
{
	if (f == NULL)
		return;
	fib6_free(f->small);
	rte_free(f->tbl24);
	rte_free(f->tbl8);
	free(f->free_groups);
	free(f->pending);
	free(f);
}

void fib4_reclaim(struct fib4 *f)
{
	if (f->small != NULL)
		fib6_reclaim(f->small);
	while (f->n_pending > 0) {
		struct fib4_pending *p = &f->pending[f->pending_head];
		if (f->rcu != NULL && rte_rcu_qsbr_check(f->rcu, p->token, false) != 1)
			break;
		f->free_groups[f->n_free++] = p->group;
		f->pending_head = (f->pending_head + 1) % f->n_tbl8;
		f->n_pending--;
	}
}

static int group_alloc(struct fib4 *f, uint32_t *group)
{
	if (f->n_free == 0)
		fib4_reclaim(f);
	if (f->n_free == 0 && f->n_pending > 0) {
		/* every spare group is still visible to some worker: wait them out */
		rte_rcu_qsbr_synchronize(f->rcu, RTE_QSBR_THRID_INVALID);
		fib4_reclaim(f);
	}
	if (f->n_free == 0)
		return -ENOSPC;
	*group = f->free_groups[--f->n_free];
	return 0;
}

static void group_defer_free(struct fib4 *f, uint32_t group)
{
	uint32_t tail = (f->pending_head + f->n_pending) % f->n_tbl8;

	f->pending[tail].group = group;
	f->pending[tail].token = f->rcu != NULL ? rte_rcu_qsbr_start(f->rcu) : 0;
	f->n_pending++;
}

static inline uint32_t *group_entries(struct fib4 *f, uint32_t tbl24_entry)
{
	return &f->tbl8[group_of(tbl24_entry) * GROUP_SIZE];
}

/* Overwrite the entries of [first, first + n) whose depth is at most len. */
static void set_range(uint32_t *tbl, uint32_t first, uint32_t n, uint8_t len, uint32_t v)
{
	for (uint32_t i = first; i < first + n; i++) {
		uint32_t e = tbl[i];
		if (!(e & FIB4_VALID) || depth_of(e) <= len)
			store(&tbl[i], v);
	}
}

/* Replace the entries of [first, first + n) that belong to depth len. */
static void unset_range(uint32_t *tbl, uint32_t first, uint32_t n, uint8_t len, uint32_t repl)
{
	for (uint32_t i = first; i < first + n; i++) {
		uint32_t e = tbl[i];
		if ((e & FIB4_VALID) && depth_of(e) == len)
			store(&tbl[i], repl);
	}
}

static int tbl24_ext(struct fib4 *f, uint32_t idx)
{
	uint32_t e = f->tbl24[idx], group;
	int rc;

	if (e & FIB4_EXT)
		return 0;
	rc = group_alloc(f, &group);
	if (rc < 0)
		return rc;
	uint32_t *g = &f->tbl8[group * GROUP_SIZE];
	for (uint32_t i = 0; i < GROUP_SIZE; i++)
		g[i] = e;
	/* the group must be complete before a worker can follow the pointer */
	__atomic_store_n(&f->tbl24[idx], FIB4_EXT | group, __ATOMIC_RELEASE);
	return 0;
}

/* Fold a group back into its tbl24 entry when it no longer differs inside. */
static void tbl24_collapse(struct fib4 *f, uint32_t idx)
{
	uint32_t e = f->tbl24[idx];
	uint32_t *g;

	if (!(e & FIB4_EXT))
		return;
	g = group_entries(f, e);
	if ((g[0] & FIB4_VALID) && depth_of(g[0]) > 24)
		return;
	for (uint32_t i = 1; i < GROUP_SIZE; i++)
		if (g[i] != g[0])
			return;
	__atomic_store_n(&f->tbl24[idx], g[0], __ATOMIC_RELEASE);
	group_defer_free(f, group_of(e));
}

/* Point tbl24 entries [first, end), and their groups, at v where no longer
 * prefix holds them; returns the entries visited. */
static uint32_t add_wide(struct fib4 *f, uint32_t first, uint32_t end, uint8_t len, uint32_t v)
{
	uint32_t visited = end - first;

	for (uint32_t i = first; i < end; i++) {
		uint32_t e = f->tbl24[i];
		if (e & FIB4_EXT) {
			set_range(group_entries(f, e), 0, GROUP_SIZE, len, v);
			visited += GROUP_SIZE;
		} else if (!(e & FIB4_VALID) || depth_of(e) <= len) {
			store(&f->tbl24[i], v);
		}
	}
	return visited;
}

/* Hand the entries of depth len in tbl24 [first, end), and in their groups,
 * to repl, folding groups that became plain; returns the entries visited. */
static uint32_t del_wide(struct fib4 *f, uint32_t first, uint32_t end, uint8_t len, uint32_t repl)
{
	uint32_t visited = end - first;

	for (uint32_t i = first; i < end; i++) {
		uint32_t e = f->tbl24[i];
		if (e & FIB4_EXT) {
			unset_range(group_entries(f, e), 0, GROUP_SIZE, len, repl);
			tbl24_collapse(f, i);
			visited += GROUP_SIZE;
		} else if ((e & FIB4_VALID) && depth_of(e) == len) {
			store(&f->tbl24[i], repl);
		}
	}
	return visited;
}

bool fib4_step(struct fib4 *f)
{
	struct fib4_job *j = &f->job;

	if (f->small != NULL)
		return fib6_step(f->small);
	while (j->next < j->end && f->budget > 0) {
		uint32_t stop = j->end - j->next > JOB_BLOCK ? j->next + JOB_BLOCK : j->end;
		uint32_t n = j->del ? del_wide(f, j->next, stop, j->len, j->v)
		                    : add_wide(f, j->next, stop, j->len, j->v);
		if (f->budget != FIB4_NO_BUDGET)
			f->budget -= n;
		j->next = stop;
	}
	if (!fib4_pending(f) && f->after.n > 0)
		fwd_deferred_run(&f->after); /* it may write to the FIB */
	return fib4_pending(f);
}

void fib4_finish(struct fib4 *f)
{
	int64_t budget = f->budget;

	if (f->small != NULL)
		fib6_finish(f->small);
	f->budget = FIB4_NO_BUDGET;
	fib4_step(f);
	f->budget = budget;
}

void fib4_set_budget(struct fib4 *f, int64_t entries)
{
	if (f->small != NULL)
		fib6_set_budget(f->small, entries);
	f->budget = entries;
}

void fib4_after_job(struct fib4 *f, void (*fn)(uint32_t), uint32_t arg)
{
	if (f->small != NULL) {
		fib6_after_job(f->small, fn, arg);
		return;
	}
	if (fib4_pending(f) && fwd_deferred_add(&f->after, fn, arg))
		return;
	fib4_finish(f); /* runs those kept */
	fn(arg);
}

/*
 * Before a write to tbl24 entries [first, end): finish the pending job if
 * the write touches what it has still to do, or is wide itself (one job at
 * a time). A write elsewhere lands beside it: the job's entries behind it
 * are final, those ahead it never looks at.
 */
static void job_settle(struct fib4 *f, uint32_t first, uint32_t end, bool wide)
{
	if (fib4_pending(f) && (wide || (first < f->job.end && f->job.next < end)))
		fib4_finish(f);
}

/* Start a wide write of tbl24 [first, end) and do what the budget allows. */
static void job_start(struct fib4 *f, uint32_t first, uint32_t end, uint8_t len, uint32_t v,
                      bool del)
{
	job_settle(f, first, end, true);
	f->job = (struct fib4_job){ .next = first, .end = end, .v = v, .len = len, .del = del };
	fib4_step(f);
}

int fib4_add(struct fib4 *f, uint32_t ip, uint8_t len, uint32_t nh)
{
	uint32_t v = entry(nh, len);
	uint8_t a[16];

	if (f->small != NULL && len <= 32) {
		small_key(ip, a);
		return fib6_add(f->small, a, len, nh);
	}
	if (len > 32 || nh == 0 || nh > FIB4_NH_MAX)
		return -EINVAL;
	ip &= len == 0 ? 0 : ~0u << (32 - len);
	if (len <= 24) {
		job_start(f, ip >> 8, (ip >> 8) + (1u << (24 - len)), len, v, false);
		return 0;
	}
	job_settle(f, ip >> 8, (ip >> 8) + 1, false);
	int rc = tbl24_ext(f, ip >> 8);
	if (rc < 0)
		return rc;
	set_range(group_entries(f, f->tbl24[ip >> 8]), ip & 0xff, 1u << (32 - len), len, v);
	return 0;
}

void fib4_del(struct fib4 *f, uint32_t ip, uint8_t len, int parent_len, uint32_t parent_nh)
{
	uint32_t repl = parent_len < 0 ? 0 : entry(parent_nh, (uint8_t)parent_len);
	uint8_t a[16];

	if (len > 32)
		return;
	if (f->small != NULL) {
		small_key(ip, a);
		fib6_del(f->small, a, len, parent_len, parent_nh);
		return;
	}
	ip &= len == 0 ? 0 : ~0u << (32 - len);
	if (len <= 24) {
		job_start(f, ip >> 8, (ip >> 8) + (1u << (24 - len)), len, repl, true);
		return;
	}
	job_settle(f, ip >> 8, (ip >> 8) + 1, false);
	uint32_t e = f->tbl24[ip >> 8];
	if (!(e & FIB4_EXT))
		return;
	unset_range(group_entries(f, e), ip & 0xff, 1u << (32 - len), len, repl);
	tbl24_collapse(f, ip >> 8);
}

size_t fib4_memory(const struct fib4 *f)
{
	if (f->small != NULL)
		return sizeof(*f) + fib6_memory(f->small);
	return TBL24_SIZE * sizeof(uint32_t) + (size_t)f->n_tbl8 * GROUP_SIZE * sizeof(uint32_t) +
	       f->n_tbl8 * (sizeof(*f->free_groups) + sizeof(*f->pending));
}

uint32_t fib4_tbl8_used(const struct fib4 *f)
{
	if (f->small != NULL)
		return fib6_tbl8_used(f->small);
	return f->n_tbl8 - f->n_free - f->n_pending;
}
