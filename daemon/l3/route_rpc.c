/* SPDX-License-Identifier: BSD-3-Clause */
/* `fwdctl [-V VRF] route list|get|add|del`: IPv4's routes, then IPv6's, of one VRF. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/iface.h"
#include "core/rpc.h"
#include "ip4/ip4.h"
#include "ip4/route.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "l3/l3.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

#define LIST_PAGE 2000 /* routes per reply page: ~120 KiB packed */

static const char *const type_names[] = { "connected", "static", "blackhole", "unreachable",
	                                  "prohibit",  "static", "next-vrf" };
_Static_assert(ROUTE4_CONNECTED == 0 && ROUTE4_VIA == 1 && ROUTE4_BLACKHOLE == 2 &&
                       ROUTE4_UNREACHABLE == 3 && ROUTE4_PROHIBIT == 4 && ROUTE4_DEV == 5,
               "route types");
_Static_assert(ROUTE6_CONNECTED == 0 && ROUTE6_VIA == 1 && ROUTE6_BLACKHOLE == 2 &&
                       ROUTE6_UNREACHABLE == 3 && ROUTE6_PROHIBIT == 4 && ROUTE6_DEV == 5,
               "route types");

_Static_assert(ROUTE_NEXT_VRF == 6, "route types");

int l3_vrf_arg(struct fwd_rpc_call *call, const char *name, uint16_t *vrf)
{
	int v = fwd_vrf_by_name(name == NULL || name[0] == '\0' ? "default" : name);

	if (v < 0)
		return fwd_rpc_error(call, ENOENT, "no such VRF: %.64s", name);
	*vrf = (uint16_t)v;
	return 0;
}

/* One route of either family, as the reply shows it: every next hop. */
static Fwd__RouteEntry *entry(struct fwd_rpc_call *call, uint16_t vrf, const struct fwd_prefix *p,
                              uint8_t type, uint8_t origin, uint16_t dev, uint32_t nh)
{
	Fwd__RouteEntry *e = fwd_rpc_alloc(call, sizeof(*e));
	char buf[FWD_PREFIX_STRLEN];
	struct l3_route r;

	fwd__route_entry__init(e);
	e->prefix = fwd_rpc_strdup(call, fwd_prefix_fmt(p, buf));
	e->type = (char *)(type < RTE_DIM(type_names) ? type_names[type] : "?");
	e->origin = (char *)fwd_origin_name(origin);
	e->vrf = (char *)fwd_vrf_name(vrf);
	l3_route_from_rib(&r, type, origin, dev, nh);
	if (r.type == L3_ROUTE_NEXT_VRF)
		e->next_vrf = (char *)fwd_vrf_name(r.next_vrf);
	if (r.n_nh == 0)
		return e;
	e->nexthops = fwd_rpc_alloc(call, r.n_nh * sizeof(*e->nexthops));
	for (unsigned i = 0; i < r.n_nh; i++) {
		Fwd__RouteNexthop *h = fwd_rpc_alloc(call, sizeof(*h));
		int port = r.nh[i].dev;
		fwd__route_nexthop__init(h);
		if (r.nh[i].via.family != 0)
			h->via = fwd_rpc_strdup(call, fwd_ip_fmt(&r.nh[i].via, buf));
		/* a single gateway's interface is the one it resolved on */
		if (type == ROUTE4_VIA && r.n_nh == 1)
			port = nh_table[nh].iface;
		if (port >= 0 && fwd_iface_name((unsigned)port)[0] != '\0')
			h->dev = (char *)fwd_iface_name((unsigned)port);
		e->nexthops[e->n_nexthops++] = h;
	}
	e->via = e->nexthops[0]->via;
	e->dev = e->nexthops[0]->dev;
	return e;
}

static Fwd__RouteEntry *entry4(struct fwd_rpc_call *call, uint16_t vrf, const struct rib4_node *n)
{
	struct fwd_ip4_prefix p4 = { n->addr, n->len };
	struct fwd_prefix p = fwd_prefix_of4(&p4);

	return entry(call, vrf, &p, n->route.type, n->route.origin, n->route.dev, n->route.nh);
}

static Fwd__RouteEntry *entry6(struct fwd_rpc_call *call, uint16_t vrf, const struct rib6_node *n)
{
	struct fwd_prefix p = { .family = AF_INET6, .len = n->len };

	memcpy(p.v6, n->addr, 16);
	return entry(call, vrf, &p, n->route.type, n->route.origin, n->route.dev, n->route.nh);
}

/* Where a paged list stands: the family it is in and the last route sent. */
struct list_cursor {
	uint32_t filter;
	uint16_t vrf;
	uint8_t family; /* AF_INET, then AF_INET6 */
	uint8_t addr[16];
	uint8_t len;
	bool started;
};

