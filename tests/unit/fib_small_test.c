/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The small FIB layout of the VRFs other than the default one (route/
 * fib6.h fib6_create_small, ip4/fib.h fib4_create_small) against a brute-
 * force longest match over random prefixes of both families: adds,
 * replaces and deletes (with the parent the RIB would name), starting
 * from a few groups so that the pool grows many times; then growth while a
 * reader thread looks up a fixed set of routes under RCU and must never
 * see a wrong next hop.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "fwd_inet.h"
#include "ip4/fib.h"
#include "route/fib6.h"
#include "test_eal.h"

#define N_PREFIX 3000

struct pfx {
	uint8_t a[16];
	uint8_t len;
	uint32_t nh; /* 0: not installed */
};

static struct pfx pfx[N_PREFIX];
static unsigned n_pfx;

static bool covers(const struct pfx *p, const uint8_t a[16])
{
	return fwd_ip6_in_prefix(a, p->a, p->len);
}

/* The model's longest installed prefix covering a, shorter than maxlen; -1: none. */
static int model_match(const uint8_t a[16], int maxlen, const struct pfx *skip)
{
	int best = -1;

	for (unsigned i = 0; i < n_pfx; i++)
		if (pfx[i].nh != 0 && &pfx[i] != skip && pfx[i].len <= maxlen && covers(&pfx[i], a) &&
		    (best < 0 || pfx[i].len > pfx[best].len))
			best = (int)i;
	return best;
}

static uint32_t model_nh(const uint8_t a[16])
{
	int b = model_match(a, 128, NULL);

	return b < 0 ? 0 : pfx[b].nh;
}

static void random_prefix(struct pfx *p, unsigned bits)
{
	for (unsigned k = 0; k < 16; k++)
		p->a[k] = k < bits / 8 ? (uint8_t)random() : 0;
	/* clustered: the first byte from a few values, so that paths share groups */
	p->a[0] = (uint8_t)(random() % 8);
	p->len = (uint8_t)(random() % (bits + 1));
	fwd_ip6_mask(p->a, p->len);
}

static struct pfx *find(const struct pfx *p)
{
	for (unsigned i = 0; i < n_pfx; i++)
		if (pfx[i].len == p->len && memcmp(pfx[i].a, p->a, 16) == 0)
			return &pfx[i];
	return NULL;
}

static uint32_t v4(const uint8_t a[16])
{
	return (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
}

/* Add or delete one random prefix in the FIB of the family (bits 32 or 128) and the model. */
static void churn_one(struct fib4 *f4, struct fib6 *f6, unsigned bits)
{
	struct pfx q, *p;

	random_prefix(&q, bits);
	p = find(&q);
	if (p != NULL && p->nh != 0 && random() % 3 == 0) { /* delete, to the parent */
		int par = model_match(p->a, p->len - 1, p);
		int plen = par < 0 ? -1 : pfx[par].len;
		uint32_t pnh = par < 0 ? 0 : pfx[par].nh;
		if (f4 != NULL)
			fib4_del(f4, v4(p->a), p->len, plen, pnh);
		else
			fib6_del(f6, p->a, p->len, plen, pnh);
		p->nh = 0;
		return;
	}
	if (p == NULL) {
		if (n_pfx == N_PREFIX)
			return;
		p = &pfx[n_pfx++];
		*p = q;
	}
	p->nh = 1 + (uint32_t)(random() % 5000);
	assert_int_equal(f4 != NULL ? fib4_add(f4, v4(p->a), p->len, p->nh)
	                            : fib6_add(f6, p->a, p->len, p->nh),
	                 0);
}

static uint32_t lookup(struct fib4 *f4, struct fib6 *f6, const uint8_t a[16])
{
	return f4 != NULL ? fib4_lookup(f4, v4(a)) : fib6_lookup(f6, a);
}

/* Every prefix's first and last address, and random ones near them. */
static void check_all(struct fib4 *f4, struct fib6 *f6, unsigned bits)
{
	for (unsigned i = 0; i < n_pfx; i++) {
		uint8_t a[16];
		memcpy(a, pfx[i].a, 16);
		assert_int_equal(lookup(f4, f6, a), model_nh(a));
		for (unsigned k = pfx[i].len / 8; k < bits / 8; k++)
			a[k] = (uint8_t)random();
		assert_int_equal(lookup(f4, f6, a), model_nh(a));
	}
}

static void run_model(struct fib4 *f4, struct fib6 *f6, unsigned bits)
{
	n_pfx = 0;
	srandom(bits);
	for (unsigned round = 0; round < 4; round++) {
		for (unsigned i = 0; i < 600; i++)
			churn_one(f4, f6, bits);
		check_all(f4, f6, bits);
	}
}

static void test_small4_model(void **state)
{
	struct fib4 *f = fib4_create_small(16, 1u << 16, NULL, SOCKET_ID_ANY);

	(void)state;
	assert_non_null(f);
	assert_null(f->tbl24);
	run_model(f, NULL, 32);
	assert_true(f->small->n_tbl8 > 16); /* it grew */
	assert_true(fib4_tbl8_used(f) <= f->small->n_tbl8);
	fib4_free(f);
}

static void test_small6_model(void **state)
{
	struct fib6 *f = fib6_create_small(16, 1u << 16, NULL, SOCKET_ID_ANY);

	(void)state;
	assert_non_null(f);
	run_model(NULL, f, 128);
	assert_true(f->n_tbl8 > 1024);
	fib6_free(f);
}

/* A pool that may not grow refuses as the others do. */
static void test_small_limit(void **state)
{
	struct fib6 *f = fib6_create_small(16, 16, NULL, SOCKET_ID_ANY);
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 }, b[16] = { 0x30, [15] = 1 };

	(void)state;
	assert_non_null(f);
	assert_int_equal(fib6_add(f, a, 128, 7), 0); /* 14 groups */
	assert_int_equal(fib6_add(f, b, 128, 8), -ENOSPC);
	assert_int_equal(fib6_lookup(f, a), 7);
	assert_int_equal(fib6_lookup(f, b), 0);
	fib6_free(f);
}

