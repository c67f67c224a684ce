/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACL tests' packets and rules (acl_test.c, acl_pre_test.c): random rules
 * and packets of both families, the frames that carry them, and a
 * brute-force first match written from fwd.yaml(5), not from the
 * compiler; filter_check drives acl_filter and holds its verdicts and
 * counters to it.
 */
#ifndef FWD_ACL_TEST_UTIL_H
#define FWD_ACL_TEST_UTIL_H

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_malloc.h>

#include "acl/acl.h"
#include "acl/acl_cache.h"

static struct rte_mempool *pool;

/* ------------------------------------------------------- classification */

/* A packet as the generator means it (what the brute force reads). */
struct pkt {
	int fam;
	uint8_t src[16], dst[16]; /* IPv4: the first 4 bytes */
	uint8_t proto, dscp, itype, icode;
	uint16_t sport, dport;
	bool frag;  /* non-first fragment */
	bool ext;   /* IPv6: a hop-by-hop header (and a fragment header when frag) first */
	bool first; /* IPv4/IPv6: a first fragment (offset 0, more fragments) */
	bool opt;   /* IPv4: 4 bytes of options (so the ports are not in place) */
};

static inline uint32_t rnd(uint32_t n)
{
	return (uint32_t)random() % n;
}

static inline bool in_prefix(const struct pkt *p, const uint8_t *a, const struct fwd_prefix *pf)
{
	if (pf->family == 0)
		return true;
	if (pf->family != (p->fam == ACL_V4 ? AF_INET : AF_INET6))
		return false;
	if (pf->family == AF_INET) {
		uint32_t v =
		        (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
		return ((v ^ pf->v4) & fwd_ip4_mask(pf->len)) == 0;
	}
	return fwd_ip6_in_prefix(a, pf->v6, pf->len);
}

static inline bool has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP;
}

/* Does rule r match packet p? Written from fwd.yaml(5), not from the compiler. */
static inline bool brute_match(const struct acl_rule *r, const struct pkt *p)
{
	bool ports = has_ports(p->proto) && !p->frag;
	bool icmp = (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) && !p->frag;
	uint16_t sp = ports ? p->sport : 0, dp = ports ? p->dport : 0;

	if (!acl_rule_in_family(r, p->fam == ACL_V4 ? AF_INET : AF_INET6))
		return false;
	if (!in_prefix(p, p->src, &r->src) || !in_prefix(p, p->dst, &r->dst))
		return false;
	if (r->proto >= 0 && r->proto != p->proto)
		return false;
	if (sp < r->sport_lo || sp > r->sport_hi || dp < r->dport_lo || dp > r->dport_hi)
		return false;
	if (r->icmp_type >= 0 && (!icmp || r->icmp_type != p->itype))
		return false;
	if (r->icmp_code >= 0 && (!icmp || r->icmp_code != p->icode))
		return false;
	if (r->dscp >= 0 && r->dscp != p->dscp)
		return false;
	if ((r->fragment && !p->frag) || (r->l4 && p->frag))
		return false;
	return true;
}

static inline uint32_t brute(const struct acl_rule *rules, unsigned n, const struct pkt *p)
{
	for (unsigned i = 0; i < n; i++)
		if (brute_match(&rules[i], p))
			return i + 1;
	return 0;
}

static const uint8_t protos[] = { IPPROTO_TCP,  IPPROTO_UDP,    IPPROTO_SCTP,
	                          IPPROTO_ICMP, IPPROTO_ICMPV6, 47 };

/* Addresses from a small pool so that prefixes and packets meet. */
static inline void rnd_addr(uint8_t *a, int fam)
{
	memset(a, 0, 16);
	if (fam == ACL_V4) {
		a[0] = (uint8_t)(10 + rnd(2));
		a[1] = (uint8_t)rnd(4);
		a[2] = (uint8_t)rnd(256);
		a[3] = (uint8_t)rnd(256);
		return;
	}
	a[0] = 0x20;
	a[1] = 0x01;
	a[2] = 0x0d;
	a[3] = 0xb8;
	a[4] = (uint8_t)rnd(4);
	a[7] = (uint8_t)rnd(256);
	a[15] = (uint8_t)rnd(256);
}

