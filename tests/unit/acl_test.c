/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACLs (acl/): rule parsing and its file:line:col errors, the config round
 * trip, and classification by rte_acl (acl_key_of, acl_set_build,
 * acl_set_classify) against a brute-force first-match over the same
 * rules, on random rules and packets of both families with port ranges,
 * ICMP, DSCP, extension headers and fragments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_cycles.h>

#include "acl/acl.h"
#include "config_test_util.h"
#include "test_eal.h"

static struct rte_mempool *pool;

#define HEAD                                                                         \
	"dpdk: { hugepages: false }\n"                                               \
	"ports:\n"                                                                   \
	"  - { name: p0, device: net_null0, addresses: [10.0.0.1/24], acl_in: a }\n" \
	"  - { name: p1, device: net_null1, mode: xconnect, peer: p2 }\n"            \
	"  - { name: p2, device: net_null2, mode: xconnect, peer: p1 }\n"

static const char good[] = HEAD
        "control: { acl_local: b }\n"
        "acls:\n"
        "  - name: a\n"
        "    default: permit\n"
        "    rules:\n"
        "      - { action: permit, proto: tcp, src: 192.0.2.0/24, dst: 10.0.0.0/24, dport: 22 }\n"
        "      - { action: permit, proto: udp, dport: \"33434-33534\" }\n"
        "      - { action: reject, proto: tcp, dport: 23 }\n"
        "      - { action: permit, src: \"2001:db8::/32\" }\n"
        "      - { action: deny, proto: icmp, icmp_type: 8, icmp_code: 0, dscp: 46 }\n"
        "      - { action: deny, fragment: true }\n"
        "      - { action: deny, proto: 47 }\n"
        "  - name: b\n"
        "    rules: []\n";

static struct fwd_config *load_good_str(const char *text)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_str(text, &msg);

	if (cfg == NULL)
		fail_msg("did not load:\n%s", msg);
	free(msg);
	return cfg;
}

static void test_parse_good(void **state)
{
	struct fwd_config *cfg = load_good_str(good);
	struct acl_rule r;
	const char *key;
	char why[128];

	(void)state;
	assert_int_equal(acl_conf(cfg)->n_acls, 2);
	assert_int_equal(acl_conf(cfg)->acls[0].def, FWD_ACL_PERMIT);
	assert_int_equal(acl_conf(cfg)->acls[1].def, FWD_ACL_DENY);
	assert_int_equal(acl_conf(cfg)->acls[0].n_rules, 7);
	assert_string_equal(cfg->ports[0].acl_in, "a");
	assert_string_equal(cfg->control.acl_local, "b");
	assert_int_equal(
	        acl_rule_parse(&acl_conf(cfg)->acls[0].rules[0], &r, &key, why, sizeof(why)), 0);
	assert_int_equal(r.family, AF_INET);
	assert_int_equal(r.proto, IPPROTO_TCP);
	assert_int_equal(r.dport_lo, 22);
	assert_int_equal(r.dport_hi, 22);
	assert_int_equal(r.sport_lo, 0);
	assert_int_equal(r.sport_hi, 65535);
	assert_true(r.l4);
	assert_int_equal(
	        acl_rule_parse(&acl_conf(cfg)->acls[0].rules[1], &r, &key, why, sizeof(why)), 0);
	assert_int_equal(r.family, 0); /* no address: both families */
	assert_int_equal(r.dport_lo, 33434);
	assert_int_equal(r.dport_hi, 33534);
	assert_int_equal(
	        acl_rule_parse(&acl_conf(cfg)->acls[0].rules[3], &r, &key, why, sizeof(why)), 0);
	assert_int_equal(r.family, AF_INET6);
	assert_int_equal(r.proto, -1);
	assert_int_equal(
	        acl_rule_parse(&acl_conf(cfg)->acls[0].rules[4], &r, &key, why, sizeof(why)), 0);
	assert_int_equal(r.family, AF_INET); /* icmp: IPv4 only */
	assert_int_equal(r.icmp_type, 8);
	assert_int_equal(r.icmp_code, 0);
	assert_int_equal(r.dscp, 46);
	assert_int_equal(
	        acl_rule_parse(&acl_conf(cfg)->acls[0].rules[5], &r, &key, why, sizeof(why)), 0);
	assert_true(r.fragment);
	assert_false(r.l4);
	assert_int_equal(
	        acl_rule_parse(&acl_conf(cfg)->acls[0].rules[6], &r, &key, why, sizeof(why)), 0);
	assert_int_equal(r.proto, 47);
	assert_round_trip(cfg);
	fwd_config_free(cfg);
}

