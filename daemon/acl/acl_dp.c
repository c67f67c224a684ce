/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACLs on the fast path (workers): the keys of a burst's packets, one
 * rte_acl classification per class per burst, the verdicts. Ingress runs
 * before the mode's input (so before the route lookup), egress on the tx
 * burst after it (core/worker.h, "Filters"). ARP, NDP and anything that is
 * not IP pass untouched: what is malformed the input checks drop.
 */
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "acl/acl.h"
#include "acl/acl_cache.h"
#include "acl/acl_pre.h"
#include "ip4/icmp.h"
#include "ip6/icmp6.h"

#define L2_LEN    14u
#define ACL_CHUNK 64u /* packets classified at a time */

/* TCP, UDP and SCTP: the protocols whose ports rules match, by number */
static const bool ports_proto[256] = {
	[IPPROTO_TCP] = true, [IPPROTO_UDP] = true, [IPPROTO_SCTP] = true
};

static bool has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP;
}

/* A copy's ports (TCP, UDP, SCTP), or ICMP type and code in their places
 * as 16-bit numbers, from l4; 0 when the packet has none. */
static void l4_fields(const uint8_t *l4, size_t avail, uint8_t proto, uint8_t *ports)
{
	memset(ports, 0, 4);
	if (has_ports(proto) && avail >= 4) {
		memcpy(ports, l4, 4); /* sport, dport: network order, as rte_acl reads */
	} else if ((proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6) && avail >= 2) {
		ports[1] = l4[0];
		ports[3] = l4[1];
	}
}

/* An IPv4 header whose ports are not right after it, or that has none. */
static int __rte_noinline key4_copy(const uint8_t *ip, size_t hlen, size_t tot, struct acl_key *k,
                                    const uint8_t **data)
{
	memcpy(k->b, ip, 20);
	l4_fields(ip + hlen, tot > hlen ? tot - hlen : 0, ip[9], k->b + ACL4_PORTS);
	*data = k->b;
	return ACL_V4;
}

static __rte_always_inline int key4(const uint8_t *ip, size_t len, struct acl_key *k,
                                    const uint8_t **data)
{
	size_t hlen = (ip[0] & 0xfu) * 4u, tot;

	if (len < 20 || (ip[0] >> 4) != 4 || hlen < 20 || hlen > len)
		return -1;
	tot = RTE_MIN((size_t)(ip[2] << 8 | ip[3]), len);
	*data = ip;
	/* a non-first fragment's context reads no ports: its header as it is */
	if (((ip[6] << 8 | ip[7]) & RTE_IPV4_HDR_OFFSET_MASK) != 0)
		return ACL_V4 | ACL_FRAG;
	if (hlen == 20 && tot >= ACL4_LEN && has_ports(ip[9]))
		return ACL_V4; /* the ports right after the header: in place */
	return key4_copy(ip, hlen, tot, k, data);
}

/* Past the extension headers (RFC 8200 4) to the upper layer: *off is its
 * offset, *proto its type (or the header that could not be passed);
 * true for a non-first fragment. */
static bool chain6(const uint8_t *ip, size_t len, uint8_t *proto, size_t *off)
{
	uint8_t nh = ip[6];
	bool frag = false;

	*off = 40;
	for (unsigned i = 0; i < 8 && !frag; i++) {
		const uint8_t *h = ip + *off;
		size_t hl;

		if (nh == IPPROTO_FRAGMENT && *off + 8 <= len) {
			frag = (h[2] << 8 | h[3]) >> 3 != 0; /* the rest is in the first fragment */
			hl = 8;
		} else if ((nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
		            nh == IPPROTO_DSTOPTS) &&
		           *off + 2 <= len) {
			hl = (h[1] + 1u) * 8u;
		} else if (nh == IPPROTO_AH && *off + 2 <= len) {
			hl = (h[1] + 2u) * 4u;
		} else {
			break;
		}
		nh = h[0];
		*off += hl;
	}
	*proto = nh;
	return frag;
}

