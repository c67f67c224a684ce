/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 fast path of an l3 port: classify and validate the burst (RFC
 * 1812 5.2.2) while prefetching each destination's FIB entry, then per
 * packet: FIB lookup, TTL, MTU, TTL decrement with an incremental checksum,
 * link header from the next hop, and into the egress port's tx buffer. Everything else (ARP,
 * packets for us, unresolved neighbours, ICMP errors) is punted to the control thread.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_prefetch.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif

#include "core/daemon.h"
#include "core/worker.h"
#include "ip4/cksum.h"
#include "ip4/frag.h"
#include "ip4/ip4.h"
#include "ip4/nh.h"

#define L2_LEN         ((uint16_t)sizeof(struct rte_ether_hdr))
#define PREFETCH_AHEAD 4

#define R4(a)  a, a, a, a
#define R16(a) R4(a), R4(a), R4(a), R4(a)

const uint8_t ip4_dst_class[256] = {
	[0] = IP4_MARTIAN,
	[127] = IP4_MARTIAN,
	[224] = R16(IP4_MULTICAST),
	[240] = R4(IP4_MARTIAN),
	R4(IP4_MARTIAN),
	R4(IP4_MARTIAN),
	IP4_MARTIAN,
	IP4_MARTIAN,
	IP4_MARTIAN,
	[255] = IP4_BCAST_OCTET,
};

const uint8_t ip4_src_martian[256] = {
	[0] = 1,
	[127] = 1,
	[224] = R16(1),
	R16(1),
};

static inline struct rte_ipv4_hdr *ip4_hdr(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2_LEN);
}

/* RFC 1812 5.2.2 and 5.3.7 checks; returns a drop reason, or -1 when fine. */
static inline int ip4_check(struct rte_mbuf *m, const struct rte_ipv4_hdr *ip)
{
	if (unlikely(m->data_len < L2_LEN + sizeof(*ip) || m->nb_segs != 1))
		return FWD_DROP_BAD_HEADER;

	unsigned avail = m->data_len - L2_LEN;
	unsigned ihl = ip->version_ihl & 0xf;
	unsigned tot = rte_be_to_cpu_16(ip->total_length);
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	if (unlikely((ip->version_ihl & 0xf0) != 0x40 || ihl < 5 || tot < ihl * 4 || tot > avail))
		return FWD_DROP_BAD_HEADER;
	if (unlikely(ck != RTE_MBUF_F_RX_IP_CKSUM_GOOD) &&
	    (ck == RTE_MBUF_F_RX_IP_CKSUM_BAD || !ip4_cksum_ok(ip, ihl)))
		return FWD_DROP_BAD_CHECKSUM;
	if (unlikely(ip4_src_martian[((const uint8_t *)&ip->src_addr)[0]]))
		return FWD_DROP_BAD_ADDRESS;
	if (unlikely(avail > tot))
		rte_pktmbuf_trim(m, (uint16_t)(avail - tot)); /* Ethernet padding */
	return -1;
}

/* A packet built here (a fragment): its link header is all to write. */
static inline void ip4_send(struct fwd_worker *w, struct rte_mbuf *m, const struct nh4 *nh)
{
	memcpy(rte_pktmbuf_mtod(m, void *), &nh->l2, sizeof(struct rte_ether_hdr));
	fwd_tx(w, nh->port, m);
}

/* A routed packet whose next hop has no link address yet: the control thread
 * holds it until the neighbour answers. */
static inline void ip4_punt_resolve(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m,
                                    const struct nh4 *nh, uint32_t nhi)
{
	if (nh->type == NH4_PENDING)
		fwd_punt(w, m, FWD_PUNT_RESOLVE, in, nh->port, nhi, FWD_PUNT_NO_DROP);
	else
		fwd_punt(w, m, FWD_PUNT_GLEAN, in, nh->port, rte_be_to_cpu_32(ip4_hdr(m)->dst_addr),
		         FWD_PUNT_NO_DROP);
}

