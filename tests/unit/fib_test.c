/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FIB (DIR-24-8) and RIB against a brute-force model: random adds,
 * replaces and deletes of routes, local and neighbour /32s, then lookups of
 * random addresses and of every prefix boundary must match the model's
 * longest match with the RIB's source precedence.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_eal.h>

#include "fwd_inet.h"
#include "ip4/fib.h"
#include "nexthop/nexthop.h"
#include "ip4/rib.h"
#include "test_eal.h"

#define MODEL_MAX 4096

struct model_entry {
	uint32_t addr;
	uint8_t len;
	uint8_t src;
	uint32_t route_nh, neigh_nh;
};

static struct model_entry model[MODEL_MAX];
static unsigned n_model;

static uint32_t mask(uint8_t len)
{
	return fwd_ip4_mask(len);
}

static struct model_entry *model_find(uint32_t addr, uint8_t len, bool create)
{
	for (unsigned i = 0; i < n_model; i++)
		if (model[i].addr == addr && model[i].len == len)
			return &model[i];
	if (!create || n_model == MODEL_MAX)
		return NULL;
	model[n_model] = (struct model_entry){ .addr = addr, .len = len };
	return &model[n_model++];
}

static uint32_t model_nh(const struct model_entry *e)
{
	if (e->src & RIB4_SRC_LOCAL)
		return NH_IDX_LOCAL;
	if (e->src & RIB4_SRC_ROUTE)
		return e->route_nh;
	return e->neigh_nh;
}

static uint32_t model_lookup(uint32_t ip)
{
	int best = -1;
	uint32_t nh = 0;

	if (rib4_is_reserved(ip, 32))
		return NH_IDX_RESERVED; /* whatever routes say */

	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		if (e->src != 0 && (ip & mask(e->len)) == e->addr && e->len > best) {
			best = e->len;
			nh = model_nh(e);
		}
	}
	return nh;
}

static uint32_t rnd(void)
{
	return ((uint32_t)rand() << 16) ^ (uint32_t)rand();
}

/* Prefixes clustered in a few /16s so that they overlap a lot. */
static void random_prefix(uint32_t *addr, uint8_t *len)
{
	static const uint8_t lens[] = {
		0, 8, 12, 16, 20, 22, 23, 24, 24, 25, 26, 28, 30, 31, 32, 32
	};

	*len = lens[rand() % sizeof(lens)];
	*addr = ((10u << 24) | ((uint32_t)(rand() % 4) << 16) | (rnd() & 0xffff)) & mask(*len);
}

static void check_all(struct fib4 *f)
{
	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		uint32_t probes[] = { e->addr, e->addr | ~mask(e->len), e->addr - 1,
			              (e->addr | ~mask(e->len)) + 1,
			              e->addr | (rnd() & ~mask(e->len)) };
		for (unsigned j = 0; j < RTE_DIM(probes); j++)
			assert_int_equal(fib4_lookup(f, probes[j]), model_lookup(probes[j]));
	}
	for (unsigned j = 0; j < 2000; j++) {
		uint32_t ip = (10u << 24) | (rnd() & 0x3ffff);
		assert_int_equal(fib4_lookup(f, ip), model_lookup(ip));
	}
}

static void op_route(struct rib4 *rib)
{
	uint32_t addr;
	uint8_t len;
	struct route4 r = { .type = ROUTE4_VIA }, old;
	bool had;

	random_prefix(&addr, &len);
	struct model_entry *e = model_find(addr, len, true);
	if (e == NULL)
		return;
	if ((e->src & RIB4_SRC_ROUTE) && rand() % 2) {
		assert_int_equal(rib4_clear_route(rib, addr, len, &old), 0);
		assert_int_equal(old.nh, e->route_nh);
		e->src &= ~RIB4_SRC_ROUTE;
		return;
	}
	r.nh = NH_FIRST_DYNAMIC + rnd() % 1000;
	assert_int_equal(rib4_set_route(rib, addr, len, &r, &old, &had), 0);
	assert_int_equal(had, (e->src & RIB4_SRC_ROUTE) != 0);
	e->src |= RIB4_SRC_ROUTE;
	e->route_nh = r.nh;
}

