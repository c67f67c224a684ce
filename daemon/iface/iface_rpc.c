/* SPDX-License-Identifier: BSD-3-Clause */
/* RPC: iface list, iface add, iface del, iface set (fwdctl(8); set vrf: iface_vrf.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/config_schema.h"
#include "core/daemon.h"
#include "core/iface.h"
#include "core/rpc.h"
#include "core/vrf.h"
#include "fwd_inet.h"
#include "iface/iface_priv.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"
#include "port/port.h"

static const char *const type_names[] = {
	[FWD_IFACE_FREE] = "?",
	[FWD_IFACE_PORT] = "port",
	[FWD_IFACE_VLAN] = "vlan",
	[FWD_IFACE_LOOPBACK] = "loopback",
};

/* Both families' addresses of interfaces the address tables cover. */
static void fill_addresses(struct fwd_rpc_call *call, const struct fwd_iface *ifp,
                           Fwd__IfaceInfo *fi)
{
	char buf[FWD_PREFIX_STRLEN];

	if (ifp->id >= RTE_DIM(ip4_addrs) || ifp->id >= RTE_DIM(ip6_addrs))
		return;
	const struct ip4_port_addrs *a4 = &ip4_addrs[ifp->id];
	const struct ip6_port_addrs *a6 = &ip6_addrs[ifp->id];

	fi->addresses = (char **)fwd_rpc_ptr_array(call, a4->n + a6->n);
	for (unsigned i = 0; i < a4->n; i++)
		fi->addresses[fi->n_addresses++] =
		        fwd_rpc_strdup(call, fwd_ip4_prefix_fmt(&a4->a[i], buf));
	for (unsigned i = 0; i < a6->n; i++)
		fi->addresses[fi->n_addresses++] =
		        fwd_rpc_strdup(call, fwd_ip6_prefix_fmt(&a6->a[i], buf));
}

static Fwd__IfaceInfo *iface_info(struct fwd_rpc_call *call, const struct fwd_iface *ifp)
{
	Fwd__IfaceInfo *fi = fwd_rpc_alloc(call, sizeof(*fi));
	bool lo = ifp->type == FWD_IFACE_LOOPBACK;
	char mac[FWD_MAC_STRLEN];

	fwd__iface_info__init(fi);
	fi->id = ifp->id;
	fi->name = fwd_rpc_strdup(call, ifp->name);
	fi->type = (char *)type_names[ifp->type <= FWD_IFACE_LOOPBACK ? ifp->type : 0];
	if (ifp->type == FWD_IFACE_VLAN)
		fi->parent = fwd_rpc_strdup(call, fwd_ports[ifp->port].name);
	fi->vlan = ifp->vlan;
	if (!lo)
		fi->mode = (char *)fwd_port_mode_name((enum fwd_port_mode)ifp->mode);
	if (!lo && ifp->mode == FWD_MODE_BRIDGE && ifp->bridge < fwd.cfg->n_bridges)
		fi->bridge = fwd_rpc_strdup(call, fwd.cfg->bridges[ifp->bridge].name);
	fi->admin_up = lo || ifp->admin_up;
	fi->link_up = lo || (ifp->port < fwd_n_ports && fwd_ports[ifp->port].link_up);
	fi->mtu = ifp->mtu;
	if (!lo)
		fi->mac = fwd_rpc_strdup(call, fwd_mac_fmt(ifp->mac.addr_bytes, mac));
	fi->tap = ifp->tap;
	fi->vrf = (char *)fwd_vrf_name(ifp->vrf);
	fill_addresses(call, ifp, fi);
	return fi;
}

static int iface_list(struct fwd_rpc_call *call)
{
	Fwd__IfaceListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	const struct fwd_iface *ifp;

	fwd__iface_list_resp__init(r);
	r->ifaces = (Fwd__IfaceInfo **)fwd_rpc_ptr_array(call, fwd_iface_count());
	FWD_IFACE_FOREACH(ifp)
	{
		if (r->n_ifaces < fwd_iface_count())
			r->ifaces[r->n_ifaces++] = iface_info(call, ifp);
	}
	call->resp->body_case = FWD__RESPONSE__BODY_IFACE_LIST;
	call->resp->iface_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_IFACE_LIST, iface_list, FWD_RPC_READ);

