/* SPDX-License-Identifier: BSD-3-Clause */
/* The FDB's control side: the only writer (see fdb.h for the sharing rules). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "core/siphash.h"
#include "l2/fdb.h"

static uint64_t tsc_clock(void)
{
	return rte_rdtsc();
}

uint64_t (*fdb_clock)(void) = tsc_clock;
uint64_t fdb_hz; /* rte_get_tsc_hz() unless a test set it first */

/* Key slots for max live entries plus deleted ones still waiting for their
 * grace period, so a burst of deletions does not block learning. */
static uint32_t table_room(uint32_t max)
{
	return max + max / 4 + 64;
}

/* The hash's defer queue hands back a deleted key's entry after the grace period. */
static void entry_reclaimed(void *p, void *data)
{
	struct fdb_table *t = p;
	struct fdb_entry *e = data;

	e->next_free = t->free_head;
	t->free_head = (uint32_t)(e - t->ents);
}

static struct fdb_entry *entry_alloc(struct fdb_table *t)
{
	struct fdb_entry *e;

	if (t->free_head == FDB_NIL)
		return NULL;
	e = &t->ents[t->free_head];
	t->free_head = e->next_free;
	e->next_free = FDB_NIL;
	return e;
}

static void table_free(struct fdb_table *t, struct rte_rcu_qsbr *rcu)
{
	if (t == NULL)
		return;
	/* after a grace period the defer queue can release everything it holds */
	rte_rcu_qsbr_synchronize(rcu, RTE_QSBR_THRID_INVALID);
	rte_hash_free(t->h);
	rte_free(t);
}

static struct fdb_table *table_new(uint32_t max, struct rte_rcu_qsbr *rcu, int socket)
{
	static unsigned gen; /* hash names must be unique in the process */
	uint32_t room = table_room(max);
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.entries = room,
		.key_len = sizeof(uint64_t),
		/* keyed with a secret seed: CRC32-C, even seeded, is linear, so
		 * MACs that share a bucket are computed without knowing the seed */
		.hash_func = rte_jhash,
		.hash_func_init_val = fwd_hash_seed(gen),
		.socket_id = socket,
		/* lock-free readers; the extendable buckets make every slot usable */
		.extra_flag =
		        RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF | RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};
	struct rte_hash_rcu_config rc = { .v = rcu,
		                          .mode = RTE_HASH_QSBR_MODE_DQ,
		                          .free_key_data_func = entry_reclaimed };
	struct fdb_table *t = rte_zmalloc_socket(
	        "fdb", sizeof(*t) + (room + 1) * sizeof(t->ents[0]), RTE_CACHE_LINE_SIZE, socket);

	if (t == NULL)
		return NULL;
	t->n_ents = room + 1;
	for (uint32_t i = 0; i < t->n_ents; i++)
		t->ents[i].next_free = i + 1 < t->n_ents ? i + 1 : FDB_NIL;
	snprintf(name, sizeof(name), "fdb%u", gen++);
	t->h = rte_hash_create(&hp);
	rc.key_data_ptr = t;
	if (t->h == NULL || rte_hash_rcu_qsbr_add(t->h, &rc) != 0) {
		rte_hash_free(t->h);
		rte_free(t);
		return NULL;
	}
	return t;
}

int fdb_init(struct fdb *f, uint32_t max, uint32_t aging_s, struct rte_rcu_qsbr *rcu, int socket)
{
	if (fdb_hz == 0)
		fdb_hz = rte_get_tsc_hz();
	memset(f, 0, sizeof(*f));
	f->rcu = rcu;
	f->socket = socket;
	f->max = max;
	f->aging_s = aging_s;
	f->tbl = table_new(max, rcu, socket);
	return f->tbl == NULL ? -ENOMEM : 0;
}

void fdb_fini(struct fdb *f)
{
	table_free(f->tbl, f->rcu);
	f->tbl = NULL;
	f->n_live = 0;
}

static struct fdb_entry *lookup(const struct fdb *f, uint64_t key)
{
	void *data;

	if (rte_hash_lookup_data(f->tbl->h, &key, &data) < 0)
		return NULL;
	return data;
}

const struct fdb_entry *fdb_lookup(const struct fdb *f, const struct rte_ether_addr *mac)
{
	return lookup(f, fdb_key(mac));
}

static int entry_add(struct fdb *f, const struct rte_ether_addr *mac, uint16_t port, uint64_t now)
{
	struct fdb_table *t = f->tbl;
	struct fdb_entry *e = entry_alloc(t);
	uint64_t key = fdb_key(mac);

	if (e == NULL)
		return -ENOSPC;
	e->seen = now;
	e->port = port;
	e->mac = *mac;
	e->live = true;
	/* publishes the initialised entry to the workers' lookups */
	if (rte_hash_add_key_data(t->h, &key, e) < 0) {
		e->live = false;
		entry_reclaimed(t, e);
		return -ENOSPC;
	}
	f->n_live++;
	f->port_live[port]++;
	return 0;
}

fdb_event_fn fdb_event_hook;

static void tell(const struct fdb *f, const char *action, const struct rte_ether_addr *mac,
                 uint16_t port, int from)
{
	if (fdb_event_hook != NULL)
		fdb_event_hook(f, action, mac, port, from);
}

