/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 fast path of an l3 port (RFC 8200), one pass over the IPv6
 * frames of a burst, which the l3 input (ip4/input.c) hands over. Per
 * packet, the checks an ordinary packet to forward passes:
 *   - our MAC, Ethernet type IPv6, version 6 (one masked compare);
 *   - a frame that holds the 40-byte header and the payload length
 *     (a longer frame is Ethernet padding: trimmed, as for IPv4);
 *   - a source that is neither unspecified, loopback or IPv4-mapped (the
 *     first 64 bits zero) nor link-local or multicast (fe80::/10 and
 *     above: fec0::/10, site-local, goes the slow way too);
 *   - no hop-by-hop header (next header 0): its options are for every
 *     router on the path, so the control thread reads them;
 *   - the FIB lookup (multicast, link-local, unspecified and loopback
 *     destinations have reserved entries, ours local ones);
 *   - the next hop forwards and the frame fits (one compare with fwd_len),
 *     and the hop limit is above 1;
 * then the hop limit decrement (no checksum), the link header from the next
 * hop and the egress port's tx buffer. Anything else goes to input_slow.c,
 * which finds the exact reason (a drop, or a punt: ours, errors, NDP).
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_prefetch.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

#include "core/worker.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "nexthop/nexthop.h"

#define L2_LEN         IP6_L2_LEN
#define HDR_END        (IP6_L2_LEN + IP6_HDR_LEN) /* 54: where the payload starts */
#define PREFETCH_AHEAD 4

/* a burst's bytes are counted in 32 bits */
_Static_assert(FWD_TXBUF_CAP *(uint64_t)UINT16_MAX * 2 < UINT32_MAX, "burst bytes overflow");

/*
 * The first 16 bytes of a frame to route, as one masked compare: our MAC,
 * any source MAC, Ethernet type IPv6, version 6 (bytes 0-5, 12-13 and the
 * high nibble of 14; little-endian 64-bit halves).
 */
struct ip6_head {
	uint64_t want[2], mask[2];
};

#define HEAD_MASK_LO rte_cpu_to_le_64(UINT64_C(0x0000ffffffffffff))
#define HEAD_WANT_HI rte_cpu_to_le_64(UINT64_C(0x0060dd8600000000))
#define HEAD_MASK_HI rte_cpu_to_le_64(UINT64_C(0x00f0ffff00000000))

/* The top 64 bits of a source the fast path takes, less one, are below
 * this: 0 (::/64: unspecified, loopback, IPv4-mapped) wraps above it, and
 * fe80::/10 and everything after (link-local, multicast) are at or above. */
#define SRC_FAST_LIMIT UINT64_C(0xfe7fffffffffffff)

static inline struct ip6_head ip6_head(uint64_t mac48)
{
	return (struct ip6_head){ { mac48, HEAD_WANT_HI }, { HEAD_MASK_LO, HEAD_MASK_HI } };
}

static __rte_always_inline bool ip6_head_ok(const uint8_t *p, const struct ip6_head *h)
{
#ifdef __SSE4_1__
	__m128i x = _mm_loadu_si128((const __m128i_u *)(const void *)p);
	__m128i want = _mm_set_epi64x((long long)h->want[1], (long long)h->want[0]);
	__m128i mask = _mm_set_epi64x((long long)h->mask[1], (long long)h->mask[0]);

	return _mm_testz_si128(_mm_xor_si128(x, want), mask);
#else
	uint64_t lo, hi;

	memcpy(&lo, p, sizeof(lo));
	memcpy(&hi, p + 8, sizeof(hi));
	return (((lo ^ h->want[0]) & h->mask[0]) | ((hi ^ h->want[1]) & h->mask[1])) == 0;
#endif
}

/*
 * A burst in flight, as in IPv4 (ip4/input.c): the loop keeps in registers
 * only the egress run (port, next free slot of its buffer) and the byte
 * count of the frames forwarded; the rest is here, on the stack.
 */
struct ip6_ctx {
	struct fwd_worker *w;
	const struct fwd_iface *in;
	struct rte_mbuf **end; /* the burst's */
	struct fwd_txbuf *b;   /* the run's buffer */
	uint32_t run_start;    /* bytes when the run began */
	uint32_t tags;         /* the tags' bytes in `bytes`: sent, not received */
};

#define NO_RUN FWD_MAX_PORTS

static void ip6_run_end(struct ip6_ctx *c, unsigned port, struct rte_mbuf **out, uint32_t bytes)
{
	if (port != NO_RUN)
		fwd_txbuf_commit(c->w, c->b, port, out, bytes - c->run_start);
}

/* End the run on `port` and start one on `next`: returns its next free slot. */
static struct rte_mbuf **__rte_noinline ip6_run_switch(struct ip6_ctx *c, unsigned port,
                                                       struct rte_mbuf **out, uint32_t bytes,
                                                       uint8_t next)
{
	ip6_run_end(c, port, out, bytes);
	c->b = &c->w->tx[next];
	c->run_start = bytes;
	return c->b->pkts + c->b->n;
}

