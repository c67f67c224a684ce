/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP (RFC 4861): the IPv6 resolver of the neighbour layer (solicitations,
 * advertisements, NUD through nexthop/neigh.h), Duplicate Address Detection
 * for our addresses (RFC 4862), and Router Advertisements on interfaces
 * with `ra: true`. Control thread only.
 *
 * Everything here is per interface: `port` names an interface id, a port
 * or a VLAN interface of mode l3 (doc/architecture.md, "Interfaces"). A
 * VLAN answers for its own addresses (its link-local one is its port's:
 * the same MAC, as a Linux VLAN device's), learns neighbours keyed by
 * (address, VLAN interface), runs DAD and RAs of its own, and what it
 * sends leaves tagged (fwd_control_tx).
 */
#ifndef FWD_IP6_NDP_H
#define FWD_IP6_NDP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

/* Register the resolver for AF_INET6; counters. */
int ndp_init(void);
void ndp_fini(void);

/* An NDP message (ICMPv6 133-137) received on interface in_port (the tag
 * of a VLAN's frame already taken out); m starts at its Ethernet header
 * and is consumed. */
void ndp_input(struct rte_mbuf *m, uint16_t in_port);

/* addr6 added a tentative address (start DAD) or removed one (stop it). */
void ndp_dad_start(uint16_t port, const uint8_t a[16]);
void ndp_dad_stop(uint16_t port, const uint8_t a[16]);

/* An interface's addresses, link or `ra` setting changed: (re)plan its RAs. */
void ndp_port_changed(uint16_t port, bool ra);

#endif