static int __rte_noinline key6(const uint8_t *ip, size_t len, struct acl_key *k,
                               const uint8_t **data)
{
	size_t off, tot;
	uint8_t proto;

	if (len < 40 || (ip[0] >> 4) != 6)
		return -1;
	tot = RTE_MIN(40u + (size_t)(ip[4] << 8 | ip[5]), len);
	*data = ip;
	if (has_ports(ip[6]) && tot >= ACL6_LEN)
		return ACL_V6; /* no extension header, the ports in place */
	memcpy(k->b, ip, 40);
	*data = k->b;
	if (chain6(ip, tot, &proto, &off)) {
		k->b[ACL6_PROTO] = proto;
		return ACL_V6 | ACL_FRAG;
	}
	k->b[ACL6_PROTO] = proto;
	l4_fields(ip + off, tot > off ? tot - off : 0, proto, k->b + ACL6_PORTS);
	/* NDP (RFC 4861, types 133-137) is never filtered */
	if (proto == IPPROTO_ICMPV6 && tot >= off + 2 && ip[off] >= 133 && ip[off] <= 137)
		return -1;
	return ACL_V6;
}

/* What most packets are, read in place without key_of's steps: IPv4
 * without options, not a non-first fragment, carrying TCP, UDP or SCTP
 * whose ports are within what the header says it holds (key4's in-place
 * case: the class is ACL_V4). NULL for any other. l2: the Ethernet
 * header's length (L2_LEN, or L2_LEN + 4 with an 802.1Q tag). */
static __rte_always_inline const uint8_t *in_place4(const struct rte_mbuf *m, unsigned l2)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *), *ip = p + l2;
	uint32_t head; /* the ethertype, then the IPv4 header's first two bytes */
	uint16_t off, tot;

	if (unlikely(rte_pktmbuf_data_len(m) < l2 + ACL4_LEN))
		return NULL;
	memcpy(&head, p + l2 - 2, 4);
	memcpy(&tot, ip + 2, 2);
	memcpy(&off, ip + 6, 2);
	if ((head & rte_cpu_to_be_32(0xffffff00)) != rte_cpu_to_be_32(0x08004500) ||
	    (off & rte_cpu_to_be_16(RTE_IPV4_HDR_OFFSET_MASK)) != 0 ||
	    rte_be_to_cpu_16(tot) < ACL4_LEN || !ports_proto[ip[ACL4_PROTO]])
		return NULL;
	return ip;
}

/* acl_key_of, inlined into the burst's loop (l2: as in_place4) */
static __rte_always_inline int key_of(const struct rte_mbuf *m, unsigned l2, struct acl_key *k,
                                      const uint8_t **data)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	size_t len = rte_pktmbuf_data_len(m);
	uint16_t type;

	if (len < l2)
		return -1;
	memcpy(&type, p + l2 - 2, 2);
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
		return key4(p + l2, len - l2, k, data);
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6))
		return key6(p + l2, len - l2, k, data);
	return -1;
}

int acl_key_of(const struct rte_mbuf *m, struct acl_key *k, const uint8_t **data)
{
	return key_of(m, L2_LEN, k, data);
}

/* The port index of the DPDK port a packet arrived on (its ICMP error is
 * sourced there); `dflt` when none. Rare: rejects only. */
static uint16_t rx_port_of(const struct rte_mbuf *m, uint16_t dflt)
{
	for (unsigned i = 0; i < fwd_n_ports; i++)
		if (fwd_ports[i].port_id == m->port)
			return (uint16_t)i;
	return dflt;
}

/* Drop m as `acl`, or refuse it with ICMP administratively prohibited
 * (rate-limited on the control thread like every error). A punt names an
 * interface: on ingress the one filtering (a VLAN's error leaves tagged
 * on it, fwd_control_tx), on egress the port m arrived on; a frame
 * filtered with its tag (egress on a VLAN) loses it first, as the
 * control thread reads an untagged frame. */
static void __rte_noinline acl_refuse(struct fwd_worker *w, uint16_t iface, uint8_t dir,
                                      struct rte_mbuf *m, uint8_t action, int fam, unsigned l2)
{
	uint16_t in;

	if (action != FWD_ACL_REJECT) {
		fwd_drop(w, iface, FWD_DROP_ACL, m);
		return;
	}
	in = dir == FWD_FILTER_IN ? iface : rx_port_of(m, fwd_ifaces[iface].port);
	if (l2 != L2_LEN)
		fwd_vlan_strip(m, rte_pktmbuf_mtod(m, uint8_t *));
	if ((fam & 1) == ACL_V4)
		fwd_punt(w, m, FWD_PUNT_NO_ROUTE, in, in, ICMP4_ADMIN_PROHIBITED, FWD_DROP_ACL);
	else
		fwd_punt(w, m, FWD_PUNT_ICMP6, in, in,
		         icmp6_punt_aux(ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_ADMIN, 0),
		         FWD_DROP_ACL);
}

