/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 packets the control thread sends (ICMPv6 errors, echo replies,
 * forwarded hop-by-hop packets). */
#ifndef FWD_IP6_OUTPUT_H
#define FWD_IP6_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config.h"
#include "core/iface.h"
#include "core/ports.h"

/*
 * The links IPv6 sends on, by interface id: an l3 port, or a VLAN
 * interface of mode l3 (a loopback has no link). A port's MAC, MTU and
 * mode are read from the port table, a VLAN's from the interface table:
 * its port's MAC, its own L3 MTU (the tag does not count), frames tagged
 * by fwd_control_tx (doc/architecture.md, "Interfaces").
 */
static inline bool ip6_link_l3(uint16_t id)
{
	if (id < FWD_MAX_PORTS)
		return id < fwd_n_ports && fwd_ports[id].mode == FWD_MODE_L3;
	return id < FWD_MAX_IFACES && fwd_ifaces[id].type == FWD_IFACE_VLAN &&
	       fwd_ifaces[id].mode == FWD_MODE_L3;
}

/* The MAC and L3 MTU of link id (one ip6_link_l3 accepts; an id past the
 * table, never passed, reads a port's entry rather than beyond it). */
static inline const struct rte_ether_addr *ip6_link_mac(uint16_t id)
{
	if (id >= FWD_MAX_PORTS && id < FWD_MAX_IFACES)
		return &fwd_ifaces[id].mac;
	return &fwd_ports[id % FWD_MAX_PORTS].mac;
}

static inline uint16_t ip6_link_mtu(uint16_t id)
{
	if (id >= FWD_MAX_PORTS && id < FWD_MAX_IFACES)
		return fwd_ifaces[id].mtu;
	return fwd_ports[id % FWD_MAX_PORTS].mtu;
}

/*
 * Send m: its data starts at 14 bytes of link header space, then a whole
 * IPv6 packet (checksums set). A multicast destination leaves interface
 * `link` (a port or VLAN: tagged there) with its group MAC; a link-local
 * one goes to the neighbour of that address on `link`; any other is looked
 * up in the FIB. Neighbours are resolved (and the packet held meanwhile)
 * by the neighbour layer. Counted as created on the egress interface; m is
 * always consumed. A packet larger than the egress interface's MTU is
 * fragmented as its source would (ip6_output_too_big; frag6.c), or dropped
 * as `mtu` when it cannot be. Returns 0, -EMSGSIZE for that, or
 * -EHOSTUNREACH when there is no way out (no route, or a link that is not
 * l3: counted as ip6_output_no_route, and dropped).
 */
int ip6_output(struct rte_mbuf *m, uint16_t link);

#endif