static void op_host(struct rib4 *rib)
{
	uint32_t addr = (10u << 24) | (rnd() & 0x3ffff);
	struct model_entry *e = model_find(addr, 32, true);
	bool local = rand() % 2;
	uint8_t bit = local ? RIB4_SRC_LOCAL : RIB4_SRC_NEIGH;

	if (e == NULL)
		return;
	if (e->src & bit) {
		if (local)
			rib4_clear_local(rib, addr);
		else
			rib4_clear_neigh(rib, addr, e->neigh_nh);
		e->src &= ~bit;
	} else if (local) {
		assert_int_equal(rib4_set_local(rib, addr), 0);
		e->src |= bit;
	} else {
		e->neigh_nh = NH_FIRST_DYNAMIC + 1000 + rnd() % 1000;
		assert_int_equal(rib4_set_neigh(rib, addr, e->neigh_nh), 0);
		e->src |= bit;
	}
}

/* Sliced runs: each change under a random budget, a step now and then
 * (the pending job meets the next changes, as `route load` meets other
 * clients'), the job finished before every check. */
static bool sliced;

static void slice_begin(struct fib4 *f)
{
	static const int64_t budgets[] = { 1, 300, 5000, 70000, 700000 };

	if (!sliced)
		return;
	if (fib4_pending(f) && rand() % 2) {
		fib4_set_budget(f, budgets[rand() % RTE_DIM(budgets)]);
		fib4_step(f);
	}
	fib4_set_budget(f, budgets[rand() % RTE_DIM(budgets)]);
}

static void test_random_against_model(void **state)
{
	struct fib4 *f = fib4_create(4096, NULL, 0);
	struct rib4 rib;

	sliced = *state != NULL;
	assert_non_null(f);
	rib4_init(&rib, f);
	srand(sliced ? 4242 : 42);
	n_model = 0;
	for (unsigned round = 0; round < 40; round++) {
		for (unsigned i = 0; i < 60; i++) {
			slice_begin(f);
			if (rand() % 3)
				op_route(&rib);
			else
				op_host(&rib);
			fib4_set_budget(f, FIB4_NO_BUDGET);
		}
		fib4_finish(f);
		assert_false(fib4_pending(f));
		check_all(f);
	}
	/* remove everything: the FIB must end empty, every tbl8 group returned */
	for (unsigned i = 0; i < n_model; i++) {
		struct model_entry *e = &model[i];
		struct route4 old;
		if (e->src & RIB4_SRC_ROUTE)
			assert_int_equal(rib4_clear_route(&rib, e->addr, e->len, &old), 0);
		if (e->src & RIB4_SRC_LOCAL)
			rib4_clear_local(&rib, e->addr);
		if (e->src & RIB4_SRC_NEIGH)
			rib4_clear_neigh(&rib, e->addr, e->neigh_nh);
		e->src = 0;
	}
	check_all(f);
	assert_int_equal(rib.n_nodes, 0);
	assert_int_equal(rib.n_routes, 0);
	fib4_reclaim(f);
	assert_int_equal(fib4_tbl8_used(f), 0);
	fib4_free(f);
}

static void test_default_route_and_replace(void **state)
{
	struct fib4 *f = fib4_create(16, NULL, 0);

	(void)state;
	assert_int_equal(fib4_lookup(f, 0x01020304), 0);
	assert_int_equal(fib4_add(f, 0, 0, 100), 0);
	assert_int_equal(fib4_add(f, 0x0a000000, 8, 200), 0);
	assert_int_equal(fib4_add(f, 0x0a010280, 25, 300), 0);
	assert_int_equal(fib4_lookup(f, 0x01020304), 100);
	assert_int_equal(fib4_lookup(f, 0x0a010203), 200);
	assert_int_equal(fib4_lookup(f, 0x0a0102ff), 300);
	/* replacing /8 keeps the /25 inside it */
	assert_int_equal(fib4_add(f, 0x0a000000, 8, 201), 0);
	assert_int_equal(fib4_lookup(f, 0x0a010203), 201);
	assert_int_equal(fib4_lookup(f, 0x0a0102ff), 300);
	/* deleting /25 falls back to the /8, then the group folds back */
	fib4_del(f, 0x0a010280, 25, 8, 201);
	assert_int_equal(fib4_lookup(f, 0x0a0102ff), 201);
	assert_int_equal(fib4_tbl8_used(f), 0);
	fib4_del(f, 0x0a000000, 8, 0, 100);
	assert_int_equal(fib4_lookup(f, 0x0a0102ff), 100);
	fib4_del(f, 0, 0, -1, 0);
	assert_int_equal(fib4_lookup(f, 0x0a0102ff), 0);
	assert_int_equal(fib4_add(f, 1, 33, 1), -EINVAL);
	assert_int_equal(fib4_add(f, 1, 32, 0), -EINVAL);
	fib4_free(f);
}