/* ------------------------------------------------ growth under RCU */

static struct rte_rcu_qsbr *rcu;
static struct fib4 *live;
static volatile bool stop;
static volatile uint64_t wrong, reads;

#define STABLE 64

/* 10.s.t.0/24 -> nh 100 + s: the stable routes, each a group down. */
static uint32_t stable_addr(unsigned i)
{
	return 0x0a000000u | i << 16 | (i * 7 % 256) << 8;
}

static void *reader(void *arg)
{
	(void)arg;
	rte_rcu_qsbr_thread_register(rcu, 0);
	rte_rcu_qsbr_thread_online(rcu, 0);
	while (!stop) {
		/* as a worker: the tables once per "burst" */
		struct fib4_view v = fib4_view_small(live);
		for (unsigned i = 0; i < STABLE; i++)
			if (fib4_lookup_small(v, stable_addr(i) | 9) != 100 + i)
				wrong++;
		reads++;
		rte_rcu_qsbr_quiescent(rcu, 0);
	}
	rte_rcu_qsbr_thread_offline(rcu, 0);
	rte_rcu_qsbr_thread_unregister(rcu, 0);
	return NULL;
}

static void test_growth_under_rcu(void **state)
{
	size_t sz = rte_rcu_qsbr_get_memsize(1);
	pthread_t t;

	(void)state;
	rcu = rte_zmalloc("rcu", sz, RTE_CACHE_LINE_SIZE);
	assert_non_null(rcu);
	assert_int_equal(rte_rcu_qsbr_init(rcu, 1), 0);
	live = fib4_create_small(16, 1u << 16, rcu, SOCKET_ID_ANY);
	assert_non_null(live);
	for (unsigned i = 0; i < STABLE; i++)
		assert_int_equal(fib4_add(live, stable_addr(i), 24, 100 + i), 0);
	assert_int_equal(pthread_create(&t, NULL, reader, NULL), 0);
	/* 4,000 /32s, each in a /24 of its own: a group each, the pool
	 * doubles from 16 to 8,192 */
	for (uint32_t i = 0; i < 4000; i++)
		assert_int_equal(fib4_add(live, 0x0b000001u + (i << 8), 32, 1000 + i), 0);
	for (uint32_t i = 0; i < 4000; i++) {
		fib4_del(live, 0x0b000001u + (i << 8), 32, -1, 0);
		fib4_reclaim(live);
	}
	stop = true;
	pthread_join(t, NULL);
	assert_true(live->small->n_tbl8 >= 4096);
	assert_true(reads > 0);
	assert_int_equal(wrong, 0);
	for (unsigned i = 0; i < STABLE; i++)
		assert_int_equal(fib4_lookup(live, stable_addr(i)), 100 + i);
	fib4_free(live);
	rte_free(rcu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small4_model),
		cmocka_unit_test(test_small6_model),
		cmocka_unit_test(test_small_limit),
		cmocka_unit_test(test_growth_under_rcu),
	};

	if (test_eal_init("fib_small_test") < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
