/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reassembly table (reasm.h): REASM_ENTRIES slots searched in full for
 * each fragment. A linear walk over 64 keys costs less than one packet copy
 * and gives an attacker no hash to collide; there is no lock or RCU either:
 * only the control thread touches any of it. Each datagram keeps its pieces
 * sorted by offset (for the overlap test) and its bytes in a buffer that
 * grows to the highest offset seen, so the memory held is at most
 * REASM_ENTRIES * REASM_MAX_PAYLOAD (4 MB, Linux's ipfrag_high_thresh).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "core/control.h"
#include "core/counter.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "core/punt.h"
#include "reasm/reasm.h"

#define BIG_MBUFS 31 /* datagrams too big for the workers' mbufs, in flight at once */
#define BIG_ROOM  (RTE_PKTMBUF_HEADROOM + REASM_HEAD_MAX + REASM_MAX_PAYLOAD)

static FWD_COUNTER(reassembled, "reasm_datagrams");

struct piece {
	uint16_t off, len;
	uint16_t port;
};

struct entry {
	bool used;
	struct reasm_key key;
	uint64_t deadline; /* TSC */
	unsigned total;    /* payload length once the last fragment came, else 0 */
	unsigned have;     /* payload bytes in */
	unsigned n;        /* pieces */
	uint16_t head_len; /* 0 until the first fragment came */
	uint16_t aux;
	uint8_t *buf; /* the payload */
	unsigned cap;
	uint8_t head[REASM_HEAD_MAX];
	struct piece piece[REASM_MAX_PIECES]; /* sorted by off */
};

static struct entry *table;
static struct rte_mempool *big_pool;
static struct event *tick;

static bool key_eq(const struct reasm_key *a, const struct reasm_key *b)
{
	return a->id == b->id && a->family == b->family && a->proto == b->proto &&
	       memcmp(a->src, b->src, 16) == 0 && memcmp(a->dst, b->dst, 16) == 0;
}

/* End e, counting each fragment it took as `why` (a drop) or, once its
 * datagram is made, as consumed. */
static void entry_end(struct entry *e, int why)
{
	for (unsigned i = 0; i < e->n; i++) {
		struct fwd_port_ctrs *c = fwd_control_ctrs(e->piece[i].port);

		if (why < 0)
			c->consumed++;
		else
			c->drop[why]++;
	}
	free(e->buf);
	memset(e, 0, offsetof(struct entry, head));
}

static struct entry *find(const struct reasm_key *k)
{
	for (unsigned i = 0; table != NULL && i < REASM_ENTRIES; i++)
		if (table[i].used && key_eq(&table[i].key, k))
			return &table[i];
	return NULL;
}

/* A free slot for f's datagram, or NULL (full; or not started: no table) */
static struct entry *create(const struct reasm_frag *f)
{
	for (unsigned i = 0; table != NULL && i < REASM_ENTRIES; i++) {
		struct entry *e = &table[i];

		if (e->used)
			continue;
		e->used = true;
		e->key = f->key;
		e->deadline = rte_get_tsc_cycles() + (uint64_t)f->timeout_s * rte_get_tsc_hz();
		return e;
	}
	return NULL;
}

/* Where f goes among e's pieces, or -EEXIST for an exact duplicate,
 * -EINVAL when it overlaps one. */
static int slot_for(const struct entry *e, unsigned off, unsigned len)
{
	unsigned i = 0;

	while (i < e->n && e->piece[i].off < off)
		i++;
	if (i < e->n && e->piece[i].off == off && e->piece[i].len == len)
		return -EEXIST;
	if (i > 0 && e->piece[i - 1].off + e->piece[i - 1].len > off)
		return -EINVAL;
	if (i < e->n && e->piece[i].off < off + len)
		return -EINVAL;
	return (int)i;
}

/* The lengths f claims, against the datagram e has so far: 0, or the drop
 * reason that ends it. */
static int lengths_ok(const struct entry *e, const struct reasm_frag *f)
{
	unsigned end = f->off + f->len;

	if (f->len == 0 || end > REASM_MAX_PAYLOAD || (f->more && f->len % 8 != 0))
		return FWD_DROP_REASM_INVALID;
	if (f->off == 0 && f->head_len > REASM_HEAD_MAX)
		return FWD_DROP_REASM_INVALID; /* a second first fragment: slot_for's */
	if (!f->more && e->total != 0 && e->total != end)
		return FWD_DROP_REASM_INVALID; /* two different ends */
	if (e->total != 0 && end > e->total)
		return FWD_DROP_REASM_INVALID;
	if (!f->more && e->n != 0 && e->piece[e->n - 1].off + e->piece[e->n - 1].len > end)
		return FWD_DROP_REASM_INVALID; /* data past the end */
	if (e->n == REASM_MAX_PIECES)
		return FWD_DROP_REASM_FULL;
	return 0;
}

static int grow(struct entry *e, unsigned end)
{
	unsigned cap = RTE_ALIGN_CEIL(end, 2048u);
	uint8_t *b;

	if (cap <= e->cap)
		return 0;
	b = realloc(e->buf, cap);
	if (b == NULL)
		return -ENOMEM;
	e->buf = b;
	e->cap = cap;
	return 0;
}

/* Put f (from m) into e at piece slot i. */
static int store(struct entry *e, int i, const struct reasm_frag *f, struct rte_mbuf *m,
                 uint16_t port)
{
	if (grow(e, f->off + f->len) < 0)
		return -ENOMEM;
	memcpy(e->buf + f->off, f->data, f->len);
	if (f->off == 0) {
		memcpy(e->head, rte_pktmbuf_mtod(m, const uint8_t *), f->head_len);
		e->head_len = (uint16_t)f->head_len;
		e->aux = f->aux;
	}
	if (!f->more)
		e->total = f->off + f->len;
	memmove(&e->piece[i + 1], &e->piece[i], (e->n - (unsigned)i) * sizeof(e->piece[0]));
	e->piece[i] = (struct piece){ (uint16_t)f->off, (uint16_t)f->len, port };
	e->n++;
	e->have += f->len;
	return 0;
}

/* e is complete: its datagram in one flat mbuf, or NULL (no_mbuf). */
static struct rte_mbuf *build(struct entry *e)
{
	unsigned len = e->head_len + e->total;
	struct rte_mempool *pool = fwd.pool;
	struct rte_mbuf *m;
	uint8_t *p;

	if (pool == NULL || len + RTE_PKTMBUF_HEADROOM > rte_pktmbuf_data_room_size(pool))
		pool = big_pool;
	m = pool != NULL ? rte_pktmbuf_alloc(pool) : NULL;
	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(p, e->head, e->head_len);
	memcpy(p + e->head_len, e->buf, e->total);
	m->port = e->piece[0].port;
	return m;
}

static struct rte_mbuf *complete(struct entry *e, uint16_t *aux)
{
	struct rte_mbuf *whole = build(e);
	uint16_t port = e->piece[0].port;

	if (whole == NULL) {
		entry_end(e, FWD_DROP_NO_MBUF);
		return NULL;
	}
	*aux = e->aux;
	fwd_control_ctrs(port)->created++;
	reassembled.value++;
	entry_end(e, -1);
	return whole;
}

struct rte_mbuf *reasm_add(struct rte_mbuf *m, uint16_t port, const struct reasm_frag *f,
                           uint16_t *aux)
{
	struct entry *e;
	int i, why;

	reasm_expire(rte_get_tsc_cycles());
	e = find(&f->key);
	if (e == NULL && (e = create(f)) == NULL) {
		fwd_control_drop(m, port, FWD_DROP_REASM_FULL);
		return NULL;
	}
	why = lengths_ok(e, f);
	i = why != 0 ? 0 : slot_for(e, f->off, f->len);
	if (i == -EEXIST) { /* RFC 5722: an exact duplicate may be dropped alone */
		fwd_control_drop(m, port, FWD_DROP_REASM_OVERLAP);
		return NULL;
	}
	if (why == 0 && i < 0)
		why = FWD_DROP_REASM_OVERLAP;
	if (why == 0 && store(e, i, f, m, port) < 0)
		why = FWD_DROP_NO_MBUF;
	if (why != 0) {
		fwd_control_drop(m, port, (enum fwd_drop_reason)why);
		entry_end(e, why);
		return NULL;
	}
	rte_pktmbuf_free(m); /* counted with its datagram */
	if (e->total == 0 || e->have != e->total || e->head_len == 0)
		return NULL;
	return complete(e, aux);
}

void reasm_expire(uint64_t now)
{
	if (table == NULL)
		return;
	for (unsigned i = 0; i < REASM_ENTRIES; i++)
		if (table[i].used && table[i].deadline < now)
			entry_end(&table[i], FWD_DROP_REASM_TIMEOUT);
}

unsigned reasm_pending(void)
{
	unsigned n = 0;

	for (unsigned i = 0; table != NULL && i < REASM_ENTRIES; i++)
		n += table[i].used;
	return n;
}

unsigned reasm_held(void)
{
	unsigned n = 0;

	for (unsigned i = 0; table != NULL && i < REASM_ENTRIES; i++)
		n += table[i].n;
	return n;
}

void reasm_flush(void)
{
	reasm_expire(UINT64_MAX);
}

static void reasm_tick(void *arg)
{
	(void)arg;
	reasm_expire(rte_get_tsc_cycles());
}

int reasm_init(void)
{
	table = calloc(REASM_ENTRIES, sizeof(*table));
	if (table == NULL)
		return -ENOMEM;
	big_pool = rte_pktmbuf_pool_create("fwd_reasm", BIG_MBUFS, 0, 0, BIG_ROOM, rte_socket_id());
	if (big_pool == NULL) {
		LOG(WARNING,
		    "no pool for reassembled datagrams (%s): those larger than a frame are dropped",
		    rte_strerror(rte_errno));
	}
	return 0;
}

void reasm_fini(void)
{
	fwd_timer_free(&tick);
	reasm_flush();
	free(table);
	table = NULL;
	rte_mempool_free(big_pool);
	big_pool = NULL;
}

static int reasm_module_init(const struct fwd_config *cfg)
{
	int rc;

	(void)cfg;
	rc = reasm_init();
	if (rc == 0)
		tick = fwd_timer_every(1000000, reasm_tick, NULL);
	return rc;
}

static struct fwd_module reasm_module = {
	.name = "reasm",
	.depends_on = "punt",
	.init = reasm_module_init,
	.fini = reasm_fini,
};
FWD_MODULE(reasm_module);