/* A /0 under a budget: written a slice at a time; a change where the job
 * has still to go finishes it first, one where it has been waits for
 * nothing. */
static void test_sliced_default_route(void **state)
{
	struct fib4 *f = fib4_create(16, NULL, 0);
	unsigned steps = 0;

	(void)state;
	assert_int_equal(fib4_add(f, 0x0a000000, 8, 200), 0);
	fib4_set_budget(f, 5000);
	assert_int_equal(fib4_add(f, 0, 0, 100), 0);
	assert_true(fib4_pending(f));
	assert_true(fib4_budget_spent(f));
	assert_int_equal(fib4_lookup(f, 0x00000001), 100);
	assert_int_equal(fib4_lookup(f, 0xc0000001), 0); /* not yet */
	/* ahead of the job: it is finished first */
	assert_int_equal(fib4_add(f, 0xc0000001, 32, 300), 0);
	assert_false(fib4_pending(f));
	assert_int_equal(fib4_lookup(f, 0xc0000002), 100);
	assert_int_equal(fib4_lookup(f, 0xc0000001), 300);
	assert_int_equal(fib4_lookup(f, 0x0a000001), 200);

	/* replace the /0, step it through with a budget per turn */
	fib4_set_budget(f, 5000);
	assert_int_equal(fib4_add(f, 0, 0, 101), 0);
	assert_true(fib4_pending(f));
	/* behind the job: lands beside it */
	fib4_set_budget(f, FIB4_NO_BUDGET);
	assert_int_equal(fib4_add(f, 0x00000010, 32, 301), 0);
	assert_true(fib4_pending(f));
	assert_int_equal(fib4_lookup(f, 0x00000010), 301);
	assert_int_equal(fib4_lookup(f, 0x00000011), 101);
	assert_int_equal(fib4_lookup(f, 0xc0000002), 100);
	while (fib4_pending(f)) {
		fib4_set_budget(f, 1u << 18);
		fib4_step(f);
		steps++;
	}
	assert_int_equal(steps, (1u << 24) / (1u << 18));
	assert_int_equal(fib4_lookup(f, 0xc0000002), 101);
	assert_int_equal(fib4_lookup(f, 0xc0000001), 300);
	assert_int_equal(fib4_lookup(f, 0x0a000001), 200);

	/* a delete in slices, then a wide add finishes it first */
	fib4_set_budget(f, 5000);
	fib4_del(f, 0, 0, -1, 0);
	assert_true(fib4_pending(f));
	assert_int_equal(fib4_lookup(f, 0x00000011), 0);
	assert_int_equal(fib4_lookup(f, 0xc0000002), 101);
	fib4_set_budget(f, FIB4_NO_BUDGET);
	assert_int_equal(fib4_add(f, 0x0b000000, 8, 201), 0);
	assert_false(fib4_pending(f));
	assert_int_equal(fib4_lookup(f, 0xc0000002), 0);
	assert_int_equal(fib4_lookup(f, 0xc0000001), 300);
	assert_int_equal(fib4_lookup(f, 0x0b000001), 201);
	fib4_free(f);
}

static uint32_t after_calls[16], n_after_calls;

static void after_call(uint32_t arg)
{
	after_calls[n_after_calls++ % RTE_DIM(after_calls)] = arg;
}

