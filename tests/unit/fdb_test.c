/* SPDX-License-Identifier: BSD-3-Clause */
/* The FDB (learn, lookup, refresh, move, age, full, flush, resize, its keyed
 * hash) and the bridge reload hooks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>

#include "core/reload.h"
#include "l2/bridge.h"
#include "l2_test_util.h"

static struct rte_ether_addr mac_n(unsigned n)
{
	struct rte_ether_addr m = { { 0x02, 0, 0, 0, (uint8_t)(n >> 8), (uint8_t)n } };

	return m;
}

static struct fdb *fdb_new(uint32_t max, uint32_t aging_s)
{
	static struct fdb f;

	fake_now = 1000;
	assert_int_equal(fdb_init(&f, max, aging_s, fwd.rcu, SOCKET_ID_ANY), 0);
	return &f;
}

static uint8_t port_of(const struct fdb *f, unsigned n)
{
	struct rte_ether_addr m = mac_n(n);
	const struct fdb_entry *e = fdb_lookup(f, &m);

	return e == NULL ? 0xff : e->port;
}

static int learn(struct fdb *f, unsigned n, uint8_t port)
{
	struct rte_ether_addr m = mac_n(n);

	return fdb_learn(f, &m, port, fake_now);
}

static void test_learn_refresh_move(void **state)
{
	struct fdb *f = fdb_new(16, 300);
	struct rte_ether_addr m = mac_n(1);

	(void)state;
	assert_null(fdb_lookup(f, &m));
	assert_int_equal(learn(f, 1, 3), FDB_LEARNED);
	assert_int_equal(port_of(f, 1), 3);
	assert_int_equal(f->n_live, 1);
	fake_now += 500;
	assert_int_equal(learn(f, 1, 3), FDB_REFRESHED);
	assert_int_equal(fdb_lookup(f, &m)->seen, fake_now);
	assert_int_equal(learn(f, 1, 5), FDB_MOVED);
	assert_int_equal(port_of(f, 1), 5);
	assert_int_equal(f->n_live, 1);
	assert_int_equal(f->learned, 1);
	assert_int_equal(f->moved, 1);
	fake_now += 2500;
	assert_int_equal(fdb_entry_age_s(fdb_lookup(f, &m), fake_now), 2);
	fdb_fini(f);
}

static void test_age(void **state)
{
	struct fdb *f = fdb_new(16, 3);
	struct rte_ether_addr b = mac_n(2);

	(void)state;
	learn(f, 1, 0);
	learn(f, 2, 1);
	fake_now += 2000;
	/* what a worker does for a frame from a known MAC on its port */
	__atomic_store_n(&((struct fdb_entry *)fdb_lookup(f, &b))->seen, fake_now,
	                 __ATOMIC_RELAXED);
	fake_now += 1000; /* 1 idle for exactly aging_s: kept */
	assert_int_equal(fdb_age(f, fake_now, 0), 0);
	fake_now += 1;
	assert_int_equal(fdb_age(f, fake_now, 0), 1);
	assert_int_equal(port_of(f, 1), 0xff);
	assert_int_equal(port_of(f, 2), 1);
	assert_int_equal(f->aged, 1);
	/* an entry on a port that went down goes at once (bitmap by interface id) */
	uint64_t down[FWD_MAX_IFACES / 64 + 1] = { UINT64_C(1) << 1 };
	assert_int_equal(fdb_age(f, fake_now, down), 1);
	assert_int_equal(f->n_live, 0);
	fdb_fini(f);
}

static void test_full(void **state)
{
	struct fdb *f = fdb_new(16, 3);

	(void)state;
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(learn(f, i, 1), FDB_LEARNED);
	assert_true(f->full);
	for (unsigned i = 100; i < 200; i++)
		assert_int_equal(learn(f, i, 1), FDB_FULL);
	assert_int_equal(f->refused, 100);
	assert_int_equal(f->n_live, 16);
	/* nothing was evicted, and known MACs still refresh and move */
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(port_of(f, i), 1);
	assert_int_equal(learn(f, 0, 2), FDB_MOVED);
	assert_int_equal(learn(f, 1, 1), FDB_REFRESHED);
	/* room again once entries age out */
	fake_now += 3001;
	learn(f, 2, 1);
	assert_int_equal(fdb_age(f, fake_now, 0), 15); /* all but 2 */
	assert_false(f->full);
	assert_int_equal(learn(f, 100, 1), FDB_LEARNED);
	fdb_fini(f);
}

/* A port at its mac_max learns no new MAC; the other ports still do, a
 * known MAC still moves onto it, and an entry gone frees its place. */
