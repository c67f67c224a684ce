/* SPDX-License-Identifier: BSD-3-Clause */
/* RPC: vrf list (each VRF, its table, interfaces and routes of each family). */
#include <stdlib.h>

#include "core/iface.h"
#include "core/rpc.h"
#include "core/vrf.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "vrf/vrf.h"

static Fwd__VrfInfo *vrf_info(struct fwd_rpc_call *call, uint16_t v)
{
	Fwd__VrfInfo *m = fwd_rpc_alloc(call, sizeof(*m));
	const struct fwd_iface *ifp;

	fwd__vrf_info__init(m);
	m->name = (char *)fwd_vrf_name(v);
	m->table = fwd_vrfs[v].table;
	m->id = v;
	m->interfaces = (char **)fwd_rpc_ptr_array(call, fwd_iface_count());
	FWD_IFACE_FOREACH(ifp)
	{ /* ports first, then VLANs and loopbacks */
		if (ifp->vrf == v)
			m->interfaces[m->n_interfaces++] = (char *)ifp->name;
	}
	m->routes_ip4 = ip4_ribs[v].n_routes;
	m->routes_ip6 = ip6_ribs[v].n_routes;
	return m;
}

static int vrf_list(struct fwd_rpc_call *call)
{
	Fwd__VrfListResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__vrf_list_resp__init(r);
	r->vrfs = (Fwd__VrfInfo **)fwd_rpc_ptr_array(call, FWD_MAX_VRFS);
	FWD_VRF_FOREACH(v)
	{
		r->vrfs[r->n_vrfs++] = vrf_info(call, (uint16_t)v);
	}
	call->resp->body_case = FWD__RESPONSE__BODY_VRF_LIST;
	call->resp->vrf_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_VRF_LIST, vrf_list, FWD_RPC_READ);
