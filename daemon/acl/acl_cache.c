/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each worker's cache of ACL verdicts (doc/acl.md, "The verdict cache"):
 * what rte_acl answered for the fields a rule can look at (the class, the
 * protocol, DSCP, the addresses, the ports or ICMP type and code), so that
 * the packets of a flow already seen skip the classification. An entry
 * holds the matched rule's index, not only its action: the caller counts
 * the rule's hits for every packet, from the cache or not.
 *
 * An entry is tagged with the generation of the published state it was
 * filled under and the set that answered (acl_cache_tag): a reload or an
 * attachment change publishes a new generation, whose tags no old entry
 * carries, so the cache empties logically without a write from the control
 * thread. The memory is the worker's own: only that worker reads or
 * writes it, and the control thread allocates and frees it at start and
 * stop. The table is fixed (ACL_CACHE_SETS sets of ACL_CACHE_WAYS ways);
 * a lookup reads one set, a fill writes one entry: bounded work, no
 * allocation. Sets are picked by NH (UMAC's hash, RFC 4418 section 5)
 * under a per-worker random key, so that a sender who does not know it
 * cannot aim its flows at one set.
 */
#include <string.h>

#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "acl/acl.h"
#include "core/siphash.h"

#define ACL_CACHE_WAYS     4u
#define ACL_CACHE_SET_BITS 11u /* 2,048 sets: 8,192 entries, 512 KiB a worker */
#define ACL_CACHE_SETS     (1u << ACL_CACHE_SET_BITS)
#define ACL_CKEY_WORDS     5u
#define ACL_CACHE_CHUNK    64u /* the most keys a call takes at once */

/* The fields of a packet rules can look at, as 64-bit words (zero where
 * the class has none) */
struct acl_ckey {
	uint64_t w[ACL_CKEY_WORDS];
};

struct acl_centry {
	struct acl_ckey key;
	uint64_t tag; /* acl_cache_tag at the fill; 0: never filled */
	uint32_t rule;
} __rte_cache_aligned;

struct acl_cache {
	uint32_t nh[2 * ACL_CKEY_WORDS]; /* the hash's key */
	uint32_t victim;                 /* the way the next fill of a full set takes */
	struct acl_centry e[ACL_CACHE_SETS][ACL_CACHE_WAYS];
};

struct acl_cache *acl_caches[FWD_MAX_WORKERS];

struct acl_cache *acl_cache_new(unsigned worker, int socket)
{
	struct acl_cache *c = rte_zmalloc_socket("fwd_acl_cache", sizeof(*c),
	                                         RTE_CACHE_LINE_SIZE, socket);

	for (unsigned i = 0; c != NULL && i < RTE_DIM(c->nh); i++)
		c->nh[i] = fwd_hash_seed(0xac1c0000u + worker * 16u + i);
	return c;
}

void acl_cache_free(struct acl_cache *c)
{
	rte_free(c);
}

static __rte_always_inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static __rte_always_inline uint64_t load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The key of what rte_acl reads at d for class cls (acl.h: the offsets;
 * acl_build.c: DSCP's bits). A non-first fragment's context reads no
 * ports: they stay 0. */
static __rte_always_inline void ckey_make(struct acl_ckey *k, int cls, const uint8_t *d)
{
	bool frag = (cls & ACL_FRAG) != 0;

	if ((cls & 1) == ACL_V4) {
		k->w[0] = (frag ? 0 : load32(d + ACL4_PORTS)) | (uint64_t)d[ACL4_PROTO] << 32 |
		          (uint64_t)(d[1] >> 2) << 40 | (uint64_t)cls << 48;
		k->w[1] = load64(d + ACL4_SRC);
		k->w[2] = k->w[3] = k->w[4] = 0;
		return;
	}
	k->w[0] = (frag ? 0 : load32(d + ACL6_PORTS)) | (uint64_t)d[ACL6_PROTO] << 32 |
	          (uint64_t)((d[0] & 0xfu) << 2 | d[1] >> 6) << 40 | (uint64_t)cls << 48;
	for (unsigned i = 0; i < 4; i++)
		k->w[1 + i] = load64(d + ACL6_SRC + 8 * i);
}

/* NH: the sum of the products of the key's 32-bit halves, each plus a word
 * of the secret (two keys collide with a chance of 2^-32 over the secret).
 * A product's high bits hardly see its factors' low bits: a bijective mix
 * (MurmurHash3's finaliser) spreads every bit before the set is taken. */
static __rte_always_inline uint32_t set_of(const struct acl_cache *c, const struct acl_ckey *k)
{
	uint64_t h = 0;

	for (unsigned i = 0; i < ACL_CKEY_WORDS; i++)
		h += (uint64_t)(uint32_t)((uint32_t)k->w[i] + c->nh[2 * i]) *
		     (uint32_t)((uint32_t)(k->w[i] >> 32) + c->nh[2 * i + 1]);
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	return (uint32_t)(h >> (64 - ACL_CACHE_SET_BITS));
}

static __rte_always_inline bool same(const struct acl_centry *e, uint64_t tag,
                                     const struct acl_ckey *k)
{
	return ((e->tag ^ tag) | (e->key.w[0] ^ k->w[0]) | (e->key.w[1] ^ k->w[1]) |
	        (e->key.w[2] ^ k->w[2]) | (e->key.w[3] ^ k->w[3]) | (e->key.w[4] ^ k->w[4])) ==
	       0;
}

static __rte_always_inline struct acl_centry *find(struct acl_centry *set, uint64_t tag,
                                                   const struct acl_ckey *k)
{
	for (unsigned w = 0; w < ACL_CACHE_WAYS; w++)
		if (same(&set[w], tag, k))
			return &set[w];
	return NULL;
}

/* Remember rule for k: where k already is (an earlier miss of the burst
 * filled it), else in a way of another generation, else round robin. */
static void fill(struct acl_cache *c, struct acl_centry *set, uint64_t tag,
                 const struct acl_ckey *k, uint32_t rule)
{
	struct acl_centry *e = find(set, tag, k);

	for (unsigned w = 0; e == NULL && w < ACL_CACHE_WAYS; w++)
		if (set[w].tag >> 32 != tag >> 32)
			e = &set[w];
	if (e == NULL)
		e = &set[c->victim++ % ACL_CACHE_WAYS];
	e->key = *k;
	e->tag = tag;
	e->rule = rule;
}

/* Classify the misses of the chunk with one rte_acl call, then fill. */
static void classify_misses(struct acl_cache *c, uint64_t tag, const struct acl_set *s, int cls,
                            const uint8_t **keys, uint32_t *res, const struct acl_ckey *k,
                            const uint32_t *set, const uint8_t *miss, unsigned nm)
{
	const uint8_t *d[ACL_CACHE_CHUNK];
	uint32_t r[ACL_CACHE_CHUNK];

	for (unsigned j = 0; j < nm; j++)
		d[j] = keys[miss[j]];
	acl_set_classify(s, cls, d, r, nm);
	for (unsigned j = 0; j < nm; j++) {
		unsigned i = miss[j];

		res[i] = r[j];
		fill(c, c->e[set[i]], tag, &k[i], r[j]);
	}
}

void acl_cache_classify(struct acl_cache *c, uint64_t tag, const struct acl_set *s, int cls,
                        const uint8_t **keys, uint32_t *res, unsigned n)
{
	struct acl_ckey k[ACL_CACHE_CHUNK];
	uint32_t set[ACL_CACHE_CHUNK];
	uint8_t miss[ACL_CACHE_CHUNK];
	unsigned nm = 0;

	RTE_ASSERT(n <= ACL_CACHE_CHUNK);
	for (unsigned i = 0; i < n; i++) {
		ckey_make(&k[i], cls, keys[i]);
		set[i] = set_of(c, &k[i]);
		rte_prefetch0(c->e[set[i]]);
	}
	for (unsigned i = 0; i < n; i++) {
		const struct acl_centry *e = find(c->e[set[i]], tag, &k[i]);

		if (e != NULL)
			res[i] = e->rule;
		else
			miss[nm++] = (uint8_t)i;
	}
	if (nm != 0)
		classify_misses(c, tag, s, cls, keys, res, k, set, miss, nm);
}
