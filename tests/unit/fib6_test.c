/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 FIB alone against a brute-force model: random adds, replaces
 * and deletes of prefixes /0 to /128, clustered so that they share paths
 * at every level; lookups at every prefix's edges and at random addresses
 * must give the model's longest match, and the groups in use must be
 * exactly those some prefix needs (folded back as soon as none does).
 * Then: -ENOSPC leaves the table unchanged, freed groups wait for the RCU
 * grace period, a reader thread during changes sees only real next hops,
 * and the memory accounting.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fwd_inet.h"
#include "route/fib6.h"
#include "test_eal.h"

#define MODEL_MAX 2048

struct model_entry {
	uint8_t addr[16];
	uint8_t len;
	bool present;
	uint32_t nh;
};

static struct model_entry model[MODEL_MAX];
static unsigned n_model;
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	/* xorshift64: the same sequence on every libc */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static struct model_entry *model_find(const uint8_t addr[16], uint8_t len)
{
	for (unsigned i = 0; i < n_model; i++)
		if (model[i].len == len && memcmp(model[i].addr, addr, 16) == 0)
			return &model[i];
	if (n_model == MODEL_MAX)
		return NULL;
	model[n_model] = (struct model_entry){ .len = len };
	memcpy(model[n_model].addr, addr, 16);
	return &model[n_model++];
}

/* The longest present prefix covering ip shorter than maxlen (-1: none). */
static int model_match(const uint8_t ip[16], int maxlen, uint32_t *nh)
{
	int best = -1;

	*nh = 0;
	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		if (e->present && e->len > best && e->len < maxlen &&
		    fwd_ip6_in_prefix(ip, e->addr, e->len)) {
			best = e->len;
			*nh = e->nh;
		}
	}
	return best;
}

static uint32_t model_lookup(const uint8_t ip[16])
{
	uint32_t nh;

	model_match(ip, 129, &nh);
	return nh;
}

/* The groups the model's prefixes need: one per level below the 2^24 table
 * per distinct path of a prefix longer than what the level above holds. */
struct path_key {
	uint8_t addr[16];
	uint8_t level;
};

static int path_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct path_key));
}

static uint32_t model_groups(void)
{
	static struct path_key keys[MODEL_MAX * FIB6_LEVELS];
	unsigned n = 0, distinct = 0;

	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		for (unsigned level = 1; e->present && 24 + 8 * (level - 1) < e->len; level++) {
			struct path_key *k = &keys[n++];
			memset(k, 0, sizeof(*k));
			memcpy(k->addr, e->addr, 16);
			fwd_ip6_mask(k->addr, (uint8_t)(24 + 8 * (level - 1)));
			k->level = (uint8_t)level;
		}
	}
	qsort(keys, n, sizeof(keys[0]), path_cmp);
	for (unsigned i = 0; i < n; i++)
		if (i == 0 || path_cmp(&keys[i - 1], &keys[i]) != 0)
			distinct++;
	return distinct;
}

static const uint8_t seeds[3][16] = {
	{ 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4 },
	{ 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0xff, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x80 },
	{ 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0xff, 0xfe, 0, 0, 1 },
};

/* A seed with its bits from a random position on randomised: prefixes
 * that share a path down to any level. */