/* emit -> load keeps every ACL and its rules (config show, reload) */
static void test_round_trip(void **state)
{
	struct fwd_config *cfg = load_good_str(good), *back;
	char *text = NULL, *msg = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(fwd_config_emit(cfg, f), 0);
	fclose(f);
	back = load_str(text, &msg);
	if (back == NULL)
		fail_msg("emitted config does not load:\n%s\n%s", msg, text);
	assert_int_equal(acl_conf(back)->n_acls, acl_conf(cfg)->n_acls);
	for (unsigned i = 0; i < acl_conf(cfg)->n_acls; i++)
		assert_true(acl_conf_equal(&acl_conf(cfg)->acls[i], &acl_conf(back)->acls[i]));
	assert_string_equal(back->ports[0].acl_in, "a");
	assert_string_equal(back->control.acl_local, "b");
	fwd_config_free(back);
	fwd_config_free(cfg);
	free(text);
	free(msg);
}

static const struct {
	const char *rules; /* the acls[] section after HEAD */
	const char *want;  /* in the loader's message */
} bad[] = {
	{ "acls:\n  - { name: a, rules: [ { action: permit, src: 10.0.0.1/8 } ] }\n",
	  "mem.yaml:7:48: acls[0].rules[0].src: 10.0.0.1/8 has host bits set" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, src: 300.0.0.0/8 } ] }\n",
	  "mem.yaml:7:48: acls[0].rules[0].src" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: tcp, dport: \"90-80\" } ] }\n",
	  "mem.yaml:7:62: acls[0].rules[0].dport: '90-80' is an inverted range (90 > 80)" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: tcp, sport: 70000 } ] }\n",
	  "mem.yaml:7:62: acls[0].rules[0].sport: '70000' is not a port" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, dport: 22 } ] }\n",
	  "mem.yaml:7:50: acls[0].rules[0].dport: ports need proto tcp, udp or sctp" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: icmp, dport: 22 } ] }\n",
	  "acls[0].rules[0].dport: ports need proto tcp, udp or sctp" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: udp, icmp_type: 8 } ] }\n",
	  "acls[0].rules[0].icmp_type: icmp_type and icmp_code need proto icmp or icmpv6" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: gre } ] }\n",
	  "mem.yaml:7:50: acls[0].rules[0].proto: expected tcp, udp" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, dscp: 64 } ] }\n",
	  "acls[0].rules[0].dscp: expected a number 0-63" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, src: 10.0.0.0/8, dst: \"::/0\" } ] }\n",
	  "acls[0].rules[0].dst: src and dst are of different families" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: icmpv6, src: 10.0.0.0/8 } ] }\n",
	  "proto icmpv6 does not go with IPv4 addresses" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, proto: tcp, dport: 1, fragment: true } "
	  "] }\n",
	  "acls[0].rules[0].fragment: a non-first fragment has no ports" },
	{ "acls:\n  - { name: a, rules: [ { action: allow } ] }\n",
	  "acls[0].rules[0].action: unknown value 'allow'" },
	{ "acls:\n  - { name: a, rules: [ { src: 10.0.0.0/8 } ] }\n",
	  "missing required key 'action'" },
	{ "acls:\n  - { name: a, rules: [ { action: permit, port: 22 } ] }\n", "unknown key" },
	{ "acls:\n  - { name: b }\n", "mem.yaml:3:70: ports[0].acl_in: no such ACL 'a'" },
	{ "acls:\n  - { name: a }\n  - { name: a }\ncontrol: { acl_local: c }\n",
	  "duplicate ACL name 'a'" },
	{ "acls:\n  - { name: a }\ncontrol: { acl_local: c }\n",
	  "control.acl_local: no such ACL 'c'" },
};