/*
 * The checks of the file's header up to the FIB lookup. The frame leaves
 * exactly as long as the packet (padding trimmed and counted here: the slow
 * path counts pkt_len): *len is its length.
 */
static __rte_always_inline bool ip6_fast(struct ip6_ctx *c, struct rte_mbuf *m,
                                         const struct ip6_head *h, unsigned *len)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(p + L2_LEN);
	unsigned frame = m->data_len;
	uint64_t src;

	/* one segment (port/port.c makes it so): the slow path drops others */
	if (unlikely(!ip6_head_ok(p, h) || m->nb_segs != 1))
		return false;
	/* read before the frame is known to hold it, as the head: a frame of
	 * less than 54 bytes can only fail the test */
	unsigned want = rte_be_to_cpu_16(ip->payload_len) + HDR_END;

	if (unlikely(want != frame)) {
		if (want > frame)
			return false;
		c->w->stats.port[c->in->id].rx_bytes += frame - want; /* Ethernet padding */
		m->data_len = (uint16_t)want;
		m->pkt_len = want;
		frame = want;
	}
	memcpy(&src, ip->src_addr, sizeof(src));
	if (unlikely(rte_be_to_cpu_64(src) - 1 >= SRC_FAST_LIMIT))
		return false;
	/* maybe one of ours (ip6.h): the slow path looks closer */
	if (unlikely(ip6_src_watch[ip6_src_watch_idx(ip->src_addr)]))
		return false;
	if (unlikely(ip->proto == IPPROTO_HOPOPTS))
		return false;
	*len = frame;
	return true;
}

/* A frame the fast path doubted, after the run it interrupts. */
static void __rte_noinline ip6_one_slow(struct ip6_ctx *c, struct rte_mbuf **at, unsigned port,
                                        struct rte_mbuf **out, uint32_t bytes)
{
	ip6_run_end(c, port, out, bytes);
	ip6_input_slow(c->w, c->in, *at);
	fwd_tx_reserve(c->w, (unsigned)(c->end - at - 1));
}

/* A frame classified fast whose next hop does not simply forward it. */
static void __rte_noinline ip6_one_aside(struct ip6_ctx *c, struct rte_mbuf **at, unsigned port,
                                         struct rte_mbuf **out, uint32_t bytes,
                                         const struct nexthop *nh, uint32_t nhi, unsigned len)
{
	ip6_run_end(c, port, out, bytes);
	c->w->stats.port[c->in->id].rx_bytes += len;
	ip6_forward_slow(c->w, c->in->id, *at, nh, nhi);
	fwd_tx_reserve(c->w, (unsigned)(c->end - at - 1));
}

/* The member of ECMP group nh that the packet's flow takes. */
static const struct nexthop *__rte_noinline ip6_member(const struct nexthop *tbl,
                                                       const struct nexthop *nh,
                                                       const struct rte_ipv6_hdr *ip, uint32_t *nhi)
{
	*nhi = nh_group_pick(tbl, nh, ip6_flow_hash(ip));
	return &tbl[*nhi];
}

/* What the loop reads per burst, kept out of memory that packet writes
 * could alias. */
struct ip6_burst {
	struct fib6_view fib;
	const struct nexthop *nh;
	struct ip6_head head;
	uint8_t epoch; /* nh_use_epoch, for nh_mark_used */
};

/* The run state the loop keeps in registers. */
struct ip6_run {
	struct rte_mbuf **out; /* next free slot of the run's buffer */
	uint32_t bytes;
	unsigned port; /* the run's, NO_RUN: none */
};

/* Does the packet's source pass the port's reverse-path filter rpf? */
static __rte_always_inline bool ip6_rpf_pass(const struct ip6_burst *b, uint16_t in, uint8_t rpf,
                                             const struct rte_mbuf *m, bool small)
{
	const struct rte_ipv6_hdr *ip =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, L2_LEN);
	uint32_t nhi = small ? fib6_lookup_small(b->fib, ip->src_addr)
	                     : fib6_lookup_view(b->fib, ip->src_addr);

	return nh_rpf_pass(b->nh, &b->nh[nhi], in, rpf == FWD_RPF_STRICT);
}

/* One frame, classified and forwarded; the rare cases leave the loop for
 * functions of their own. */