static void random_addr(uint8_t a[16])
{
	unsigned from = (unsigned)(rnd() % 129);

	memcpy(a, seeds[rnd() % RTE_DIM(seeds)], 16);
	for (unsigned bit = from; bit < 128; bit++)
		if (rnd() & 1)
			a[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
}

static uint8_t random_len(void)
{
	static const uint8_t lens[] = { 0,  2,  3,  8,  16,  23,  24,  24,  25,  31,  32,  32,
		                        33, 40, 44, 47, 48,  48,  56,  63,  64,  64,  65,  72,
		                        80, 95, 96, 97, 112, 120, 121, 127, 128, 128, 128, 128 };

	return lens[rnd() % sizeof(lens)];
}

static void probe(const struct fib6 *f, const uint8_t ip[16])
{
	assert_int_equal(fib6_lookup(f, ip), model_lookup(ip));
}

/* Add or subtract 1 at the last bit of a 128-bit address. */
static void step(uint8_t a[16], int dir)
{
	for (int i = 15; i >= 0; i--) {
		a[i] = (uint8_t)(a[i] + dir);
		if (a[i] != (dir > 0 ? 0x00 : 0xff))
			break;
	}
}

static void check_all(const struct fib6 *f)
{
	uint8_t a[16];

	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		uint8_t last[16];
		memcpy(last, e->addr, 16);
		for (unsigned bit = e->len; bit < 128; bit++)
			last[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		probe(f, e->addr);
		probe(f, last);
		memcpy(a, e->addr, 16);
		step(a, -1);
		probe(f, a);
		memcpy(a, last, 16);
		step(a, 1);
		probe(f, a);
	}
	for (unsigned j = 0; j < 1000; j++) {
		random_addr(a);
		probe(f, a);
	}
	assert_int_equal(fib6_tbl8_used(f), model_groups());
}

/* Half the time a prefix seen before (deleted, replaced or added back),
 * else a new one. */
static struct model_entry *pick(void)
{
	uint8_t a[16];
	uint8_t len = random_len();

	if (n_model > 0 && rnd() % 2)
		return &model[rnd() % n_model];
	random_addr(a);
	fwd_ip6_mask(a, len);
	return model_find(a, len);
}

/* Sliced runs: each change under a random budget, a step now and then
 * (the pending job meets the next changes, as `route load` meets other
 * clients'), the job finished before every check. */
static bool sliced;

static void slice_begin(struct fib6 *f)
{
	static const int64_t budgets[] = { 1, 300, 5000, 70000, 700000 };

	if (!sliced)
		return;
	if (fib6_pending(f) && rnd() % 2) {
		fib6_set_budget(f, budgets[rnd() % RTE_DIM(budgets)]);
		fib6_step(f);
	}
	fib6_set_budget(f, budgets[rnd() % RTE_DIM(budgets)]);
}

static void op_sliced(struct fib6 *f);

static void op(struct fib6 *f)
{
	slice_begin(f);
	op_sliced(f);
	fib6_set_budget(f, FIB6_NO_BUDGET);
}

static void op_sliced(struct fib6 *f)
{
	struct model_entry *e = pick();

	if (e == NULL)
		return;
	if (e->present && rnd() % 2) {
		uint32_t pnh;
		int plen = model_match(e->addr, e->len, &pnh);
		fib6_del(f, e->addr, e->len, plen, pnh);
		e->present = false;
		return;
	}
	e->nh = 1 + (uint32_t)(rnd() % FIB6_NH_MAX);
	assert_int_equal(fib6_add(f, e->addr, e->len, e->nh), 0);
	e->present = true;
}

static void test_random_against_model(void **state)
{
	struct fib6 *f = fib6_create(8192, NULL, SOCKET_ID_ANY);

	sliced = *state != NULL;
	assert_non_null(f);
	rnd_state = sliced ? 0x5eed5eed5eedull : 88172645463325252ull;
	n_model = 0;
	for (unsigned round = 0; round < 40; round++) {
		for (unsigned i = 0; i < 60; i++)
			op(f);
		fib6_finish(f);
		assert_false(fib6_pending(f));
		check_all(f);
	}
	/* remove everything, longest first: the FIB ends empty, every group returned */
	for (int len = 128; len >= 0; len--)
		for (unsigned i = 0; i < n_model; i++)
			if (model[i].present && model[i].len == len) {
				uint32_t pnh;
				int plen = model_match(model[i].addr, len, &pnh);
				fib6_del(f, model[i].addr, (uint8_t)len, plen, pnh);
				model[i].present = false;
			}
	check_all(f);
	fib6_reclaim(f);
	assert_int_equal(fib6_tbl8_used(f), 0);
	assert_int_equal(f->n_free, f->n_tbl8);
	fib6_free(f);
}

static void test_edges_and_replace(void **state)
{
	struct fib6 *f = fib6_create(64, NULL, SOCKET_ID_ANY);
	static const uint8_t zero[16];
	uint8_t ones[16], p48[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 }, a[16];

	(void)state;
	memset(ones, 0xff, sizeof(ones));
	assert_non_null(f);
	assert_int_equal(fib6_lookup(f, ones), 0);
	assert_int_equal(fib6_add(f, zero, 0, 7), 0);
	assert_int_equal(fib6_lookup(f, ones), 7);
	assert_int_equal(fib6_add(f, ones, 128, FIB6_NH_MAX), 0);
	assert_int_equal(fib6_add(f, p48, 48, 9), 0);
	assert_int_equal(fib6_add(f, p48, 64, 10), 0);
	assert_int_equal(fib6_lookup(f, ones), FIB6_NH_MAX);
	memcpy(a, ones, 16);
	a[15] = 0xfe;
	assert_int_equal(fib6_lookup(f, a), 7);
	memcpy(a, p48, 16);
	a[8] = 1;
	assert_int_equal(fib6_lookup(f, a), 10);
	a[7] = 1;
	assert_int_equal(fib6_lookup(f, a), 9);
	/* replacing the /48 keeps the /64 inside it; host bits are ignored */
	a[15] = 0x55;
	assert_int_equal(fib6_add(f, a, 48, 11), 0);
	assert_int_equal(fib6_lookup(f, a), 11);
	a[7] = 0;
	assert_int_equal(fib6_lookup(f, a), 10);
	/* deleting the /64 falls back to the /48, its two groups fold back */
	assert_int_equal(fib6_tbl8_used(f), 13 + 5);
	fib6_del(f, p48, 64, 48, 11);
	assert_int_equal(fib6_lookup(f, a), 11);
	assert_int_equal(fib6_tbl8_used(f), 13 + 3);
	fib6_del(f, p48, 48, 0, 7);
	assert_int_equal(fib6_lookup(f, a), 7);
	assert_int_equal(fib6_tbl8_used(f), 13);
	fib6_del(f, ones, 128, 0, 7);
	assert_int_equal(fib6_tbl8_used(f), 0);
	fib6_del(f, zero, 0, -1, 0);
	assert_int_equal(fib6_lookup(f, ones), 0);
	/* deleting what is not there changes nothing */
	fib6_del(f, p48, 100, -1, 0);
	assert_int_equal(fib6_tbl8_used(f), 0);
	assert_int_equal(fib6_add(f, zero, 129, 1), -EINVAL);
	assert_int_equal(fib6_add(f, zero, 128, 0), -EINVAL);
	assert_int_equal(fib6_add(f, zero, 128, FIB6_NH_MAX + 1), -EINVAL);
	fib6_free(f);
}

/* Two halves of a group with the same next hop make it uniform, but longer
 * than its parent entry: it must stay, or deleting a half would miss it. */
static void test_uniform_group_stays(void **state)
{
	struct fib6 *f = fib6_create(64, NULL, SOCKET_ID_ANY);
	uint8_t lo[16] = { 0x20, 0x01, 0x0d, 0xb8 }, hi[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x80 };
	uint8_t deep[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01 };

	(void)state;
	assert_non_null(f);
	assert_int_equal(fib6_add(f, lo, 33, 5), 0);
	assert_int_equal(fib6_add(f, hi, 33, 5), 0);
	assert_int_equal(fib6_add(f, deep, 48, 6), 0);
	fib6_del(f, deep, 48, 33, 5); /* tries to fold the path */
	assert_int_equal(fib6_tbl8_used(f), 2);
	fib6_del(f, lo, 33, -1, 0);
	assert_int_equal(fib6_lookup(f, lo), 0);
	assert_int_equal(fib6_lookup(f, hi), 5);
	fib6_del(f, hi, 33, -1, 0);
	assert_int_equal(fib6_lookup(f, hi), 0);
	assert_int_equal(fib6_tbl8_used(f), 0);
	fib6_free(f);
}

/* A copy of the tables, to show that a failed add wrote nothing. */
static void *snapshot(const struct fib6 *f, size_t *n)
{
	size_t n24 = (1u << 24) * sizeof(uint32_t), n8 = (size_t)f->n_tbl8 * 256 * sizeof(uint32_t);
	uint8_t *s = malloc(n24 + n8);

	assert_non_null(s);
	memcpy(s, f->tbl24, n24);
	memcpy(s + n24, f->tbl8, n8);
	*n = n24 + n8;
	return s;
}

static void assert_unchanged(const struct fib6 *f, const uint8_t *s)
{
	size_t n24 = (1u << 24) * sizeof(uint32_t), n8 = (size_t)f->n_tbl8 * 256 * sizeof(uint32_t);

	assert_memory_equal(s, f->tbl24, n24);
	assert_memory_equal(s + n24, f->tbl8, n8);
}

static void test_nospc_changes_nothing(void **state)
{
	struct fib6 *f = fib6_create(FIB6_TBL8_MIN + 2, NULL, SOCKET_ID_ANY);
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	uint8_t b[16];
	size_t n;

	(void)state;
	assert_null(fib6_create(FIB6_TBL8_MIN - 1, NULL, SOCKET_ID_ANY));
	assert_null(fib6_create(FIB6_TBL8_MAX + 1, NULL, SOCKET_ID_ANY));
	assert_non_null(f);
	assert_int_equal(fib6_add(f, a, 128, 1), 0); /* one group per level */
	assert_int_equal(fib6_tbl8_used(f), FIB6_LEVELS);
	memcpy(b, a, 16);
	b[12] ^= 0x80; /* shares the groups of levels 1-10: needs 3 */
	uint8_t *s = snapshot(f, &n);
	assert_int_equal(fib6_add(f, b, 128, 2), -ENOSPC);
	assert_unchanged(f, s);
	assert_int_equal(fib6_lookup(f, b), 0);
	/* what needs no more than the 2 spare groups still fits */
	b[12] = a[12];
	b[14] ^= 1;
	assert_int_equal(fib6_add(f, b, 128, 3), 0);
	assert_int_equal(fib6_add(f, a, 127, 4), 0); /* no new group */
	assert_int_equal(fib6_add(f, a, 16, 5), 0);  /* the 2^24 table only */
	assert_int_equal(fib6_tbl8_used(f), FIB6_LEVELS + 1);
	free(s);
	s = snapshot(f, &n);
	b[3] ^= 1; /* a new path from level 2 */
	assert_int_equal(fib6_add(f, b, 128, 6), -ENOSPC);
	assert_int_equal(fib6_add(f, b, 48, 6), -ENOSPC);
	assert_unchanged(f, s);
	assert_int_equal(fib6_add(f, b, 40, 6), 0);
	assert_int_equal(fib6_lookup(f, b), 6);
	assert_int_equal(fib6_lookup(f, a), 1);
	free(s);
	fib6_free(f);
}

/* A group a worker may still be reading is reused only after its grace period. */
static void test_rcu_deferred_reuse(void **state)
{
	size_t sz = rte_rcu_qsbr_get_memsize(1);
	struct rte_rcu_qsbr *rcu = rte_zmalloc(NULL, sz, RTE_CACHE_LINE_SIZE);
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 }, b[16];
	uint32_t held[3][256], group[3];

	(void)state;
	assert_non_null(rcu);
	assert_int_equal(rte_rcu_qsbr_init(rcu, 1), 0);
	assert_int_equal(rte_rcu_qsbr_thread_register(rcu, 0), 0);
	struct fib6 *f = fib6_create(FIB6_TBL8_MIN + 3, rcu, SOCKET_ID_ANY);
	assert_non_null(f);
	rte_rcu_qsbr_thread_online(rcu, 0); /* a worker in the middle of a burst */
	assert_int_equal(fib6_add(f, a, 48, 42), 0);
	fib6_del(f, a, 48, -1, 0);
	assert_int_equal(fib6_lookup(f, a), 0);
	assert_int_equal(fib6_tbl8_used(f), 0);
	assert_int_equal(f->n_pending, 3);
	/* the /48's three groups, as the worker may still read them */
	for (unsigned i = 0; i < 3; i++) {
		group[i] = f->pending[(f->pending_head + i) % f->n_tbl8].group;
		memcpy(held[i], &f->tbl8[group[i] * 256], sizeof(held[i]));
	}
	/* the 13 free groups go to other prefixes; the freed ones stay as they were */
	memcpy(b, a, 16);
	b[0] = 0x30;
	b[15] = 1;
	assert_int_equal(fib6_add(f, b, 128, 43), 0);
	fib6_reclaim(f);
	assert_int_equal(f->n_pending, 3);
	assert_int_equal(f->n_free, 0);
	for (unsigned i = 0; i < 3; i++)
		assert_memory_equal(&f->tbl8[group[i] * 256], held[i], sizeof(held[i]));
	/* the worker passes a quiescent state: the groups come back */
	rte_rcu_qsbr_quiescent(rcu, 0);
	fib6_reclaim(f);
	assert_int_equal(f->n_pending, 0);
	assert_int_equal(f->n_free, 3);
	assert_int_equal(fib6_add(f, a, 48, 44), 0);
	assert_int_equal(fib6_lookup(f, a), 44);
	/* when only freed groups are left, an add takes them back as soon as
	 * no reader can hold them (here: the worker went offline) */
	fib6_del(f, a, 48, -1, 0);
	rte_rcu_qsbr_thread_offline(rcu, 0);
	assert_int_equal(f->n_pending, 3);
	assert_int_equal(fib6_add(f, a, 48, 45), 0);
	assert_int_equal(fib6_lookup(f, a), 45);
	assert_int_equal(f->n_pending, 0);
	fib6_free(f);
	rte_free(rcu);
}

