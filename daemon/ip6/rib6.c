/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fwd_inet.h"
#include "nexthop/nexthop.h"
#include "ip6/rib6.h"

static int node_cmp(const struct rib6_node *a, const struct rib6_node *b)
{
	int c = memcmp(a->addr, b->addr, sizeof(a->addr));

	return c != 0 ? c : (int)a->len - (int)b->len;
}

// cppcheck-suppress unknownMacro
RB_GENERATE_STATIC(rib6_tree, rib6_node, link, node_cmp)

const struct rib6_reserved rib6_reserved[RIB6_N_RESERVED] = {
	{ { 0xff }, 8, false },
	{ { 0xfe, 0x80 }, 10, true },
	{ { 0 }, 128, false },
	{ { [15] = 1 }, 128, false },
};

bool rib6_is_reserved(const uint8_t addr[16], uint8_t len)
{
	for (unsigned i = 0; i < RIB6_N_RESERVED; i++) {
		const struct rib6_reserved *r = &rib6_reserved[i];
		if (len >= r->len && fwd_ip6_in_prefix(addr, r->addr, r->len))
			return true;
	}
	return false;
}

void rib6_init(struct rib6 *rib, struct fib6 *fib)
{
	RB_INIT(&rib->tree);
	rib->fib = fib;
	rib->n_nodes = 0;
	rib->n_routes = 0;
	/* ff00::/8 and fe80::/10 fill tbl24 entries only; ::/128 and ::1/128
	 * share one path of FIB6_LEVELS groups, which an empty FIB has */
	for (unsigned i = 0; i < RIB6_N_RESERVED; i++)
		if (fib6_add(fib, rib6_reserved[i].addr, rib6_reserved[i].len, NH_IDX_RESERVED) < 0)
			abort(); /* a broken invariant: the FIB was not fresh */
}

void rib6_clear(struct rib6 *rib)
{
	struct rib6_node *n, *next;

	for (n = RB_MIN(rib6_tree, &rib->tree); n != NULL; n = next) {
		next = RB_NEXT(rib6_tree, &rib->tree, n);
		RB_REMOVE(rib6_tree, &rib->tree, n);
		free(n);
	}
	rib->n_nodes = 0;
	rib->n_routes = 0;
}

struct rib6_node *rib6_find(struct rib6 *rib, const uint8_t addr[16], uint8_t len)
{
	struct rib6_node key = { .len = len };

	memcpy(key.addr, addr, sizeof(key.addr));
	fwd_ip6_mask(key.addr, len);
	return RB_FIND(rib6_tree, &rib->tree, &key);
}

struct rib6_node *rib6_match(struct rib6 *rib, const uint8_t addr[16], uint8_t maxlen)
{
	for (int len = maxlen; len >= 0; len--) {
		struct rib6_node *n = rib6_find(rib, addr, (uint8_t)len);
		if (n != NULL && (n->src & RIB6_SRC_ROUTE))
			return n;
	}
	return NULL;
}

struct rib6_node *rib6_next_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, bool first)
{
	struct rib6_node key = { .len = len };
	struct rib6_node *n;

	memcpy(key.addr, addr, sizeof(key.addr));
	n = first ? RB_MIN(rib6_tree, &rib->tree) : RB_NFIND(rib6_tree, &rib->tree, &key);
	if (!first && n != NULL && node_cmp(n, &key) == 0)
		n = RB_NEXT(rib6_tree, &rib->tree, n);
	while (n != NULL && !(n->src & RIB6_SRC_ROUTE))
		n = RB_NEXT(rib6_tree, &rib->tree, n);
	return n;
}

/*
 * What takes over n's FIB entries on removal: the longest strictly shorter
 * prefix the FIB holds, an installed node or a reserved range (*len < 0:
 * none).
 */
static void fib_parent(struct rib6 *rib, const struct rib6_node *n, int *len, uint32_t *nh)
{
	*len = -1;
	*nh = NH_IDX_NONE;
	for (unsigned i = 0; i < RIB6_N_RESERVED; i++) {
		const struct rib6_reserved *r = &rib6_reserved[i];
		if (r->len < n->len && r->len > *len &&
		    fwd_ip6_in_prefix(n->addr, r->addr, r->len)) {
			*len = r->len;
			*nh = NH_IDX_RESERVED;
		}
	}
	for (int l = n->len - 1; l > *len; l--) {
		struct rib6_node *p = rib6_find(rib, n->addr, (uint8_t)l);
		if (p != NULL && p->installed) {
			*len = l;
			*nh = p->fib_nh;
			return;
		}
	}
}

/* May node n put next hop nh in the FIB? Not inside a reserved range,
 * unless it is one of our addresses where the range allows them. */
static bool fib_may_hold(const struct rib6_node *n, uint32_t nh)
{
	for (unsigned i = 0; i < RIB6_N_RESERVED; i++) {
		const struct rib6_reserved *r = &rib6_reserved[i];
		if (n->len >= r->len && fwd_ip6_in_prefix(n->addr, r->addr, r->len))
			return r->local_ok && nh == NH_IDX_LOCAL && n->len == 128;
	}
	return true;
}

static uint32_t wanted_nh(uint8_t src, const struct route6 *route, uint32_t neigh_nh)
{
	if (src & RIB6_SRC_LOCAL)
		return NH_IDX_LOCAL;
	if (src & RIB6_SRC_ROUTE)
		return route->nh;
	if (src & RIB6_SRC_NEIGH)
		return neigh_nh;
	return NH_IDX_NONE;
}

