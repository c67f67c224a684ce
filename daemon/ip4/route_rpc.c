/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rpc.h"
#include "ip4/ip4.h"
#include "nexthop/nexthop.h"
#include "ip4/route.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define LIST_PAGE 2000 /* routes per reply page: ~120 KiB packed */

static const char *const type_names[] = {
	[ROUTE4_CONNECTED] = "connected", [ROUTE4_VIA] = "static", [ROUTE4_BLACKHOLE] = "blackhole"
};

static Fwd__RouteEntry *route_entry(struct fwd_rpc_call *call, const struct rib4_node *n)
{
	Fwd__RouteEntry *e = fwd_rpc_alloc(call, sizeof(*e));
	struct fwd_ip4_prefix p = { n->addr, n->len };
	char buf[FWD_PREFIX4_STRLEN];
	uint8_t port = n->route.type == ROUTE4_VIA ? nh_table[n->route.nh].port : n->route.dev;

	fwd__route_entry__init(e);
	e->prefix = fwd_rpc_strdup(call, fwd_ip4_prefix_fmt(&p, buf));
	e->type = (char *)type_names[n->route.type];
	e->origin = (char *)fwd_origin_name(n->route.origin);
	if (n->route.type == ROUTE4_VIA)
		e->via = fwd_rpc_strdup(call, fwd_ip4_fmt(n->route.via, buf));
	if (n->route.type != ROUTE4_BLACKHOLE && port < fwd_n_ports)
		e->dev = fwd_ports[port].name;
	return e;
}

struct list_cursor {
	uint32_t addr; /* the last route sent */
	uint8_t len;
	bool started;
};

static struct rib4_node *cursor_peek(const struct list_cursor *c)
{
	return rib4_next_route(&ip4_rib, c->addr, c->len, !c->started);
}

/* Fill one page with the routes after the cursor; returns 1 when more follow. */
static int route_list_page(struct fwd_rpc_call *call)
{
	struct list_cursor *c = call->cursor;
	Fwd__RouteListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	struct rib4_node *n;

	fwd__route_list_resp__init(r);
	r->routes = (Fwd__RouteEntry **)fwd_rpc_ptr_array(call, LIST_PAGE);
	while (r->n_routes < LIST_PAGE && (n = cursor_peek(c)) != NULL) {
		r->routes[r->n_routes++] = route_entry(call, n);
		c->addr = n->addr;
		c->len = n->len;
		c->started = true;
	}
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_LIST;
	call->resp->route_list = r;
	return cursor_peek(c) != NULL;
}

static int route_list(struct fwd_rpc_call *call)
{
	struct list_cursor *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	call->cursor = c;
	call->cursor_free = free;
	if (route_list_page(call) == 1)
		call->next = route_list_page;
	call->resp->route_list->total = ip4_rib.n_routes;
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

static int route_get(struct fwd_rpc_call *call)
{
	const char *s = call->req->route_get->address;
	Fwd__RouteGetResp *r = fwd_rpc_alloc(call, sizeof(*r));
	uint32_t ip, nhi;

	if (fwd_ip4_parse(s, &ip) < 0)
		return fwd_rpc_error(call, EINVAL, "bad address: %s", s);
	fwd__route_get_resp__init(r);
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_GET;
	call->resp->route_get = r;
	nhi = fib4_lookup(ip4_fib, ip);
	if (nh_table[nhi].type == NH_RESERVED)
		return 0; /* never routed, whatever the RIB holds */
	if (nh_table[nhi].type == NH_LOCAL) {
		r->found = true;
		r->route = fwd_rpc_alloc(call, sizeof(*r->route));
		fwd__route_entry__init(r->route);
		r->route->prefix = fwd_rpc_printf(call, "%s/32", s);
		r->route->type = "local";
		return 0;
	}
	struct rib4_node *n = rib4_match(&ip4_rib, ip, 32);
	if (n == NULL)
		return 0;
	r->found = true;
	r->route = route_entry(call, n);
	if (n->route.type == ROUTE4_VIA)
		route_get_neigh(call, n->route.nh, r);
	else if (n->route.type == ROUTE4_CONNECTED && nhi >= NH_FIRST_DYNAMIC)
		route_get_neigh(call, nhi, r);
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_GET, route_get, FWD_RPC_READ);

static int route_req_from(struct fwd_rpc_call *call, const Fwd__RouteAddReq *q,
                          struct route4_req *r)
{
	memset(r, 0, sizeof(*r));
	r->dev = -1;
	r->origin = FWD_ORIGIN_RPC;
	r->replace = q->replace;
	r->blackhole = q->blackhole;
	if (fwd_ip4_prefix_parse(q->prefix, &r->prefix, false) < 0)
		return fwd_rpc_error(call, EINVAL, "bad prefix: %s (host bits set?)", q->prefix);
	if (q->dev != NULL && q->dev[0] != '\0') {
		struct fwd_port *p = fwd_port_by_name(q->dev);
		if (p == NULL)
			return fwd_rpc_error(call, ENODEV, "no such port: %s", q->dev);
		r->dev = p->idx;
	}
	if (r->blackhole)
		return (q->via != NULL && q->via[0] != '\0')
		               ? fwd_rpc_error(call, EINVAL, "a blackhole route has no gateway")
		               : 0;
	if (q->via == NULL || fwd_ip4_parse(q->via, &r->via) < 0)
		return fwd_rpc_error(call, EINVAL, "bad gateway address: %s",
		                     q->via != NULL ? q->via : "");
	return 0;
}

static int route_add(struct fwd_rpc_call *call)
{
	struct route4_req r;
	int rc = route_req_from(call, call->req->route_add, &r);

	if (rc < 0)
		return rc;
	rc = route4_add(&r, call->error, sizeof(call->error));
	return rc < 0 ? rc : 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_ADD, route_add, FWD_RPC_CHANGE);

static int route_del(struct fwd_rpc_call *call)
{
	const char *s = call->req->route_del->prefix;
	struct fwd_ip4_prefix p;

	if (fwd_ip4_prefix_parse(s, &p, false) < 0)
		return fwd_rpc_error(call, EINVAL, "bad prefix: %s (host bits set?)", s);
	return route4_del(&p, call->error, sizeof(call->error));
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_DEL, route_del, FWD_RPC_CHANGE);
