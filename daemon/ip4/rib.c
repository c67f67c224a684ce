/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fwd_inet.h"
#include "nexthop/nexthop.h"
#include "ip4/ip4.h"
#include "ip4/rib.h"

static int node_cmp(const struct rib4_node *a, const struct rib4_node *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (int)a->len - (int)b->len;
}

// cppcheck-suppress unknownMacro
RB_GENERATE_STATIC(rib4_tree, rib4_node, link, node_cmp)

const struct rib4_reserved rib4_reserved[RIB4_N_RESERVED] = {
	{ 0x00000000, 8 },
	{ 0x7f000000, 8 },
	{ 0xe0000000, 3 },
	{ IP4_LINK_LOCAL, 16 }, /* RFC 3927 section 7 */
};

bool rib4_is_reserved(uint32_t addr, uint8_t len)
{
	for (unsigned i = 0; i < RIB4_N_RESERVED; i++) {
		const struct rib4_reserved *r = &rib4_reserved[i];
		if (len >= r->len && (addr & fwd_ip4_mask(r->len)) == r->addr)
			return true;
	}
	return false;
}

void rib4_init(struct rib4 *rib, struct fib4 *fib)
{
	RB_INIT(&rib->tree);
	rib->fib = fib;
	rib->n_nodes = 0;
	rib->n_routes = 0;
	/* /16 and shorter fill tbl24 entries only: no tbl8 group, so this cannot fail */
	for (unsigned i = 0; i < RIB4_N_RESERVED; i++)
		fib4_add(fib, rib4_reserved[i].addr, rib4_reserved[i].len, NH_IDX_RESERVED);
}

void rib4_clear(struct rib4 *rib)
{
	struct rib4_node *n, *next;

	for (n = RB_MIN(rib4_tree, &rib->tree); n != NULL; n = next) {
		next = RB_NEXT(rib4_tree, &rib->tree, n);
		RB_REMOVE(rib4_tree, &rib->tree, n);
		free(n);
	}
	rib->n_nodes = 0;
	rib->n_routes = 0;
}

struct rib4_node *rib4_find(struct rib4 *rib, uint32_t addr, uint8_t len)
{
	struct rib4_node key = { .addr = addr & fwd_ip4_mask(len), .len = len };

	return RB_FIND(rib4_tree, &rib->tree, &key);
}

struct rib4_node *rib4_match(struct rib4 *rib, uint32_t addr, uint8_t maxlen)
{
	for (int len = maxlen; len >= 0; len--) {
		struct rib4_node *n = rib4_find(rib, addr, (uint8_t)len);
		if (n != NULL && (n->src & RIB4_SRC_ROUTE))
			return n;
	}
	return NULL;
}

struct rib4_node *rib4_next_route(struct rib4 *rib, uint32_t addr, uint8_t len, bool first)
{
	struct rib4_node key = { .addr = addr, .len = len };
	struct rib4_node *n =
	        first ? RB_MIN(rib4_tree, &rib->tree) : RB_NFIND(rib4_tree, &rib->tree, &key);

	if (!first && n != NULL && node_cmp(n, &key) == 0)
		n = RB_NEXT(rib4_tree, &rib->tree, n);
	while (n != NULL && !(n->src & RIB4_SRC_ROUTE))
		n = RB_NEXT(rib4_tree, &rib->tree, n);
	return n;
}

/* The longest strictly shorter prefix the FIB holds: it takes over on removal. */
static struct rib4_node *installed_parent(struct rib4 *rib, const struct rib4_node *n)
{
	for (int len = n->len - 1; len >= 0; len--) {
		struct rib4_node *p = rib4_find(rib, n->addr, (uint8_t)len);
		if (p != NULL && p->installed)
			return p;
	}
	return NULL;
}

static uint32_t wanted_nh(const struct rib4_node *n, uint8_t src, const struct route4 *route,
                          uint32_t neigh_nh)
{
	if (src & RIB4_SRC_LOCAL)
		return NH_IDX_LOCAL;
	if (src & RIB4_SRC_ROUTE)
		return route->nh;
	if (src & RIB4_SRC_NEIGH)
		return neigh_nh;
	(void)n;
	return NH_IDX_NONE;
}