static void __rte_noinline ip4_fragment_out(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m,
                                            const struct nh4 *nh, uint32_t nhi)
{
	struct rte_mbuf *frags[IP4_FRAG_MAX];
	int n;

	ip4_ttl_dec(ip4_hdr(m));
	n = ip4_fragment(m, L2_LEN, nh->mtu, fwd.pool, frags, IP4_FRAG_MAX);
	if (n < 0) {
		fwd_drop(w, in, FWD_DROP_FRAG_ERROR, m);
		return;
	}
	rte_pktmbuf_free(m);
	w->stats.port[in].consumed++; /* one packet in, n out: every packet accounted for */
	w->stats.port[nh->port].created += (unsigned)n;
	for (int i = 0; i < n; i++) {
		if (nh->type == NH4_FWD)
			ip4_send(w, frags[i], nh);
		else
			ip4_punt_resolve(w, in, frags[i], nh, nhi);
	}
}

/* A destination that is not routed as unicast (RFC 1812 5.3.7): multicast and
 * the limited broadcast are ours to receive, the rest is dropped. */
static void ip4_dst_reserved(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m, uint32_t dst)
{
	if (ip4_dst_class[dst >> 24] == IP4_MULTICAST || dst == UINT32_MAX)
		fwd_punt(w, m, FWD_PUNT_LOCAL, in, in, 0, FWD_PUNT_NO_DROP);
	else
		fwd_drop(w, in, FWD_DROP_BAD_ADDRESS, m);
}

/* Next hop types other than a resolved neighbour, and oversize packets. */
static void __rte_noinline ip4_forward_slow(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m,
                                            const struct nh4 *nh, uint32_t nhi)
{
	struct rte_ipv4_hdr *ip = ip4_hdr(m);

	switch (nh->type) {
	case NH4_LOCAL:
		fwd_punt(w, m, FWD_PUNT_LOCAL, in, in, 0, FWD_PUNT_NO_DROP);
		return;
	case NH4_BLACKHOLE:
		fwd_drop(w, in, FWD_DROP_BLACKHOLE, m);
		return;
	case NH4_NONE:
		fwd_punt(w, m, FWD_PUNT_NO_ROUTE, in, in, 0, FWD_DROP_NO_ROUTE);
		return;
	case NH4_RESERVED:
		ip4_dst_reserved(w, in, m, rte_be_to_cpu_32(ip->dst_addr));
		return;
	default:
		break;
	}
	if (ip->time_to_live <= 1) {
		fwd_punt(w, m, FWD_PUNT_TTL, in, nh->port, 0, FWD_DROP_TTL_EXCEEDED);
		return;
	}
	if (rte_be_to_cpu_16(ip->total_length) > nh->mtu) {
		if (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG))
			fwd_punt(w, m, FWD_PUNT_FRAG_NEEDED, in, nh->port, nh->mtu, FWD_DROP_MTU);
		else
			ip4_fragment_out(w, in, m, nh, nhi);
		return;
	}
	ip4_ttl_dec(ip);
	ip4_punt_resolve(w, in, m, nh, nhi);
}

/* What the forwarding loop reads per burst, kept out of memory that packet
 * writes could alias. */
struct ip4_burst {
	struct fib4_view fib;
	const struct nh4 *nh;
	uint8_t in;
};

static inline void ip4_forward(struct fwd_worker *w, const struct ip4_burst *b, struct rte_mbuf *m,
                               uint32_t dst, struct fwd_txc *txc)
{
	uint32_t nhi = fib4_lookup_view(b->fib, dst);
	const struct nh4 *nh = &b->nh[nhi];
	uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + L2_LEN);
	/* classification left the frame exactly the packet (padding trimmed) */
	uint16_t len = m->data_len;

	/* fwd_len is 0 unless the next hop forwards: one test for type and size */
	if (likely(ip->time_to_live > 1) &&
	    likely(len <= __atomic_load_n(&nh->fwd_len, __ATOMIC_ACQUIRE))) {
		uint8_t port = nh->port;
		ip4_ttl_dec(ip);
		/* the addresses only: the Ethernet type is already IPv4 */
		memcpy(eth, &nh->l2, 2 * RTE_ETHER_ADDR_LEN);
		fwd_txc_put(w, txc, port, m, len);
		return;
	}
	fwd_txc_sync(w, txc);
	ip4_forward_slow(w, b->in, m, nh, nhi);
}

