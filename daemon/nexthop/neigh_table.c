/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table. Every entry owns a next hop, so the next-hop index
 * is its identity: by_nh[] finds it from a route or a punted packet in
 * O(1), a chained hash (keyed: a stranger cannot aim at one chain) finds
 * it by (address, port), a binary min-heap keeps
 * the timers (retries, probes, aging) so a tick only looks at what is due,
 * and a doubly linked list per family orders the entries that may be
 * evicted (dynamic, no route uses them) from least to most recently used or
 * confirmed, so the cap on them (neigh_max, per family) costs O(1) per new
 * entry.
 * Control thread only; workers never see any of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "core/siphash.h"
#include "nexthop/nexthop.h"
#include "nexthop/neigh_priv.h"

static struct neigh **by_nh; /* indexed by next hop */
static uint32_t cap;         /* size of by_nh: the next-hop table size */
static uint32_t *bucket;     /* nh of the first entry in the chain, 0 = empty */
static uint32_t bucket_mask;
static struct neigh **heap; /* timers, earliest first */
static uint32_t n_heap;
static uint64_t n_entries;
/* per family (IPv4, IPv6), least recently used first */
static struct neigh *lru_head[2], *lru_tail[2];
static uint32_t n_lru[2];

static unsigned fam(const struct neigh *n)
{
	return n->addr.family == AF_INET6;
}

/* Keyed (core/siphash.h): the addresses are a stranger's choice, and with a
 * hash anyone can compute they could all be put in one chain, which every
 * lookup of a new sender's address would then walk. */
static uint32_t hash(const struct fwd_ip *a, uint16_t port)
{
	struct {
		uint16_t family, iface;
		uint8_t addr[16];
	} k = { a->family, port, { 0 } };

	if (a->family == AF_INET6)
		memcpy(k.addr, a->v6, sizeof(a->v6));
	else
		memcpy(k.addr, &a->v4, sizeof(a->v4));
	return (uint32_t)fwd_keyed_hash(&k, sizeof(k)) & bucket_mask;
}

uint32_t neigh_table_chain_len(struct fwd_ip a, uint16_t port)
{
	uint32_t n = 0;

	for (uint32_t i = bucket != NULL ? bucket[hash(&a, port)] : 0; i != 0; i = by_nh[i]->hnext)
		n++;
	return n;
}

int neigh_table_init(uint32_t n_nexthops)
{
	uint32_t nb = rte_align32pow2(RTE_MAX(n_nexthops / 2, 64u));

	cap = n_nexthops;
	bucket_mask = nb - 1;
	by_nh = calloc(cap, sizeof(*by_nh));
	heap = calloc(cap, sizeof(*heap));
	bucket = calloc(nb, sizeof(*bucket));
	n_heap = 0;
	n_entries = 0;
	memset(lru_head, 0, sizeof(lru_head));
	memset(lru_tail, 0, sizeof(lru_tail));
	memset(n_lru, 0, sizeof(n_lru));
	if (by_nh == NULL || heap == NULL || bucket == NULL) {
		neigh_table_fini();
		return -ENOMEM;
	}
	return 0;
}

void neigh_table_fini(void)
{
	for (uint32_t i = 0; by_nh != NULL && i < cap; i++) {
		if (by_nh[i] == NULL)
			continue;
		neigh_hold_free(by_nh[i]);
		free(by_nh[i]);
	}
	free(by_nh);
	free(heap);
	free(bucket);
	by_nh = NULL;
	heap = NULL;
	bucket = NULL;
	cap = n_heap = 0;
	n_entries = 0;
	memset(lru_head, 0, sizeof(lru_head));
	memset(lru_tail, 0, sizeof(lru_tail));
	memset(n_lru, 0, sizeof(n_lru));
}

struct neigh *neigh_by_nh(uint32_t nh)
{
	return nh < cap ? by_nh[nh] : NULL;
}

struct neigh *neigh_lookup(struct fwd_ip a, uint16_t port)
{
	if (bucket == NULL)
		return NULL;
	for (uint32_t i = bucket[hash(&a, port)]; i != 0; i = by_nh[i]->hnext)
		if (by_nh[i]->port == port && fwd_ip_eq(&by_nh[i]->addr, &a))
			return by_nh[i];
	return NULL;
}

struct neigh *neigh_iter(uint32_t *pos)
{
	for (uint32_t i = *pos; i < cap; i++)
		if (by_nh[i] != NULL) {
			*pos = i + 1;
			return by_nh[i];
		}
	*pos = cap;
	return NULL;
}

bool neigh_exists(struct fwd_ip a, uint16_t port)
{
	return neigh_lookup(a, port) != NULL;
}

