/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "core/rpc.h"
#include "ip4/addr.h"
#include "port/port.h"

static Fwd__AddrEntry *addr_entry(struct fwd_rpc_call *call, const struct fwd_port *p,
                                  const struct fwd_ip4_prefix *a)
{
	Fwd__AddrEntry *e = fwd_rpc_alloc(call, sizeof(*e));
	char buf[FWD_PREFIX4_STRLEN];

	fwd__addr_entry__init(e);
	e->port = fwd_rpc_strdup(call, p->name);
	e->prefix = fwd_rpc_strdup(call, fwd_ip4_prefix_fmt(a, buf));
	return e;
}

static int addr_list(struct fwd_rpc_call *call)
{
	const char *only = call->req->addr_list->port;
	Fwd__AddrListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	size_t total = 0;

	if (only != NULL && only[0] != '\0' && fwd_port_by_name(only) == NULL)
		return fwd_rpc_error(call, ENODEV, "no such port: %s", only);
	fwd__addr_list_resp__init(r);
	for (unsigned i = 0; i < fwd_n_ports; i++)
		total += ip4_addrs[i].n;
	r->addresses = (Fwd__AddrEntry **)fwd_rpc_ptr_array(call, total);
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		if (only != NULL && only[0] != '\0' && strcmp(only, fwd_ports[i].name) != 0)
			continue;
		for (unsigned j = 0; j < ip4_addrs[i].n; j++)
			r->addresses[r->n_addresses++] =
			        addr_entry(call, &fwd_ports[i], &ip4_addrs[i].a[j]);
	}
	call->resp->body_case = FWD__RESPONSE__BODY_ADDR_LIST;
	call->resp->addr_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ADDR_LIST, addr_list, FWD_RPC_READ);

static int addr_args(struct fwd_rpc_call *call, const char *prefix, const char *port,
                     struct fwd_port **p, struct fwd_ip4_prefix *a)
{
	*p = fwd_port_by_name(port != NULL ? port : "");
	if (*p == NULL)
		return fwd_rpc_error(call, ENODEV, "no such port: %s", port != NULL ? port : "");
	if (prefix == NULL || fwd_ip4_prefix_parse(prefix, a, true) < 0 ||
	    strchr(prefix, '/') == NULL)
		return fwd_rpc_error(call, EINVAL, "bad address: %s (expected A.B.C.D/N)",
		                     prefix != NULL ? prefix : "");
	return 0;
}

static int addr_add(struct fwd_rpc_call *call)
{
	const Fwd__AddrAddReq *q = call->req->addr_add;
	struct fwd_ip4_prefix a;
	struct fwd_port *p;
	int rc = addr_args(call, q->prefix, q->port, &p, &a);

	return rc < 0 ? rc
	              : addr4_add(p->idx, &a, FWD_ORIGIN_RPC, call->error, sizeof(call->error));
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ADDR_ADD, addr_add, FWD_RPC_CHANGE);

static int addr_del(struct fwd_rpc_call *call)
{
	const Fwd__AddrDelReq *q = call->req->addr_del;
	struct fwd_ip4_prefix a;
	struct fwd_port *p;
	int rc = addr_args(call, q->prefix, q->port, &p, &a);

	return rc < 0 ? rc : addr4_del(p->idx, &a, call->error, sizeof(call->error));
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ADDR_DEL, addr_del, FWD_RPC_CHANGE);

static void port_addresses(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[p->idx];
	char buf[FWD_PREFIX4_STRLEN];

	pi->addresses = (char **)fwd_rpc_ptr_array(call, pa->n);
	for (unsigned i = 0; i < pa->n; i++)
		pi->addresses[pi->n_addresses++] =
		        fwd_rpc_strdup(call, fwd_ip4_prefix_fmt(&pa->a[i], buf));
}

RTE_INIT(addr_rpc_register)
{
	fwd_port_rpc_set_addr_fill(port_addresses);
}