/* What waits for a sliced write (a replaced route's next hop) runs when it
 * completes, however it completes, and at once when none is pending; more
 * than the FIB keeps completes the write first. */
static void test_after_job(void **state)
{
	struct fib4 *f = fib4_create(16, NULL, 0);

	(void)state;
	n_after_calls = 0;
	fib4_after_job(f, after_call, 1);
	assert_int_equal(n_after_calls, 1);
	fib4_set_budget(f, 5000);
	assert_int_equal(fib4_add(f, 0, 0, 100), 0);
	fib4_after_job(f, after_call, 2);
	assert_int_equal(n_after_calls, 1);
	while (fib4_step(f)) {
		assert_int_equal(n_after_calls, 1);
		fib4_set_budget(f, 1u << 20);
	}
	assert_int_equal(n_after_calls, 2);
	assert_int_equal(after_calls[1], 2);
	/* a wide write finishes the job (and runs what waited) before its own */
	fib4_set_budget(f, 5000);
	fib4_del(f, 0, 0, -1, 0);
	fib4_after_job(f, after_call, 3);
	assert_int_equal(fib4_add(f, 0x0b000000, 8, 201), 0);
	assert_int_equal(n_after_calls, 3);
	/* full: the job is completed, then the ninth runs too */
	assert_int_equal(fib4_add(f, 0, 1, 102), 0);
	assert_true(fib4_pending(f));
	for (uint32_t i = 0; i < FWD_DEFERRED_MAX; i++)
		fib4_after_job(f, after_call, 10 + i);
	assert_int_equal(n_after_calls, 3);
	fib4_after_job(f, after_call, 99);
	assert_false(fib4_pending(f));
	assert_int_equal(n_after_calls, 3 + FWD_DEFERRED_MAX + 1);
	assert_int_equal(after_calls[3], 10);
	assert_int_equal(after_calls[3 + FWD_DEFERRED_MAX], 99);
	fib4_set_budget(f, FIB4_NO_BUDGET);
	fib4_free(f);
}

static void test_tbl8_exhaustion(void **state)
{
	struct fib4 *f = fib4_create(2, NULL, 0);

	(void)state;
	assert_int_equal(fib4_add(f, 0x0a000001, 32, 5), 0);
	assert_int_equal(fib4_add(f, 0x0a000101, 32, 5), 0);
	assert_int_equal(fib4_add(f, 0x0a000201, 32, 5), -ENOSPC);
	assert_int_equal(fib4_lookup(f, 0x0a000201), 0);
	/* freeing one group makes room again (no RCU: reclaimed at once) */
	fib4_del(f, 0x0a000001, 32, -1, 0);
	assert_int_equal(fib4_add(f, 0x0a000201, 32, 6), 0);
	assert_int_equal(fib4_lookup(f, 0x0a000201), 6);
	fib4_free(f);
}

/* The reserved ranges keep their entries under covering routes, and routes
 * inside them stay in the RIB without reaching the FIB. */
