/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 pre-filter of a compiled ACL (acl_pre.c says how it is built;
 * doc/acl.md, "The pre-filter"): the rules an IPv4 packet's source (or
 * destination) /16 can meet, when they are few, checked one by one before
 * the verdict cache and rte_acl. The match, inlined into the worker's loop
 * (acl_dp.c). Worker and control thread.
 */
#ifndef FWD_ACL_PRE_H
#define FWD_ACL_PRE_H

#include <string.h>

#include <rte_byteorder.h>

#include "acl/acl.h"

#define ACL_PRE_MAX  4u /* rules a short list holds */
#define ACL_PRE_LONG UINT64_MAX
#define ACL_PRE_NONE UINT32_MAX /* acl_pre_match: not answered */

/* A rule as the pre-filter checks it against an IPv4 key (acl.h's
 * layout): both addresses as the key has them (source then destination,
 * network order, one 64-bit word) under a mask; the protocol and the
 * DSCP byte as one 16-bit word (the protocol in the low byte) under a
 * mask (0: any); the ports (or ICMP type and code) as lo and the span
 * above it, host order. */
struct acl_pre_rule {
	uint64_t addr, amask;
	uint16_t pt, ptmask;
	uint16_t sp_lo, sp_span, dp_lo, dp_span;
	uint32_t rule; /* the rule's position + 1, as rte_acl's userdata */
};

/*
 * by: the key's offset of the address whose first 16 bits index tab
 * (ACL4_SRC or ACL4_SRC + 4); tab: for each /16, its list in lists; a
 * list: up to ACL_PRE_MAX 1-based indices into rules, 16 bits each from
 * the low end, 0 ending it early; ACL_PRE_LONG: more rules than that.
 */
struct acl_pre {
	uint32_t by;
	uint16_t *tab;
	uint64_t *lists;
	struct acl_pre_rule *rules; /* [0] unused */
};

/* The pre-filter of the IPv4 rules (not fragments') of rules[0..n), NULL
 * when no /16 has a short list or out of memory (the set works without).
 * Control thread. */
struct acl_pre *acl_pre_build(const struct acl_rule *rules, uint32_t n);
void acl_pre_free(struct acl_pre *p);

/* The first rule of p matching the IPv4 key d (class ACL_V4) as rte_acl
 * would answer (0: the default), or ACL_PRE_NONE when d's /16 has a long
 * list (rte_acl, or the cache, decides). */
static __rte_always_inline uint32_t acl_pre_match(const struct acl_pre *p, const uint8_t *d)
{
	uint64_t e, a;
	uint32_t ports;
	uint16_t pt, sp, dp, top;

	memcpy(&top, d + p->by, 2); /* the /16: the address's first two bytes */
	e = p->lists[p->tab[rte_be_to_cpu_16(top)]];
	if (e == ACL_PRE_LONG)
		return ACL_PRE_NONE;
	memcpy(&a, d + ACL4_SRC, 8);
	memcpy(&ports, d + ACL4_PORTS, 4);
	ports = rte_be_to_cpu_32(ports);
	sp = (uint16_t)(ports >> 16);
	dp = (uint16_t)ports;
	pt = (uint16_t)(d[ACL4_PROTO] | d[1] << 8);
	for (; (e & 0xffff) != 0; e >>= 16) {
		const struct acl_pre_rule *r = &p->rules[e & 0xffff];

		if ((a & r->amask) != r->addr || ((pt ^ r->pt) & r->ptmask) != 0 ||
		    (uint16_t)(sp - r->sp_lo) > r->sp_span ||
		    (uint16_t)(dp - r->dp_lo) > r->dp_span)
			continue;
		return r->rule;
	}
	return 0;
}

#endif
