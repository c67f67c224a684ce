/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * 802.1Q on the datapath (core/iface.h): the tagging of a frame that leaves
 * by a VLAN interface (the demux of one that comes in is inline in
 * core/iface.h). Workers and the control thread call it; no state of its own.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/drop.h"
#include "core/iface.h"

int fwd_vlan_tag(struct rte_mbuf *m, uint16_t vid, bool hw)
{
	uint8_t *p;
	struct rte_vlan_hdr *vh;
	uint64_t macs;
	uint32_t src_tail;

	if (hw) {
		m->vlan_tci = vid;
		m->ol_flags |= RTE_MBUF_F_TX_VLAN;
		return 0;
	}
	p = (uint8_t *)rte_pktmbuf_prepend(m, FWD_VLAN_HLEN);
	if (p == NULL)
		return -ENOBUFS;
	/* the 12 MAC bytes down by 4: two fixed-size copies, no libc call */
	memcpy(&macs, p + FWD_VLAN_HLEN, sizeof(macs));
	memcpy(&src_tail, p + FWD_VLAN_HLEN + sizeof(macs), sizeof(src_tail));
	memcpy(p, &macs, sizeof(macs));
	memcpy(p + sizeof(macs), &src_tail, sizeof(src_tail));
	/* the frame's ethertype, now after the tag, stays where it was */
	((struct rte_ether_hdr *)p)->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	vh = (struct rte_vlan_hdr *)(p + sizeof(struct rte_ether_hdr));
	vh->vlan_tci = rte_cpu_to_be_16(vid);
	return 0;
}
