/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 packets the control thread sends (ICMPv6 errors, echo replies,
 * forwarded hop-by-hop packets). */
#ifndef FWD_IP6_OUTPUT_H
#define FWD_IP6_OUTPUT_H

#include <stdint.h>

#include <rte_mbuf.h>

/*
 * Send m: its data starts at 14 bytes of link header space, then a whole
 * IPv6 packet (checksums set). A multicast destination leaves port with
 * its group MAC; a link-local one goes to the neighbour of that address on
 * port; any other is looked up in the FIB. Neighbours are resolved (and
 * the packet held meanwhile) by the neighbour layer. Counted as created on
 * the egress port; m is always consumed. A packet larger than the egress
 * port's MTU is dropped as `mtu` on that port (ip6_output_too_big; a router
 * does not fragment IPv6). Returns 0, -EMSGSIZE for that, or -EHOSTUNREACH
 * when there is no way out (no route, or a port that is not l3: counted as
 * ip6_output_no_route, and dropped).
 */
int ip6_output(struct rte_mbuf *m, uint16_t port);

#endif