static void test_port_quota(void **state)
{
	struct fdb *f = fdb_new(64, 300);

	(void)state;
	f->port_max[1] = 4;
	for (unsigned i = 0; i < 20; i++)
		learn(f, 100 + i, 1);
	assert_int_equal(f->port_live[1], 4);
	assert_int_equal(f->port_refused[1], 16);
	assert_int_equal(learn(f, 200, 1), FDB_QUOTA);
	assert_int_equal(port_of(f, 200), 0xff);
	assert_int_equal(learn(f, 1, 2), FDB_LEARNED); /* another port: no quota */
	assert_int_equal(learn(f, 2, 2), FDB_LEARNED);
	assert_int_equal(learn(f, 1, 1), FDB_MOVED); /* known: follows its station */
	assert_int_equal(f->port_live[1], 5);
	assert_int_equal(f->port_live[2], 1);
	assert_int_equal(fdb_flush(f), 6);
	assert_int_equal(f->port_live[1], 0);
	assert_int_equal(learn(f, 200, 1), FDB_LEARNED);
	fdb_fini(f);
}

static void test_flush_reuse(void **state)
{
	struct fdb *f = fdb_new(16, 300);

	(void)state;
	/* many times the table's room: deleted entries must come back */
	for (unsigned round = 0; round < 50; round++) {
		for (unsigned i = 0; i < 16; i++)
			assert_int_equal(learn(f, round * 16 + i, (uint8_t)(i % 4)), FDB_LEARNED);
		assert_int_equal(fdb_flush(f), 16);
		assert_int_equal(f->n_live, 0);
		assert_int_equal(port_of(f, round * 16), 0xff);
	}
	assert_int_equal(f->learned, 800);
	fdb_fini(f);
}

/* A deleted entry a worker may still hold is not reused before its grace period. */
static void test_reclaim_waits_for_readers(void **state)
{
	struct fdb *f = fdb_new(16, 300);
	struct rte_ether_addr m0 = mac_n(0);
	const struct fdb_entry *held;
	int rc = FDB_LEARNED;

	(void)state;
	rte_rcu_qsbr_thread_online(fwd.rcu, 0); /* a worker in the middle of a burst */
	learn(f, 0, 1);
	held = fdb_lookup(f, &m0);
	fdb_flush(f);
	for (unsigned i = 1; i < 1000 && rc == FDB_LEARNED; i++) {
		rc = learn(f, i, 2);
		if (f->n_live == 16)
			fdb_flush(f);
	}
	/* the deleted entries' room ran out before the table was full */
	assert_int_equal(rc, FDB_FULL);
	assert_true(f->n_live < 16);
	assert_false(held->live);
	assert_memory_equal(&held->mac, &m0, sizeof(m0));
	rte_rcu_qsbr_quiescent(fwd.rcu, 0);
	assert_int_equal(learn(f, 5000, 2), FDB_LEARNED);
	rte_rcu_qsbr_thread_offline(fwd.rcu, 0);
	fdb_fini(f);
}

static void test_iterate(void **state)
{
	struct fdb *f = fdb_new(64, 300);
	unsigned seen = 0;
	uint32_t pos = 0;

	(void)state;
	for (unsigned i = 0; i < 40; i++)
		learn(f, i, 1);
	fake_now += 301000;
	for (unsigned i = 0; i < 40; i += 2)
		assert_int_equal(learn(f, i, 2), FDB_MOVED);
	assert_int_equal(fdb_age(f, fake_now, 0), 20);
	for (const struct fdb_entry *e; (e = fdb_next(f, &pos)) != NULL; seen++)
		assert_int_equal(e->port, 2);
	assert_int_equal(seen, 20);
	fdb_fini(f);
}

static void test_shrink_grow(void **state)
{
	struct fdb *f = fdb_new(16, 300);
	struct fdb_table *before;
	unsigned evicted;

	(void)state;
	for (unsigned i = 0; i < 16; i++, fake_now++)
		learn(f, i, 1);
	/* shrink: the least recently seen go */
	assert_int_equal(fdb_set_max(f, 10, &evicted), 0);
	assert_int_equal(evicted, 6);
	assert_int_equal(f->n_live, 10);
	assert_true(f->full);
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(port_of(f, i), i < 6 ? 0xff : 1);
	/* grow beyond the table's room: a new table with the same entries */
	before = f->tbl;
	assert_int_equal(fdb_set_max(f, 1000, &evicted), 0);
	assert_int_equal(evicted, 0);
	assert_ptr_not_equal(f->tbl, before);
	assert_false(f->full);
	for (unsigned i = 6; i < 16; i++)
		assert_int_equal(port_of(f, i), 1);
	for (unsigned i = 16; i < 1006; i++) /* 10 kept + 990 = 1000 */
		assert_int_equal(learn(f, i, 2), FDB_LEARNED);
	assert_int_equal(learn(f, 5000, 2), FDB_FULL);
	fdb_fini(f);
}