/* One filtering of a burst (or of a run of one interface's frames in a
 * port's tx burst): what every packet's verdict needs. The counts of a
 * run of packets on one rule are summed here (tally) and added to the
 * rule's counters when the rule changes and at the end. */
struct acl_run {
	struct fwd_worker *w;
	const struct acl_set *s;
	const struct acl_pre *pre;   /* s's pre-filter, NULL: none */
	struct acl_hits *hits;       /* the worker's column of s */
	struct acl_cache *cache_own; /* the worker's, NULL: none */
	struct acl_cache *cache;     /* the chunk's: cache_own, or NULL while it rests */
	uint64_t tag;                /* acl_cache_tag */
	uint64_t *bytes;
	uint32_t rule; /* the tally's rule, ACL_PRE_NONE: none yet */
	uint32_t pkts; /* the tally: packets and bytes on rule */
	uint64_t tbytes;
	uint16_t iface;
	uint8_t dir;
	uint8_t l2;  /* the Ethernet header's length: L2_LEN, + 4 tagged */
	uint8_t act; /* rule's action */
};

/* A chunk's packets the pre-filter did not answer (their keys, their
 * probes of the cache), and its misses, by class, in their order. */
struct acl_misses {
	struct acl_key k[ACL_CHUNK]; /* the copies of the headers that need one */
	struct acl_cprobe p[ACL_CHUNK];
	struct rte_mbuf *um[ACL_CHUNK];
	const uint8_t *key[ACL_CHUNK];
	int8_t fam[ACL_CHUNK]; /* each one's class */
	struct rte_mbuf *m[ACL_CLASSES][ACL_CHUNK];
	const uint8_t *d[ACL_CLASSES][ACL_CHUNK];
	uint32_t res[ACL_CHUNK];
	unsigned n[ACL_CLASSES];
};

/* The tally into the rule's counters. */
static __rte_always_inline void tally_flush(struct acl_run *r)
{
	if (r->pkts == 0)
		return;
	r->hits[r->rule].pkts += r->pkts;
	r->hits[r->rule].bytes += r->tbytes;
	r->pkts = 0;
	r->tbytes = 0;
}

/* Count m on rule, then keep it at pkts[keep] (permitted) or refuse it.
 * Returns where the kept end. */
static __rte_always_inline unsigned verdict(struct acl_run *r, struct rte_mbuf **pkts,
                                            unsigned keep, struct rte_mbuf *m, uint32_t rule,
                                            int fam)
{
	if (unlikely(rule != r->rule)) {
		tally_flush(r);
		r->rule = rule;
		r->act = r->s->action[rule];
	}
	r->pkts++;
	r->tbytes += m->pkt_len;
	if (likely(r->act == FWD_ACL_PERMIT)) {
		pkts[keep] = m;
		return keep + 1;
	}
	if (r->bytes != NULL)
		*r->bytes -= m->pkt_len;
	else
		r->w->stats.port[r->iface].rx_bytes += m->pkt_len;
	acl_refuse(r->w, r->iface, r->dir, m, r->act, fam, r->l2);
	return keep;
}

/* The misses: one classification per class, remembered, then their
 * verdicts. */
static unsigned misses_apply(struct acl_run *r, struct acl_misses *x, struct rte_mbuf **pkts,
                             unsigned keep)
{
	for (int f = 0; f < ACL_CLASSES; f++) {
		if (x->n[f] == 0)
			continue;
		acl_set_classify(r->s, f, x->d[f], x->res, x->n[f]);
		for (unsigned j = 0; j < x->n[f]; j++) {
			if (r->cache != NULL)
				acl_cache_fill(r->cache, r->tag, f, x->d[f][j], x->res[j]);
			keep = verdict(r, pkts, keep, x->m[f][j], x->res[j], f);
		}
	}
	return keep;
}

/* The nu packets of a chunk the pre-filter left: the cache's answers,
 * the others classified after the loop. */