/* Host routes take their groups from a pool of their own: routes keep
 * theirs whatever hosts come, a freed group goes back to its own pool, and
 * a host never waits out a grace period for one (it is refused instead). */
static void test_host_pool(void **state)
{
	size_t sz = rte_rcu_qsbr_get_memsize(1);
	struct rte_rcu_qsbr *rcu = rte_zmalloc(NULL, sz, RTE_CACHE_LINE_SIZE);
	uint8_t net[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 1 }, h1[16], h2[16], h3[16];
	uint8_t r[16] = { 0x20, 0x01, 0x0d, 0xb9, 0, 1 };

	(void)state;
	assert_null(fib6_create_pools(FIB6_TBL8_MAX, 1, NULL, SOCKET_ID_ANY));
	assert_non_null(rcu);
	assert_int_equal(rte_rcu_qsbr_init(rcu, 1), 0);
	assert_int_equal(rte_rcu_qsbr_thread_register(rcu, 0), 0);
	struct fib6 *f = fib6_create_pools(FIB6_LEVELS + 2, 16, rcu, SOCKET_ID_ANY);
	assert_non_null(f);
	assert_int_equal(fib6_add(f, net, 64, 10), 0); /* 5 routes' groups */
	memcpy(h1, net, 16);
	memcpy(h2, net, 16);
	memcpy(h3, net, 16);
	h1[15] = 1;               /* levels 6-13 under the /64: 8 hosts' groups */
	h2[9] = 0x22, h2[15] = 2; /* from level 8: 6 more */
	h3[9] = 0x33, h3[15] = 3; /* 6 more: 2 left */
	assert_int_equal(fib6_add_pool(f, h1, 128, 11, FIB6_POOL_HOSTS), 0);
	assert_int_equal(fib6_add_pool(f, h2, 128, 12, FIB6_POOL_HOSTS), 0);
	assert_int_equal(fib6_host_tbl8_used(f), 14);
	assert_int_equal(fib6_tbl8_used(f), 19);
	assert_int_equal(fib6_add_pool(f, h3, 128, 13, FIB6_POOL_HOSTS), -ENOSPC);
	assert_int_equal(f->refused[FIB6_POOL_HOSTS], 1);
	assert_int_equal(f->refused_room[FIB6_POOL_HOSTS], 2);
	/* the routes' 10 groups left are for routes: five /48s of 2 each; then
	 * one is refused though the hosts' pool has the 2 it wants */
	for (unsigned i = 0; i < 5; i++, r[3]++)
		assert_int_equal(fib6_add(f, r, 48, 20 + i), 0);
	assert_int_equal(fib6_add(f, r, 48, 25), -ENOSPC);
	assert_int_equal(f->refused[FIB6_POOL_ROUTES], 1);
	assert_int_equal(fib6_pool_room(f, FIB6_POOL_ROUTES), 0);
	assert_int_equal(fib6_pool_room(f, FIB6_POOL_HOSTS), 2);
	/* a freed host's groups wait for readers, then come back to the hosts */
	rte_rcu_qsbr_thread_online(rcu, 0);
	fib6_del(f, h2, 128, 64, 10);
	assert_int_equal(f->n_host_pending, 6);
	assert_int_equal(fib6_add_pool(f, h3, 128, 13, FIB6_POOL_HOSTS), -ENOSPC); /* no wait */
	assert_int_equal(fib6_pool_room(f, FIB6_POOL_HOSTS), 8);
	rte_rcu_qsbr_quiescent(rcu, 0);
	fib6_reclaim(f);
	assert_int_equal(f->n_host_free, 8);
	assert_int_equal(fib6_add_pool(f, h3, 128, 13, FIB6_POOL_HOSTS), 0);
	assert_int_equal(fib6_lookup(f, h3), 13);
	assert_int_equal(fib6_lookup(f, h2), 10);
	assert_int_equal(fib6_host_tbl8_used(f), 14);
	rte_rcu_qsbr_thread_offline(rcu, 0);
	fib6_free(f);
	rte_free(rcu);
}

