/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl addr`: interface addresses of both families. The text of an
 * address says its family; this file sends it to IPv4 (ip4/addr.h) or IPv6
 * (ip6/addr6.h), which keep their own rules. An address's `port` names an
 * interface: a port, a VLAN or a loopback (core/iface.h).
 */
#include <errno.h>
#include <string.h>

#include "core/iface.h"
#include "core/rpc.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "l3/l3.h"
#include "port/port.h"

/* The interface id of name (a port's index, else a VLAN's or loopback's), or -1. */
static int iface_id(const char *name)
{
	const struct fwd_port *p = fwd_port_by_name(name != NULL ? name : "");
	const struct fwd_iface *ifp;

	if (p != NULL)
		return p->idx;
	ifp = fwd_iface_by_name(name != NULL ? name : "");
	return ifp != NULL && ifp->id >= FWD_MAX_PORTS ? ifp->id : -1;
}

static Fwd__AddrEntry *addr_entry(struct fwd_rpc_call *call, const char *name,
                                  const struct fwd_prefix *a, uint8_t origin, const char *state)
{
	Fwd__AddrEntry *e = fwd_rpc_alloc(call, sizeof(*e));
	char buf[FWD_PREFIX_STRLEN];

	fwd__addr_entry__init(e);
	e->port = fwd_rpc_strdup(call, name);
	e->prefix = fwd_rpc_strdup(call, fwd_prefix_fmt(a, buf));
	e->origin = (char *)fwd_origin_name(origin);
	if (state != NULL)
		e->state = (char *)state;
	return e;
}

static void list_port(struct fwd_rpc_call *call, Fwd__AddrListResp *r, unsigned i, uint32_t family)
{
	size_t first = r->n_addresses;

	if (l3_family_wanted(family, AF_INET))
		for (unsigned j = 0; j < ip4_addrs[i].n; j++) {
			struct fwd_prefix a = fwd_prefix_of4(&ip4_addrs[i].a[j]);
			r->addresses[r->n_addresses++] = addr_entry(call, fwd_iface_name(i), &a,
			                                            ip4_addrs[i].origin[j], NULL);
		}
	for (size_t k = first; k < r->n_addresses; k++)
		r->addresses[k]->vrf = (char *)fwd_vrf_name(fwd_ifaces[i].vrf);
	if (l3_family_wanted(family, AF_INET6))
		for (unsigned j = 0; j < ip6_addrs[i].n; j++) {
			struct fwd_prefix a = fwd_prefix_of6(&ip6_addrs[i].a[j]);
			r->addresses[r->n_addresses++] =
			        addr_entry(call, fwd_iface_name(i), &a, ip6_addrs[i].origin[j],
			                   addr6_state_name(ip6_addrs[i].state[j]));
		}
}

static int addr_list(struct fwd_rpc_call *call)
{
	const Fwd__AddrListReq *q = call->req->addr_list;
	const char *only = q->port;
	Fwd__AddrListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	bool dev = only != NULL && only[0] != '\0', any_vrf = dev && q->vrf[0] == '\0';
	size_t total = 0;
	uint16_t vrf = FWD_VRF_DEFAULT;

	if (dev && iface_id(only) < 0)
		return fwd_rpc_error(call, ENODEV, "no such interface: %s", only);
	if (l3_vrf_arg(call, q->vrf, &vrf) < 0)
		return -ENOENT;
	if (l3_family_check(call, q->family) < 0)
		return -EINVAL;
	fwd__addr_list_resp__init(r);
	for (int i = fwd_iface_next_id(-1); i >= 0; i = fwd_iface_next_id(i))
		total += ip4_addrs[i].n + ip6_addrs[i].n;
	r->addresses = (Fwd__AddrEntry **)fwd_rpc_ptr_array(call, total);
	for (int i = fwd_iface_next_id(-1); i >= 0; i = fwd_iface_next_id(i))
		if ((!dev || strcmp(only, fwd_iface_name(i)) == 0) &&
		    (any_vrf || fwd_ifaces[i].vrf == vrf)) /* dev alone: wherever it is */
			list_port(call, r, (unsigned)i, q->family);
	call->resp->body_case = FWD__RESPONSE__BODY_ADDR_LIST;
	call->resp->addr_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ADDR_LIST, addr_list, FWD_RPC_READ);

static int addr_args(struct fwd_rpc_call *call, const char *prefix, const char *port, int *id,
                     struct fwd_prefix *a)
{
	*id = iface_id(port);
	if (*id < 0)
		return fwd_rpc_error(call, ENODEV, "no such interface: %s",
		                     port != NULL ? port : "");
	if (prefix == NULL || fwd_prefix_parse(prefix, a, true) < 0 || strchr(prefix, '/') == NULL)
		return fwd_rpc_error(call, EINVAL,
		                     "bad address: %s (expected A.B.C.D/N or X:X::X/N)",
		                     prefix != NULL ? prefix : "");
	return 0;
}

static void (*addrs_changed_hook)(void);

void l3_addr_set_changed_hook(void (*fn)(void))
{
	addrs_changed_hook = fn;
	ip6_fib_set_room_hook(fn); /* room again in the FIB: refused routes may fit too */
}

/* Add or remove an address of either family. */
static int addr_change(struct fwd_rpc_call *call, const char *prefix, const char *port, bool add)
{
	struct fwd_prefix a;
	int id, rc = addr_args(call, prefix, port, &id, &a);

	if (rc < 0)
		return rc;
	if (a.family == AF_INET) {
		struct fwd_ip4_prefix a4 = fwd_prefix_v4(&a);
		rc = add ? addr4_add((uint16_t)id, &a4, FWD_ORIGIN_RPC, call->error,
		                     sizeof(call->error))
		         : addr4_del((uint16_t)id, &a4, call->error, sizeof(call->error));
	} else {
		struct fwd_ip6_prefix a6 = fwd_prefix_v6(&a);
		rc = add ? addr6_add((uint16_t)id, &a6, FWD_ORIGIN_RPC, call->error,
		                     sizeof(call->error))
		         : addr6_del((uint16_t)id, &a6, call->error, sizeof(call->error));
	}
	if (rc >= 0 && addrs_changed_hook != NULL)
		addrs_changed_hook();
	return rc;
}

static int addr_add(struct fwd_rpc_call *call)
{
	const Fwd__AddrAddReq *q = call->req->addr_add;

	return addr_change(call, q->prefix, q->port, true);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ADDR_ADD, addr_add, FWD_RPC_CHANGE);

static int addr_del(struct fwd_rpc_call *call)
{
	const Fwd__AddrDelReq *q = call->req->addr_del;

	return addr_change(call, q->prefix, q->port, false);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ADDR_DEL, addr_del, FWD_RPC_CHANGE);

static void port_addresses(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[p->idx];
	const struct ip6_port_addrs *pa6 = &ip6_addrs[p->idx];
	char buf[FWD_PREFIX_STRLEN];

	pi->addresses = (char **)fwd_rpc_ptr_array(call, pa->n + pa6->n);
	for (unsigned i = 0; i < pa->n; i++)
		pi->addresses[pi->n_addresses++] =
		        fwd_rpc_strdup(call, fwd_ip4_prefix_fmt(&pa->a[i], buf));
	for (unsigned i = 0; i < pa6->n; i++)
		pi->addresses[pi->n_addresses++] =
		        fwd_rpc_strdup(call, fwd_ip6_prefix_fmt(&pa6->a[i], buf));
}

RTE_INIT(addr_rpc_register)
{
	fwd_port_rpc_set_addr_fill(port_addresses);
}
