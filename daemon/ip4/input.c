/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 fast path of an l3 port, one pass over the burst: per packet the
 * checks of RFC 1812 5.2.2 that an ordinary packet passes (our MAC, IPv4
 * without options, lengths, header checksum, source address), the FIB
 * lookup (reserved destinations have entries of their own), TTL and size
 * against the next hop, the TTL decrement with an incremental checksum, the
 * link header from the next hop, and into the egress port's tx buffer.
 * Anything else goes to input_slow.c, which finds the exact reason; but
 * IPv6 frames are set aside and handed, once the burst is done, to the
 * input ip6 registers (fwd_ip6_input), which finds their MAC and the rest.
 */
#include <stddef.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_prefetch.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

#include "core/iface.h"
#include "core/worker.h"
#include "ip4/cksum.h"
#include "ip4/input.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"

#define L2_LEN    ((uint16_t)sizeof(struct rte_ether_hdr))
#define L2_TAGGED ((uint16_t)(L2_LEN + FWD_VLAN_HLEN)) /* a VLAN's frame, its tag kept */
#define FIB_AHEAD 4 /* frames ahead whose tbl24 entry the loop prefetches */

/* ip4_run counts a burst's bytes in 32 bits */
_Static_assert(FWD_TXBUF_CAP *(uint64_t)UINT16_MAX * 2 < UINT32_MAX, "burst bytes overflow");

/*
 * The first 16 bytes of a frame to route, as one masked compare: our MAC,
 * any source MAC, Ethernet type IPv4, version 4 with IHL 5 (bytes 0-5 and
 * 12-14; little-endian 64-bit halves). A frame with its tag kept (l2 18:
 * the demux read the tag) compares the same with its high half 4 bytes on.
 */
struct ip4_head {
	uint64_t want[2], mask[2];
};

#define HEAD_MASK_LO rte_cpu_to_le_64(UINT64_C(0x0000ffffffffffff))
#define HEAD_WANT_HI rte_cpu_to_le_64(UINT64_C(0x0045000800000000))
#define HEAD_MASK_HI rte_cpu_to_le_64(UINT64_C(0x00ffffff00000000))

static inline struct ip4_head ip4_head(uint64_t mac48)
{
	return (struct ip4_head){ { mac48, HEAD_WANT_HI }, { HEAD_MASK_LO, HEAD_MASK_HI } };
}

static __rte_always_inline bool ip4_head_ok(const uint8_t *p, const struct ip4_head *h, unsigned l2)
{
#ifdef __SSE4_1__
	__m128i x =
	        l2 == L2_LEN
	                ? _mm_loadu_si128((const __m128i_u *)(const void *)p)
	                : _mm_unpacklo_epi64(
	                          _mm_loadl_epi64((const __m128i_u *)(const void *)p),
	                          _mm_loadl_epi64((const __m128i_u *)(const void *)(p + l2 - 6)));
	__m128i want = _mm_set_epi64x((long long)h->want[1], (long long)h->want[0]);
	__m128i mask = _mm_set_epi64x((long long)h->mask[1], (long long)h->mask[0]);
#ifdef __GCC_ASM_FLAG_OUTPUTS__
	bool ok;

	/* the flag itself, so that the compiler branches on it at once */
	__asm__("ptest %[m], %[x]" : "=@ccz"(ok) : [x] "x"(_mm_xor_si128(x, want)), [m] "xm"(mask));
	return ok;
#else
	return _mm_testz_si128(_mm_xor_si128(x, want), mask);
#endif
#else
	uint64_t lo, hi;

	memcpy(&lo, p, sizeof(lo));
	memcpy(&hi, p + l2 - 6, sizeof(hi));
	return (((lo ^ h->want[0]) & h->mask[0]) | ((hi ^ h->want[1]) & h->mask[1])) == 0;
#endif
}

