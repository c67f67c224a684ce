/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The learning bridge's fast path. Per burst (all from one port, so one
 * bridge): one bulk lock-free FDB lookup of every source and destination
 * MAC, then per frame: refresh or note the source, and send the frame to
 * the destination's port, or flood it (group address, unknown unicast) to
 * every other member that is up: clones share the data, the original goes
 * to the last. A frame never leaves by the port it came in on.
 */
#include <rte_hash.h>
#include <rte_prefetch.h>
#include <rte_ring_elem.h>

#include "core/daemon.h"
#include "l2/bridge.h"

#define CHUNK           32 /* frames per bulk lookup: 2 keys each, RTE_HASH_LOOKUP_BULK_MAX */
#define NOTES_PER_BURST 8

/* 01:80:c2:00:00:0x, IEEE 802.1Q reserved: never relayed by a bridge */
#define RESERVED_MASK 0xf0ffffffffffULL
#define RESERVED_KEY  0x000000c28001ULL

struct bridge_wstats bridge_wstats[FWD_MAX_WORKERS];
uint64_t bridge_note_gap;    /* ticks before a worker repeats a note */
uint64_t bridge_refresh_gap; /* ticks between two stores of one entry's `seen` */

struct burst {
	struct fwd_worker *w;
	struct bridge_wstats *ws;
	const struct bridge *b;
	const struct fdb_table *t;
	uint64_t now;
	uint8_t in;
	uint8_t n_out;
	uint8_t out[FWD_MAX_PORTS]; /* where to flood: the other members that are up */
	uint16_t n_notes;
	uint64_t notes[NOTES_PER_BURST];
	uint64_t rx_bytes;
	struct fwd_txc txc; /* runs of frames to one port are buffered in registers */
};

static inline void burst_init(struct burst *c, struct fwd_worker *w, const struct bridge *b,
                              uint8_t in)
{
	c->w = w;
	c->ws = &bridge_wstats[w->index];
	c->b = b;
	c->t = __atomic_load_n(&b->fdb.tbl, __ATOMIC_ACQUIRE);
	c->now = fdb_clock();
	c->in = in;
	c->n_out = 0;
	c->n_notes = 0;
	c->rx_bytes = 0;
	c->txc = (struct fwd_txc)FWD_TXC_INIT;
	for (unsigned i = 0; i < b->n_members; i++) {
		uint8_t p = b->members[i];
		if (p != in && fwd_ports[p].admin_up)
			c->out[c->n_out++] = p;
	}
}

/* Ask the control thread to learn (or move) key on the ingress port. */
static inline void note(struct burst *c, uint64_t key)
{
	uint64_t n = bridge_note(key, c->in, c->b->slot);
	unsigned h = (unsigned)((n * 0x9e3779b97f4a7c15ULL) >> 58); /* 64 slots */

	if (c->ws->recent[h].note == n && c->now - c->ws->recent[h].at < bridge_note_gap)
		return; /* already asked, the control thread has not caught up yet */
	if (unlikely(c->n_notes == NOTES_PER_BURST))
		return; /* rate limit: a later frame asks again */
	c->ws->recent[h].note = n;
	c->ws->recent[h].at = c->now;
	c->notes[c->n_notes++] = n;
}

static inline void src_seen(struct burst *c, uint64_t key, struct fdb_entry *e)
{
	if (likely(e != NULL && e->port == c->in)) {
		if (unlikely(c->now - __atomic_load_n(&e->seen, __ATOMIC_RELAXED) >
		             bridge_refresh_gap))
			__atomic_store_n(&e->seen, c->now, __ATOMIC_RELAXED);
		return;
	}
	if (e == NULL && c->b->fdb.full) {
		c->ws->fdb_full[c->b->slot]++;
		return;
	}
	note(c, key);
}

static inline void flood(struct burst *c, struct rte_mbuf *m)
{
	unsigned last;

	if (unlikely(c->n_out == 0)) {
		fwd_drop(c->w, c->in, FWD_DROP_NO_MEMBER, m);
		return;
	}
	c->ws->flooded[c->b->slot]++;
	last = c->n_out - 1u;
	c->w->stats.port[c->in].created += last; /* the copies; one that fails is a no_mbuf drop */
	for (unsigned i = 0; i < last; i++) {
		struct rte_mbuf *copy = rte_pktmbuf_clone(m, fwd.pool);
		if (unlikely(copy == NULL)) {
			c->w->stats.port[c->in].drop[FWD_DROP_NO_MBUF]++;
			continue;
		}
		fwd_txc_put(c->w, &c->txc, c->out[i], copy, copy->pkt_len);
	}
	fwd_txc_put(c->w, &c->txc, c->out[last], m, m->pkt_len);
}