static unsigned unanswered(struct acl_run *r, struct acl_misses *x, struct rte_mbuf **pkts,
                           unsigned nu, unsigned keep)
{
	unsigned nm = 0;

	memset(x->n, 0, sizeof(x->n));
	for (unsigned i = 0; i < nu; i++) {
		int f = x->fam[i];
		uint32_t rule =
		        r->cache != NULL ? acl_cache_probe(&x->p[i], r->tag, f) : ACL_CACHE_MISS;

		if (likely(rule != ACL_CACHE_MISS)) {
			keep = verdict(r, pkts, keep, x->um[i], rule, f);
			continue;
		}
		nm++;
		x->m[f][x->n[f]] = x->um[i];
		x->d[f][x->n[f]++] = x->key[i];
	}
	if (r->cache != NULL)
		acl_cache_account(r->cache, nu, nm);
	return nm != 0 ? misses_apply(r, x, pkts, keep) : keep;
}

/* The chunk loop's count of a run of permitted packets into the tally. */
static __rte_always_inline void tally_add(struct acl_run *r, uint32_t *cnt, uint64_t *bytes)
{
	r->pkts += *cnt;
	r->tbytes += *bytes;
	*cnt = 0;
	*bytes = 0;
}

/* Leave m (class f, key d) to the cache and rte_acl, as x's nu-th. */
static __rte_always_inline void defer(const struct acl_run *r, struct acl_misses *x, unsigned nu,
                                      struct rte_mbuf *m, int f, const uint8_t *d)
{
	x->um[nu] = m;
	x->fam[nu] = (int8_t)f;
	x->key[nu] = d;
	if (r->cache != NULL)
		acl_cache_prepare(r->cache, f, d, &x->p[nu]);
}

/* The chunk of n packets at pkts[at] (l2: as in_place4): what ACLs never
 * filter and what the pre-filter answers at once, the others (their
 * sets of the cache on their way from memory) after the loop; the kept
 * move down to pkts[keep] on (keep <= at + i: each is read before its
 * slot is written; a flow's packets all take the same way, so none
 * overtakes another of its flow). The pre-filter's tables and the tally
 * of a run of permitted packets on one rule stay in locals (the common
 * case: no store but the kept packet). Returns where the kept end. */
static __rte_always_inline unsigned chunk_filter(struct acl_run *r, struct acl_misses *x,
                                                 struct rte_mbuf **pkts, unsigned at, unsigned n,
                                                 unsigned keep, unsigned l2)
{
	struct acl_pre pre = { 0 };
	bool has_pre = r->pre != NULL;
	uint32_t rule, run = r->act == FWD_ACL_PERMIT ? r->rule : ACL_PRE_NONE, cnt = 0;
	uint64_t bytes = 0;
	unsigned nu = 0;

	if (has_pre)
		pre = *r->pre;
	r->cache = r->cache_own != NULL && acl_cache_use(r->cache_own) ? r->cache_own : NULL;
	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[at + i];
		const uint8_t *d = in_place4(m, l2);
		int f = likely(d != NULL) ? ACL_V4 : key_of(m, l2, &x->k[nu], &d);

		if (unlikely(f < 0)) {
			pkts[keep++] = m;
			continue;
		}
		if (f == ACL_V4 && has_pre && (rule = acl_pre_match(&pre, d)) != ACL_PRE_NONE) {
			if (likely(rule == run)) { /* permitted, as the one before */
				cnt++;
				bytes += m->pkt_len;
				pkts[keep++] = m;
				continue;
			}
			tally_add(r, &cnt, &bytes);
			keep = verdict(r, pkts, keep, m, rule, f);
			run = r->act == FWD_ACL_PERMIT ? r->rule : ACL_PRE_NONE;
			continue;
		}
		defer(r, x, nu++, m, f, d);
	}
	tally_add(r, &cnt, &bytes);
	return nu != 0 ? unanswered(r, x, pkts, nu, keep) : keep;
}

/* n frames of one interface at pkts[0..n), filtered by set s: the kept
 * at the front; how many. */