/* The interface a request names; NULL with the reason in call->error. */
static struct fwd_iface *named(struct fwd_rpc_call *call, const char *name)
{
	struct fwd_iface *ifp = fwd_iface_by_name(name);

	if (ifp == NULL)
		snprintf(call->error, sizeof(call->error), "no such interface: %.64s", name);
	return ifp;
}

static int iface_add(struct fwd_rpc_call *call)
{
	const Fwd__IfaceAddReq *q = call->req->iface_add;
	struct fwd_conf_iface f = { .loopback = q->loopback,
		                    .vlan = (uint16_t)q->vlan,
		                    .mtu = (uint16_t)q->mtu };
	const char *why = fwd_conf_valid_name(q->name);

	if (why != NULL || strlen(q->name) > FWD_IFNAME_LEN || strlen(q->port) >= FWD_NAME_MAX ||
	    q->vlan > 4094 || q->mtu > UINT16_MAX) {
		snprintf(call->error, sizeof(call->error),
		         "bad interface: %.64s (a name of at most %d letters, digits, '_', '.' "
		         "and '-'; a VLAN 1-4094)",
		         q->name, FWD_IFNAME_LEN);
		return -EINVAL;
	}
	if (fwd_config_bridge(fwd.cfg, q->name) != NULL) {
		snprintf(call->error, sizeof(call->error), "%.64s is a bridge's name", q->name);
		return -EEXIST;
	}
	snprintf(f.name, sizeof(f.name), "%s", q->name);
	snprintf(f.port, sizeof(f.port), "%s", q->port);
	if (!f.loopback && fwd_iface_by_name(f.port) == NULL) {
		snprintf(call->error, sizeof(call->error), "no such port: %.64s", q->port);
		return -ENODEV;
	}
	return iface_make(fwd.cfg, &f, call->error, sizeof(call->error));
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_IFACE_ADD, iface_add, FWD_RPC_CHANGE);

static int iface_del(struct fwd_rpc_call *call)
{
	struct fwd_iface *ifp = named(call, call->req->iface_del->name);

	if (ifp == NULL)
		return -ENODEV;
	if (ifp->type == FWD_IFACE_PORT) {
		snprintf(call->error, sizeof(call->error),
		         "%s is a port: ports come and go with fwd.yaml (ports[])", ifp->name);
		return -EPERM;
	}
	return fwd_iface_del(ifp->id);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_IFACE_DEL, iface_del, FWD_RPC_CHANGE);

static int set_mtu(struct fwd_rpc_call *call, struct fwd_iface *ifp, uint32_t mtu)
{
	int rc;

	if (ifp->type != FWD_IFACE_VLAN) {
		snprintf(call->error, sizeof(call->error),
		         "%s is a %s: only a VLAN interface's MTU is set at run time (a port's "
		         "is ports[].mtu)",
		         ifp->name, type_names[ifp->type <= FWD_IFACE_LOOPBACK ? ifp->type : 0]);
		return -EINVAL;
	}
	rc = mtu > UINT16_MAX ? -ERANGE : fwd_iface_set_mtu(ifp->id, (uint16_t)mtu);
	if (rc == -ERANGE)
		snprintf(call->error, sizeof(call->error), "%u is above the MTU of port %s (%u)",
		         mtu, fwd_ports[ifp->port].name, fwd_ports[ifp->port].mtu);
	return rc;
}

static int iface_set(struct fwd_rpc_call *call)
{
	const Fwd__IfaceSetReq *q = call->req->iface_set;
	struct fwd_iface *ifp = named(call, q->name);

	if (ifp == NULL)
		return -ENODEV;
	if (q->vrf[0] != '\0')
		return iface_set_vrf(call, ifp, q->vrf);
	if (q->mtu != 0)
		return set_mtu(call, ifp, q->mtu);
	if (!q->set_admin)
		return 0;
	if (ifp->type == FWD_IFACE_PORT) /* the link too, as `port set` */
		return fwd_port_set_admin(&fwd_ports[ifp->id], q->up);
	if (ifp->type == FWD_IFACE_LOOPBACK && !q->up) {
		snprintf(call->error, sizeof(call->error), "a loopback is always up");
		return -EINVAL;
	}
	return fwd_iface_set_admin(ifp->id, q->up);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_IFACE_SET, iface_set, FWD_RPC_CHANGE);