/*
 * A burst in flight. The loop keeps in registers only what every frame
 * uses: the egress run (port, next free slot of its buffer) and the byte
 * count. Only frames forwarded by the fast path add to `bytes`, so the
 * bytes of a run are what `bytes` gained since the run began: one addition
 * per frame counts both rx and tx. What only the rare cases read is here,
 * on the stack, so that it holds no register in the loop.
 */
struct ip4_ctx {
	struct fwd_worker *w;
	const struct fwd_iface *in;
	struct rte_mbuf **end; /* the burst's */
	struct fwd_txbuf *b;   /* the run's buffer */
	uint32_t run_start;    /* bytes when the run began */
	uint32_t tags;         /* the tags' bytes in `bytes`: sent, not received */
	uint16_t vif;          /* the VLAN the tagged frames below leave on, or none */
	uint32_t vtags;        /* `tags` when counting on vif began: its frames since, */
	uint32_t vbytes;       /* their bytes; not yet on its counters (ip4_vlan_count) */
	unsigned n6;           /* IPv6 frames set aside, for fwd_ip6_input */
	struct rte_mbuf *v6[FWD_TXBUF_CAP];
};

#define NO_RUN FWD_MAX_PORTS

/* Write the run back into its buffer (count, bytes, dirty bit). */
static void ip4_run_end(struct ip4_ctx *c, unsigned port, struct rte_mbuf **out, uint32_t bytes)
{
	if (port != NO_RUN)
		fwd_txbuf_commit(c->w, c->b, port, out, bytes - c->run_start);
}

/* End the run on `port` and start one on `next`: returns its next free slot. */
static struct rte_mbuf **__rte_noinline ip4_run_switch(struct ip4_ctx *c, unsigned port,
                                                       struct rte_mbuf **out, uint32_t bytes,
                                                       uint8_t next)
{
	ip4_run_end(c, port, out, bytes);
	c->b = &c->w->tx[next];
	c->run_start = bytes;
	return c->b->pkts + c->b->n;
}

/*
 * The common case in few instructions and branches: an option-less IPv4
 * packet to our MAC, lengths consistent, checksum right, a unicast source
 * (a destination that is not unicast finds NH_RESERVED in the FIB).
 * Any doubt sends the frame through ip4_input_slow, which finds the exact
 * reason. The frame leaves exactly as long as the packet (Ethernet padding
 * trimmed, and counted here: the slow path counts pkt_len): *len is its
 * length without a kept tag (l2 18), which forwarding compares with the
 * next hop's, and *d24 the top 24 bits of the destination.
 */
static __rte_always_inline bool ip4_fast(struct ip4_ctx *c, struct rte_mbuf *m,
                                         const struct ip4_head *h, bool hw_cksum, unsigned l2,
                                         uint32_t *d24, unsigned *len)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + l2);
	unsigned frame = m->data_len;
	uint32_t top;

	/* one segment (the pool and rx set-up make it so: port/port.c); the
	 * slow path drops any other */
	if (unlikely(!ip4_head_ok(p, h, l2) || m->nb_segs != 1))
		return false;
	/* the total length, compared in network order with what the frame holds */
	if (unlikely(ip->total_length != rte_cpu_to_be_16((uint16_t)(frame - l2)))) {
		unsigned want = rte_be_to_cpu_16(ip->total_length) + l2;
		if (want > frame || want < l2 + sizeof(*ip))
			return false;
		c->w->stats.port[c->in->id].rx_bytes += frame - want; /* Ethernet padding */
		m->data_len = (uint16_t)want;
		m->pkt_len = want;
		frame = want;
	}
	/* a frame of at least 34 bytes holds the header */
	if (unlikely(frame < l2 + sizeof(*ip)))
		return false;
	/* a NIC that checks leaves GOOD; anything else gets the full check, slowly */
	if (hw_cksum ? unlikely((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) !=
	                        RTE_MBUF_F_RX_IP_CKSUM_GOOD)
	             : unlikely(!ip4_cksum20_ok(ip)))
		return false;
	/* martian, link-local, maybe ours (ip4.h): the slow path looks closer
	 * (a call here would cost the loop a register) */
	if (unlikely(ip4_src_watch[ip4_src_watch_idx(ip->src_addr)]))
		return false;
	/* the last source byte and the first three of the destination, as one
	 * load: the destination's top 24 bits without a shift */
	memcpy(&top, &((const uint8_t *)&ip->dst_addr)[-1], sizeof(top));
	*d24 = rte_be_to_cpu_32(top) & 0xffffff;
	*len = frame - (l2 - L2_LEN);
	return true;
}

