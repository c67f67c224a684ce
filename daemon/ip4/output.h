/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 packets the control thread originates (ICMP errors, echo replies)
 * or relays (the TAP ports' routed packets). */
#ifndef FWD_IP4_OUTPUT_H
#define FWD_IP4_OUTPUT_H

#include <rte_mbuf.h>

#define IP4_L2_LEN 14 /* bytes of link header space in front of the IP header */

/*
 * Route and send m: its data starts at IP4_L2_LEN bytes of link header
 * space, then a complete IPv4 packet (checksums set). Looks the destination
 * up in the FIB and hands it to the neighbour layer; m is always consumed.
 * A packet larger than the egress interface's MTU (a VLAN's own) leaves in
 * fragments when its DF bit is clear (ip4_output_fragmented), else is
 * dropped as `mtu` on the egress interface (ip4_output_too_big), or as `frag_error` when it cannot
 * be split. Returns 0, -EHOSTUNREACH when there is no route (counted as control_output_no_route,
 * dropped), -EMSGSIZE or the fragmenter's error. The VRF it is routed in is
 * that of the interface in m->port when the caller put one there (an
 * answer to what came in on it: ip4_output_answers), else the default VRF.
 */
int ip4_output(struct rte_mbuf *m);
/* As ip4_output, looked up in VRF vrf's FIB (core/vrf.h): what a VRF's
 * kernel interface sends (cp/tap_io.c). */
int ip4_output_in(struct rte_mbuf *m, uint16_t vrf);

/* Route m (see ip4_output) in the VRF of interface iface, which it answers. */
static inline void ip4_output_answers(struct rte_mbuf *m, uint16_t iface)
{
	m->port = iface;
}

#endif
