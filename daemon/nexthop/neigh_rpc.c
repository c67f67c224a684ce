/* SPDX-License-Identifier: BSD-3-Clause */
/* neigh list | add | del | flush. Arguments are untrusted strings: parsed
 * strictly. A neighbour is on an interface (a port, a VLAN: core/iface.h),
 * named by the interface's name. */
#include <errno.h>
#include <stdlib.h>

#include "core/iface.h"
#include "core/rpc.h"
#include "core/vrf.h"
#include "fwd_inet.h"
#include "nexthop/neigh_priv.h"
#include "port/port.h"

#define LIST_PAGE 2000 /* entries per reply page: ~150 KiB packed */

static const char *str(const char *s)
{
	return s != NULL ? s : "";
}

/* An optional interface name: -1 for none (all), its id, or -ENODEV. A
 * loopback has no neighbours: no such interface for them. */
static int port_arg(struct fwd_rpc_call *call, const char *name, bool required)
{
	int id;

	if (!required && (name == NULL || name[0] == '\0'))
		return -1;
	id = fwd_iface_id_by_name(str(name));
	if (id < 0 || fwd_iface_is_loopback((unsigned)id))
		return fwd_rpc_error(call, ENODEV, "no such port or interface: %s", str(name));
	return id;
}

static Fwd__NeighEntry *neigh_entry(struct fwd_rpc_call *call, const struct neigh *n, uint64_t now)
{
	Fwd__NeighEntry *e = fwd_rpc_alloc(call, sizeof(*e));
	char buf[FWD_IP_STRLEN];

	fwd__neigh_entry__init(e);
	e->address = fwd_rpc_strdup(call, fwd_ip_fmt(&n->addr, buf));
	if (n->state != NEIGH_INCOMPLETE && n->state != NEIGH_FAILED) {
		e->mac = fwd_rpc_strdup(call, fwd_mac_fmt(n->mac.addr_bytes, buf));
	}
	e->port = (char *)fwd_iface_name(n->port);
	e->vrf = (char *)fwd_vrf_name(fwd_ifaces[n->port].vrf);
	e->state = (char *)neigh_state_name(n->state);
	e->age_s = now > n->updated_ms ? (now - n->updated_ms) / 1000 : 0;
	e->held = n->n_held;
	e->probes = n->probes;
	return e;
}

struct list_cursor {
	uint32_t pos;   /* next next-hop index to look at */
	int port;       /* -1: every port */
	int vrf;        /* the VRF of the interfaces (-V), -1: any (dev alone) */
	uint8_t family; /* 0: both */
};

static struct neigh *cursor_next(struct list_cursor *c)
{
	struct neigh *n;

	while ((n = neigh_iter(&c->pos)) != NULL &&
	       ((c->port >= 0 && n->port != c->port) ||
	        (c->vrf >= 0 && fwd_ifaces[n->port].vrf != c->vrf) ||
	        (c->family != 0 && n->addr.family != c->family)))
		;
	return n;
}

/* Fill one page; returns 1 when more follow. Entries come in next-hop order,
 * which stays valid across pages whatever is added or removed meanwhile. */
static int neigh_list_page(struct fwd_rpc_call *call)
{
	struct list_cursor *c = call->cursor, peek;
	Fwd__NeighListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	uint64_t now = neigh_hooks.now_ms();
	struct neigh *n;

	fwd__neigh_list_resp__init(r);
	r->neighbours = (Fwd__NeighEntry **)fwd_rpc_ptr_array(call, LIST_PAGE);
	while (r->n_neighbours < LIST_PAGE && (n = cursor_next(c)) != NULL)
		r->neighbours[r->n_neighbours++] = neigh_entry(call, n, now);
	call->resp->body_case = FWD__RESPONSE__BODY_NEIGH_LIST;
	call->resp->neigh_list = r;
	peek = *c;
	return cursor_next(&peek) != NULL;
}

static int neigh_list_rpc(struct fwd_rpc_call *call)
{
	uint32_t family = call->req->neigh_list->family;
	int port = port_arg(call, call->req->neigh_list->port, false);
	const char *vname = str(call->req->neigh_list->vrf);
	int vrf = fwd_vrf_by_name(vname[0] != '\0' ? vname : "default");
	struct list_cursor *c;

	if (port < -1)
		return port;
	if (family != 0 && family != 4 && family != 6)
		return fwd_rpc_error(call, EINVAL, "bad address family: %u (0, 4 or 6)", family);
	if (vrf < 0)
		return fwd_rpc_error(call, ENOENT, "no such VRF: %.64s", vname);
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	c->port = port;
	/* without -V: the default VRF's, or the named interface's wherever it is */
	c->vrf = port >= 0 && vname[0] == '\0' ? -1 : vrf;
	c->family = family == 4 ? AF_INET : family == 6 ? AF_INET6 : 0;
	call->cursor = c;
	call->cursor_free = free;
	if (neigh_list_page(call) == 1)
		call->next = neigh_list_page;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_NEIGH_LIST, neigh_list_rpc, FWD_RPC_READ);

static int neigh_add_rpc(struct fwd_rpc_call *call)
{
	const Fwd__NeighAddReq *q = call->req->neigh_add;
	struct rte_ether_addr mac;
	struct fwd_ip a;
	int port;

	if (fwd_ip_parse(str(q->address), &a) < 0)
		return fwd_rpc_error(call, EINVAL, "bad address: %s", str(q->address));
	if (fwd_mac_parse(str(q->mac), mac.addr_bytes) < 0)
		return fwd_rpc_error(call, EINVAL, "bad MAC address: %s", str(q->mac));
	if (!rte_is_valid_assigned_ether_addr(&mac))
		return fwd_rpc_error(call, EINVAL, "bad MAC address: %s (not a unicast address)",
		                     str(q->mac));
	port = port_arg(call, q->port, true);
	if (port < 0)
		return port;
	return neigh_add_static(a, (uint16_t)port, &mac, FWD_ORIGIN_RPC, call->error,
	                        sizeof(call->error));
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_NEIGH_ADD, neigh_add_rpc, FWD_RPC_CHANGE);

static int neigh_del_rpc(struct fwd_rpc_call *call)
{
	const Fwd__NeighDelReq *q = call->req->neigh_del;
	struct fwd_ip a;
	int port;

	if (fwd_ip_parse(str(q->address), &a) < 0)
		return fwd_rpc_error(call, EINVAL, "bad address: %s", str(q->address));
	port = port_arg(call, q->port, true);
	if (port < 0)
		return port;
	if (neigh_del(a, (uint16_t)port) < 0)
		return fwd_rpc_error(call, ENOENT, "no neighbour %s on %s", str(q->address),
		                     fwd_iface_name((unsigned)port));
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_NEIGH_DEL, neigh_del_rpc, FWD_RPC_CHANGE);

static int neigh_flush_rpc(struct fwd_rpc_call *call)
{
	int port = port_arg(call, call->req->neigh_flush->port, false);
	Fwd__NeighFlushResp *r;

	if (port < -1)
		return port;
	r = fwd_rpc_alloc(call, sizeof(*r));
	fwd__neigh_flush_resp__init(r);
	r->flushed = neigh_flush(port < 0 ? NEIGH_ALL : (uint16_t)port, false);
	call->resp->body_case = FWD__RESPONSE__BODY_NEIGH_FLUSH;
	call->resp->neigh_flush = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_NEIGH_FLUSH, neigh_flush_rpc, FWD_RPC_CHANGE);