int fdb_learn(struct fdb *f, const struct rte_ether_addr *mac, uint16_t port, uint64_t now)
{
	struct fdb_entry *e = lookup(f, fdb_key(mac));

	if (e != NULL) {
		__atomic_store_n(&e->seen, now, __ATOMIC_RELAXED);
		if (e->port == port)
			return FDB_REFRESHED;
		tell(f, "move", mac, port, e->port);
		f->port_live[e->port]--;
		f->port_live[port]++;
		__atomic_store_n(&e->port, port, __ATOMIC_RELAXED);
		f->moved++;
		return FDB_MOVED;
	}
	if (f->port_max[port] != 0 && f->port_live[port] >= f->port_max[port]) {
		f->port_refused[port]++;
		return FDB_QUOTA;
	}
	if (f->n_live >= f->max || entry_add(f, mac, port, now) < 0) {
		f->refused++;
		f->full = f->n_live >= f->max;
		return FDB_FULL;
	}
	f->learned++;
	f->full = f->n_live >= f->max;
	tell(f, "learn", mac, port, -1);
	return FDB_LEARNED;
}

static void entry_del(struct fdb *f, struct fdb_entry *e)
{
	uint64_t key = fdb_key(&e->mac);

	e->live = false;
	f->n_live--;
	f->port_live[e->port]--;
	/* the entry comes back through entry_reclaimed once no worker can hold it */
	if (rte_hash_del_key(f->tbl->h, &key) < 0)
		entry_reclaimed(f->tbl, e); /* not in the hash: cannot happen */
}

/* Delete live entries older than limit ticks or on a down port; all with limit 0. */
static unsigned sweep(struct fdb *f, uint64_t now, uint64_t limit, const uint64_t *down)
{
	struct fdb_table *t = f->tbl;
	unsigned n = 0;

	for (uint32_t i = 0; i < t->n_ents; i++) {
		struct fdb_entry *e = &t->ents[i];
		if (!e->live)
			continue;
		int64_t idle = (int64_t)(now - __atomic_load_n(&e->seen, __ATOMIC_RELAXED));
		if (limit == 0 || idle > (int64_t)limit ||
		    (down != NULL && (down[e->port / 64] >> (e->port % 64)) & 1)) {
			tell(f, limit == 0 ? "flush" : "age", &e->mac, e->port, -1);
			entry_del(f, e);
			n++;
		}
	}
	f->full = f->n_live >= f->max;
	return n;
}

unsigned fdb_age(struct fdb *f, uint64_t now, const uint64_t *down)
{
	unsigned n = sweep(f, now, (uint64_t)f->aging_s * fdb_hz, down);

	f->aged += n;
	return n;
}

unsigned fdb_flush(struct fdb *f)
{
	return sweep(f, 0, 0, NULL);
}

static int table_grow(struct fdb *f, uint32_t max)
{
	struct fdb_table *old = f->tbl, *t = table_new(max, f->rcu, f->socket);

	if (t == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < old->n_ents; i++) {
		const struct fdb_entry *o = &old->ents[i];
		struct fdb_entry *e;
		uint64_t key = fdb_key(&o->mac);

		if (!o->live)
			continue;
		e = entry_alloc(t); /* cannot fail: the new table has more room */
		*e = (struct fdb_entry){ .seen = o->seen,
			                 .port = o->port,
			                 .live = true,
			                 .mac = o->mac,
			                 .next_free = FDB_NIL };
		if (rte_hash_add_key_data(t->h, &key, e) < 0) {
			table_free(t, f->rcu);
			return -ENOMEM;
		}
	}
	/* a refresh workers store in the old table meanwhile is lost: harmless */
	__atomic_store_n(&f->tbl, t, __ATOMIC_RELEASE);
	table_free(old, f->rcu);
	return 0;
}

static int by_seen(const void *a, const void *b)
{
	const struct fdb_entry *x = *(const struct fdb_entry *const *)a;
	const struct fdb_entry *y = *(const struct fdb_entry *const *)b;

	return (x->seen > y->seen) - (x->seen < y->seen);
}

/* Delete the n least recently seen entries. */
static int evict_oldest(struct fdb *f, unsigned n)
{
	struct fdb_table *t = f->tbl;
	struct fdb_entry **v = malloc(f->n_live * sizeof(*v));
	unsigned k = 0;

	if (v == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->n_ents; i++)
		if (t->ents[i].live)
			v[k++] = &t->ents[i];
	qsort(v, k, sizeof(*v), by_seen);
	for (unsigned i = 0; i < n && i < k; i++)
		entry_del(f, v[i]);
	free(v);
	return 0;
}

int fdb_set_max(struct fdb *f, uint32_t max, unsigned *evicted)
{
	unsigned excess = f->n_live > max ? f->n_live - max : 0;
	int rc = 0;

	*evicted = 0;
	if (table_room(max) + 1 > f->tbl->n_ents)
		rc = table_grow(f, max);
	else if (excess > 0 && (rc = evict_oldest(f, excess)) == 0)
		*evicted = excess;
	if (rc < 0)
		return rc;
	f->max = max;
	f->full = f->n_live >= max;
	return 0;
}

const struct fdb_entry *fdb_next(const struct fdb *f, uint32_t *pos)
{
	const struct fdb_table *t = f->tbl;

	for (uint32_t i = *pos; i < t->n_ents; i++)
		if (t->ents[i].live) {
			*pos = i + 1;
			return &t->ents[i];
		}
	*pos = t->n_ents;
	return NULL;
}

uint64_t fdb_entry_age_s(const struct fdb_entry *e, uint64_t now)
{
	int64_t d = (int64_t)(now - __atomic_load_n(&e->seen, __ATOMIC_RELAXED));

	return d <= 0 ? 0 : (uint64_t)d / fdb_hz;
}
