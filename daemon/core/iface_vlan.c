/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * 802.1Q on the datapath (core/iface.h): the (port, VLAN) demux of a frame
 * and the tagging of one that leaves by a VLAN interface. Workers and the
 * control thread call them; no state of their own.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/iface.h"

#define VLAN_HLEN 4 /* the tag: TPID and TCI */

/* The MAC addresses move up over the tag; the frame starts 4 bytes later. */
static void vlan_strip(struct rte_mbuf *m)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	memmove(p + VLAN_HLEN, p, 2 * RTE_ETHER_ADDR_LEN);
	rte_pktmbuf_adj(m, VLAN_HLEN);
}

uint16_t fwd_vlan_demux(const struct fwd_port *p, const uint16_t *map, struct rte_mbuf *m,
                        uint8_t *why)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint16_t vid, id;

	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) {
		vid = m->vlan_tci & 0xfff;
		m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED);
	} else if (m->data_len >= sizeof(*eh) && eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(eh + 1);

		if (m->data_len < sizeof(*eh) + sizeof(*vh)) {
			*why = FWD_DROP_TRUNCATED;
			return FWD_IFACE_NONE;
		}
		vid = rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
		vlan_strip(m);
	} else if (m->data_len >= sizeof(*eh) && eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_QINQ)) {
		*why = FWD_DROP_VLAN_UNKNOWN; /* no QinQ (802.1ad) interfaces */
		return FWD_IFACE_NONE;
	} else {
		return p->idx; /* untagged, or too short: the port's input judges it */
	}
	id = map[vid];
	if (id == FWD_IFACE_NONE)
		*why = FWD_DROP_VLAN_UNKNOWN;
	return id;
}

int fwd_vlan_tag(struct rte_mbuf *m, uint16_t vid, bool hw)
{
	uint8_t *p;
	struct rte_vlan_hdr *vh;

	if (hw) {
		m->vlan_tci = vid;
		m->ol_flags |= RTE_MBUF_F_TX_VLAN;
		return 0;
	}
	p = (uint8_t *)rte_pktmbuf_prepend(m, VLAN_HLEN);
	if (p == NULL)
		return -ENOBUFS;
	memmove(p, p + VLAN_HLEN, 2 * RTE_ETHER_ADDR_LEN);
	/* the frame's ethertype, now after the tag, stays where it was */
	((struct rte_ether_hdr *)p)->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	vh = (struct rte_vlan_hdr *)(p + sizeof(struct rte_ether_hdr));
	vh->vlan_tci = rte_cpu_to_be_16(vid);
	return 0;
}