/* A worker looking up one address while the control thread changes the
 * prefixes around it and groups come and go (a small FIB: each is reused
 * soon after its grace period): it only ever sees what a prefix gives. */
struct reader {
	const struct fib6 *f;
	struct rte_rcu_qsbr *rcu;
	uint8_t ip[16];
	bool stop;
	uint64_t lookups, wrong;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	rte_rcu_qsbr_thread_online(r->rcu, 0);
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		uint32_t nh = fib6_lookup(r->f, r->ip);
		r->wrong += nh < 10 || nh > 12;
		r->lookups++;
		rte_rcu_qsbr_quiescent(r->rcu, 0);
	}
	rte_rcu_qsbr_thread_offline(r->rcu, 0);
	return NULL;
}

static void churn(struct fib6 *f, const uint8_t ip[16], unsigned round)
{
	uint8_t p64[16], other[16];

	memcpy(p64, ip, 16);
	fwd_ip6_mask(p64, 64);
	memcpy(other, ip, 16);
	other[7] ^= 1; /* the same groups down to level 4, then its own */
	other[15] = (uint8_t)round;
	assert_int_equal(fib6_add(f, other, 128, 13), 0);
	assert_int_equal(fib6_add(f, ip, 128, 11), 0);
	assert_int_equal(fib6_add(f, p64, 64, 12), 0);
	fib6_del(f, ip, 128, 64, 12);
	fib6_del(f, other, 128, 32, 10);
	fib6_del(f, p64, 64, 32, 10);
	fib6_reclaim(f);
}