bool neigh_addr_next(uint32_t *pos, struct fwd_ip *a)
{
	const struct neigh *n = neigh_iter(pos);

	if (n == NULL)
		return false;
	*a = n->addr;
	return true;
}

/* ------------------------------------------------------------------- LRU */

static void lru_unlink(struct neigh *n)
{
	unsigned f = fam(n);

	*(n->lru_prev != NULL ? &n->lru_prev->lru_next : &lru_head[f]) = n->lru_next;
	*(n->lru_next != NULL ? &n->lru_next->lru_prev : &lru_tail[f]) = n->lru_prev;
	n->lru_prev = n->lru_next = NULL;
	n->in_lru = false;
	n_lru[f]--;
}

static void lru_append(struct neigh *n)
{
	unsigned f = fam(n);

	n->lru_prev = lru_tail[f];
	n->lru_next = NULL;
	*(lru_tail[f] != NULL ? &lru_tail[f]->lru_next : &lru_head[f]) = n;
	lru_tail[f] = n;
	n->in_lru = true;
	n_lru[f]++;
}

void neigh_lru_sync(struct neigh *n)
{
	bool evictable = n->state != NEIGH_PERMANENT && n->refs == 0;

	if (evictable && !n->in_lru)
		lru_append(n);
	else if (!evictable && n->in_lru)
		lru_unlink(n);
}

void neigh_lru_touch(struct neigh *n)
{
	if (n->in_lru && n != lru_tail[fam(n)]) {
		lru_unlink(n);
		lru_append(n);
	}
}

struct neigh *neigh_lru_oldest(uint8_t family)
{
	return lru_head[family == AF_INET6];
}

uint32_t neigh_lru_count(uint8_t family)
{
	return n_lru[family == AF_INET6];
}

/* ----------------------------------------------------------------- entries */

struct neigh *neigh_table_add(struct fwd_ip a, uint16_t port, uint32_t nh)
{
	struct neigh *n;
	uint32_t h;

	if (nh == 0 || nh >= cap || by_nh[nh] != NULL)
		return NULL; /* cannot happen: nh_alloc hands out free dynamic indices */
	n = calloc(1, sizeof(*n));
	if (n == NULL)
		return NULL;
	n->addr = a;
	n->port = port;
	n->nh = nh;
	n->heap = NEIGH_NO_TIMER;
	h = hash(&a, port);
	n->hnext = bucket[h];
	bucket[h] = nh;
	by_nh[nh] = n;
	n_entries++;
	return n;
}

void neigh_table_del(struct neigh *n)
{
	uint32_t *p = &bucket[hash(&n->addr, n->port)];

	neigh_event(n, "del");
	neigh_timer_cancel(n);
	if (n->in_lru)
		lru_unlink(n);
	while (*p != 0 && *p != n->nh)
		p = &by_nh[*p]->hnext;
	if (*p == n->nh)
		*p = n->hnext;
	by_nh[n->nh] = NULL;
	n_entries--;
	free(n);
}

uint64_t neigh_table_count(void)
{
	return n_entries;
}

/* ------------------------------------------------------------------ timers */

static void heap_put(uint32_t i, struct neigh *n)
{
	heap[i] = n;
	n->heap = i;
}

static void sift_up(uint32_t i)
{
	struct neigh *n = heap[i];

	while (i > 0 && heap[(i - 1) / 2]->due_ms > n->due_ms) {
		heap_put(i, heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_put(i, n);
}

static void sift_down(uint32_t i)
{
	struct neigh *n = heap[i];

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n_heap)
			break;
		if (c + 1 < n_heap && heap[c + 1]->due_ms < heap[c]->due_ms)
			c++;
		if (heap[c]->due_ms >= n->due_ms)
			break;
		heap_put(i, heap[c]);
		i = c;
	}
	heap_put(i, n);
}

void neigh_timer_cancel(struct neigh *n)
{
	uint32_t i = n->heap;

	if (i == NEIGH_NO_TIMER)
		return;
	n->heap = NEIGH_NO_TIMER;
	if (i == --n_heap)
		return;
	struct neigh *last = heap[n_heap];
	heap_put(i, last);
	sift_down(i);
	sift_up(last->heap);
}

void neigh_timer_set(struct neigh *n, uint64_t due_ms)
{
	neigh_timer_cancel(n);
	n->due_ms = due_ms;
	heap_put(n_heap++, n);
	sift_up(n->heap);
}

struct neigh *neigh_timer_pop(uint64_t now)
{
	struct neigh *n;

	if (n_heap == 0 || heap[0]->due_ms > now)
		return NULL;
	n = heap[0];
	neigh_timer_cancel(n);
	return n;
}
