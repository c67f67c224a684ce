/* SPDX-License-Identifier: BSD-3-Clause */
/* RPC: bond list, bond show NAME (fwdctl(8)): each bond, its members with
 * their link, whether each collects and distributes, and both sides' LACP
 * state (bond/lacp_ctl.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bond/bond.h"
#include "bond/lacp_ctl.h"
#include "core/ports.h"
#include "core/rpc.h"
#include "fwd_inet.h"

static Fwd__LacpPortInfo *port_info(struct fwd_rpc_call *call, const struct lacp_port_info *p)
{
	Fwd__LacpPortInfo *pi = fwd_rpc_alloc(call, sizeof(*pi));
	char mac[FWD_MAC_STRLEN];

	fwd__lacp_port_info__init(pi);
	pi->system = fwd_rpc_strdup(call, fwd_mac_fmt(p->sys, mac));
	pi->system_priority = p->sys_prio;
	pi->key = p->key;
	pi->port = p->port;
	pi->port_priority = p->port_prio;
	pi->state = (char **)fwd_rpc_ptr_array(call, 8);
	for (unsigned bit = 0; bit < 8; bit++)
		if (p->state & (1u << bit))
			pi->state[pi->n_state++] = (char *)lacp_state_bit_name(bit);
	return pi;
}

static void lacp_fill(struct fwd_rpc_call *call, uint8_t port, Fwd__BondMember *bm)
{
	struct lacp_info li;

	if (!lacp_ctl_info(port, &li))
		return;
	bm->selected = (char *)lacp_selected_name(li.selected);
	bm->mux = (char *)lacp_mux_state_name(li.mux);
	bm->rx = (char *)lacp_rx_state_name(li.rx);
	bm->actor = port_info(call, &li.actor);
	bm->partner = port_info(call, &li.partner);
	bm->lacpdu_rx = li.ctr.rx_lacpdu;
	bm->lacpdu_tx = li.ctr.tx_lacpdu;
	bm->marker_rx = li.ctr.rx_marker;
	bm->lacp_bad = li.ctr.rx_bad;
}

static Fwd__BondMember *member_info(struct fwd_rpc_call *call, const struct bond *b, unsigned k)
{
	const struct bond_member *m = &b->m[k];
	Fwd__BondMember *bm = fwd_rpc_alloc(call, sizeof(*bm));

	fwd__bond_member__init(bm);
	bm->name = fwd_rpc_strdup(call, fwd_ports[m->port].name);
	bm->link_up = m->link;
	bm->collecting = m->collecting;
	bm->distributing = m->distributing;
	bm->active = !b->lacp && b->active == (int)k;
	bm->link_changes = m->link_changes;
	if (b->lacp)
		lacp_fill(call, m->port, bm);
	return bm;
}

static Fwd__BondInfo *bond_info(struct fwd_rpc_call *call, const struct bond *b)
{
	Fwd__BondInfo *bi = fwd_rpc_alloc(call, sizeof(*bi));
	char mac[FWD_MAC_STRLEN];

	fwd__bond_info__init(bi);
	bi->name = fwd_rpc_strdup(call, fwd_ports[b->port].name);
	bi->mode = (char *)(b->lacp ? "lacp" : "active-backup");
	bi->lacp_rate = (char *)(b->lacp_fast ? "fast" : "slow");
	bi->hash = (char *)bond_hash_name((enum bond_hash)b->hash);
	bi->min_links = b->min_links;
	bi->up = b->up;
	if (!b->lacp && b->active >= 0)
		bi->active = fwd_rpc_strdup(call, fwd_ports[b->m[b->active].port].name);
	bi->failovers = b->failovers;
	bi->mac = fwd_rpc_strdup(call, fwd_mac_fmt(fwd_ports[b->port].mac.addr_bytes, mac));
	bi->members = (Fwd__BondMember **)fwd_rpc_ptr_array(call, b->n_members);
	for (unsigned k = 0; k < b->n_members; k++) {
		bi->members[bi->n_members++] = member_info(call, b, k);
		bi->distributing += b->m[k].distributing;
	}
	return bi;
}

static int reply(struct fwd_rpc_call *call, const char *name)
{
	Fwd__BondListResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__bond_list_resp__init(r);
	r->bonds = (Fwd__BondInfo **)fwd_rpc_ptr_array(call, FWD_MAX_PORTS);
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		const struct bond *b = bond_get((uint8_t)i);

		if (b != NULL && (name == NULL || strcmp(fwd_ports[i].name, name) == 0))
			r->bonds[r->n_bonds++] = bond_info(call, b);
	}
	if (name != NULL && r->n_bonds == 0)
		return fwd_rpc_error(call, ENODEV, "no such bond: %.64s", name);
	call->resp->body_case = FWD__RESPONSE__BODY_BOND_LIST;
	call->resp->bond_list = r;
	return 0;
}

static int bond_list(struct fwd_rpc_call *call)
{
	return reply(call, NULL);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_BOND_LIST, bond_list, FWD_RPC_READ);

static int bond_show(struct fwd_rpc_call *call)
{
	return reply(call, call->req->bond_show->name);
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_BOND_SHOW, bond_show, FWD_RPC_READ);