static void test_concurrent_reader(void **state)
{
	struct reader r = { .ip = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		                    11 } };
	uint8_t p32[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	pthread_t t;

	(void)state;
	r.rcu = rte_zmalloc(NULL, rte_rcu_qsbr_get_memsize(1), RTE_CACHE_LINE_SIZE);
	assert_non_null(r.rcu);
	assert_int_equal(rte_rcu_qsbr_init(r.rcu, 1), 0);
	assert_int_equal(rte_rcu_qsbr_thread_register(r.rcu, 0), 0);
	struct fib6 *f = fib6_create(4 * 2 * FIB6_LEVELS, r.rcu, SOCKET_ID_ANY);
	assert_non_null(f);
	r.f = f;
	assert_int_equal(fib6_add(f, p32, 32, 10), 0);
	assert_int_equal(pthread_create(&t, NULL, reader_main, &r), 0);
	for (unsigned round = 0; round < 1000; round++)
		churn(f, r.ip, round);
	__atomic_store_n(&r.stop, true, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(r.lookups > 0);
	assert_int_equal(r.wrong, 0);
	fib6_free(f);
	rte_free(r.rcu);
}

static void test_memory_accounting(void **state)
{
	struct fib6 *f = fib6_create(1000, NULL, SOCKET_ID_ANY);
	struct fib6 *g = fib6_create(2000, NULL, SOCKET_ID_ANY);
	size_t group = 256 * sizeof(uint32_t) + sizeof(uint32_t) + sizeof(struct fib6_pending);

	(void)state;
	assert_non_null(f);
	assert_non_null(g);
	assert_int_equal(group, 1024 + 4 + 16);
	assert_int_equal(fib6_memory(f), (1u << 24) * sizeof(uint32_t) + 1000 * group);
	assert_int_equal(fib6_memory(g) - fib6_memory(f), 1000 * group);
	assert_int_equal(fib6_tbl8_used(f), 0);
	fib6_free(f);
	fib6_free(g);
	fib6_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_and_replace),
		cmocka_unit_test(test_uniform_group_stays),
		cmocka_unit_test(test_nospc_changes_nothing),
		cmocka_unit_test(test_rcu_deferred_reuse),
		cmocka_unit_test(test_host_pool),
		cmocka_unit_test(test_concurrent_reader),
		cmocka_unit_test(test_memory_accounting),
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test_prestate(test_random_against_model, &sliced),
	};

	if (test_eal_init("fib6_test") < 0)
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rte_eal_cleanup();
	return rc;
}
