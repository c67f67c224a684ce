/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 pre-filter (acl/acl_pre.c): on random rules whose prefixes
 * mostly reach /16 or longer (by source, or by destination), every answer
 * it gives is the brute-force first match, through acl_pre_match and
 * through acl_filter (verdicts and every rule's counters, with and
 * without the verdict cache); it answers most packets; it picks the
 * address that leaves more short lists; a list whose every /16 is long
 * has no pre-filter.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_cache.h"
#include "acl/acl_pre.h"
#include "acl_test_util.h"
#include "test_eal.h"

static bool by_dst; /* pre_rule: the destination's prefix, else the source's */

/* rnd_set's rules, those that could meet IPv4 (7 in 8) with a prefix of
 * 16 to 32 bits on the source (by_dst: the destination). */
static void pre_rule(struct fwd_conf_acl_rule *c)
{
	struct fwd_prefix *pf = by_dst ? &c->dst : &c->src;

	if (c->src.family != AF_INET6 && c->dst.family != AF_INET6 && strcmp(c->proto, "58") != 0 &&
	    rnd(8) != 0) {
		rnd_prefix(pf, ACL_V4);
		pf->len = (uint8_t)(16 + rnd(17));
		pf->v4 &= fwd_ip4_mask(pf->len);
	}
}

/* Packets of s's rules and random ones; IPv4 mostly. */
static void pre_pkts(struct pkt *pk, unsigned n, const struct acl_rule *rules, unsigned n_rules)
{
	for (unsigned i = 0; i < n; i++) {
		if (rnd(3) != 0)
			pkt_for(&pk[i], &rules[rnd(n_rules)]);
		else
			rnd_pkt(&pk[i]);
	}
}

/* Each answer of s's pre-filter for pk[] is brute's; returns how many
 * it answered. */
static unsigned pre_check(const struct acl_set *s, const struct acl_rule *rules, unsigned n_rules,
                          const struct pkt *pk, unsigned n)
{
	unsigned answered = 0;

	for (unsigned i = 0; i < n && s->pre != NULL; i++) {
		struct rte_mbuf *m = frame(&pk[i]);
		struct acl_key kb;
		const uint8_t *d;
		uint32_t got, want = brute(rules, n_rules, &pk[i]);

		if (acl_key_of(m, &kb, &d) == ACL_V4 &&
		    (got = acl_pre_match(s->pre, d)) != ACL_PRE_NONE) {
			answered++;
			if (got != want)
				fail_msg("packet %u (proto %u, sport %u, dport %u): pre-filter "
				         "rule %u, brute force %u",
				         i, pk[i].proto, pk[i].sport, pk[i].dport, got, want);
		}
		rte_pktmbuf_free(m);
	}
	return answered;
}

static void test_pre_random(void **state)
{
	struct fwd_worker *w = rte_zmalloc("w", sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct acl_state st = { .gen = 1 };
	unsigned answered = 0, v4 = 0;

	(void)state;
	assert_non_null(w);
	srandom(3030);
	fwd.n_workers = 1; /* the sets count worker 0's hits */
	no_reject = true;
	rnd_rule_hook = pre_rule;
	for (unsigned round = 0; round < 40; round++) {
		unsigned n_rules = 1 + rnd(round < 30 ? 12 : 200);
		struct acl_rule rules[200];
		struct pkt pk[400];
		struct acl_set *s;

		by_dst = round % 2;
		s = rnd_set(n_rules, rules);

		pre_pkts(pk, RTE_DIM(pk), rules, n_rules);
		for (unsigned i = 0; i < RTE_DIM(pk); i++)
			v4 += pk[i].fam == ACL_V4 && !pk[i].frag;
		answered += pre_check(s, rules, n_rules, pk, RTE_DIM(pk));
		/* the worker's path: without a cache, then with one */
		st.in[0] = s;
		acl_state = &st;
		filter_check(w, s, rules, n_rules, pk, RTE_DIM(pk));
		acl_caches[0] = acl_cache_new(0, SOCKET_ID_ANY);
		assert_non_null(acl_caches[0]);
		cache_awake = true;
		filter_check(w, s, rules, n_rules, pk, RTE_DIM(pk));
		filter_check(w, s, rules, n_rules, pk, RTE_DIM(pk));
		cache_awake = false;
		acl_cache_free(acl_caches[0]);
		acl_caches[0] = NULL;
		acl_state = NULL;
		acl_set_free(s);
	}
	fwd.n_workers = 0;
	no_reject = false;
	rnd_rule_hook = NULL;
	print_message("pre-filter answered %u of %u IPv4 packets\n", answered, v4);
	assert_true(answered > v4 / 3);
	rte_free(w);
}

static struct acl_set *set_of(const char *const *src, const char *const *dst, unsigned n)
{
	struct fwd_conf_acl conf = { .name = "e", .def = FWD_ACL_PERMIT, .n_rules = n };
	struct fwd_conf_acl_rule r[8];
	struct acl_set *s;
	char err[256];

	memset(r, 0, sizeof(r));
	conf.rules = r;
	for (unsigned i = 0; i < n; i++) {
		r[i].action = FWD_ACL_DENY;
		if (src[i] != NULL)
			assert_int_equal(fwd_prefix_parse(src[i], &r[i].src, false), 0);
		if (dst[i] != NULL)
			assert_int_equal(fwd_prefix_parse(dst[i], &r[i].dst, false), 0);
	}
	s = acl_set_build(&conf, err, sizeof(err));
	assert_non_null(s);
	return s;
}

/* Bogons by source: the source's /16s; management by destination: the
 * destination's; five rules that every /16 meets: none. */
static void test_pre_pick(void **state)
{
	static const char *const bogons[] = { "10.0.0.0/8", "192.168.0.0/16", "172.16.0.0/12",
		                              "100.64.0.0/10" };
	static const char *const none[8];
	static const char *const mgmt[] = { "192.0.2.0/24", "192.0.2.1/32", "198.51.100.0/24" };
	struct acl_set *s;

	(void)state;
	s = set_of(bogons, none, 4);
	assert_non_null(s->pre);
	assert_int_equal(s->pre->by, ACL4_SRC);
	acl_set_free(s);
	s = set_of(none, mgmt, 3);
	assert_non_null(s->pre);
	assert_int_equal(s->pre->by, ACL4_SRC + 4);
	acl_set_free(s);
	s = set_of(none, none, 5);
	assert_null(s->pre);
	acl_set_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pre_random),
		cmocka_unit_test(test_pre_pick),
	};

	if (test_eal_init("acl_pre_test") < 0)
		return 1;
	pool = test_pool("acl_pre_test", 1023, 256);
	if (pool == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