/* The next route to send, moving on to IPv6 when IPv4's are done; NULL at the end. */
static const void *cursor_peek(struct list_cursor *c)
{
	if (c->family == AF_INET) {
		uint32_t a;
		memcpy(&a, c->addr, 4);
		if (l3_family_wanted(c->filter, AF_INET)) {
			struct rib4_node *n =
			        rib4_next_route(&ip4_ribs[c->vrf], a, c->len, !c->started);
			if (n != NULL)
				return n;
		}
		c->family = AF_INET6;
		c->started = false;
		memset(c->addr, 0, sizeof(c->addr));
		c->len = 0;
	}
	if (!l3_family_wanted(c->filter, AF_INET6))
		return NULL;
	return rib6_next_route(&ip6_ribs[c->vrf], c->addr, c->len, !c->started);
}

static int route_list_page(struct fwd_rpc_call *call)
{
	struct list_cursor *c = call->cursor;
	Fwd__RouteListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	const void *n;

	fwd__route_list_resp__init(r);
	r->routes = (Fwd__RouteEntry **)fwd_rpc_ptr_array(call, LIST_PAGE);
	while (r->n_routes < LIST_PAGE && (n = cursor_peek(c)) != NULL) {
		if (c->family == AF_INET) {
			const struct rib4_node *n4 = n;
			r->routes[r->n_routes++] = entry4(call, c->vrf, n4);
			memcpy(c->addr, &n4->addr, 4);
			c->len = n4->len;
		} else {
			const struct rib6_node *n6 = n;
			r->routes[r->n_routes++] = entry6(call, c->vrf, n6);
			memcpy(c->addr, n6->addr, 16);
			c->len = n6->len;
		}
		c->started = true;
	}
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_LIST;
	call->resp->route_list = r;
	return cursor_peek(c) != NULL;
}

static int route_list(struct fwd_rpc_call *call)
{
	uint32_t filter = call->req->route_list->family;
	struct list_cursor *c;
	uint16_t vrf = 0;

	if (l3_family_check(call, filter) < 0)
		return -EINVAL;
	if (l3_vrf_arg(call, call->req->route_list->vrf, &vrf) < 0)
		return -ENOENT;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	c->filter = filter;
	c->vrf = vrf;
	c->family = AF_INET;
	call->cursor = c;
	call->cursor_free = free;
	if (route_list_page(call) == 1)
		call->next = route_list_page;
	call->resp->route_list->total =
	        (l3_family_wanted(filter, AF_INET) ? ip4_ribs[vrf].n_routes : 0) +
	        (l3_family_wanted(filter, AF_INET6) ? ip6_ribs[vrf].n_routes : 0);
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_LIST, route_list, FWD_RPC_READ);

static void route_get_neigh(struct fwd_rpc_call *call, uint32_t nhi, Fwd__RouteGetResp *r)
{
	struct rte_ether_addr mac;
	enum neigh_state st;
	char buf[FWD_MAC_STRLEN];

	if (neigh_describe(nhi, &st, &mac) < 0)
		return;
	r->neighbour_state = (char *)neigh_state_name(st);
	if (st != NEIGH_INCOMPLETE && st != NEIGH_FAILED) {
		fwd_mac_fmt(mac.addr_bytes, buf);
		r->neighbour_mac = fwd_rpc_strdup(call, buf);
	}
}

/* A local address: its /32 or /128. */
static void route_get_local(struct fwd_rpc_call *call, Fwd__RouteGetResp *r, const char *s,
                            unsigned len)
{
	r->found = true;
	r->route = fwd_rpc_alloc(call, sizeof(*r->route));
	fwd__route_entry__init(r->route);
	r->route->prefix = fwd_rpc_printf(call, "%s/%u", s, len);
	r->route->type = "local";
}

static void route_get4(struct fwd_rpc_call *call, uint16_t vrf, Fwd__RouteGetResp *r, const char *s,
                       uint32_t ip)
{
	uint32_t nhi = fib4_lookup(ip4_fibs[vrf], ip);
	struct rib4_node *n;

	if (nh_table[nhi].type == NH_RESERVED)
		return; /* never routed, whatever the RIB holds */
	if (nh_table[nhi].type == NH_LOCAL) {
		route_get_local(call, r, s, 32);
		return;
	}
	if ((n = rib4_match(&ip4_ribs[vrf], ip, 32)) == NULL)
		return;
	r->found = true;
	r->route = entry4(call, vrf, n);
	if (n->route.type == ROUTE4_VIA)
		route_get_neigh(call, n->route.nh, r);
	else if (n->route.type == ROUTE4_CONNECTED && nhi >= NH_FIRST_DYNAMIC)
		route_get_neigh(call, nhi, r);
}

static void route_get6(struct fwd_rpc_call *call, uint16_t vrf, Fwd__RouteGetResp *r, const char *s,
                       const uint8_t ip[16])
{
	uint32_t nhi = fib6_lookup(ip6_fibs[vrf], ip);
	struct rib6_node *n;

	if (nh_table[nhi].type == NH_LOCAL || addr6_is_local(vrf, FWD_IFACE_NONE, ip)) {
		route_get_local(call, r, s, 128);
		return;
	}
	if (nh_table[nhi].type == NH_RESERVED)
		return;
	if ((n = rib6_match(&ip6_ribs[vrf], ip, 128)) == NULL)
		return;
	r->found = true;
	r->route = entry6(call, vrf, n);
	if (n->route.type == ROUTE6_VIA)
		route_get_neigh(call, n->route.nh, r);
	else if (n->route.type == ROUTE6_CONNECTED && nhi >= NH_FIRST_DYNAMIC)
		route_get_neigh(call, nhi, r);
}