/* The IPv6 frames of a burst, to the input ip6 registers; without one they
 * are frames the l3 input does not handle (input_slow.c counts them). */
static void __rte_noinline ip4_pass_ip6(struct fwd_worker *w, const struct fwd_iface *in,
                                        struct rte_mbuf **v6, unsigned n)
{
	if (fwd_ip6_input != NULL) {
		fwd_ip6_input(w, in, v6, (uint16_t)n);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		ip4_input_slow(w, in, v6[i]);
}

/* A frame the fast path doubted, after the run it interrupts. */
static void __rte_noinline ip4_one_slow(struct ip4_ctx *c, struct rte_mbuf **at, unsigned port,
                                        struct rte_mbuf **out, uint32_t bytes)
{
	ip4_run_end(c, port, out, bytes);
	ip4_input_slow(c->w, c->in, *at);
	fwd_tx_reserve(c->w, (unsigned)(c->end - at - 1));
}

/* A frame classified fast whose next hop does not simply forward it. */
static void __rte_noinline ip4_one_aside(struct ip4_ctx *c, struct rte_mbuf **at, unsigned port,
                                         struct rte_mbuf **out, uint32_t bytes,
                                         const struct nexthop *nh, uint32_t nhi, unsigned len)
{
	ip4_run_end(c, port, out, bytes);
	c->w->stats.port[c->in->id].rx_bytes += len;
	ip4_forward_slow(c->w, c->in->id, *at, nh, nhi);
	fwd_tx_reserve(c->w, (unsigned)(c->end - at - 1));
}

/* What the forwarding loop reads per burst, kept out of memory that packet
 * writes could alias. */
struct ip4_burst {
	struct fib4_view fib;
	const struct nexthop *nh;
	struct ip4_head head;
	uint8_t epoch; /* nh_use_epoch, for nh_mark_used */
};

/* The run state the loop keeps in registers. */
struct ip4_run {
	struct rte_mbuf **out; /* next free slot of the run's buffer */
	uint32_t bytes;        /* below 2^32: one burst's frames */
	unsigned port;         /* the run's, NO_RUN: none */
};

/* The member of ECMP group nh that the packet's flow takes. */
static const struct nexthop *__rte_noinline ip4_member(const struct nexthop *tbl,
                                                       const struct nexthop *nh,
                                                       const struct rte_ipv4_hdr *ip, uint32_t *nhi)
{
	*nhi = nh_group_pick(tbl, nh, ip4_flow_hash(ip));
	return &tbl[*nhi];
}

/* Does the packet's source pass the port's reverse-path filter rpf? */
static __rte_always_inline bool ip4_rpf_pass(const struct ip4_burst *b, uint16_t in, uint8_t rpf,
                                             const struct rte_mbuf *m, unsigned l2, bool small)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, l2);
	uint32_t src = rte_be_to_cpu_32(ip->src_addr);
	uint32_t nhi = small ? fib4_lookup_small(b->fib, src) : fib4_lookup_view(b->fib, src);

	return nh_rpf_pass(b->nh, &b->nh[nhi], in, rpf == FWD_RPF_STRICT);
}

/* Put what the burst sent on VLAN c->vif on its counters, and count on
 * vif from now on. */