/* Frames sent to a link-layer group address are never forwarded (RFC 1812 5.3.4). */
static void __rte_noinline ip4_group_frame(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip = ip4_hdr(m);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	uint8_t cls = ip4_dst_class[dst >> 24];

	if (cls == IP4_MULTICAST || dst == UINT32_MAX ||
	    nh4_table[fib4_lookup(ip4_fib, dst)].type == NH4_LOCAL)
		fwd_punt(w, m, FWD_PUNT_LOCAL, in, in, 0, FWD_PUNT_NO_DROP);
	else
		fwd_drop(w, in, FWD_DROP_NOT_FOR_US, m);
}

/*
 * The first 16 bytes of a frame to route, as one masked compare: our MAC,
 * any source MAC, Ethernet type IPv4, version 4 with IHL 5 (bytes 0-5 and
 * 12-14; little-endian 64-bit halves).
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

static __rte_always_inline bool ip4_head_ok(const uint8_t *p, const struct ip4_head *h)
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
 * The common case in one pass and few branches: an option-less IPv4 packet
 * to our MAC, lengths consistent, checksum right, a unicast source. Any
 * doubt sends the frame through ip4_classify, which finds the exact reason.
 * The frame leaves exactly as long as the packet (Ethernet padding trimmed),
 * so ip4_forward compares the frame length with the next hop's.
 */
static __rte_always_inline bool ip4_fast(struct rte_mbuf *m, const struct ip4_head *h,
                                         const uint32_t *tbl24, bool hw_cksum, uint32_t *dst)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + L2_LEN);
	unsigned frame = __builtin_bswap16(ip->total_length) + L2_LEN;

	/* frame >= 34 and frame <= data_len also say data_len >= 34 (a non-scattered
	 * rx holds a frame in one segment) */
	if (unlikely(!ip4_head_ok(p, h)) || unlikely(frame < L2_LEN + sizeof(*ip)))
		return false;
	if (unlikely(frame != m->data_len)) {
		if (frame > m->data_len)
			return false;
		m->data_len = (uint16_t)frame; /* Ethernet padding */
		m->pkt_len = frame;
	}
	/* a NIC that checks leaves GOOD; anything else gets the full check, slowly */
	if (hw_cksum ? unlikely((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) !=
	                        RTE_MBUF_F_RX_IP_CKSUM_GOOD)
	             : unlikely(!ip4_cksum20_ok(ip)))
		return false;
	if (unlikely(ip4_src_martian[((const uint8_t *)&ip->src_addr)[0]]))
		return false;
	/* a destination not routed as unicast finds NH4_RESERVED in the FIB */
	*dst = rte_be_to_cpu_32(ip->dst_addr);
	/* the FIB entry, for the lookup a few packets later */
	rte_prefetch0(&tbl24[*dst >> 8]);
	return true;
}