static void test_parse_bad(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(bad); i++) {
		char text[1024], *msg = NULL;
		struct fwd_config *cfg;

		snprintf(text, sizeof(text), "%s%s", HEAD, bad[i].rules);
		cfg = load_str(text, &msg);
		if (cfg != NULL || msg == NULL || strstr(msg, bad[i].want) == NULL)
			fail_msg("case %u: want '%s', got:\n%s", i, bad[i].want, msg ? msg : "");
		free(msg);
	}
}

/* An ACL on a port that is not l3 is refused. */
static void test_not_l3(void **state)
{
	char *msg = NULL;
	const char *text = "dpdk: { hugepages: false }\n"
	                   "ports:\n"
	                   "  - { name: p1, device: n1, mode: xconnect, peer: p2, acl_out: a }\n"
	                   "  - { name: p2, device: n2, mode: xconnect, peer: p1 }\n"
	                   "acls: [ { name: a } ]\n";

	(void)state;
	assert_null(load_str(text, &msg));
	assert_non_null(strstr(msg, "ports[0].acl_out: only l3 ports take ACLs"));
	free(msg);
}

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

static uint32_t rnd(uint32_t n)
{
	return (uint32_t)random() % n;
}

static bool in_prefix(const struct pkt *p, const uint8_t *a, const struct fwd_prefix *pf)
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

static bool has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP;
}

/* Does rule r match packet p? Written from fwd.yaml(5), not from the compiler. */
static bool brute_match(const struct acl_rule *r, const struct pkt *p)
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

static uint32_t brute(const struct acl_rule *rules, unsigned n, const struct pkt *p)
{
	for (unsigned i = 0; i < n; i++)
		if (brute_match(&rules[i], p))
			return i + 1;
	return 0;
}

static const uint8_t protos[] = { IPPROTO_TCP,  IPPROTO_UDP,    IPPROTO_SCTP,
	                          IPPROTO_ICMP, IPPROTO_ICMPV6, 47 };

/* Addresses from a small pool so that prefixes and packets meet. */
static void rnd_addr(uint8_t *a, int fam)
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

static void rnd_prefix(struct fwd_prefix *pf, int fam)
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

static void rnd_range(char *s, size_t len)
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
static void rnd_rule(struct fwd_conf_acl_rule *c)
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

static void rnd_pkt(struct pkt *p)
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
static size_t put_l4(uint8_t *l4, const struct pkt *p)
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

static size_t put_ip4(uint8_t *ip, const struct pkt *p)
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

static size_t put_ip6(uint8_t *ip, const struct pkt *p)
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

static struct rte_mbuf *frame(const struct pkt *p)
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
static void pkt_for(struct pkt *p, const struct acl_rule *r)
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

static void classify_round(unsigned n_rules, unsigned n_pkts)
{
	struct fwd_conf_acl conf = { .name = "t", .def = FWD_ACL_DENY };
	struct acl_rule *rules = calloc(n_rules, sizeof(*rules));
	unsigned hits = 0;
	struct acl_set *s;
	char err[256], why[128];
	const char *key;

	conf.n_rules = n_rules;
	conf.rules = calloc(n_rules, sizeof(*conf.rules));
	assert_non_null(rules);
	assert_non_null(conf.rules);
	for (unsigned i = 0; i < n_rules; i++) {
		rnd_rule(&conf.rules[i]);
		if (acl_rule_parse(&conf.rules[i], &rules[i], &key, why, sizeof(why)) != 0)
			fail_msg("random rule %u refused: %s: %s", i, key, why);
	}
	s = acl_set_build(&conf, err, sizeof(err));
	if (s == NULL)
		fail_msg("%s", err);
	for (unsigned i = 0; i < n_pkts; i++) {
		struct pkt p;
		struct acl_key kb;
		struct rte_mbuf *m;
		const uint8_t *k;
		uint32_t got, want;
		int fam;

		if (rnd(3) != 0)
			pkt_for(&p, &rules[rnd(n_rules)]);
		else
			rnd_pkt(&p);
		m = frame(&p);
		fam = acl_key_of(m, &kb, &k);
		assert_int_equal(fam, p.fam | (p.frag ? ACL_FRAG : 0));
		acl_set_classify(s, fam, &k, &got, 1);
		want = brute(rules, n_rules, &p);
		if (got != want)
			fail_msg("packet %u (family %d, proto %u, sport %u, dport %u, frag %d, ext "
			         "%d): "
			         "rte_acl says rule %u, brute force %u",
			         i, p.fam, p.proto, p.sport, p.dport, p.frag, p.ext, got, want);
		hits += want != 0;
		assert_int_equal(s->action[got], got ? rules[got - 1].action : FWD_ACL_DENY);
		rte_pktmbuf_free(m);
	}
	assert_true(hits > n_pkts / 10); /* the rules were really exercised */
	acl_set_free(s);
	free(conf.rules);
	free(rules);
}