static void __rte_noinline ip4_vlan_switch(struct ip4_ctx *c, uint16_t vif)
{
	if (c->vif != FWD_IFACE_NONE) {
		c->w->stats.port[c->vif].tx_pkts += (c->tags - c->vtags) / NH_TAG_LEN;
		c->w->stats.port[c->vif].tx_bytes += c->vbytes;
	}
	c->vif = vif;
	c->vtags = c->tags;
	c->vbytes = 0;
}

/* A frame of length len (as sent) leaving tagged on nh->iface: counted on
 * the VLAN once per burst (or change of VLAN), not per frame. */
static __rte_always_inline void ip4_vlan_count(struct ip4_ctx *c, const struct nexthop *nh,
                                               unsigned len)
{
	if (unlikely(nh->iface != c->vif))
		ip4_vlan_switch(c, nh->iface);
	c->vbytes += len;
	c->tags += NH_TAG_LEN;
}

/* A frame routed with its tag kept (l2 18) that leaves the loop: the rare
 * cases read 14-byte headers. */
static __rte_always_inline void ip4_untag(struct rte_mbuf *m, unsigned l2)
{
	if (l2 != L2_LEN)
		fwd_vlan_strip(m, rte_pktmbuf_mtod(m, uint8_t *));
}

/* The frame start and the counts of a routed frame of length len whose
 * header nh_hdr_write wrote at ip - 18: a tagged next hop's frame starts
 * there, an untagged one's 4 bytes on. Its length as sent. */
static __rte_always_inline unsigned ip4_frame_out(struct ip4_ctx *c, struct rte_mbuf *m,
                                                  const struct nexthop *nh, unsigned l2,
                                                  unsigned len)
{
	if (l2 == L2_LEN) {
		if (unlikely(nh->tag != 0)) {
			nh_tag_mbuf(m);
			len += NH_TAG_LEN;
			ip4_vlan_count(c, nh, len);
		}
	} else if (likely(nh->tag != 0)) {
		len += NH_TAG_LEN;
		ip4_vlan_count(c, nh, len);
	} else {
		nh_untag_mbuf(m);
	}
	return len;
}

/* One frame, classified and forwarded; the rare cases leave the loop for
 * functions of their own. */
static __rte_always_inline void ip4_one(struct ip4_ctx *c, const struct ip4_burst *b, bool hw_cksum,
                                        uint8_t rpf, unsigned l2, bool small, struct rte_mbuf **at,
                                        struct ip4_run *r)
{
	struct rte_mbuf *m = *at;
	uint32_t d24;
	unsigned len;

	if (unlikely(!ip4_fast(c, m, &b->head, hw_cksum, l2, &d24, &len)) ||
	    (rpf != FWD_RPF_OFF && !ip4_rpf_pass(b, c->in->id, rpf, m, l2, small))) {
		ip4_untag(m, l2);
		/* IPv6 waits for the end of the burst, the run goes on: the
		 * type is in the bytes the head check loaded (any frame has
		 * them; ip6 finds a runt's length) */
		if (rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->ether_type ==
		    rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6)) {
			c->v6[c->n6++] = m;
			return;
		}
		ip4_one_slow(c, at, r->port, r->out, r->bytes);
		r->port = NO_RUN;
		return;
	}
	uint8_t *eth = rte_pktmbuf_mtod_offset(m, uint8_t *, l2 - L2_LEN);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + L2_LEN);
	const uint8_t *low8 = &((const uint8_t *)&ip->dst_addr)[3];
	uint32_t nhi = small ? fib4_lookup_small(b->fib, d24 << 8 | *low8)
	                     : fib4_lookup_top(b->fib, d24, low8);
	const struct nexthop *nh = &b->nh[nhi];

	if (unlikely(!ip4_nh_takes(nh, ip, len)) &&
	    (nh->type != NH_GROUP ||
	     !ip4_nh_takes(nh = ip4_member(b->nh, nh, ip, &nhi), ip, len))) {
		ip4_untag(m, l2);
		ip4_one_aside(c, at, r->port, r->out, r->bytes, nh, nhi, len);
		r->port = NO_RUN;
		return;
	}
	ip4_nh_rewrite(nh, eth, ip);
	len = ip4_frame_out(c, m, nh, l2, len);
	nh_mark_used(nh, b->epoch); /* in use: evicted last (nexthop/neigh.c) */
	if (unlikely(nh_other_port(nh, r->port))) {
		r->out = ip4_run_switch(c, r->port, r->out, r->bytes, nh->port);
		r->port = nh->port;
	}
	*r->out = m;
	r->out++;
	r->bytes += len;
}