static void test_reserved_ranges(void **state)
{
	struct fib4 *f = fib4_create(16, NULL, 0);
	struct rib4 rib;
	struct route4 r = { .type = ROUTE4_VIA }, old;
	static const struct {
		uint32_t addr;
		uint8_t len;
	} routes[] = { { 0, 0 },           { 0, 7 },          { 0x7f000000, 8 },
		       { 0xe0010000, 16 }, { 0xc0000000, 2 }, { 0xfffffff0, 28 } };
	bool had;

	(void)state;
	assert_non_null(f);
	rib4_init(&rib, f);
	for (unsigned o = 0; o < 256; o++)
		assert_int_equal(fib4_lookup(f, (o << 24) | 0x10203) == NH_IDX_RESERVED,
		                 rib4_is_reserved(o << 24, 8));
	for (unsigned i = 0; i < RTE_DIM(routes); i++) {
		r.nh = NH_FIRST_DYNAMIC + i;
		assert_int_equal(
		        rib4_set_route(&rib, routes[i].addr, routes[i].len, &r, &old, &had), 0);
		assert_int_equal(rib4_find(&rib, routes[i].addr, routes[i].len)->installed,
		                 !rib4_is_reserved(routes[i].addr, routes[i].len));
	}
	assert_int_equal(fib4_lookup(f, 0x00010203), NH_IDX_RESERVED);
	assert_int_equal(fib4_lookup(f, 0x01020304), NH_FIRST_DYNAMIC + 1);
	assert_int_equal(fib4_lookup(f, 0x08080808), NH_FIRST_DYNAMIC + 0);
	assert_int_equal(fib4_lookup(f, 0x7f000001), NH_IDX_RESERVED);
	assert_int_equal(fib4_lookup(f, 0xc0a80001), NH_FIRST_DYNAMIC + 4);
	assert_int_equal(fib4_lookup(f, 0xe0010001), NH_IDX_RESERVED);
	assert_int_equal(fib4_lookup(f, 0xffffffff), NH_IDX_RESERVED);
	/* removing the covering routes leaves the reserved entries */
	assert_int_equal(rib4_clear_route(&rib, 0, 7, &old), 0);
	assert_int_equal(rib4_clear_route(&rib, 0, 0, &old), 0);
	assert_int_equal(rib4_clear_route(&rib, 0xc0000000, 2, &old), 0);
	assert_int_equal(fib4_lookup(f, 0x01020304), 0);
	assert_int_equal(fib4_lookup(f, 0xc0a80001), 0);
	for (unsigned o = 0; o < 256; o++)
		assert_int_equal(fib4_lookup(f, (o << 24) | 0x10203) == NH_IDX_RESERVED,
		                 rib4_is_reserved(o << 24, 8));
	/* and so does removing the routes inside them */
	assert_int_equal(rib4_clear_route(&rib, 0xe0010000, 16, &old), 0);
	assert_int_equal(rib4_clear_route(&rib, 0x7f000000, 8, &old), 0);
	assert_int_equal(fib4_lookup(f, 0xe0010001), NH_IDX_RESERVED);
	assert_int_equal(fib4_lookup(f, 0x7f000001), NH_IDX_RESERVED);
	assert_int_equal(fib4_tbl8_used(f), 0);
	rib4_clear(&rib);
	fib4_free(f);
}

static void test_rib_iteration(void **state)
{
	struct fib4 *f = fib4_create(16, NULL, 0);
	struct rib4 rib;
	struct route4 r = { .type = ROUTE4_VIA, .nh = NH_FIRST_DYNAMIC }, old;
	static const uint32_t addrs[] = { 0x0a000000, 0x0a000000, 0x0b000000, 0x09000000 };
	static const uint8_t lens[] = { 8, 16, 8, 8 };
	bool had;
	unsigned n = 0;

	(void)state;
	rib4_init(&rib, f);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(rib4_set_route(&rib, addrs[i], lens[i], &r, &old, &had), 0);
	assert_int_equal(rib4_set_local(&rib, 0x0a000001), 0); /* not a route: skipped */
	struct rib4_node *prev = NULL;
	for (struct rib4_node *x = rib4_next_route(&rib, 0, 0, true); x != NULL;
	     x = rib4_next_route(&rib, x->addr, x->len, false)) {
		if (prev != NULL)
			assert_true(prev->addr < x->addr ||
			            (prev->addr == x->addr && prev->len < x->len));
		prev = x;
		n++;
	}
	assert_int_equal(n, 4);
	assert_int_equal(rib.n_routes, 4);
	assert_non_null(rib4_match(&rib, 0x0a000102, 32));
	assert_int_equal(rib4_match(&rib, 0x0a000102, 32)->len, 16);
	assert_int_equal(rib4_match(&rib, 0x0a010102, 32)->len, 8);
	assert_null(rib4_match(&rib, 0x0c000000, 32));
	rib4_clear(&rib);
	fib4_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_route_and_replace),
		cmocka_unit_test(test_tbl8_exhaustion),
		cmocka_unit_test(test_rib_iteration),
		cmocka_unit_test(test_reserved_ranges),
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test_prestate(test_random_against_model, &sliced),
		cmocka_unit_test(test_sliced_default_route),
		cmocka_unit_test(test_after_job),
	};

	if (test_eal_init("fib_test") < 0)
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rte_eal_cleanup();
	return rc;
}
