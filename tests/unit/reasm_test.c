/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reassembly table (reasm/reasm.c) on its own: fragments in order and
 * out of order, overlaps and duplicates, the deadline, a full table, a
 * datagram larger than the workers' mbufs, inconsistent lengths; and every
 * fragment accounted for (consumed with its datagram, or one drop).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_cycles.h>

#include "core/counters.h"
#include "core/daemon.h"
#include "core/punt.h"
#include "reasm/reasm.h"
#include "test_eal.h"

#define HEAD 20 /* a made-up head: 20 bytes the datagram starts with */

static struct rte_mempool *pool;
static unsigned pool_in_use;
static uint8_t data[REASM_MAX_PAYLOAD];

static uint64_t drops(enum fwd_drop_reason r)
{
	return fwd_control_ctrs(1)->drop[r];
}

/* Fragment [off, off + len) of datagram id, its bytes data[off...]. */
static struct rte_mbuf *add(uint32_t id, unsigned off, unsigned len, bool more)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(HEAD + RTE_MIN(len, 1024u)));
	struct reasm_frag f = {
		.key = { .id = id, .family = REASM_IP4, .proto = 17, .src = { 1 }, .dst = { 2 } },
		.off = off,
		.len = len,
		.more = more,
		.data = data + off,
		.head_len = HEAD,
		.aux = (uint16_t)id,
		.timeout_s = 30,
	};
	uint16_t aux = 0;
	struct rte_mbuf *whole;

	memset(p, 0xee, HEAD);
	whole = reasm_add(m, 1, &f, &aux);
	if (whole != NULL)
		assert_int_equal(aux, (uint16_t)id);
	return whole;
}

/* whole is datagram data[0, len) behind the head; freed. */
static void check_whole(struct rte_mbuf *whole, unsigned len)
{
	assert_non_null(whole);
	assert_int_equal(whole->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_data_len(whole), HEAD + len);
	assert_int_equal(rte_pktmbuf_mtod(whole, uint8_t *)[0], 0xee);
	assert_memory_equal(rte_pktmbuf_mtod_offset(whole, uint8_t *, HEAD), data, len);
	rte_pktmbuf_free(whole);
}

static void test_in_order(void **state)
{
	uint64_t used = fwd_control_ctrs(1)->consumed, made = fwd_control_ctrs(1)->created;

	(void)state;
	assert_null(add(1, 0, 800, true));
	assert_null(add(1, 800, 800, true));
	assert_int_equal(reasm_pending(), 1);
	check_whole(add(1, 1600, 100, false), 1700);
	assert_int_equal(reasm_pending(), 0);
	assert_int_equal(fwd_control_ctrs(1)->consumed, used + 3);
	assert_int_equal(fwd_control_ctrs(1)->created, made + 1);
}

static void test_out_of_order(void **state)
{
	(void)state;
	assert_null(add(2, 1600, 100, false));
	assert_null(add(3, 8, 8, false)); /* another datagram meanwhile */
	assert_null(add(2, 0, 800, true));
	check_whole(add(2, 800, 800, true), 1700);
	check_whole(add(3, 0, 8, true), 16);
}

static void test_overlap(void **state)
{
	uint64_t before = drops(FWD_DROP_REASM_OVERLAP);

	(void)state;
	assert_null(add(4, 0, 800, true));
	assert_null(add(4, 0, 800, true)); /* an exact duplicate: alone */
	assert_int_equal(drops(FWD_DROP_REASM_OVERLAP), before + 1);
	assert_int_equal(reasm_pending(), 1);
	assert_null(add(4, 792, 800, true)); /* overlaps: the datagram ends */
	assert_int_equal(drops(FWD_DROP_REASM_OVERLAP), before + 3);
	assert_int_equal(reasm_pending(), 0);
	/* a second first fragment of another length overlaps too */
	assert_null(add(5, 0, 800, true));
	assert_null(add(5, 0, 400, true));
	assert_int_equal(drops(FWD_DROP_REASM_OVERLAP), before + 5);
	assert_int_equal(reasm_pending(), 0);
}

