/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "fwd_inet.h"
#include "core/rpc.h"
#include "core/worker.h"
#include "port/port.h"

/* Port addresses are filled by the ip4 feature when it is present. */
static void (*addr_fill)(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi);

void fwd_port_rpc_set_addr_fill(void (*fn)(struct fwd_rpc_call *, const struct fwd_port *,
                                           Fwd__PortInfo *))
{
	addr_fill = fn;
}

/* A port's kernel interface, when the cp layer is there. */
static void (*tap_fill)(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi);

void fwd_port_rpc_set_tap_fill(void (*fn)(struct fwd_rpc_call *, const struct fwd_port *,
                                          Fwd__PortInfo *))
{
	tap_fill = fn;
}

static void port_queues(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi)
{
	pi->rx_queue_workers = (Fwd__QueueMap **)fwd_rpc_ptr_array(call, p->n_rxq);
	for (uint16_t q = 0; q < p->n_rxq; q++) {
		Fwd__QueueMap *m = fwd_rpc_alloc(call, sizeof(*m));
		fwd__queue_map__init(m);
		m->queue = q;
		m->worker = p->rxq_worker[q];
		m->lcore = fwd.workers[m->worker]->lcore;
		pi->rx_queue_workers[pi->n_rx_queue_workers++] = m;
	}
}

static Fwd__PortInfo *port_info(struct fwd_rpc_call *call, const struct fwd_port *p)
{
	Fwd__PortInfo *pi = fwd_rpc_alloc(call, sizeof(*pi));
	char mac[FWD_MAC_STRLEN];

	fwd__port_info__init(pi);
	fwd_mac_fmt(p->mac.addr_bytes, mac);
	pi->name = fwd_rpc_strdup(call, p->name);
	pi->port_id = p->port_id;
	pi->device = fwd_rpc_strdup(call, p->device);
	pi->driver = fwd_rpc_strdup(call, p->driver);
	pi->mode = fwd_rpc_strdup(call, fwd_port_mode_name(p->mode));
	if (p->mode == FWD_MODE_XCONNECT)
		pi->peer = fwd_rpc_strdup(call, fwd_ports[p->peer].name);
	if (p->mode == FWD_MODE_BRIDGE)
		pi->bridge = fwd_rpc_strdup(call, fwd.cfg->bridges[p->bridge].name);
	pi->mac = fwd_rpc_strdup(call, mac);
	pi->mtu = p->mtu;
	pi->admin_up = p->admin_up;
	pi->link_up = p->link_up;
	pi->link_speed_mbps = p->link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : p->link_speed;
	pi->link_full_duplex = p->link_full_duplex;
	pi->rx_queues = p->n_rxq;
	pi->tx_queues = p->n_txq;
	pi->rxd = p->rxd;
	pi->txd = p->txd;
	pi->promiscuous = p->promiscuous;
	pi->link_changes = p->link_changes;
	if (p->mode == FWD_MODE_L3)
		pi->rpf = fwd_rpc_strdup(call,
		                         fwd_conf_rpf_names[p->rpf <= FWD_RPF_STRICT ? p->rpf : 0]);
	port_queues(call, p, pi);
	if (addr_fill != NULL)
		addr_fill(call, p, pi);
	if (tap_fill != NULL)
		tap_fill(call, p, pi);
	return pi;
}

static int port_list(struct fwd_rpc_call *call)
{
	Fwd__PortListResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__port_list_resp__init(r);
	r->ports = (Fwd__PortInfo **)fwd_rpc_ptr_array(call, fwd_n_ports);
	for (unsigned i = 0; i < fwd_n_ports; i++)
		r->ports[r->n_ports++] = port_info(call, &fwd_ports[i]);
	call->resp->body_case = FWD__RESPONSE__BODY_PORT_LIST;
	call->resp->port_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_PORT_LIST, port_list, FWD_RPC_READ);

static int port_show(struct fwd_rpc_call *call)
{
	const char *name = call->req->port_show->name;
	const struct fwd_port *p = fwd_port_by_name(name);

	if (p == NULL)
		return fwd_rpc_error(call, ENODEV, "no such port: %s", name);
	call->resp->body_case = FWD__RESPONSE__BODY_PORT;
	call->resp->port = port_info(call, p);
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_PORT_SHOW, port_show, FWD_RPC_READ);

/* NAME may be any interface (fwdctl(8)): a VLAN goes up or down alone. */
static int port_set(struct fwd_rpc_call *call)
{
	const Fwd__PortSetReq *req = call->req->port_set;
	struct fwd_port *p = fwd_port_by_name(req->name);
	const struct fwd_iface *ifp = p == NULL ? fwd_iface_by_name(req->name) : NULL;

	if (p != NULL)
		return fwd_port_set_admin(p, req->up);
	if (ifp == NULL)
		return fwd_rpc_error(call, ENODEV, "no such port or interface: %s", req->name);
	if (ifp->type == FWD_IFACE_LOOPBACK && !req->up)
		return fwd_rpc_error(call, EINVAL, "%s is a loopback: always up", req->name);
	return fwd_iface_set_admin(ifp->id, req->up);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_PORT_SET, port_set, FWD_RPC_CHANGE);
