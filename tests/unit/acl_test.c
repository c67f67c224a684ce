/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACLs (acl/): rule parsing and its file:line:col errors, the config round
 * trip, and classification by rte_acl (acl_key_of, acl_set_build,
 * acl_set_classify) against a brute-force first-match over the same
 * rules, on random rules and packets of both families with port ranges,
 * ICMP, DSCP, extension headers and fragments; the same through a worker's
 * verdict cache (acl_cache_classify), before and after a reload.
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
#include <rte_malloc.h>

#include "acl/acl.h"
#include "acl/acl_cache.h"
#include "acl_test_util.h"
#include "config_test_util.h"
#include "test_eal.h"

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

/* The n packets pk[] through cache c under tag, classified by s when the
 * cache has no entry: each must get brute's answer over rules[]. */
static void cached_check(struct acl_cache *c, uint64_t tag, const struct acl_set *s,
                         const struct acl_rule *rules, unsigned n_rules, const struct pkt *pk,
                         unsigned n)
{
	for (unsigned at = 0; at < n; at += 64) {
		unsigned k = n - at < 64 ? n - at : 64, nc;
		struct rte_mbuf *m[64];
		struct acl_key kb[64];
		const uint8_t *d[64];
		uint32_t res[64], idx[64];

		for (unsigned i = 0; i < k; i++)
			m[i] = frame(&pk[at + i]);
		for (int cls = 0; cls < ACL_CLASSES; cls++) {
			nc = 0;
			for (unsigned i = 0; i < k; i++)
				if (acl_key_of(m[i], &kb[nc], &d[nc]) == cls)
					idx[nc++] = at + i;
			if (nc != 0)
				acl_cache_classify(c, tag, s, cls, d, res, nc);
			for (unsigned i = 0; i < nc; i++)
				if (res[i] != brute(rules, n_rules, &pk[idx[i]]))
					fail_msg("packet %u (class %d, tag %#llx) through the "
					         "cache: "
					         "rule %u, brute force %u",
					         idx[i], cls, (unsigned long long)tag, res[i],
					         brute(rules, n_rules, &pk[idx[i]]));
		}
		for (unsigned i = 0; i < k; i++)
			rte_pktmbuf_free(m[i]);
	}
}

/*
 * The packets of a round through a worker's verdict cache: twice under the
 * set's state (the second time from the cache: answered even when another
 * set would classify a miss),
 * then under a reload's state with other rules, where no entry of the old
 * one may answer.
 */
static void cached_round(const struct acl_set *s, const struct acl_rule *rules, unsigned n_rules,
                         const struct pkt *pk, unsigned n)
{
	struct acl_cache *c = acl_cache_new(0, SOCKET_ID_ANY);
	struct acl_rule *rules2 = calloc(n_rules, sizeof(*rules2));
	struct acl_state st1 = { .gen = 1 }, st2 = { .gen = 2 };
	struct acl_set *s2;

	assert_non_null(c);
	assert_non_null(rules2);
	s2 = rnd_set(n_rules, rules2);
	/* 64 flows in 2,048 sets of 4 ways: none evicted (but once in ~10^6 runs) */
	cached_check(c, acl_cache_tag(&st1, s), s, rules, n_rules, pk, n < 64 ? n : 64);
	cached_check(c, acl_cache_tag(&st1, s), s2, rules, n_rules, pk, n < 64 ? n : 64);
	cached_check(c, acl_cache_tag(&st1, s), s, rules, n_rules, pk, n);
	cached_check(c, acl_cache_tag(&st1, s), s, rules, n_rules, pk, n);
	cached_check(c, acl_cache_tag(&st2, s2), s2, rules2, n_rules, pk, n);
	cached_check(c, acl_cache_tag(&st2, s), s, rules, n_rules, pk, n); /* an attachment */
	acl_set_free(s2);
	acl_cache_free(c);
	free(rules2);
}

static void classify_round(unsigned n_rules, unsigned n_pkts)
{
	struct acl_rule *rules = calloc(n_rules, sizeof(*rules));
	struct pkt *pk = calloc(n_pkts, sizeof(*pk));
	unsigned hits = 0;
	struct acl_set *s;

	assert_non_null(rules);
	assert_non_null(pk);
	s = rnd_set(n_rules, rules);
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
		pk[i] = p;
	}
	assert_true(hits > n_pkts / 10); /* the rules were really exercised */
	cached_round(s, rules, n_rules, pk, n_pkts);
	acl_set_free(s);
	free(pk);
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

/* acl_filter, the worker's path: its cache on, the same packets three
 * times (the last from the cache), then a reload's state with other
 * rules, then a flood of new flows (the cache rests); the verdicts and
 * every rule's counters as brute says. */
static void test_filter_cached(void **state)
{
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct acl_rule rules[40], rules2[40];
	struct acl_state st1 = { .gen = 1 }, st2 = { .gen = 2 };
	struct pkt pk[300];
	struct acl_set *s, *s2;

	(void)state;
	assert_non_null(w);
	srandom(2727);
	no_reject = true;
	fwd.n_workers = 1; /* the sets count worker 0's hits */
	s = rnd_set(40, rules);
	s2 = rnd_set(40, rules2);
	fwd.n_workers = 0;
	no_reject = false;
	for (unsigned i = 0; i < RTE_DIM(pk); i++)
		if (rnd(3) != 0)
			pkt_for(&pk[i], &rules[rnd(40)]);
		else
			rnd_pkt(&pk[i]);
	acl_caches[0] = acl_cache_new(0, SOCKET_ID_ANY);
	assert_non_null(acl_caches[0]);
	st1.in[0] = s;
	st2.in[0] = s2;
	acl_state = &st1;
	cache_awake = true;
	for (int round = 0; round < 3; round++)
		filter_check(w, s, rules, 40, pk, RTE_DIM(pk));
	assert_int_equal(acl_caches[0]->missed, 0); /* the third from the cache */
	acl_state = &st2;
	filter_check(w, s2, rules2, 40, pk, RTE_DIM(pk));
	cache_awake = false;
	/* a flood of new flows: the cache rests, the verdicts stay right */
	for (unsigned i = 0; i < RTE_DIM(pk); i++) {
		rnd_pkt(&pk[i]);
		pk[i].fam = ACL_V4;
		pk[i].proto = IPPROTO_UDP;
		pk[i].frag = pk[i].opt = false;
		pk[i].sport = (uint16_t)i;
	}
	acl_caches[0]->rest = 0;
	filter_check(w, s2, rules2, 40, pk, RTE_DIM(pk));
	assert_true(acl_caches[0]->rest > 0);
	acl_state = NULL;
	acl_cache_free(acl_caches[0]);
	acl_caches[0] = NULL;
	acl_set_free(s);
	acl_set_free(s2);
	rte_free(w);
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
		cmocka_unit_test(test_classify_cost),   cmocka_unit_test(test_filter_cached),
	};

	if (test_eal_init("acl_test") < 0)
		return 1;
	pool = test_pool("acl_test", 256, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
