/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Captures on VLAN interfaces: the port's copies filtered by VID and
 * untagged (capture/capture_priv.h, capture_vlan_take). Control thread.
 */
#include <rte_byteorder.h>
#include <rte_ether.h>

#include "capture/capture_priv.h"
#include "core/iface.h"
#include "port/port.h"

/* The VID copy m carries: in the mbuf (a PMD stripped it, or the NIC is to
 * insert it), else in the frame (*in_frame), else 0 (untagged, or
 * priority-tagged: the port's own). */
static uint16_t copy_vid(const struct rte_mbuf *m, bool *in_frame)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(eh + 1);

	*in_frame = false;
	if (m->ol_flags & (RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_TX_VLAN))
		return m->vlan_tci & 0xfff;
	if (m->data_len < sizeof(*eh) + sizeof(*vh) ||
	    eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_VLAN))
		return 0;
	*in_frame = true;
	return rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
}

bool capture_vlan_take(const struct capture_session *s, struct rte_mbuf *m)
{
	struct fwd_capture_meta *meta = fwd_capture_meta(m);
	bool in_frame;

	if (s->vlan == 0 || meta->dir == FWD_CAPTURE_DROP)
		return true;
	if (copy_vid(m, &in_frame) != s->vlan)
		return false;
	if (in_frame) {
		fwd_vlan_strip(m, rte_pktmbuf_mtod(m, uint8_t *));
		meta->orig_len -= FWD_VLAN_HLEN;
	}
	m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_TX_VLAN);
	return true;
}

const char *capture_session_name(const struct capture_session *s)
{
	if (s->port == FWD_CAPTURE_DROPS)
		return "drops";
	return fwd_iface_name(s->iface);
}
