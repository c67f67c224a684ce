/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 RIB over its FIB: random routes, local and neighbour /128s
 * (inside the reserved ranges too) against a brute-force model with the
 * sources' precedence; then each rule on its own: precedence, the reserved
 * ranges, our link-local addresses inside fe80::/10, the parent that takes
 * over on removal, -ENOSPC, iteration and accounting.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rte_common.h>

#include "fwd_inet.h"
#include "ip6/rib6.h"
#include "nexthop/nexthop.h"
#include "test_eal.h"

#define MODEL_MAX 2048

struct model_entry {
	uint8_t addr[16];
	uint8_t len;
	uint8_t src;
	uint32_t route_nh, neigh_nh;
};

static struct model_entry model[MODEL_MAX];
static unsigned n_model;
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* An address from its text form, for readable tests: good for the next
 * few calls only (a ring of 8); keep addresses in arrays of their own. */
static const uint8_t *A(const char *s)
{
	static uint8_t ring[8][16];
	static unsigned next;
	uint8_t *a = ring[next++ % RTE_DIM(ring)];

	assert_int_equal(fwd_ip6_parse(s, a), 0);
	return a;
}

static struct model_entry *model_find(const uint8_t addr[16], uint8_t len, bool create)
{
	for (unsigned i = 0; i < n_model; i++)
		if (model[i].len == len && memcmp(model[i].addr, addr, 16) == 0)
			return &model[i];
	if (!create || n_model == MODEL_MAX)
		return NULL;
	model[n_model] = (struct model_entry){ .len = len };
	memcpy(model[n_model].addr, addr, 16);
	return &model[n_model++];
}

static uint32_t model_nh(const struct model_entry *e)
{
	if (e->src & RIB6_SRC_LOCAL)
		return NH_IDX_LOCAL;
	if (e->src & RIB6_SRC_ROUTE)
		return e->route_nh;
	return e->neigh_nh;
}

static uint32_t model_lookup(const uint8_t ip[16])
{
	int best = -1;
	uint32_t nh = NH_IDX_NONE;

	if (rib6_is_reserved(ip, 128)) {
		/* whatever routes say; our own link-local addresses excepted */
		struct model_entry *e = model_find(ip, 128, false);
		bool ll = ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80;
		return ll && e != NULL && (e->src & RIB6_SRC_LOCAL) ? NH_IDX_LOCAL
		                                                    : NH_IDX_RESERVED;
	}
	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		if (e->src != 0 && e->len > best && fwd_ip6_in_prefix(ip, e->addr, e->len)) {
			best = e->len;
			nh = model_nh(e);
		}
	}
	return nh;
}

static const uint8_t seeds[4][16] = {
	{ 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4 },
	{ 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0xff, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x80 },
	{ 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0xff, 0xfe, 0, 0, 1 },
	{ 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0, 0, 1 },
};