#define CFG_PORTS                                                          \
	"ports:\n"                                                         \
	"  - { name: p0, device: net_null0, mode: bridge, bridge: br0 }\n" \
	"  - { name: p1, device: net_null1, mode: bridge, bridge: br0 }\n" \
	"  - { name: p2, device: net_null2, mode: xconnect, peer: p3 }\n"  \
	"  - { name: p3, device: net_null3, mode: xconnect, peer: p2 }\n"

static const char cfg_cur[] = CFG_PORTS "bridges:\n"
                                        "  - { name: brx, mac_aging_s: 10 }\n"
                                        "  - { name: br0, mac_aging_s: 300, fdb_max: 20 }\n"
                                        "  - { name: br1 }\n";

static void check_refused(const struct fwd_config *cur, const char *yaml, const char *msg)
{
	struct fwd_config *next = config_from(yaml);
	char err[256] = "";

	assert_int_equal(bridge_reload_check(cur, next, err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, msg);
	fwd_config_free(next);
}

static void test_reload_check(void **state)
{
	struct fwd_config *cur = config_from(cfg_cur);
	char err[256] = "";

	(void)state;
	check_refused(cur,
	              CFG_PORTS "  - { name: p4, device: net_null4, mode: bridge, bridge: br1 }\n"
	                        "bridges: [ { name: br0 }, { name: br1 } ]\n",
	              "port p4: adding a bridge port needs a restart");
	check_refused(cur,
	              "ports:\n"
	              "  - { name: p0, device: net_null0, mode: bridge, bridge: br0 }\n"
	              "  - { name: p1, device: net_null1, mode: bridge, bridge: br1 }\n"
	              "bridges: [ { name: br0 }, { name: br1 } ]\n",
	              "port p1: moving to bridge br1 needs a restart");
	check_refused(cur,
	              "ports:\n"
	              "  - { name: p0, device: net_null0, mode: bridge, bridge: br0 }\n"
	              "  - { name: p1, device: net_null1 }\n"
	              "bridges: [ { name: br0 } ]\n",
	              "port p1: leaving bridge br0 needs a restart");
	check_refused(cur,
	              "ports:\n"
	              "  - { name: p0, device: net_null0, mode: bridge, bridge: br0 }\n"
	              "  - { name: p1, device: net_null1, mode: bridge, bridge: br0 }\n"
	              "  - { name: p2, device: net_null2, mode: bridge, bridge: br0 }\n"
	              "bridges: [ { name: br0 } ]\n",
	              "port p2: joining bridge br0 needs a restart");
	check_refused(cur,
	              "ports:\n"
	              "  - { name: p0, device: net_null0, mode: bridge, bridge: br0 }\n"
	              "bridges: [ { name: br0 } ]\n",
	              "port p1: removing a bridge port needs a restart");
	/* aging, size and bridges nobody uses: fine */
	struct fwd_config *next = config_from(CFG_PORTS "bridges: [ { name: br9 }, { name: br0, "
	                                                "mac_aging_s: 5, fdb_max: 64 } ]\n");
	assert_int_equal(bridge_reload_check(cur, next, err, sizeof(err)), 0);
	fwd_config_free(next);
	fwd_config_free(cur);
}

static bool logged(const struct fwd_reload_log *log, const char *line)
{
	for (size_t i = 0; i < log->n; i++)
		if (strcmp(log->lines[i], line) == 0)
			return true;
	return false;
}

static void test_reload_apply(void **state)
{
	struct fwd_config *cur = config_from(cfg_cur), *next;
	struct fwd_reload_log log = { 0 };
	struct bridge *br0;

	(void)state;
	ports_from(cur);
	assert_int_equal(bridge_module_init(cur), 0);
	br0 = bridge_by_name("br0");
	assert_non_null(br0);
	assert_int_equal(br0->n_members, 2);
	assert_int_equal(fwd_ports[0].bridge, 1);
	for (unsigned i = 0; i < 20; i++, fake_now++)
		learn(&br0->fdb, i, (uint8_t)(i % 2));

	next = config_from(CFG_PORTS "bridges:\n"
	                             "  - { name: br0, mac_aging_s: 5, fdb_max: 16 }\n"
	                             "  - { name: br1 }\n"
	                             "  - { name: br9, mac_aging_s: 7, fdb_max: 32 }\n");
	assert_int_equal(bridge_reload_apply(cur, next, &log), 0);
	assert_int_equal(log.errors, 0);
	assert_true(logged(&log, "bridge brx removed"));
	assert_true(logged(&log, "bridge br0: mac_aging_s 300 -> 5"));
	assert_true(logged(&log,
	                   "bridge br0: fdb_max 20 -> 16 (4 least recently seen entries evicted)"));
	assert_true(logged(&log, "bridge br9 added (mac_aging_s 7, fdb_max 32)"));
	assert_int_equal(log.n, 4);
	/* same slot, same members, new settings; ports follow the new numbering */
	assert_ptr_equal(bridge_by_name("br0"), br0);
	assert_null(bridge_by_name("brx"));
	assert_int_equal(bridge_by_name("br9")->fdb.aging_s, 7);
	assert_int_equal(br0->fdb.aging_s, 5);
	assert_int_equal(br0->fdb.n_live, 16);
	assert_int_equal(br0->n_members, 2);
	assert_int_equal(fwd_ports[0].bridge, 0);
	assert_int_equal(fwd_ports[1].bridge, 0);
	fwd_reload_log_free(&log);

	/* the same config again changes nothing */
	assert_int_equal(bridge_reload_apply(next, next, &log), 0);
	assert_int_equal(log.n, 0);
	bridge_module_fini();
	fwd_config_free(next);
	fwd_config_free(cur);
}

/* CRC32-C, the FDB's old hash, is affine over GF(2): crc(x ^ d) = crc(x) ^
 * L(d). The MACs x ^ d for every d in L's kernel (at least 16 dimensions of
 * the 48) share one 32-bit hash, so one bucket pair, whatever the seed.
 * Fills kern with kernel vectors; returns how many. */
static unsigned crc_kernel(uint64_t kern[48])
{
	uint64_t comb[48];
	uint32_t img[48];
	unsigned n = 48, k = 0;

	for (unsigned i = 0; i < 48; i++) {
		uint64_t e = 1ull << i, z = 0;
		comb[i] = e;
		img[i] = rte_hash_crc(&e, sizeof(e), 0) ^ rte_hash_crc(&z, sizeof(z), 0);
	}
	for (int bit = 31; bit >= 0; bit--) { /* Gaussian elimination, pivot rows dropped */
		unsigned p = 0;
		while (p < n && !(img[p] >> bit & 1))
			p++;
		if (p == n)
			continue;
		for (unsigned j = 0; j < n; j++)
			if (j != p && (img[j] >> bit & 1)) {
				img[j] ^= img[p];
				comb[j] ^= comb[p];
			}
		img[p] = img[--n];
		comb[p] = comb[n];
	}
	for (unsigned j = 0; j < n; j++)
		if (img[j] == 0)
			kern[k++] = comb[j];
	return k;
}

static void test_keyed_hash(void **state)
{
	struct fdb *f = fdb_new(1024, 300);
	uint64_t kern[48], base = 0x0000aa0000000002ull;
	uint32_t want = rte_hash_crc(&base, sizeof(base), 0), bkt[64];
	unsigned nk = crc_kernel(kern), distinct = 0;

	(void)state;
	assert_true(nk >= 16);
	for (unsigned i = 0; i < 64; i++) {
		uint64_t key = base;
		for (unsigned b = 0; b < 6; b++)
			if (i >> b & 1)
				key ^= kern[b];
		key &= 0xffffffffffffull;
		/* one bucket under the old hash */
		assert_int_equal(rte_hash_crc(&key, sizeof(key), 0), want);
		bkt[i] = rte_hash_hash(f->tbl->h, &key) &
		         127; /* 1024 + room: 256 buckets at least */
		unsigned j = 0;
		while (j < i && bkt[j] != bkt[i])
			j++;
		distinct += j == i;
	}
	/* 64 keys over 128 values at random: about 50 distinct; in one bucket: 1 */
	assert_true(distinct >= 32);
	fdb_fini(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_learn_refresh_move),
		cmocka_unit_test(test_keyed_hash),
		cmocka_unit_test(test_age),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_flush_reuse),
		cmocka_unit_test(test_reclaim_waits_for_readers),
		cmocka_unit_test(test_iterate),
		cmocka_unit_test(test_shrink_grow),
		cmocka_unit_test(test_port_quota),
		cmocka_unit_test(test_reload_check),
		cmocka_unit_test(test_reload_apply),
	};

	return cmocka_run_group_tests(tests, l2_setup, l2_teardown);
}