/* The longest IPv6 prefix rnd_prefix makes: at 64, the contexts leave out
 * the addresses' last words (acl_build.c, fields_for). */
static unsigned max_len6 = 128;

static inline void rnd_prefix(struct fwd_prefix *pf, int fam)
{
	uint8_t a[16];

	rnd_addr(a, fam);
	memset(pf, 0, sizeof(*pf));
	pf->family = fam == ACL_V4 ? AF_INET : AF_INET6;
	pf->len = (uint8_t)(fam == ACL_V4 ? rnd(33) : rnd(max_len6 + 1));
	if (fam == ACL_V4)
		pf->v4 =
		        ((uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3]) &
		        fwd_ip4_mask(pf->len);
	else
		for (unsigned i = 0; i < 16; i++) {
			int bits = (int)pf->len - 8 * (int)i;
			pf->v6[i] = bits >= 8   ? a[i]
			            : bits <= 0 ? 0
			                        : (uint8_t)(a[i] & (0xff << (8 - bits)));
		}
}

static inline void rnd_range(char *s, size_t len)
{
	uint32_t a = rnd(3) == 0 ? rnd(65536) : rnd(40), b = a + rnd(3) * rnd(30);

	if (b > 65535)
		b = 65535;
	if (a == b)
		snprintf(s, len, "%u", a);
	else
		snprintf(s, len, "%u-%u", a, b);
}

/* A random rule that acl_rule_parse accepts. */
static inline void rnd_rule(struct fwd_conf_acl_rule *c)
{
	int fam = (int)rnd(3); /* 0: IPv4, 1: IPv6, 2: none */
	uint8_t proto = rnd(4) == 0 ? 0 : protos[rnd(RTE_DIM(protos))];

	memset(c, 0, sizeof(*c));
	c->action = (enum fwd_acl_action)rnd(3);
	if (proto == IPPROTO_ICMP && fam == 1)
		proto = IPPROTO_ICMPV6;
	if (proto == IPPROTO_ICMPV6 && fam == 0)
		proto = IPPROTO_ICMP;
	if (fam < 2 && rnd(2))
		rnd_prefix(&c->src, fam);
	if (fam < 2 && rnd(2))
		rnd_prefix(&c->dst, fam);
	if (proto != 0)
		snprintf(c->proto, sizeof(c->proto), "%u", proto);
	if (has_ports(proto) && rnd(2))
		rnd_range(c->sport, sizeof(c->sport));
	if (has_ports(proto) && rnd(2))
		rnd_range(c->dport, sizeof(c->dport));
	if ((proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6) && rnd(2))
		snprintf(c->icmp_type, sizeof(c->icmp_type), "%u", rnd(4));
	if ((proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6) && rnd(3) == 0)
		snprintf(c->icmp_code, sizeof(c->icmp_code), "%u", rnd(2));
	if (rnd(6) == 0)
		snprintf(c->dscp, sizeof(c->dscp), "%u", rnd(3) * 10);
	c->fragment = rnd(10) == 0 && !c->sport[0] && !c->dport[0] && !c->icmp_type[0] &&
	              !c->icmp_code[0];
}

static inline void rnd_pkt(struct pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->fam = (int)rnd(2);
	rnd_addr(p->src, p->fam);
	rnd_addr(p->dst, p->fam);
	p->proto = protos[rnd(RTE_DIM(protos))];
	if (p->proto == IPPROTO_ICMP && p->fam == ACL_V6)
		p->proto = IPPROTO_ICMPV6;
	if (p->proto == IPPROTO_ICMPV6 && p->fam == ACL_V4)
		p->proto = IPPROTO_ICMP;
	p->dscp = (uint8_t)(rnd(3) * 10);
	p->sport = (uint16_t)(rnd(3) == 0 ? rnd(65536) : rnd(70));
	p->dport = (uint16_t)(rnd(3) == 0 ? rnd(65536) : rnd(70));
	p->itype = (uint8_t)rnd(4); /* never NDP's 133-137 */
	p->icode = (uint8_t)rnd(2);
	p->frag = rnd(8) == 0;
	p->first = !p->frag && rnd(8) == 0;
	p->ext = p->fam == ACL_V6 && (p->frag || rnd(4) == 0);
	p->opt = p->fam == ACL_V4 && rnd(4) == 0;
}