/*
 * The tbl24 entry of a frame FIB_AHEAD frames on: to many destinations
 * (1M hosts over a full table: tests/bench/README.md, the flows group)
 * the entries are cache misses, which prefetched overlap instead of each
 * stalling its frame. Reading the destination brings the frame's data
 * (where a NIC puts it) into the cache as many frames ahead as a prefetch
 * of the data did before, which it replaces: both would cost 3
 * instructions a frame more, l3fwd's whole lead in make bench-callgrind.
 * Whatever the frame holds (any type, a runt: the bytes are inside its
 * buffer), the index is below 2^24: at worst a wasted prefetch.
 */
static __rte_always_inline void ip4_prefetch_fib(struct fib4_view fib, const struct rte_mbuf *m,
                                                 unsigned l2)
{
	const uint8_t *dst = (const uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM + l2 +
	                     offsetof(struct rte_ipv4_hdr, dst_addr);
	uint32_t top;

	memcpy(&top, dst - 1, sizeof(top));
	/* rte_prefetch0's asm takes the address in a register (one lea more) */
	__builtin_prefetch(&fib.tbl24[rte_be_to_cpu_32(top) & 0xffffff], 0, 3);
}

/* At most FWD_TXBUF_CAP frames, in one pass. With hw_cksum and l2 (the
 * link header's length: 14, or 18 with a VLAN's tag kept) constants at
 * each call, each port kind gets a loop of its own. */
static __rte_always_inline void ip4_burst(struct fwd_worker *w, const struct fwd_iface *in,
                                          bool hw_cksum, uint8_t rpf, unsigned l2, bool small,
                                          struct rte_mbuf **pkts, unsigned n)
{
	/* the default VRF's DIR-24-8, or the small layout of the interface's
	 * VRF (ip4/fib.h) */
	const struct ip4_burst b = { small ? fib4_view_small(ip4_fibs[in->vrf])
		                           : fib4_view(ip4_fibs[FWD_VRF_DEFAULT]),
		                     nh_table, ip4_head(in->mac48),
		                     __atomic_load_n(&nh_use_epoch, __ATOMIC_RELAXED) };
	struct ip4_ctx c; /* the run's fields are set when a run begins */
	struct ip4_run r = { .out = NULL, .bytes = 0, .port = NO_RUN };
	struct rte_mbuf **at = pkts;

	c.w = w;
	c.in = in;
	c.end = pkts + n;
	c.n6 = 0;
	c.tags = 0;
	c.vif = FWD_IFACE_NONE;
	/* room for the whole burst: the loop adds to buffers without a test */
	fwd_tx_reserve(w, n);
	/* the first frames' FIB entries (which reads their data) */
	if (small) {
		/* the small layout's first table (256 KiB) stays in the cache */
	} else if (likely(n >= FIB_AHEAD)) {
		ip4_prefetch_fib(b.fib, pkts[0], l2);
		ip4_prefetch_fib(b.fib, pkts[1], l2);
		ip4_prefetch_fib(b.fib, pkts[2], l2);
		ip4_prefetch_fib(b.fib, pkts[3], l2);
	} else {
		for (unsigned i = 0; i < n; i++)
			ip4_prefetch_fib(b.fib, pkts[i], l2);
	}
	for (struct rte_mbuf **stop = c.end - RTE_MIN(n, (unsigned)FIB_AHEAD); at < stop; at++) {
		if (!small)
			ip4_prefetch_fib(b.fib, at[FIB_AHEAD], l2);
		ip4_one(&c, &b, hw_cksum, rpf, l2, small, at, &r);
	}
	for (; at < c.end; at++)
		ip4_one(&c, &b, hw_cksum, rpf, l2, small, at, &r);
	ip4_run_end(&c, r.port, r.out, r.bytes);
	w->stats.port[in->id].rx_bytes += r.bytes - c.tags;
	if (c.vif != FWD_IFACE_NONE)
		ip4_vlan_switch(&c, FWD_IFACE_NONE);
	if (unlikely(c.n6 != 0))
		ip4_pass_ip6(w, in, c.v6, c.n6);
}

/* The reverse-path filter and the VRFs other than the default one have a
 * loop each (for both filter modes, with the software checksum), so that
 * the default VRF's pays nothing for them. */
static void __rte_noinline ip4_burst_rpf(struct fwd_worker *w, const struct fwd_iface *in,
                                         uint8_t rpf, struct rte_mbuf **pkts, unsigned n)
{
	ip4_burst(w, in, false, rpf, L2_LEN, false, pkts, n);
}

static void __rte_noinline ip4_burst_vrf(struct fwd_worker *w, const struct fwd_iface *in,
                                         uint8_t rpf, struct rte_mbuf **pkts, unsigned n)
{
	ip4_burst(w, in, false, rpf, L2_LEN, true, pkts, n);
}

static void ip4_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                      uint16_t n)
{
	uint8_t rpf = in->rpf; /* once per burst, as the VRF */
	uint16_t vrf = in->vrf;

	while (n != 0) {
		uint16_t k = RTE_MIN(n, FWD_TXBUF_CAP);

		if (unlikely(vrf != FWD_VRF_DEFAULT))
			ip4_burst_vrf(w, in, rpf, pkts, k);
		else if (unlikely(rpf != FWD_RPF_OFF))
			ip4_burst_rpf(w, in, rpf, pkts, k);
		else if (in->rx_ip4_cksum)
			ip4_burst(w, in, true, FWD_RPF_OFF, L2_LEN, false, pkts, k);
		else
			ip4_burst(w, in, false, FWD_RPF_OFF, L2_LEN, false, pkts, k);
		pkts += k;
		n -= k;
	}
}

