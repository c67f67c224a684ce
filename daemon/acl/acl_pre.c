/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 pre-filter of a compiled ACL (doc/acl.md, "The pre-filter"):
 * for each /16 of the source address (or of the destination, whichever
 * leaves fewer rules in the /16s' lists), the rules of the IPv4 context whose
 * prefix can meet an address in it, in order, when there are at most
 * ACL_PRE_MAX of them. An edge list (bogons by source, a management
 * subnet by destination, a long list of other /24s) leaves most /16s with
 * a rule or two: a packet from one of them costs a table load and those
 * rules' compares, not a classification. The first of them that matches
 * is the first of the whole list that matches (every rule that could is
 * in the list, in order), so the answer is rte_acl's; the brute-force
 * unit test holds both to it.
 *
 * Control thread: built with the set, immutable once published, freed
 * with it. The walk over the /16s a rule covers stops at a budget (a list
 * of many short prefixes over saturated /16s): past it, no pre-filter.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <rte_malloc.h>

#include "acl/acl_pre.h"

#define BUCKETS     65536u
#define WORK_BUDGET (8u << 20) /* /16 visits per address */

/* The lists of one choice of address (by: ACL4_SRC or ACL4_SRC + 4). */
struct pick {
	uint8_t cnt[BUCKETS]; /* rules in the list; ACL_PRE_MAX + 1: long */
	uint16_t slot[BUCKETS][ACL_PRE_MAX];
	uint64_t cost; /* the rules the /16s' lists hold, a long list as 2 * ACL_PRE_MAX */
};

/* The /16s [*lo, *hi] prefix p covers (family 0: all). */
static void span16(const struct fwd_prefix *p, uint32_t *lo, uint32_t *hi)
{
	uint32_t len = p->family == AF_INET ? p->len : 0;

	*lo = len == 0 ? 0 : (p->v4 & fwd_ip4_mask(len)) >> 16;
	*hi = len >= 16 ? *lo : *lo | ((1u << (16 - len)) - 1);
}

/* The lists of the eligible rules idx[0..n) (1-based pre indices) by the
 * address at by; -E2BIG past the budget, -ENOENT when every list is long. */
static int pick_lists(struct pick *k, const struct acl_rule *rules, const uint32_t *idx, uint32_t n,
                      uint32_t by)
{
	uint32_t work = 0, n_long = 0;

	memset(k->cnt, 0, sizeof(k->cnt));
	for (uint32_t j = 0; j < n && n_long < BUCKETS; j++) {
		const struct acl_rule *r = &rules[idx[j]];
		uint32_t lo, hi;

		span16(by == ACL4_SRC ? &r->src : &r->dst, &lo, &hi);
		work += hi - lo + 1;
		if (work > WORK_BUDGET)
			return -E2BIG;
		for (uint32_t b = lo; b <= hi; b++) {
			if (k->cnt[b] > ACL_PRE_MAX)
				continue;
			if (k->cnt[b] == ACL_PRE_MAX)
				n_long++;
			else
				k->slot[b][k->cnt[b]] = (uint16_t)(j + 1);
			k->cnt[b]++;
		}
	}
	k->cost = 0;
	for (uint32_t b = 0; b < BUCKETS; b++)
		k->cost += k->cnt[b] > ACL_PRE_MAX ? 2 * ACL_PRE_MAX : k->cnt[b];
	return n_long < BUCKETS ? 0 : -ENOENT;
}

static void pre_rule(struct acl_pre_rule *o, const struct acl_rule *r, uint32_t pos)
{
	bool icmp = r->proto == IPPROTO_ICMP;
	uint32_t sl = r->src.family ? r->src.len : 0, dl = r->dst.family ? r->dst.len : 0;
	uint16_t slo = r->sport_lo, shi = r->sport_hi, dlo = r->dport_lo, dhi = r->dport_hi;
	uint32_t src, dst, smask, dmask;

	if (icmp) { /* type and code in the ports' places (acl_build.c, range) */
		slo = r->icmp_type < 0 ? 0 : (uint16_t)r->icmp_type;
		shi = r->icmp_type < 0 ? UINT16_MAX : slo;
		dlo = r->icmp_code < 0 ? 0 : (uint16_t)r->icmp_code;
		dhi = r->icmp_code < 0 ? UINT16_MAX : dlo;
	}
	smask = rte_cpu_to_be_32(sl ? fwd_ip4_mask(sl) : 0);
	dmask = rte_cpu_to_be_32(dl ? fwd_ip4_mask(dl) : 0);
	src = rte_cpu_to_be_32(sl ? r->src.v4 : 0) & smask;
	dst = rte_cpu_to_be_32(dl ? r->dst.v4 : 0) & dmask;
	/* the key's bytes 12-19 as one word: source, then destination */
	memcpy(&o->addr, &src, 4);
	memcpy((uint8_t *)&o->addr + 4, &dst, 4);
	memcpy(&o->amask, &smask, 4);
	memcpy((uint8_t *)&o->amask + 4, &dmask, 4);
	o->sp_lo = slo;
	o->sp_span = (uint16_t)(shi - slo);
	o->dp_lo = dlo;
	o->dp_span = (uint16_t)(dhi - dlo);
	o->pt = (uint16_t)((r->proto < 0 ? 0 : r->proto) | (r->dscp < 0 ? 0 : r->dscp << 2) << 8);
	o->ptmask = (uint16_t)((r->proto < 0 ? 0 : 0xff) | (r->dscp < 0 ? 0 : 0xfc00));
	o->rule = pos + 1;
}

static uint64_t list_of(const struct pick *k, uint32_t b)
{
	uint64_t e = 0;

	if (k->cnt[b] > ACL_PRE_MAX)
		return ACL_PRE_LONG;
	for (unsigned i = 0; i < k->cnt[b]; i++)
		e |= (uint64_t)k->slot[b][i] << (16 * i);
	return e;
}

/* Each /16's list, the same lists stored once (an open-addressing table
 * of ids over a scratch of 2 * BUCKETS slots). Returns how many. */
static uint32_t lists_dedup(const struct pick *k, uint16_t *tab, uint64_t *lists)
{
	uint32_t *seen = calloc(2 * BUCKETS, sizeof(*seen)), n = 0;

	if (seen == NULL)
		return 0;
	for (uint32_t b = 0; b < BUCKETS; b++) {
		uint64_t e = list_of(k, b);
		uint32_t h = (uint32_t)((e * 0x9e3779b97f4a7c15ull) >> 47);

		while (seen[h] != 0 && lists[seen[h] - 1] != e)
			h = (h + 1) & (2 * BUCKETS - 1);
		if (seen[h] == 0) {
			lists[n] = e;
			seen[h] = ++n;
		}
		tab[b] = (uint16_t)(seen[h] - 1);
	}
	free(seen);
	return n;
}

/* The pre-filter over the better pick (the fewer rules a packet meets). */
static struct acl_pre *pre_make(const struct pick *k, uint32_t by, const struct acl_rule *rules,
                                const uint32_t *idx, uint32_t n)
{
	struct acl_pre *p = calloc(1, sizeof(*p));
	uint64_t *scratch = malloc(BUCKETS * sizeof(*scratch));
	uint32_t nl;

	if (p == NULL || scratch == NULL)
		goto fail;
	p->by = by;
	p->tab = rte_malloc("fwd_acl_pre", BUCKETS * sizeof(*p->tab), RTE_CACHE_LINE_SIZE);
	p->rules = rte_zmalloc("fwd_acl_pre", (n + 1) * sizeof(*p->rules), RTE_CACHE_LINE_SIZE);
	nl = p->tab != NULL ? lists_dedup(k, p->tab, scratch) : 0;
	p->lists =
	        nl ? rte_malloc("fwd_acl_pre", nl * sizeof(*p->lists), RTE_CACHE_LINE_SIZE) : NULL;
	if (p->rules == NULL || p->lists == NULL)
		goto fail;
	memcpy(p->lists, scratch, nl * sizeof(*p->lists));
	for (uint32_t j = 0; j < n; j++)
		pre_rule(&p->rules[j + 1], &rules[idx[j]], idx[j]);
	free(scratch);
	return p;
fail:
	free(scratch);
	acl_pre_free(p);
	return NULL;
}

struct acl_pre *acl_pre_build(const struct acl_rule *rules, uint32_t n_rules)
{
	struct pick *k = malloc(2 * sizeof(*k));
	uint32_t *idx = malloc((n_rules + 1u) * sizeof(*idx)), n = 0;
	struct acl_pre *p = NULL;
	int best = -1;

	for (uint32_t i = 0; k != NULL && idx != NULL && i < n_rules; i++)
		if (acl_rule_in_class(&rules[i], ACL_V4))
			idx[n++] = i;
	if (k == NULL || idx == NULL || n >= UINT16_MAX)
		goto out;
	for (int c = 0; c < 2; c++)
		if (pick_lists(&k[c], rules, idx, n, ACL4_SRC + 4u * (unsigned)c) == 0 &&
		    (best < 0 || k[c].cost < k[best].cost))
			best = c;
	if (best >= 0)
		p = pre_make(&k[best], ACL4_SRC + 4u * (unsigned)best, rules, idx, n);
out:
	free(k);
	free(idx);
	return p;
}

void acl_pre_free(struct acl_pre *p)
{
	if (p == NULL)
		return;
	rte_free(p->tab);
	rte_free(p->lists);
	rte_free(p->rules);
	free(p);
}