/* The L4 header's first bytes: ports, or ICMP type and code. */
static inline size_t put_l4(uint8_t *l4, const struct pkt *p)
{
	memset(l4, 0, 8);
	if (has_ports(p->proto)) {
		l4[0] = (uint8_t)(p->sport >> 8);
		l4[1] = (uint8_t)p->sport;
		l4[2] = (uint8_t)(p->dport >> 8);
		l4[3] = (uint8_t)p->dport;
	} else {
		l4[0] = p->itype;
		l4[1] = p->icode;
	}
	return 8;
}

static inline size_t put_ip4(uint8_t *ip, const struct pkt *p)
{
	size_t hlen = p->opt ? 24 : 20, len = hlen + put_l4(ip + hlen, p);
	uint16_t off = p->frag ? (uint16_t)(1 + rnd(100)) : p->first ? 0x2000 : 0;

	ip[0] = (uint8_t)(0x40 | hlen / 4);
	ip[1] = (uint8_t)(p->dscp << 2 | rnd(4)); /* and ECN, which no rule looks at */
	if (p->opt)
		memset(ip + 20, 1, 4); /* NOPs */
	ip[2] = (uint8_t)(len >> 8);
	ip[3] = (uint8_t)len;
	ip[6] = (uint8_t)(off >> 8);
	ip[7] = (uint8_t)off;
	ip[8] = 64;
	ip[9] = p->proto;
	memcpy(ip + 12, p->src, 4);
	memcpy(ip + 16, p->dst, 4);
	return len;
}

static inline size_t put_ip6(uint8_t *ip, const struct pkt *p)
{
	size_t off = 40;
	uint8_t *nh = &ip[6];

	ip[0] = (uint8_t)(0x60 | p->dscp >> 2);
	ip[1] = (uint8_t)((p->dscp & 3) << 6 | rnd(64)); /* ECN and flow label too */
	ip[2] = (uint8_t)rnd(256);
	ip[7] = 64;
	memcpy(ip + 8, p->src, 16);
	memcpy(ip + 24, p->dst, 16);
	if (p->ext) { /* hop-by-hop, 8 bytes of padding */
		*nh = IPPROTO_HOPOPTS;
		nh = &ip[off];
		ip[off + 1] = 0;
		ip[off + 2] = 1; /* PadN */
		ip[off + 3] = 4;
		off += 8;
	}
	if (p->frag || p->first) {
		uint16_t fo = p->frag ? (uint16_t)((1 + rnd(100)) << 3) : 1; /* M */
		*nh = IPPROTO_FRAGMENT;
		nh = &ip[off];
		ip[off + 2] = (uint8_t)(fo >> 8);
		ip[off + 3] = (uint8_t)fo;
		off += 8;
	}
	*nh = p->proto;
	off += put_l4(ip + off, p);
	ip[4] = (uint8_t)((off - 40) >> 8);
	ip[5] = (uint8_t)(off - 40);
	return off;
}

static inline struct rte_mbuf *frame(const struct pkt *p)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *f;
	size_t len;

	assert_non_null(m);
	f = (uint8_t *)rte_pktmbuf_append(m, 128);
	assert_non_null(f);
	memset(f, 0, 128);
	f[12] = p->fam == ACL_V4 ? 0x08 : 0x86;
	f[13] = p->fam == ACL_V4 ? 0x00 : 0xdd;
	len = 14 + (p->fam == ACL_V4 ? put_ip4(f + 14, p) : put_ip6(f + 14, p));
	rte_pktmbuf_trim(m, (uint16_t)(128 - len));
	return m;
}