static int route_get(struct fwd_rpc_call *call)
{
	const char *s = call->req->route_get->address;
	Fwd__RouteGetResp *r = fwd_rpc_alloc(call, sizeof(*r));
	struct fwd_ip ip;
	uint16_t vrf = 0;

	if (l3_vrf_arg(call, call->req->route_get->vrf, &vrf) < 0)
		return -ENOENT;
	if (s == NULL || fwd_ip_parse(s, &ip) < 0)
		return fwd_rpc_error(call, EINVAL, "bad address: %s", s != NULL ? s : "");
	fwd__route_get_resp__init(r);
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_GET;
	call->resp->route_get = r;
	if (ip.family == AF_INET)
		route_get4(call, vrf, r, s, ip.v4);
	else
		route_get6(call, vrf, r, s, ip.v6);
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_GET, route_get, FWD_RPC_READ);

static int route_req_from(struct fwd_rpc_call *call, const Fwd__RouteAddReq *q, struct l3_route *r)
{
	char *tok[2 + 4 * FWD_ECMP_MAX];
	int rc;

	if (q->next_vrf != NULL && q->next_vrf[0] != '\0') {
		memset(r, 0, sizeof(*r));
		r->type = L3_ROUTE_NEXT_VRF;
		if (q->prefix == NULL || fwd_prefix_parse(q->prefix, &r->prefix, false) < 0)
			return fwd_rpc_error(call, EINVAL, "bad prefix: %s (host bits set?)",
			                     q->prefix != NULL ? q->prefix : "");
		if (l3_vrf_arg(call, q->next_vrf, &r->next_vrf) < 0)
			return -ENOENT;
	} else if (q->n_words > 0) {
		if (q->n_words + 1 > RTE_DIM(tok))
			return fwd_rpc_error(call, EINVAL, "too many words (at most %u next hops)",
			                     FWD_ECMP_MAX);
		tok[0] = q->prefix != NULL ? q->prefix : (char *)"";
		for (size_t i = 0; i < q->n_words; i++)
			tok[i + 1] = q->words[i] != NULL ? q->words[i] : (char *)"";
		char err[256];
		rc = l3_route_parse_words(tok, (unsigned)q->n_words + 1, r, err, sizeof(err));
		if (rc < 0)
			return fwd_rpc_error(call, -rc, "%s", err);
	} else {
		memset(r, 0, sizeof(*r));
		r->nh[0].dev = -1;
		r->type = q->blackhole ? L3_ROUTE_BLACKHOLE : L3_ROUTE_VIA;
		if (q->prefix == NULL || fwd_prefix_parse(q->prefix, &r->prefix, false) < 0)
			return fwd_rpc_error(call, EINVAL, "bad prefix: %s (host bits set?)",
			                     q->prefix != NULL ? q->prefix : "");
		if (q->dev != NULL && q->dev[0] != '\0' && (r->nh[0].dev = l3_iface_id(q->dev)) < 0)
			return fwd_rpc_error(call, ENODEV, "no such port or VLAN interface: %s",
			                     q->dev);
		if (r->type == L3_ROUTE_BLACKHOLE) {
			if (q->via != NULL && q->via[0] != '\0')
				return fwd_rpc_error(call, EINVAL,
				                     "a blackhole route has no gateway");
		} else {
			r->n_nh = 1;
			if (q->via == NULL || fwd_ip_parse(q->via, &r->nh[0].via) < 0)
				return fwd_rpc_error(call, EINVAL, "bad gateway address: %s",
				                     q->via != NULL ? q->via : "");
		}
	}
	r->origin = FWD_ORIGIN_RPC;
	r->replace = q->replace;
	return l3_vrf_arg(call, q->vrf, &r->vrf);
}

static int route_add(struct fwd_rpc_call *call)
{
	struct l3_route r;
	int rc = route_req_from(call, call->req->route_add, &r);

	if (rc < 0)
		return rc;
	rc = l3_route_add(&r, call->error, sizeof(call->error));
	return rc < 0 ? rc : 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_ADD, route_add, FWD_RPC_CHANGE);

static int route_del(struct fwd_rpc_call *call)
{
	const char *s = call->req->route_del->prefix;
	struct fwd_prefix p;
	uint16_t vrf = 0;

	if (l3_vrf_arg(call, call->req->route_del->vrf, &vrf) < 0)
		return -ENOENT;
	if (s == NULL || fwd_prefix_parse(s, &p, false) < 0)
		return fwd_rpc_error(call, EINVAL, "bad prefix: %s (host bits set?)",
		                     s != NULL ? s : "");
	return l3_route_del(vrf, &p, call->error, sizeof(call->error));
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_DEL, route_del, FWD_RPC_CHANGE);
