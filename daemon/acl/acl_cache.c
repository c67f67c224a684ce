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
 * writes it; the control thread allocates it before the workers see a
 * state and frees it after they stopped. The table is fixed
 * (ACL_CACHE_SETS sets of ACL_CACHE_WAYS ways): a lookup reads one set, a
 * fill writes one entry; no allocation. Sets are picked by a keyed hash
 * (acl_cache.h) under a per-worker secret, so that a sender who does not
 * know it cannot aim its flows at one set.
 */
#include <rte_malloc.h>

#include "acl/acl_cache.h"
#include "core/siphash.h"

struct acl_cache *acl_caches[FWD_MAX_WORKERS];

struct acl_cache *acl_cache_new(unsigned worker, int socket)
{
	struct acl_cache *c =
	        rte_zmalloc_socket("fwd_acl_cache", sizeof(*c), RTE_CACHE_LINE_SIZE, socket);

	for (unsigned i = 0; c != NULL && i < RTE_DIM(c->nh); i++)
		c->nh[i] = fwd_hash_seed(0xac1c0000u + worker * 16u + i);
	return c;
}

void acl_cache_free(struct acl_cache *c)
{
	rte_free(c);
}

/* Where k goes: where it already is (an earlier miss of the burst filled
 * it), else a way of another generation, else round robin. */
static struct acl_centry *slot(struct acl_cache *c, uint64_t tag, const struct acl_ckey *k, int cls)
{
	unsigned nw = acl_ckey_words(cls); /* as acl_cache_prepare */
	struct acl_centry *set = c->e[acl_cache_set(c, k, nw)];

	for (unsigned w = 0; w < ACL_CACHE_WAYS; w++)
		if (acl_centry_is(&set[w], tag, k, ACL_CKEY_WORDS))
			return &set[w];
	for (unsigned w = 0; w < ACL_CACHE_WAYS; w++)
		if (set[w].tag >> 32 != tag >> 32)
			return &set[w];
	return &set[c->victim++ % ACL_CACHE_WAYS];
}

void acl_cache_fill(struct acl_cache *c, uint64_t tag, int cls, const uint8_t *d, uint32_t rule)
{
	struct acl_ckey k;
	struct acl_centry *e;

	acl_ckey_make(&k, cls, d);
	e = slot(c, tag, &k, cls);
	e->key = k;
	e->tag = tag;
	e->rule = rule;
}

void acl_cache_classify(struct acl_cache *c, uint64_t tag, const struct acl_set *s, int cls,
                        const uint8_t **keys, uint32_t *res, unsigned n)
{
	const uint8_t *d[64];
	uint32_t r[64];
	uint8_t miss[64];
	unsigned nm = 0;

	RTE_ASSERT(n <= 64);
	for (unsigned i = 0; i < n; i++) {
		struct acl_cprobe p;

		acl_cache_prepare(c, cls, keys[i], &p);
		res[i] = acl_cache_probe(&p, tag, cls);
		if (res[i] == ACL_CACHE_MISS) {
			miss[nm] = (uint8_t)i;
			d[nm++] = keys[i];
		}
	}
	if (nm == 0)
		return;
	acl_set_classify(s, cls, d, r, nm);
	for (unsigned j = 0; j < nm; j++) {
		res[miss[j]] = r[j];
		acl_cache_fill(c, tag, cls, d[j], r[j]);
	}
}