static inline void dst_out(struct burst *c, struct rte_mbuf *m, uint64_t key,
                           const struct fdb_entry *e)
{
	uint8_t port;

	if (unlikely(key & 1)) { /* group bit: broadcast or multicast */
		if (unlikely((key & RESERVED_MASK) == RESERVED_KEY))
			fwd_drop(c->w, c->in, FWD_DROP_L2_RESERVED, m);
		else
			flood(c, m);
		return;
	}
	if (e == NULL) {
		flood(c, m);
		return;
	}
	port = __atomic_load_n(&e->port, __ATOMIC_RELAXED);
	if (unlikely(port == c->in))
		fwd_drop(c->w, c->in, FWD_DROP_SAME_PORT, m);
	else
		fwd_txc_put(c->w, &c->txc, port, m, m->pkt_len);
}

/* Frames that cannot be bridged: too short, or from a group or zero address. */
static inline int frame_check(const struct rte_mbuf *m, uint64_t src)
{
	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN))
		return FWD_DROP_BAD_HEADER;
	if (unlikely((src & 1) || src == 0))
		return FWD_DROP_BAD_SRC_MAC;
	return -1;
}

/* The index of key in the chunk's lookup list, added when new: frames of a
 * burst mostly share addresses (one flow, or its two directions), so
 * comparing with the last two keys added saves most lookups. */
static inline unsigned key_index(uint64_t *keys, const void **kp, unsigned *nk, uint64_t key)
{
	unsigned n = *nk;

	if (likely(n >= 2)) {
		if (keys[n - 1] == key)
			return n - 1;
		if (keys[n - 2] == key)
			return n - 2;
	} else if (n == 1 && keys[0] == key) {
		return 0;
	}
	keys[n] = key;
	kp[n] = &keys[n];
	*nk = n + 1;
	return n;
}

static void chunk(struct burst *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t keys[2 * CHUNK];
	const void *kp[2 * CHUNK];
	void *data[2 * CHUNK];
	struct rte_mbuf *ok[CHUNK];
	uint8_t si[CHUNK], di[CHUNK];
	uint64_t hits = 0;
	unsigned k = 0, nk = 0;

	for (uint16_t i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (uint16_t i = 0; i < n; i++) {
		const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		uint64_t src = pkts[i]->data_len >= RTE_ETHER_HDR_LEN ? fdb_key(&eth->src_addr) : 0;
		int drop = frame_check(pkts[i], src);

		c->rx_bytes += pkts[i]->pkt_len;
		if (unlikely(drop >= 0)) {
			fwd_drop(c->w, c->in, drop, pkts[i]);
			continue;
		}
		si[k] = (uint8_t)key_index(keys, kp, &nk, src);
		di[k] = (uint8_t)key_index(keys, kp, &nk, fdb_key(&eth->dst_addr));
		ok[k++] = pkts[i];
	}
	if (k == 0)
		return;
	rte_hash_lookup_bulk_data(c->t->h, kp, nk, &hits, data);
	for (unsigned i = 0; i < k; i++) {
		void *s = (hits >> si[i]) & 1 ? data[si[i]] : NULL;
		void *d = (hits >> di[i]) & 1 ? data[di[i]] : NULL;

		src_seen(c, keys[si[i]], s);
		dst_out(c, ok[i], keys[di[i]], d);
	}
}

void bridge_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                  uint16_t n)
{
	const struct bridge *b = bridge_of_port[in->id];
	struct burst c;

	if (unlikely(b == NULL)) {
		w->stats.port[in->id].rx_bytes += fwd_pkts_bytes(pkts, n);
		fwd_drop_bulk(w, in->id, FWD_DROP_NO_MEMBER, pkts, n);
		return;
	}
	burst_init(&c, w, b, in->id);
	for (uint16_t i = 0; i < n; i += CHUNK)
		chunk(&c, pkts + i, RTE_MIN(CHUNK, n - i));
	fwd_txc_sync(w, &c.txc);
	w->stats.port[in->id].rx_bytes += c.rx_bytes;
	if (c.n_notes != 0) {
		unsigned sent = rte_ring_mp_enqueue_burst_elem(bridge_notes, c.notes,
		                                               sizeof(uint64_t), c.n_notes, NULL);
		c.ws->notes_lost[b->slot] += c.n_notes - sent;
	}
}

RTE_INIT(bridge_register)
{
	fwd_worker_set_input(FWD_MODE_BRIDGE, bridge_input);
}
