/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each worker's cache of ACL verdicts (acl_cache.c says how it works): the
 * lookup, inlined into the worker's loop over a burst (acl_dp.c), and the
 * fill of a miss once rte_acl has classified it. Worker only.
 */
#ifndef FWD_ACL_CACHE_H
#define FWD_ACL_CACHE_H

#include <string.h>

#include <rte_prefetch.h>

#include "acl/acl.h"

#define ACL_CACHE_WAYS     4u
#define ACL_CACHE_SET_BITS 11u /* 2,048 sets: 8,192 entries, 512 KiB a worker */
#define ACL_CACHE_SETS     (1u << ACL_CACHE_SET_BITS)
#define ACL_CKEY_WORDS     5u
#define ACL_CACHE_MISS     UINT32_MAX

/* The fields of a packet rules can look at, as 64-bit words: ports (or ICMP
 * type and code), protocol, DSCP and class, then the addresses (IPv4: one
 * word; the others stay 0 and are neither hashed nor compared). */
struct acl_ckey {
	uint64_t w[ACL_CKEY_WORDS];
};

struct acl_centry {
	struct acl_ckey key;
	uint64_t tag; /* acl_cache_tag at the fill; 0: never filled */
	uint32_t rule;
} __rte_cache_aligned;

/* A flood of new flows makes nearly every lookup miss, and a miss costs
 * more than no cache (the lookup, the fill, a line of the table from
 * memory): after ACL_CACHE_WINDOW lookups of which more than half missed,
 * the cache is left alone for ACL_CACHE_REST chunks, then tried again. */
#define ACL_CACHE_WINDOW 128u
#define ACL_CACHE_REST   256u

struct acl_cache {
	uint32_t nh[2 * ACL_CKEY_WORDS]; /* the hash's secret */
	uint32_t victim;                 /* the way the next fill of a full set takes */
	uint32_t looked, missed;         /* lookups and misses of this window */
	uint32_t rest;                   /* chunks left alone still */
	struct acl_centry e[ACL_CACHE_SETS][ACL_CACHE_WAYS];
};

/* Is c to be used for the next chunk (else it rests)? */
static __rte_always_inline bool acl_cache_use(struct acl_cache *c)
{
	if (likely(c->rest == 0))
		return true;
	c->rest--;
	return false;
}

/* A chunk used c: n lookups, nm of them missed. */
static __rte_always_inline void acl_cache_account(struct acl_cache *c, unsigned n, unsigned nm)
{
	c->looked += n;
	c->missed += nm;
	if (c->looked < ACL_CACHE_WINDOW)
		return;
	if (c->missed * 2 > c->looked)
		c->rest = ACL_CACHE_REST;
	c->looked = c->missed = 0;
}

static __rte_always_inline uint64_t acl_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static __rte_always_inline uint64_t acl_load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The key of what rte_acl reads at d for class cls (acl.h: the offsets;
 * acl_build.c: DSCP's bits). A non-first fragment's context reads no
 * ports: they stay 0. */
static __rte_always_inline void acl_ckey_make(struct acl_ckey *k, int cls, const uint8_t *d)
{
	bool frag = (cls & ACL_FRAG) != 0;

	if ((cls & 1) == ACL_V4) {
		k->w[0] = (frag ? 0 : acl_load32(d + ACL4_PORTS)) | (uint64_t)d[ACL4_PROTO] << 32 |
		          (uint64_t)(d[1] >> 2) << 40 | (uint64_t)cls << 48;
		k->w[1] = acl_load64(d + ACL4_SRC);
		k->w[2] = k->w[3] = k->w[4] = 0;
		return;
	}
	k->w[0] = (frag ? 0 : acl_load32(d + ACL6_PORTS)) | (uint64_t)d[ACL6_PROTO] << 32 |
	          (uint64_t)((d[0] & 0xfu) << 2 | d[1] >> 6) << 40 | (uint64_t)cls << 48;
	for (unsigned i = 0; i < 4; i++)
		k->w[1 + i] = acl_load64(d + ACL6_SRC + 8 * i);
}

/* NH (UMAC, RFC 4418 section 5) over the first nw words: the sum of the
 * products of their 32-bit halves, each plus a word of the secret (two
 * keys collide with a chance of 2^-32 over the secret). The set is the
 * bits from 32 up: each depends on every bit of the factors, and each
 * product taken modulo 2^43 keeps them as multiply-shift hashing does (the
 * top bits would hardly see the factors' low bits). */
static __rte_always_inline uint32_t acl_cache_set(const struct acl_cache *c,
                                                  const struct acl_ckey *k, unsigned nw)
{
	uint64_t h = 0;

	for (unsigned i = 0; i < nw; i++)
		h += (uint64_t)(uint32_t)((uint32_t)k->w[i] + c->nh[2 * i]) *
		     (uint32_t)((uint32_t)(k->w[i] >> 32) + c->nh[2 * i + 1]);
	return (uint32_t)(h >> 32) & (ACL_CACHE_SETS - 1);
}

/* Does e hold k under tag? Its first nw words decide: the class in word 0
 * says how many the others have. */
static __rte_always_inline bool acl_centry_is(const struct acl_centry *e, uint64_t tag,
                                              const struct acl_ckey *k, unsigned nw)
{
	uint64_t x = (e->tag ^ tag) | (e->key.w[0] ^ k->w[0]) | (e->key.w[1] ^ k->w[1]);

	for (unsigned i = 2; i < nw; i++)
		x |= e->key.w[i] ^ k->w[i];
	return x == 0;
}

/* A lookup in two steps, so that a chunk's sets come from memory while the
 * keys of its next packets are made: acl_cache_prepare, then
 * acl_cache_probe. */
struct acl_cprobe {
	struct acl_ckey k;
	const struct acl_centry *set;
};

static __rte_always_inline unsigned acl_ckey_words(int cls)
{
	return (cls & 1) == ACL_V4 ? 2 : ACL_CKEY_WORDS;
}

static __rte_always_inline void acl_cache_prepare(const struct acl_cache *c, int cls,
                                                  const uint8_t *d, struct acl_cprobe *p)
{
	acl_ckey_make(&p->k, cls, d);
	if ((cls & 1) == ACL_V4)
		p->set = c->e[acl_cache_set(c, &p->k, 2)];
	else
		p->set = c->e[acl_cache_set(c, &p->k, ACL_CKEY_WORDS)];
	rte_prefetch0(&p->set[0]);
	rte_prefetch0(&p->set[1]);
}

static __rte_always_inline uint32_t acl_cache_probe_n(const struct acl_cprobe *p, uint64_t tag,
                                                      unsigned nw)
{
	for (unsigned w = 0; w < ACL_CACHE_WAYS; w++)
		if (acl_centry_is(&p->set[w], tag, &p->k, nw))
			return p->set[w].rule;
	return ACL_CACHE_MISS;
}

/* The rule cached for the packet p was prepared for (class cls) under
 * tag, or ACL_CACHE_MISS. */
static __rte_always_inline uint32_t acl_cache_probe(const struct acl_cprobe *p, uint64_t tag,
                                                    int cls)
{
	if ((cls & 1) == ACL_V4)
		return acl_cache_probe_n(p, tag, 2);
	return acl_cache_probe_n(p, tag, ACL_CKEY_WORDS);
}

/* Remember rule for that packet (after a miss). */
void acl_cache_fill(struct acl_cache *c, uint64_t tag, int cls, const uint8_t *d, uint32_t rule);

#endif