/* A packet made to meet rule c (so that the rules are hit, not just the default). */
static inline void pkt_for(struct pkt *p, const struct acl_rule *r)
{
	rnd_pkt(p);
	if (r->family)
		p->fam = r->family == AF_INET ? ACL_V4 : ACL_V6;
	if (r->proto >= 0)
		p->proto = (uint8_t)r->proto;
	if (r->src.family == AF_INET) {
		uint32_t v = r->src.v4 | (rnd(1u << 16) & ~fwd_ip4_mask(r->src.len));
		p->src[0] = (uint8_t)(v >> 24);
		p->src[1] = (uint8_t)(v >> 16);
		p->src[2] = (uint8_t)(v >> 8);
		p->src[3] = (uint8_t)v;
	} else if (r->src.family == AF_INET6 && r->src.len >= 64) {
		memcpy(p->src, r->src.v6, 16);
	}
	p->sport = (uint16_t)(r->sport_lo + rnd(r->sport_hi - r->sport_lo + 1u));
	p->dport = (uint16_t)(r->dport_lo + rnd(r->dport_hi - r->dport_lo + 1u));
	if (r->icmp_type >= 0)
		p->itype = (uint8_t)r->icmp_type;
	if (r->fragment) {
		p->frag = true;
		p->first = false;
		p->ext = p->fam == ACL_V6;
	}
}

static bool no_reject; /* rnd_set: deny instead (acl_filter's test: nothing to punt) */
/* rnd_set: applied to each random rule before it is parsed, when set */
static void (*rnd_rule_hook)(struct fwd_conf_acl_rule *c);

/* n random rules, parsed into rules[] and compiled. */
static inline struct acl_set *rnd_set(unsigned n, struct acl_rule *rules)
{
	struct fwd_conf_acl conf = { .name = "t", .def = FWD_ACL_DENY, .n_rules = n };
	struct acl_set *s;
	char err[256], why[128];
	const char *key;

	conf.rules = calloc(n, sizeof(*conf.rules));
	assert_non_null(conf.rules);
	for (unsigned i = 0; i < n; i++) {
		rnd_rule(&conf.rules[i]);
		if (no_reject && conf.rules[i].action == FWD_ACL_REJECT)
			conf.rules[i].action = FWD_ACL_DENY;
		if (rnd_rule_hook != NULL)
			rnd_rule_hook(&conf.rules[i]);
		if (acl_rule_parse(&conf.rules[i], &rules[i], &key, why, sizeof(why)) != 0)
			fail_msg("random rule %u refused: %s: %s", i, key, why);
	}
	s = acl_set_build(&conf, err, sizeof(err));
	if (s == NULL)
		fail_msg("%s", err);
	free(conf.rules);
	return s;
}

static bool cache_awake; /* filter_check: keep the worker's cache from resting */

/* The n packets pk[] through acl_filter on port 0's acl_in, in bursts of
 * 32: what passes is what brute finds permitted (or never filters), and
 * each rule of s counts exactly the packets brute gives it. */
static inline void filter_check(struct fwd_worker *w, const struct acl_set *s,
                                const struct acl_rule *rules, unsigned n_rules,
                                const struct pkt *pk, unsigned n)
{
	uint64_t *want = calloc(n_rules + 1u, sizeof(*want)), *before = calloc(n_rules + 1u, 8);
	unsigned kept = 0, want_kept = 0;

	assert_non_null(want);
	assert_non_null(before);
	for (uint32_t r = 0; r <= n_rules; r++)
		before[r] = s->hits[w->index][r].pkts;
	for (unsigned at = 0; at < n; at += 32) {
		uint16_t k = (uint16_t)(n - at < 32 ? n - at : 32), got;
		struct rte_mbuf *m[32];

		for (unsigned i = 0; i < k; i++) {
			struct acl_key kb;
			const uint8_t *d;
			uint32_t r = brute(rules, n_rules, &pk[at + i]);

			m[i] = frame(&pk[at + i]);
			if (acl_key_of(m[i], &kb, &d) < 0) {
				want_kept++;
				continue;
			}
			want[r]++;
			want_kept += s->action[r] == FWD_ACL_PERMIT;
		}
		if (cache_awake) /* the cache never rests: these are not a flood */
			acl_caches[w->index]->rest = 0;
		got = acl_filter(w, 0, FWD_FILTER_IN, m, k, NULL);
		kept += got;
		for (unsigned i = 0; i < got; i++)
			rte_pktmbuf_free(m[i]);
	}
	assert_int_equal(kept, want_kept);
	for (uint32_t r = 0; r <= n_rules; r++)
		if (s->hits[w->index][r].pkts - before[r] != want[r])
			fail_msg("rule %u counted %llu packets, brute force %llu", r,
			         (unsigned long long)(s->hits[w->index][r].pkts - before[r]),
			         (unsigned long long)want[r]);
	free(want);
	free(before);
}

#endif
