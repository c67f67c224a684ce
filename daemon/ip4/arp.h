/* SPDX-License-Identifier: BSD-3-Clause */
/* ARP, the IPv4 resolver of the neighbour layer (ip4/arp.c). */
#ifndef FWD_IP4_ARP_H
#define FWD_IP4_ARP_H

#include <stdint.h>

/* Register the resolver and the ARP and glean punt handlers (ip4_init). */
int arp_init(void);
void arp_fini(void);

struct rte_mbuf;
struct fwd_punt_meta;
/* The FWD_PUNT_ARP handler: one punted ARP frame (tests call it directly). */
void arp_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

/*
 * Announce address addr (host order), new on interface id (a port or a
 * VLAN: tagged), with one gratuitous ARP request (RFC 5227 2.3), so that
 * hosts holding an old MAC for it learn ours. Only when id is admin up on
 * a port whose link is up: -ENETDOWN otherwise (a loopback, a free id);
 * -ENOBUFS when the frame could not be made or queued (counted there).
 * ip4/addr.c calls it when an address is added.
 */
int arp_announce(uint16_t id, uint32_t addr);

/* Counters (global section of `fwdctl stats`). */
struct fwd_counter;
extern struct fwd_counter arp_req_sent, arp_req_rcvd, arp_rep_sent, arp_rep_rcvd, arp_gratuitous,
        arp_gratuitous_ignored, arp_locktime_ignored, arp_conflicts, arp_offsubnet, arp_announced;

#endif