static void random_addr(uint8_t a[16])
{
	unsigned from = 8 + (unsigned)(rnd() % 121);

	memcpy(a, seeds[rnd() % RTE_DIM(seeds)], 16);
	for (unsigned bit = from; bit < 128; bit++)
		if (rnd() & 1)
			a[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
}

static void check_all(struct rib6 *rib)
{
	uint8_t a[16];

	for (unsigned i = 0; i < n_model; i++) {
		const struct model_entry *e = &model[i];
		memcpy(a, e->addr, 16);
		assert_int_equal(fib6_lookup(rib->fib, a), model_lookup(a));
		for (unsigned bit = e->len; bit < 128; bit++)
			a[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		assert_int_equal(fib6_lookup(rib->fib, a), model_lookup(a));
	}
	for (unsigned j = 0; j < 500; j++) {
		random_addr(a);
		assert_int_equal(fib6_lookup(rib->fib, a), model_lookup(a));
	}
}

static void op_route(struct rib6 *rib)
{
	static const uint8_t lens[] = { 0, 7, 10, 16, 32, 48, 56, 64, 64, 96, 120, 127, 128 };
	struct route6 r = { .type = ROUTE6_VIA }, old;
	uint8_t a[16], len = lens[rnd() % sizeof(lens)];
	bool had;

	random_addr(a);
	fwd_ip6_mask(a, len);
	struct model_entry *e = model_find(a, len, true);
	if (e == NULL)
		return;
	if ((e->src & RIB6_SRC_ROUTE) && rnd() % 2) {
		assert_int_equal(rib6_clear_route(rib, a, len, &old), 0);
		assert_int_equal(old.nh, e->route_nh);
		e->src &= ~RIB6_SRC_ROUTE;
		return;
	}
	r.nh = NH_FIRST_DYNAMIC + (uint32_t)(rnd() % 1000);
	assert_int_equal(rib6_set_route(rib, a, len, &r, &old, &had), 0);
	assert_int_equal(had, (e->src & RIB6_SRC_ROUTE) != 0);
	e->src |= RIB6_SRC_ROUTE;
	e->route_nh = r.nh;
}

static void op_host(struct rib6 *rib)
{
	uint8_t a[16];
	bool local = rnd() % 2;
	uint8_t bit = local ? RIB6_SRC_LOCAL : RIB6_SRC_NEIGH;

	random_addr(a);
	struct model_entry *e = model_find(a, 128, true);
	if (e == NULL)
		return;
	if (e->src & bit) {
		if (local)
			rib6_clear_local(rib, a);
		else
			rib6_clear_neigh(rib, a, e->neigh_nh);
		e->src &= ~bit;
	} else if (local) {
		assert_int_equal(rib6_set_local(rib, a), 0);
		e->src |= bit;
	} else {
		e->neigh_nh = NH_FIRST_DYNAMIC + 1000 + (uint32_t)(rnd() % 1000);
		assert_int_equal(rib6_set_neigh(rib, a, e->neigh_nh), 0);
		e->src |= bit;
	}
}

static void test_random_against_model(void **state)
{
	struct fib6 *f = fib6_create(8192, NULL, SOCKET_ID_ANY);
	struct rib6 rib;

	(void)state;
	assert_non_null(f);
	rib6_init(&rib, f);
	rnd_state = 0x9e3779b97f4a7c15ull;
	n_model = 0;
	for (unsigned round = 0; round < 30; round++) {
		for (unsigned i = 0; i < 60; i++) {
			if (rnd() % 3)
				op_route(&rib);
			else
				op_host(&rib);
		}
		check_all(&rib);
	}
	/* remove everything: only the reserved entries stay */
	for (unsigned i = 0; i < n_model; i++) {
		struct model_entry *e = &model[i];
		struct route6 old;
		if (e->src & RIB6_SRC_ROUTE)
			assert_int_equal(rib6_clear_route(&rib, e->addr, e->len, &old), 0);
		if (e->src & RIB6_SRC_LOCAL)
			rib6_clear_local(&rib, e->addr);
		if (e->src & RIB6_SRC_NEIGH)
			rib6_clear_neigh(&rib, e->addr, e->neigh_nh);
		e->src = 0;
	}
	check_all(&rib);
	assert_int_equal(rib.n_nodes, 0);
	assert_int_equal(rib.n_routes, 0);
	fib6_reclaim(f);
	assert_int_equal(fib6_tbl8_used(f), FIB6_LEVELS); /* the path of ::/128 and ::1/128 */
	fib6_free(f);
}

static uint32_t via(struct rib6 *rib, const uint8_t *a, uint8_t len, uint32_t nh)
{
	struct route6 r = { .type = ROUTE6_VIA, .nh = nh }, old;
	bool had;

	return (uint32_t)rib6_set_route(rib, a, len, &r, &old, &had);
}

static void unroute(struct rib6 *rib, const uint8_t *a, uint8_t len)
{
	struct route6 old;

	assert_int_equal(rib6_clear_route(rib, a, len, &old), 0);
}

static void test_reserved_ranges(void **state)
{
	struct fib6 *f = fib6_create(64, NULL, SOCKET_ID_ANY);
	struct rib6 rib;
	static const struct {
		const char *addr;
		uint8_t len;
	} routes[] = { { "::", 0 },     { "8000::", 1 },  { "fe00::", 7 },  { "::", 127 },
		       { "ff00::", 8 }, { "ff02::", 16 }, { "fe80::", 10 }, { "fe80::", 64 },
		       { "::", 128 },   { "::1", 128 },   { "febf::", 16 } };
	const unsigned n_out = 4; /* the first four are not inside a reserved range */

	(void)state;
	assert_non_null(f);
	rib6_init(&rib, f);
	assert_int_equal(fib6_lookup(f, A("ff02::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("fe80::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("febf:ffff::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("fec0::1")), NH_IDX_NONE);
	assert_int_equal(fib6_lookup(f, A("::")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("::2")), NH_IDX_NONE);
	for (unsigned i = 0; i < RTE_DIM(routes); i++) {
		const uint8_t *a = A(routes[i].addr);
		assert_int_equal(via(&rib, a, routes[i].len, NH_FIRST_DYNAMIC + i), 0);
		assert_int_equal(rib6_is_reserved(a, routes[i].len), i >= n_out);
		assert_int_equal(rib6_find(&rib, a, routes[i].len)->installed, i < n_out);
	}
	assert_int_equal(rib.n_routes, RTE_DIM(routes));
	assert_int_equal(fib6_lookup(f, A("2001:db8::1")), NH_FIRST_DYNAMIC + 0);
	assert_int_equal(fib6_lookup(f, A("ff02::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("fe80::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("fec0::1")), NH_FIRST_DYNAMIC + 2);
	assert_int_equal(fib6_lookup(f, A("8000::1")), NH_FIRST_DYNAMIC + 1);
	assert_int_equal(fib6_lookup(f, A("::")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("::2")), NH_FIRST_DYNAMIC + 0);
	/* removing every route leaves the reserved entries as they were */
	for (unsigned i = 0; i < RTE_DIM(routes); i++)
		unroute(&rib, A(routes[i].addr), routes[i].len);
	assert_int_equal(fib6_lookup(f, A("ff02::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("fe80::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("::1")), NH_IDX_RESERVED);
	assert_int_equal(fib6_lookup(f, A("fec0::1")), NH_IDX_NONE);
	assert_int_equal(fib6_lookup(f, A("::2")), NH_IDX_NONE);
	assert_int_equal(rib.n_nodes, 0);
	assert_int_equal(fib6_tbl8_used(f), FIB6_LEVELS);
	rib6_clear(&rib);
	fib6_free(f);
}

/* Our link-local addresses are local /128s inside fe80::/10; on removal
 * the reserved entry, not a covering route, takes over again. */
static void test_local_inside_linklocal(void **state)
{
	struct fib6 *f = fib6_create(64, NULL, SOCKET_ID_ANY);
	struct rib6 rib;
	uint8_t ll[16];

	(void)state;
	memcpy(ll, A("fe80::200:ff:fe00:1"), 16);
	assert_non_null(f);
	rib6_init(&rib, f);
	assert_int_equal(via(&rib, A("::"), 0, NH_FIRST_DYNAMIC), 0);
	assert_int_equal(via(&rib, A("fe00::"), 7, NH_FIRST_DYNAMIC + 1), 0);
	assert_int_equal(rib6_set_local(&rib, ll), 0);
	assert_true(rib6_find(&rib, ll, 128)->installed);
	assert_int_equal(fib6_lookup(f, ll), NH_IDX_LOCAL);
	assert_int_equal(fib6_lookup(f, A("fe80::200:ff:fe00:2")), NH_IDX_RESERVED);
	/* a route or a neighbour of the same address stays in the RIB only */
	assert_int_equal(via(&rib, ll, 128, NH_FIRST_DYNAMIC + 2), 0);
	assert_int_equal(rib6_set_neigh(&rib, ll, NH_FIRST_DYNAMIC + 3), 0);
	assert_int_equal(fib6_lookup(f, ll), NH_IDX_LOCAL);
	rib6_clear_local(&rib, ll);
	assert_false(rib6_find(&rib, ll, 128)->installed);
	assert_int_equal(fib6_lookup(f, ll), NH_IDX_RESERVED);
	rib6_clear_neigh(&rib, ll, NH_FIRST_DYNAMIC + 3);
	unroute(&rib, ll, 128);
	assert_null(rib6_find(&rib, ll, 128));
	/* a neighbour alone does not reach the FIB either */
	assert_int_equal(rib6_set_neigh(&rib, ll, NH_FIRST_DYNAMIC + 3), 0);
	assert_false(rib6_find(&rib, ll, 128)->installed);
	assert_int_equal(fib6_lookup(f, ll), NH_IDX_RESERVED);
	rib6_clear_neigh(&rib, ll, NH_FIRST_DYNAMIC + 3);
	/* the unspecified and loopback addresses never become ours */
	assert_int_equal(rib6_set_local(&rib, A("::1")), 0);
	assert_int_equal(fib6_lookup(f, A("::1")), NH_IDX_RESERVED);
	rib6_clear_local(&rib, A("::1"));
	/* with the link-local gone, its groups are gone too */
	unroute(&rib, A("::"), 0);
	unroute(&rib, A("fe00::"), 7);
	assert_int_equal(rib.n_nodes, 0);
	assert_int_equal(fib6_tbl8_used(f), FIB6_LEVELS);
	rib6_clear(&rib);
	fib6_free(f);
}

/* local > route > neighbour; removing the last source hands the prefix to
 * the longest installed prefix above it. */
static void test_precedence_and_parent(void **state)
{
	struct fib6 *f = fib6_create(256, NULL, SOCKET_ID_ANY);
	struct rib6 rib;
	uint8_t h[16], other[16];

	(void)state;
	memcpy(h, A("2001:db8:1:2::5"), 16);
	memcpy(other, A("2001:db8:1:2::6"), 16);
	assert_non_null(f);
	rib6_init(&rib, f);
	assert_int_equal(via(&rib, A("2001:db8::"), 32, 100), 0);
	assert_int_equal(via(&rib, A("2001:db8:1::"), 48, 101), 0);
	assert_int_equal(via(&rib, A("2001:db8:1:2::"), 64, 102), 0);
	assert_int_equal(rib6_set_neigh(&rib, h, 200), 0);
	assert_int_equal(fib6_lookup(f, h), 200);
	assert_int_equal(via(&rib, h, 128, 103), 0);
	assert_int_equal(fib6_lookup(f, h), 103);
	assert_int_equal(rib6_set_local(&rib, h), 0);
	assert_int_equal(fib6_lookup(f, h), NH_IDX_LOCAL);
	assert_int_equal(rib6_find(&rib, h, 128)->src,
	                 RIB6_SRC_LOCAL | RIB6_SRC_ROUTE | RIB6_SRC_NEIGH);
	rib6_clear_local(&rib, h);
	assert_int_equal(fib6_lookup(f, h), 103);
	unroute(&rib, h, 128);
	assert_int_equal(fib6_lookup(f, h), 200);
	/* another neighbour's removal of the address is not this one's */
	rib6_clear_neigh(&rib, h, 201);
	assert_int_equal(fib6_lookup(f, h), 200);
	rib6_clear_neigh(&rib, h, 200);
	assert_null(rib6_find(&rib, h, 128));
	assert_int_equal(fib6_lookup(f, h), 102);
	assert_int_equal(fib6_lookup(f, other), 102);
	/* a middle prefix goes: what it held falls to the one above it */
	unroute(&rib, A("2001:db8:1::"), 48);
	assert_int_equal(fib6_lookup(f, h), 102);
	assert_int_equal(fib6_lookup(f, A("2001:db8:1:3::1")), 100);
	unroute(&rib, A("2001:db8::"), 32);
	assert_int_equal(fib6_lookup(f, A("2001:db8:1:3::1")), NH_IDX_NONE);
	/* replacing a route reports the old one */
	struct route6 r = { .type = ROUTE6_BLACKHOLE, .nh = NH_IDX_BLACKHOLE }, old;
	bool had;
	assert_int_equal(rib6_set_route(&rib, A("2001:db8:1:2::"), 64, &r, &old, &had), 0);
	assert_true(had);
	assert_int_equal(old.nh, 102);
	assert_int_equal(fib6_lookup(f, h), NH_IDX_BLACKHOLE);
	assert_int_equal(rib6_clear_route(&rib, A("2001:db8:9::"), 48, &old), -ESRCH);
	rib6_clear(&rib);
	fib6_free(f);
}

/* A FIB out of groups refuses the change and the RIB stays as it was. */
static void test_nospc(void **state)
{
	struct fib6 *f = fib6_create(FIB6_TBL8_MIN + 2, NULL, SOCKET_ID_ANY);
	struct rib6 rib;
	uint8_t p[16], h[16];

	(void)state;
	memcpy(p, A("2001:db8:1::"), 16);
	memcpy(h, A("2001:db8:1::1"), 16);
	assert_non_null(f);
	rib6_init(&rib, f);
	assert_int_equal(via(&rib, p, 48, 100), (uint32_t)-ENOSPC);
	assert_null(rib6_find(&rib, p, 48));
	assert_int_equal(rib.n_nodes, 0);
	assert_int_equal(rib.n_routes, 0);
	assert_int_equal(fib6_lookup(f, h), NH_IDX_NONE);
	assert_int_equal(via(&rib, p, 40, 100), 0);
	assert_int_equal(rib6_set_neigh(&rib, h, 200), -ENOSPC);
	assert_null(rib6_find(&rib, h, 128));
	assert_int_equal(rib6_set_local(&rib, h), -ENOSPC);
	assert_int_equal(fib6_lookup(f, h), 100);
	assert_int_equal(rib.n_nodes, 1);
	rib6_clear(&rib);
	fib6_free(f);
}

static void test_iteration_and_memory(void **state)
{
	struct fib6 *f = fib6_create(256, NULL, SOCKET_ID_ANY);
	struct rib6 rib;
	static const char *const addrs[] = { "2001:db8::", "2001:db8::", "2001:db9::",
		                             "2001:db7::" };
	static const uint8_t lens[] = { 32, 48, 32, 32 };
	unsigned n = 0;

	(void)state;
	assert_non_null(f);
	rib6_init(&rib, f);
	for (unsigned i = 0; i < RTE_DIM(addrs); i++)
		assert_int_equal(via(&rib, A(addrs[i]), lens[i], NH_FIRST_DYNAMIC), 0);
	assert_int_equal(rib6_set_local(&rib, A("2001:db8::1")), 0); /* not a route: skipped */
	struct rib6_node *prev = NULL;
	for (struct rib6_node *x = rib6_next_route(&rib, A("::"), 0, true); x != NULL;
	     x = rib6_next_route(&rib, x->addr, x->len, false)) {
		if (prev != NULL) {
			int c = memcmp(prev->addr, x->addr, 16);
			assert_true(c < 0 || (c == 0 && prev->len < x->len));
		}
		prev = x;
		n++;
	}
	assert_int_equal(n, 4);
	assert_int_equal(rib.n_routes, 4);
	assert_int_equal(rib.n_nodes, 5);
	assert_int_equal(rib6_memory(&rib), 5 * (sizeof(struct rib6_node) + 16));
	assert_int_equal(rib6_match(&rib, A("2001:db8::1:2"), 128)->len, 48);
	assert_int_equal(rib6_match(&rib, A("2001:db8::1:2"), 47)->len, 32);
	assert_int_equal(rib6_match(&rib, A("2001:db8:1::"), 128)->len, 32);
	assert_null(rib6_match(&rib, A("2001:dba::"), 128));
	rib6_clear(&rib);
	assert_int_equal(rib.n_nodes, 0);
	fib6_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserved_ranges),
		cmocka_unit_test(test_local_inside_linklocal),
		cmocka_unit_test(test_precedence_and_parent),
		cmocka_unit_test(test_nospc),
		cmocka_unit_test(test_iteration_and_memory),
		cmocka_unit_test(test_random_against_model),
	};

	if (test_eal_init("rib6_test") < 0)
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rte_eal_cleanup();
	return rc;
}