static __rte_always_inline unsigned run_filter(struct acl_run *r, const struct acl_state *st,
                                               const struct acl_set *s, struct rte_mbuf **pkts,
                                               unsigned n, unsigned l2)
{
	struct acl_misses x;
	unsigned keep = 0;

	r->s = s;
	r->pre = s->pre;
	r->hits = s->hits[r->w->index];
	r->tag = acl_cache_tag(st, s);
	r->l2 = (uint8_t)l2;
	r->rule = ACL_PRE_NONE;
	r->act = FWD_ACL_DENY;
	r->pkts = 0;
	r->tbytes = 0;
	for (unsigned i = 0; i < n; i += ACL_CHUNK)
		keep = chunk_filter(r, &x, pkts, i, RTE_MIN(ACL_CHUNK, n - i), keep, l2);
	tally_flush(r);
	return keep;
}

static unsigned __rte_noinline run_tagged(struct acl_run *r, const struct acl_state *st,
                                          const struct acl_set *s, struct rte_mbuf **pkts,
                                          unsigned n)
{
	return run_filter(r, st, s, pkts, n, L2_LEN + 4);
}

static unsigned __rte_noinline run_untagged(struct acl_run *r, const struct acl_state *st,
                                            const struct acl_set *s, struct rte_mbuf **pkts,
                                            unsigned n)
{
	return run_filter(r, st, s, pkts, n, L2_LEN);
}

/* The interface a frame on port's tx burst leaves on: a VLAN's by its
 * 802.1Q tag (fwd_iface_by_vlan's map), else the port. *l2: the
 * Ethernet header's length. FWD_IFACE_NONE: a tag of no interface. */
static uint16_t tx_iface_of(const struct rte_mbuf *m, uint16_t port, const uint16_t *map,
                            unsigned *l2)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t type;

	*l2 = L2_LEN;
	if (map == NULL || rte_pktmbuf_data_len(m) < L2_LEN + 4)
		return port;
	memcpy(&type, p + 12, 2);
	if (type != rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN))
		return port;
	*l2 = L2_LEN + 4;
	return map[(p[14] << 8 | p[15]) & 0xfff];
}

/* A port's tx burst when one of its VLANs has an acl_out: runs of frames
 * of one interface, each through its interface's ACL (none: kept); a
 * frame tagged for no interface is kept (the port's ACL never saw
 * tagged frames). The kept move down in order. */
static unsigned __rte_noinline trunk_out(struct acl_run *r, const struct acl_state *st,
                                         struct rte_mbuf **pkts, unsigned n)
{
	const uint16_t *map = __atomic_load_n(&fwd_ports[r->iface].vlan_map, __ATOMIC_ACQUIRE);
	unsigned port = r->iface, keep = 0;

	for (unsigned i = 0, end; i < n; i = end) {
		unsigned l2, l2e;
		uint16_t id = tx_iface_of(pkts[i], (uint16_t)port, map, &l2), k;
		const struct acl_set *s = id == FWD_IFACE_NONE ? NULL : st->out[id];

		for (end = i + 1; end < n; end++)
			if (tx_iface_of(pkts[end], (uint16_t)port, map, &l2e) != id || l2e != l2)
				break;
		if (s == NULL) {
			k = (uint16_t)(end - i);
		} else {
			r->iface = id;
			k = (uint16_t)(l2 == L2_LEN ? run_untagged(r, st, s, pkts + i, end - i)
			                            : run_tagged(r, st, s, pkts + i, end - i));
		}
		memmove(pkts + keep, pkts + i, k * sizeof(*pkts));
		keep += k;
	}
	return keep;
}

uint16_t acl_filter(struct fwd_worker *w, uint16_t iface, uint8_t dir, struct rte_mbuf **pkts,
                    uint16_t n, uint64_t *bytes)
{
	const struct acl_state *st = __atomic_load_n(&acl_state, __ATOMIC_ACQUIRE);
	struct acl_run r = { .w = w, .bytes = bytes, .iface = iface, .dir = dir };
	const struct acl_set *s;

	if (st == NULL)
		return n;
	r.cache_own = acl_caches[w->index];
	if (dir == FWD_FILTER_OUT && iface < FWD_MAX_PORTS && unlikely(st->vlan_out[iface]))
		return (uint16_t)trunk_out(&r, st, pkts, n);
	s = dir == FWD_FILTER_IN ? st->in[iface] : st->out[iface];
	if (s == NULL)
		return n;
	return (uint16_t)run_filter(&r, st, s, pkts, n, L2_LEN);
}