static void test_timeout(void **state)
{
	uint64_t before = drops(FWD_DROP_REASM_TIMEOUT);

	(void)state;
	assert_null(add(6, 0, 800, true));
	assert_null(add(6, 800, 800, true));
	reasm_expire(rte_get_tsc_cycles() + 29 * rte_get_tsc_hz());
	assert_int_equal(reasm_pending(), 1);
	reasm_expire(rte_get_tsc_cycles() + 31 * rte_get_tsc_hz());
	assert_int_equal(reasm_pending(), 0);
	assert_int_equal(drops(FWD_DROP_REASM_TIMEOUT), before + 2);
	/* its last piece then starts a datagram of its own */
	assert_null(add(6, 1600, 100, false));
	assert_int_equal(reasm_pending(), 1);
}

static void test_table_full(void **state)
{
	uint64_t before = drops(FWD_DROP_REASM_FULL);

	(void)state;
	for (uint32_t id = 100; id < 100 + REASM_ENTRIES; id++)
		assert_null(add(id, 0, 8, true));
	assert_null(add(99, 0, 8, true));
	assert_int_equal(drops(FWD_DROP_REASM_FULL), before + 1);
	/* those in the table still complete */
	check_whole(add(100, 8, 8, false), 16);
	assert_null(add(99, 8, 8, false)); /* a slot is free again */
	check_whole(add(99, 0, 8, true), 16);
	/* a datagram of too many pieces ends */
	for (unsigned i = 0; i < REASM_MAX_PIECES; i++)
		assert_null(add(7, 16 + 8 * i, 8, true));
	assert_null(add(7, 16 + 8 * REASM_MAX_PIECES, 8, true));
	assert_int_equal(drops(FWD_DROP_REASM_FULL), before + 2 + REASM_MAX_PIECES);
}

static void test_invalid(void **state)
{
	uint64_t before = drops(FWD_DROP_REASM_INVALID);

	(void)state;
	assert_null(add(8, 0, 12, true));                 /* more to come, not a multiple of 8 */
	assert_null(add(8, 0, 0, false));                 /* empty */
	assert_null(add(8, REASM_MAX_PAYLOAD, 8, false)); /* too big */
	assert_int_equal(drops(FWD_DROP_REASM_INVALID), before + 3);
	assert_null(add(9, 0, 800, true));
	assert_null(add(9, 1600, 100, false));
	assert_null(add(9, 1600, 200, false)); /* another end */
	assert_int_equal(drops(FWD_DROP_REASM_INVALID), before + 6);
	assert_null(add(10, 1600, 800, true));
	assert_null(add(10, 0, 800, false)); /* an end before data seen */
	assert_int_equal(drops(FWD_DROP_REASM_INVALID), before + 8);
	assert_int_equal(reasm_pending(), 0);
}

/* 64,000 bytes in 1,000-byte pieces, last first: one flat mbuf from the
 * pool of large ones. */
static void test_large(void **state)
{
	struct rte_mbuf *whole = NULL;

	(void)state;
	assert_null(add(11, 63000, 1000, false));
	for (unsigned off = 0; off < 63000; off += 1000) {
		assert_null(whole);
		whole = add(11, off, 1000, true);
	}
	assert_true(whole->pool != pool);
	check_whole(whole, 64000);
}

static int setup(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + i / 256);
	pool_in_use = rte_mempool_in_use_count(pool);
	return reasm_init();
}

static int teardown(void **state)
{
	(void)state;
	reasm_fini();
	/* every fragment handed in was freed */
	assert_int_equal(rte_mempool_in_use_count(pool), pool_in_use);
	return 0;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_in_order),   T(test_out_of_order), T(test_overlap), T(test_timeout),
		T(test_table_full), T(test_invalid),      T(test_large),
	};
	int rc;

	if (test_eal_init("reasm") < 0)
		return 1;
	pool = test_pool("reasm", 1023, 2048);
	if (pool == NULL)
		return 1;
	fwd.pool = pool;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return rc;
}