/* A VLAN's frames with their tag kept (core/worker.h): routed with it,
 * the 18-byte header written over on output (doc/performance.md, "VLAN").
 * The loops of the reverse-path filter and of the VRFs other than the
 * default one read 14-byte headers: their frames lose their tags first. */
static void ip4_input_tagged(struct fwd_worker *w, const struct fwd_iface *in,
                             struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(in->rpf != FWD_RPF_OFF || in->vrf != FWD_VRF_DEFAULT)) {
		fwd_vlan_strip_all(pkts, n);
		ip4_input(w, in, pkts, n);
		return;
	}
	while (n != 0) {
		uint16_t k = RTE_MIN(n, FWD_TXBUF_CAP);

		if (in->rx_ip4_cksum)
			ip4_burst(w, in, true, FWD_RPF_OFF, L2_TAGGED, false, pkts, k);
		else
			ip4_burst(w, in, false, FWD_RPF_OFF, L2_TAGGED, false, pkts, k);
		pkts += k;
		n -= k;
	}
}

/* Ports and VLAN interfaces in mode l3 alike: everything the input keys
 * by interface takes a VLAN's id (doc/architecture.md, "Interfaces"). */
RTE_INIT(ip4_input_register)
{
	fwd_worker_set_input(FWD_MODE_L3, ip4_input);
	fwd_worker_set_vlan_input(FWD_MODE_L3, ip4_input);
	fwd_worker_set_vlan_tagged_input(FWD_MODE_L3, ip4_input_tagged);
}