/* Classify one frame; returns true when it is a unicast IPv4 packet to route. */
static bool __rte_noinline ip4_classify(struct fwd_worker *w, const struct fwd_port *in,
                                        struct rte_mbuf *m, uint32_t *dst)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = ip4_hdr(m);
	int bad;

	if (unlikely(m->data_len < L2_LEN)) {
		fwd_drop(w, in->idx, FWD_DROP_BAD_HEADER, m);
		return false;
	}
	if (unlikely(eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))) {
		if (eth->ether_type == rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP))
			fwd_punt(w, m, FWD_PUNT_ARP, in->idx, in->idx, 0, FWD_PUNT_NO_DROP);
		else
			fwd_drop(w, in->idx, FWD_DROP_UNSUPPORTED, m);
		return false;
	}
	bad = ip4_check(m, ip);
	if (unlikely(bad >= 0)) {
		fwd_drop(w, in->idx, bad, m);
		return false;
	}
	if (unlikely(rte_is_multicast_ether_addr(&eth->dst_addr))) {
		ip4_group_frame(w, in->idx, m);
		return false;
	}
	if (unlikely(!rte_is_same_ether_addr(&eth->dst_addr, &in->mac))) {
		fwd_drop(w, in->idx, FWD_DROP_NOT_FOR_US, m);
		return false;
	}
	*dst = rte_be_to_cpu_32(ip->dst_addr);
	if (unlikely(ip4_dst_class[*dst >> 24] != IP4_UNICAST)) {
		ip4_dst_reserved(w, in->idx, m, *dst);
		return false;
	}
	return true;
}

/* One frame of the burst: counted, classified, kept in route[] when routable. */
static __rte_always_inline void ip4_take(struct fwd_worker *w, const struct fwd_port *in,
                                         const struct ip4_head *h, const uint32_t *tbl24,
                                         bool hw_cksum, struct rte_mbuf *m, struct rte_mbuf **route,
                                         uint32_t *dst, unsigned *k, uint64_t *bytes)
{
	*bytes += m->pkt_len;
	if (likely(ip4_fast(m, h, tbl24, hw_cksum, &dst[*k])) || ip4_classify(w, in, m, &dst[*k]))
		route[(*k)++] = m;
}

/* Classify the burst into route[]/dst[]; returns how many are routable. With
 * hw_cksum a constant at each call, each port kind gets a loop of its own. */
static __rte_always_inline unsigned ip4_take_all(struct fwd_worker *w, const struct fwd_port *in,
                                                 const uint32_t *tbl24, bool hw_cksum,
                                                 struct rte_mbuf **pkts, uint16_t n,
                                                 struct rte_mbuf **route, uint32_t *dst)
{
	const struct ip4_head h = ip4_head(in->mac48);
	uint64_t bytes = 0;
	unsigned i, k = 0;

	for (i = 0; i < n && i < PREFETCH_AHEAD; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i + PREFETCH_AHEAD < n; i++) {
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i + PREFETCH_AHEAD], void *));
		ip4_take(w, in, &h, tbl24, hw_cksum, pkts[i], route, dst, &k, &bytes);
	}
	for (; i < n; i++)
		ip4_take(w, in, &h, tbl24, hw_cksum, pkts[i], route, dst, &k, &bytes);
	w->stats.port[in->idx].rx_bytes += bytes;
	return k;
}

static void ip4_input(struct fwd_worker *w, const struct fwd_port *in, struct rte_mbuf **pkts,
                      uint16_t n)
{
	struct rte_mbuf *route[FWD_BURST_MAX];
	uint32_t dst[FWD_BURST_MAX];
	struct fwd_txc txc = FWD_TXC_INIT;
	const struct ip4_burst b = { fib4_view(ip4_fib), nh4_table, in->idx };
	unsigned k;

	/* classify and validate all, prefetching FIB entries, then look up and send:
	 * the lookups find their tbl24 lines in cache */
	if (in->rx_ip4_cksum)
		k = ip4_take_all(w, in, b.fib.tbl24, true, pkts, n, route, dst);
	else
		k = ip4_take_all(w, in, b.fib.tbl24, false, pkts, n, route, dst);
	for (unsigned i = 0; i < k; i++)
		ip4_forward(w, &b, route[i], dst[i], &txc);
	fwd_txc_sync(w, &txc);
}

RTE_INIT(ip4_input_register)
{
	fwd_worker_set_input(FWD_MODE_L3, ip4_input);
}