static void test_classify_random(void **state)
{
	(void)state;
	srandom(27);
	for (unsigned round = 0; round < 20; round++) {
		max_len6 = round % 2 ? 64 : 128;
		classify_round(1 + rnd(60), 500);
	}
	max_len6 = 128;
	classify_round(1000, 3000);
}

/* rte_acl reads TCP and UDP headers in place; a header whose ports are
 * cut short (IPv4 total length 22: two bytes of UDP) gets a copy with
 * ports 0, never a read past what the packet says it holds; so do ICMP
 * and IPv4 options. */
static void test_in_place(void **state)
{
	struct pkt p = { .fam = ACL_V4, .proto = IPPROTO_UDP, .sport = 7, .dport = 9 };
	struct rte_mbuf *m = frame(&p);
	uint8_t *ip = rte_pktmbuf_mtod(m, uint8_t *) + 14;
	struct acl_key k;
	const uint8_t *d;

	(void)state;
	assert_int_equal(acl_key_of(m, &k, &d), ACL_V4);
	assert_ptr_equal(d, ip);
	ip[3] = 22;
	assert_int_equal(acl_key_of(m, &k, &d), ACL_V4);
	assert_ptr_equal(d, k.b);
	assert_memory_equal(k.b, ip, 20);
	assert_memory_equal(k.b + ACL4_PORTS, "\0\0\0\0", 4);
	rte_pktmbuf_free(m);
	p.opt = true;
	m = frame(&p);
	assert_int_equal(acl_key_of(m, &k, &d), ACL_V4);
	assert_ptr_equal(d, k.b);
	assert_memory_equal(k.b + ACL4_PORTS, "\0\x07\0\x09", 4);
	rte_pktmbuf_free(m);
	p = (struct pkt){ .fam = ACL_V6, .proto = IPPROTO_ICMPV6, .itype = 1, .icode = 4 };
	m = frame(&p);
	assert_int_equal(acl_key_of(m, &k, &d), ACL_V6);
	assert_ptr_equal(d, k.b);
	assert_memory_equal(k.b + ACL6_PORTS, "\0\x01\0\x04", 4);
	rte_pktmbuf_free(m);
	p.proto = IPPROTO_TCP;
	m = frame(&p);
	assert_int_equal(acl_key_of(m, &k, &d), ACL_V6);
	assert_ptr_equal(d, rte_pktmbuf_mtod(m, uint8_t *) + 14);
	rte_pktmbuf_free(m);
}

/* ARP, NDP and runts are never classified; other ICMPv6 is. */
static void test_never_filtered(void **state)
{
	struct pkt p = { .fam = ACL_V6, .proto = IPPROTO_ICMPV6, .itype = 135 };
	struct acl_key k;
	const uint8_t *d;
	struct rte_mbuf *m = frame(&p);

	(void)state;
	assert_int_equal(acl_key_of(m, &k, &d), -1); /* a neighbour solicitation */
	rte_pktmbuf_free(m);
	p.itype = 128; /* echo request */
	m = frame(&p);
	assert_int_equal(acl_key_of(m, &k, &d), ACL_V6);
	rte_pktmbuf_mtod(m, uint8_t *)[12] = 0x08;
	rte_pktmbuf_mtod(m, uint8_t *)[13] = 0x06; /* ARP */
	assert_int_equal(acl_key_of(m, &k, &d), -1);
	rte_pktmbuf_trim(m, (uint16_t)(m->data_len - 10)); /* a runt */
	assert_int_equal(acl_key_of(m, &k, &d), -1);
	rte_pktmbuf_free(m);
}

/* The compile time of 10,000 random rules (printed; the bound is loose
 * under sanitizers: tests/bench/README.md has the optimised figure). */