/* Bring the FIB in line with what node n would hold with src/route/neigh_nh. */
static int fib_sync(struct rib4 *rib, struct rib4_node *n, uint8_t src, const struct route4 *route,
                    uint32_t neigh_nh)
{
	uint32_t nh = wanted_nh(n, src, route, neigh_nh);

	if (rib4_is_reserved(n->addr, n->len))
		return 0; /* the reserved entry stays */
	if (nh != NH_IDX_NONE) {
		if (n->installed && n->fib_nh == nh)
			return 0;
		int rc = fib4_add(rib->fib, n->addr, n->len, nh);
		if (rc < 0)
			return rc;
		n->installed = true;
		n->fib_nh = nh;
		return 0;
	}
	if (n->installed) {
		struct rib4_node *p = installed_parent(rib, n);
		fib4_del(rib->fib, n->addr, n->len, p != NULL ? p->len : -1,
		         p != NULL ? p->fib_nh : 0);
		n->installed = false;
		n->fib_nh = NH_IDX_NONE;
	}
	return 0;
}

static struct rib4_node *node_get(struct rib4 *rib, uint32_t addr, uint8_t len)
{
	struct rib4_node *n = rib4_find(rib, addr, len);

	if (n != NULL)
		return n;
	n = calloc(1, sizeof(*n));
	if (n == NULL)
		return NULL;
	n->addr = addr & fwd_ip4_mask(len);
	n->len = len;
	RB_INSERT(rib4_tree, &rib->tree, n);
	rib->n_nodes++;
	return n;
}

static void node_put(struct rib4 *rib, struct rib4_node *n)
{
	if (n->src != 0 || n->installed)
		return;
	RB_REMOVE(rib4_tree, &rib->tree, n);
	rib->n_nodes--;
	free(n);
}

/* Apply a new source state to a node: FIB first, then commit. */
static int node_update(struct rib4 *rib, struct rib4_node *n, uint8_t src,
                       const struct route4 *route, uint32_t neigh_nh)
{
	int rc = fib_sync(rib, n, src, route, neigh_nh);

	if (rc < 0) {
		node_put(rib, n);
		return rc;
	}
	if ((src & RIB4_SRC_ROUTE) && !(n->src & RIB4_SRC_ROUTE))
		rib->n_routes++;
	if (!(src & RIB4_SRC_ROUTE) && (n->src & RIB4_SRC_ROUTE))
		rib->n_routes--;
	n->src = src;
	n->route = *route;
	n->neigh_nh = neigh_nh;
	node_put(rib, n);
	return 0;
}

int rib4_set_route(struct rib4 *rib, uint32_t addr, uint8_t len, const struct route4 *r,
                   struct route4 *old, bool *had_old)
{
	struct rib4_node *n = node_get(rib, addr, len);

	if (n == NULL)
		return -ENOMEM;
	*had_old = n->src & RIB4_SRC_ROUTE;
	if (*had_old)
		*old = n->route;
	return node_update(rib, n, n->src | RIB4_SRC_ROUTE, r, n->neigh_nh);
}

int rib4_clear_route(struct rib4 *rib, uint32_t addr, uint8_t len, struct route4 *old)
{
	struct rib4_node *n = rib4_find(rib, addr, len);
	struct route4 none = { 0 };

	if (n == NULL || !(n->src & RIB4_SRC_ROUTE))
		return -ESRCH;
	*old = n->route;
	return node_update(rib, n, n->src & ~RIB4_SRC_ROUTE, &none, n->neigh_nh);
}

int rib4_set_local(struct rib4 *rib, uint32_t addr)
{
	struct rib4_node *n = node_get(rib, addr, 32);

	if (n == NULL)
		return -ENOMEM;
	return node_update(rib, n, n->src | RIB4_SRC_LOCAL, &n->route, n->neigh_nh);
}

void rib4_clear_local(struct rib4 *rib, uint32_t addr)
{
	struct rib4_node *n = rib4_find(rib, addr, 32);

	if (n != NULL && (n->src & RIB4_SRC_LOCAL))
		node_update(rib, n, n->src & ~RIB4_SRC_LOCAL, &n->route, n->neigh_nh);
}

int rib4_set_neigh(struct rib4 *rib, uint32_t addr, uint32_t nh)
{
	struct rib4_node *n = node_get(rib, addr, 32);

	if (n == NULL)
		return -ENOMEM;
	return node_update(rib, n, n->src | RIB4_SRC_NEIGH, &n->route, nh);
}

void rib4_clear_neigh(struct rib4 *rib, uint32_t addr, uint32_t nh)
{
	struct rib4_node *n = rib4_find(rib, addr, 32);

	/* only its own: the same address may have moved to another port's neighbour */
	if (n != NULL && (n->src & RIB4_SRC_NEIGH) && n->neigh_nh == nh)
		node_update(rib, n, n->src & ~RIB4_SRC_NEIGH, &n->route, NH_IDX_NONE);
}

size_t rib4_memory(const struct rib4 *rib)
{
	/* glibc malloc adds 16 bytes to each chunk */
	return rib->n_nodes * (sizeof(struct rib4_node) + 16);
}
