/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Next hops and interfaces (control thread): the link header an entry
 * takes from its egress interface (a VLAN's carries the 802.1Q tag, as
 * doc/architecture.md "Interfaces" says), the header slow paths write from
 * an entry, the connected entries of VLAN interfaces, and refreshing the
 * entries when an interface's MTU or MAC changes.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>

#include "core/iface.h"
#include "core/ports.h"
#include "nexthop/nexthop.h"

/* A VLAN's connected entry and the connected routes holding it. */
static uint32_t conn_idx[FWD_MAX_IFACES];
static uint32_t conn_refs[FWD_MAX_IFACES];
/* A VLAN's MTU when an entry last took it (0: none did): an admin change,
 * which the same hook reports, then costs no pass over the table. */
static uint16_t filled_mtu[FWD_MAX_IFACES];

_Static_assert(NH_TAG_LEN == FWD_VLAN_HLEN, "one tag length");
_Static_assert(RTE_PKTMBUF_HEADROOM >= NH_TAG_LEN, "the fast path writes 4 bytes before a frame");

void nh_fill(struct nexthop *nh, uint16_t iface)
{
	const struct fwd_iface *ifp = iface < FWD_MAX_IFACES ? &fwd_ifaces[iface] : NULL;
	const struct rte_ether_addr *src = NULL;
	uint16_t tpid = RTE_BE16(RTE_ETHER_TYPE_VLAN), tci;

	nh->iface = iface;
	nh->tag = 0;
	nh->mtu = 0;
	if (iface < FWD_MAX_PORTS) {
		nh->port = (uint8_t)iface; /* a port's entry in the port table, set first */
		if (iface < fwd_n_ports) {
			nh->mtu = fwd_ports[iface].mtu;
			src = &fwd_ports[iface].mac;
		}
	} else if (ifp != NULL && ifp->type == FWD_IFACE_VLAN) {
		nh->port = ifp->port;
		nh->mtu = ifp->mtu;
		nh->tag = NH_TAG_LEN;
		src = &ifp->mac;
		filled_mtu[iface] = ifp->mtu;
	} else {
		nh->port = FWD_MAX_PORTS; /* a loopback, a gone interface: no link */
	}
	if (nh->tag == 0) {
		memset(nh->hdr, 0, NH_TAG_LEN);
		if (src != NULL)
			memcpy(&nh->hdr[NH_TAG_LEN + RTE_ETHER_ADDR_LEN], src, RTE_ETHER_ADDR_LEN);
		return;
	}
	memcpy(&nh->hdr[RTE_ETHER_ADDR_LEN], src, RTE_ETHER_ADDR_LEN);
	memcpy(&nh->hdr[2 * RTE_ETHER_ADDR_LEN], &tpid, sizeof(tpid));
	tci = rte_cpu_to_be_16(ifp->vlan);
	memcpy(&nh->hdr[2 * RTE_ETHER_ADDR_LEN + sizeof(tpid)], &tci, sizeof(tci));
}

int nh_l2_write(const struct nexthop *nh, struct rte_mbuf *m, uint16_t ethertype_be)
{
	uint8_t *d;

	if (m->data_len < sizeof(struct rte_ether_hdr))
		return -EINVAL;
	if (nh->tag != 0 && rte_pktmbuf_headroom(m) < nh->tag)
		return -ENOBUFS;
	d = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(d + offsetof(struct rte_ether_hdr, ether_type), &ethertype_be, sizeof(ethertype_be));
	if (nh->tag == 0) {
		memcpy(d, &nh->hdr[NH_TAG_LEN], 2 * RTE_ETHER_ADDR_LEN);
		return 0;
	}
	d = (uint8_t *)rte_pktmbuf_prepend(m, nh->tag);
	memcpy(d, nh->hdr, sizeof(nh->hdr));
	return 0;
}

int nh_connected_ref(uint16_t iface, uint32_t *idx)
{
	const struct fwd_iface *ifp = fwd_iface_get(iface);
	int rc;

	if (iface < FWD_MAX_PORTS) {
		if (iface >= fwd_n_ports)
			return -ENODEV;
		*idx = NH_IDX_CONNECTED + iface;
		return 0;
	}
	if (ifp == NULL || ifp->type != FWD_IFACE_VLAN)
		return -ENODEV; /* a loopback's addresses are local only */
	if (conn_refs[iface] == 0) {
		if ((rc = nh_alloc_connected(iface, &conn_idx[iface])) < 0)
			return rc;
	}
	conn_refs[iface]++;
	*idx = conn_idx[iface];
	return 0;
}

void nh_connected_reset(void)
{
	memset(conn_idx, 0, sizeof(conn_idx));
	memset(conn_refs, 0, sizeof(conn_refs));
	memset(filled_mtu, 0, sizeof(filled_mtu));
}

void nh_connected_unref(uint16_t iface)
{
	if (iface < FWD_MAX_PORTS || iface >= FWD_MAX_IFACES || conn_refs[iface] == 0)
		return;
	if (--conn_refs[iface] == 0)
		nh_release(conn_idx[iface]);
}

/* A VLAN's admin state, MTU or mode changed: its entries take a new MTU.
 * (A port's MTU and MAC: whoever changes them calls nh_iface_update.) */
static void nh_iface_changed(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	(void)ev;
	if (nh_table == NULL || ifp->type != FWD_IFACE_VLAN || filled_mtu[ifp->id] == 0 ||
	    filled_mtu[ifp->id] == ifp->mtu)
		return;
	nh_iface_update(ifp->id);
}

RTE_INIT(nh_iface_hooks)
{
	fwd_iface_hook_add(FWD_IFACE_EV_CHANGE, 10, nh_iface_changed);
}