/* Bring the FIB in line with what node n would hold with src/route/neigh_nh. */
static int fib_sync(struct rib6 *rib, struct rib6_node *n, uint8_t src, const struct route6 *route,
                    uint32_t neigh_nh)
{
	uint32_t nh = wanted_nh(src, route, neigh_nh);

	if (nh != NH_IDX_NONE && !fib_may_hold(n, nh))
		nh = NH_IDX_NONE; /* the reserved entry stays, or takes over again */
	if (nh != NH_IDX_NONE) {
		if (n->installed && n->fib_nh == nh)
			return 0;
		/* a neighbour's own /128 takes the hosts' groups (route/fib6.h) */
		bool host = !(src & (RIB6_SRC_LOCAL | RIB6_SRC_ROUTE));
		int rc = fib6_add_pool(rib->fib, n->addr, n->len, nh,
		                       host ? FIB6_POOL_HOSTS : FIB6_POOL_ROUTES);
		if (rc < 0)
			return rc;
		n->installed = true;
		n->fib_nh = nh;
		return 0;
	}
	if (n->installed) {
		int plen;
		uint32_t pnh;
		fib_parent(rib, n, &plen, &pnh);
		fib6_del(rib->fib, n->addr, n->len, plen, pnh);
		n->installed = false;
		n->fib_nh = NH_IDX_NONE;
	}
	return 0;
}

static struct rib6_node *node_get(struct rib6 *rib, const uint8_t addr[16], uint8_t len)
{
	struct rib6_node *n = rib6_find(rib, addr, len);

	if (n != NULL)
		return n;
	n = calloc(1, sizeof(*n));
	if (n == NULL)
		return NULL;
	memcpy(n->addr, addr, sizeof(n->addr));
	fwd_ip6_mask(n->addr, len);
	n->len = len;
	RB_INSERT(rib6_tree, &rib->tree, n);
	rib->n_nodes++;
	return n;
}

static void node_put(struct rib6 *rib, struct rib6_node *n)
{
	if (n->src != 0 || n->installed)
		return;
	RB_REMOVE(rib6_tree, &rib->tree, n);
	rib->n_nodes--;
	free(n);
}

/* Apply a new source state to a node: FIB first, then commit. */
static int node_update(struct rib6 *rib, struct rib6_node *n, uint8_t src,
                       const struct route6 *route, uint32_t neigh_nh)
{
	int rc = fib_sync(rib, n, src, route, neigh_nh);

	if (rc < 0) {
		node_put(rib, n);
		return rc;
	}
	if ((src & RIB6_SRC_ROUTE) && !(n->src & RIB6_SRC_ROUTE))
		rib->n_routes++;
	if (!(src & RIB6_SRC_ROUTE) && (n->src & RIB6_SRC_ROUTE))
		rib->n_routes--;
	n->src = src;
	n->route = *route;
	n->neigh_nh = neigh_nh;
	node_put(rib, n);
	return 0;
}

int rib6_set_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, const struct route6 *r,
                   struct route6 *old, bool *had_old)
{
	struct rib6_node *n;

	if (len > 128)
		return -EINVAL;
	n = node_get(rib, addr, len);
	if (n == NULL)
		return -ENOMEM;
	*had_old = n->src & RIB6_SRC_ROUTE;
	if (*had_old)
		*old = n->route;
	return node_update(rib, n, n->src | RIB6_SRC_ROUTE, r, n->neigh_nh);
}

int rib6_clear_route(struct rib6 *rib, const uint8_t addr[16], uint8_t len, struct route6 *old)
{
	struct rib6_node *n = rib6_find(rib, addr, len);
	struct route6 none = { 0 };

	if (n == NULL || !(n->src & RIB6_SRC_ROUTE))
		return -ESRCH;
	*old = n->route;
	return node_update(rib, n, n->src & ~RIB6_SRC_ROUTE, &none, n->neigh_nh);
}

int rib6_set_local(struct rib6 *rib, const uint8_t addr[16])
{
	struct rib6_node *n = node_get(rib, addr, 128);

	if (n == NULL)
		return -ENOMEM;
	return node_update(rib, n, n->src | RIB6_SRC_LOCAL, &n->route, n->neigh_nh);
}

void rib6_clear_local(struct rib6 *rib, const uint8_t addr[16])
{
	struct rib6_node *n = rib6_find(rib, addr, 128);

	if (n != NULL && (n->src & RIB6_SRC_LOCAL))
		node_update(rib, n, n->src & ~RIB6_SRC_LOCAL, &n->route, n->neigh_nh);
}

int rib6_set_neigh(struct rib6 *rib, const uint8_t addr[16], uint32_t nh)
{
	struct rib6_node *n = node_get(rib, addr, 128);

	if (n == NULL)
		return -ENOMEM;
	return node_update(rib, n, n->src | RIB6_SRC_NEIGH, &n->route, nh);
}

void rib6_clear_neigh(struct rib6 *rib, const uint8_t addr[16], uint32_t nh)
{
	struct rib6_node *n = rib6_find(rib, addr, 128);

	/* only its own: the same address may have moved to another port's neighbour */
	if (n != NULL && (n->src & RIB6_SRC_NEIGH) && n->neigh_nh == nh)
		node_update(rib, n, n->src & ~RIB6_SRC_NEIGH, &n->route, NH_IDX_NONE);
}

size_t rib6_memory(const struct rib6 *rib)
{
	/* glibc malloc adds 16 bytes to each chunk */
	return rib->n_nodes * (sizeof(struct rib6_node) + 16);
}