static __rte_always_inline void ip6_one(struct ip6_ctx *c, const struct ip6_burst *b, uint8_t rpf,
                                        bool small, struct rte_mbuf **at, struct ip6_run *r)
{
	struct rte_mbuf *m = *at;
	unsigned len;

	if (unlikely(!ip6_fast(c, m, &b->head, &len)) ||
	    (rpf != FWD_RPF_OFF && !ip6_rpf_pass(b, c->in->id, rpf, m, small))) {
		ip6_one_slow(c, at, r->port, r->out, r->bytes);
		r->port = NO_RUN;
		return;
	}
	uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + L2_LEN);
	uint32_t nhi = small ? fib6_lookup_small(b->fib, ip->dst_addr)
	                     : fib6_lookup_view(b->fib, ip->dst_addr);
	const struct nexthop *nh = &b->nh[nhi];

	if (unlikely(!ip6_nh_takes(nh, ip, len)) &&
	    (nh->type != NH_GROUP ||
	     !ip6_nh_takes(nh = ip6_member(b->nh, nh, ip, &nhi), ip, len))) {
		ip6_one_aside(c, at, r->port, r->out, r->bytes, nh, nhi, len);
		r->port = NO_RUN;
		return;
	}
	ip6_nh_rewrite(nh, eth, ip);
	if (unlikely(nh->tag != 0))
		len = nh_tag_out(c->w, m, nh, len, &c->tags);
	nh_mark_used(nh, b->epoch); /* in use: evicted last (nexthop/neigh.c) */
	if (unlikely(nh_other_port(nh, r->port))) {
		r->out = ip6_run_switch(c, r->port, r->out, r->bytes, nh->port);
		r->port = nh->port;
	}
	*r->out = m;
	r->out++;
	r->bytes += len;
}

static __rte_always_inline void ip6_prefetch(const struct rte_mbuf *m)
{
	rte_prefetch0((const uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM);
}

/* At most FWD_TXBUF_CAP frames, in one pass; rpf and small (the small
 * layout of a VRF other than the default one) constants at each call. */
static __rte_always_inline void ip6_burst(struct fwd_worker *w, const struct fwd_iface *in,
                                          uint8_t rpf, bool small, struct rte_mbuf **pkts,
                                          unsigned n)
{
	const struct ip6_burst b = { fib6_view(ip6_fibs[small ? in->vrf : FWD_VRF_DEFAULT]),
		                     nh_table, ip6_head(in->mac48),
		                     __atomic_load_n(&nh_use_epoch, __ATOMIC_RELAXED) };
	struct ip6_ctx c = { .w = w, .in = in, .end = pkts + n, .tags = 0 };
	struct ip6_run r = { .out = NULL, .bytes = 0, .port = NO_RUN };
	struct rte_mbuf **at = pkts;

	/* room for the whole burst: the loop adds to buffers without a test */
	fwd_tx_reserve(w, n);
	for (unsigned i = 0; i < RTE_MIN(n, (unsigned)PREFETCH_AHEAD); i++)
		ip6_prefetch(pkts[i]);
	for (struct rte_mbuf **stop = c.end - RTE_MIN(n, (unsigned)PREFETCH_AHEAD); at < stop;
	     at++) {
		ip6_prefetch(at[PREFETCH_AHEAD]);
		ip6_one(&c, &b, rpf, small, at, &r);
	}
	for (; at < c.end; at++)
		ip6_one(&c, &b, rpf, small, at, &r);
	ip6_run_end(&c, r.port, r.out, r.bytes);
	w->stats.port[in->id].rx_bytes += r.bytes - c.tags;
}

/* The loops of the reverse-path filter and of the other VRFs, so that the
 * default VRF's plain one pays nothing for them. */
static void __rte_noinline ip6_burst_rpf(struct fwd_worker *w, const struct fwd_iface *in,
                                         uint8_t rpf, struct rte_mbuf **pkts, unsigned n)
{
	ip6_burst(w, in, rpf, false, pkts, n);
}

static void __rte_noinline ip6_burst_vrf(struct fwd_worker *w, const struct fwd_iface *in,
                                         uint8_t rpf, struct rte_mbuf **pkts, unsigned n)
{
	ip6_burst(w, in, rpf, true, pkts, n);
}

static void __rte_noinline ip6_burst_plain(struct fwd_worker *w, const struct fwd_iface *in,
                                           struct rte_mbuf **pkts, unsigned n)
{
	ip6_burst(w, in, FWD_RPF_OFF, false, pkts, n);
}

/* The l3 input hands over at most FWD_TXBUF_CAP frames at a time; others
 * (the fuzzer, tests) may hand more. */
static void ip6_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                      uint16_t n)
{
	uint8_t rpf = in->rpf; /* once per burst, as the VRF */
	uint16_t vrf = in->vrf;

	while (n != 0) {
		uint16_t k = RTE_MIN(n, FWD_TXBUF_CAP);

		if (unlikely(vrf != FWD_VRF_DEFAULT))
			ip6_burst_vrf(w, in, rpf, pkts, k);
		else if (unlikely(rpf != FWD_RPF_OFF))
			ip6_burst_rpf(w, in, rpf, pkts, k);
		else
			ip6_burst_plain(w, in, pkts, k);
		pkts += k;
		n -= k;
	}
}

void ip6_input_init(void)
{
	fwd_worker_set_ip6_input(ip6_input);
}

void ip6_input_fini(void)
{
	fwd_worker_set_ip6_input(NULL);
}