static void test_compile_10k(void **state)
{
	struct fwd_conf_acl conf = { .name = "big", .def = FWD_ACL_PERMIT, .n_rules = 10000 };
	struct acl_set *s;
	char err[256];
	uint64_t t0;

	(void)state;
	conf.rules = calloc(conf.n_rules, sizeof(*conf.rules));
	assert_non_null(conf.rules);
	for (unsigned i = 0; i < conf.n_rules; i++)
		rnd_rule(&conf.rules[i]);
	t0 = rte_get_tsc_cycles();
	s = acl_set_build(&conf, err, sizeof(err));
	if (s == NULL)
		fail_msg("%s", err);
	printf("10000 rules compiled in %.0f ms\n",
	       (double)(rte_get_tsc_cycles() - t0) * 1e3 / (double)rte_get_tsc_hz());
	acl_set_free(s);
	free(conf.rules);
}

/* The bench's ACL (tests/bench/benchlib.py, acl_config): 999 rules the
 * traffic misses, then its permit; nanoseconds a packet for its key and
 * its classification, printed (the bench measures the forwarding rate). */
static void test_classify_cost(void **state)
{
	struct fwd_conf_acl conf = { .name = "bench", .def = FWD_ACL_DENY, .n_rules = 1000 };
	struct rte_mbuf *m[64];
	const uint8_t *keys[64];
	struct acl_key k[64];
	uint32_t res[64];
	struct acl_set *s;
	char err[256];
	uint64_t t0, n = 0;

	(void)state;
	conf.rules = calloc(conf.n_rules, sizeof(*conf.rules));
	assert_non_null(conf.rules);
	for (unsigned i = 0; i + 1 < conf.n_rules; i++) {
		struct fwd_conf_acl_rule *c = &conf.rules[i];
		c->action = FWD_ACL_DENY;
		snprintf(c->proto, sizeof(c->proto), "%s", i % 2 ? "udp" : "tcp");
		c->src.family = AF_INET;
		c->src.len = 24;
		c->src.v4 = 100u << 24 | (64u + i / 256 % 64) << 16 | (i % 256) << 8;
		snprintf(c->dport, sizeof(c->dport), "%u-%u", i % 60000, i % 60000 + 99);
	}
	conf.rules[conf.n_rules - 1].action = FWD_ACL_PERMIT;
	snprintf(conf.rules[conf.n_rules - 1].proto, sizeof(conf.rules[0].proto), "udp");
	s = acl_set_build(&conf, err, sizeof(err));
	if (s == NULL)
		fail_msg("%s", err);
	for (unsigned i = 0; i < 64; i++) {
		struct pkt p = { .fam = ACL_V4, .proto = IPPROTO_UDP };
		rnd_addr(p.src, ACL_V4);
		rnd_addr(p.dst, ACL_V4);
		p.sport = (uint16_t)rnd(65536);
		p.dport = (uint16_t)rnd(65536);
		m[i] = frame(&p);
	}
	t0 = rte_get_tsc_cycles();
	while (rte_get_tsc_cycles() - t0 < rte_get_tsc_hz() / 5) {
		for (unsigned i = 0; i < 64; i++)
			acl_key_of(m[i], &k[i], &keys[i]);
		acl_set_classify(s, ACL_V4, keys, res, 64);
		n += 64;
	}
	printf("1000-rule ACL, last rule matching: %.1f ns a packet (key and classification)\n",
	       (double)(rte_get_tsc_cycles() - t0) * 1e9 / (double)rte_get_tsc_hz() / (double)n);
	for (unsigned i = 0; i < 64; i++) {
		assert_int_equal(res[i], conf.n_rules);
		rte_pktmbuf_free(m[i]);
	}
	acl_set_free(s);
	free(conf.rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),      cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_parse_bad),       cmocka_unit_test(test_not_l3),
		cmocka_unit_test(test_classify_random), cmocka_unit_test(test_never_filtered),
		cmocka_unit_test(test_in_place),        cmocka_unit_test(test_compile_10k),
		cmocka_unit_test(test_classify_cost),
	};

	if (test_eal_init("acl_test") < 0)
		return 1;
	pool = test_pool("acl_test", 256, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
