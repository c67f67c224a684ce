/* SPDX-License-Identifier: BSD-3-Clause */
/* ARP, the IPv4 resolver of the neighbour layer (ip4/arp.c). */
#ifndef FWD_IP4_ARP_H
#define FWD_IP4_ARP_H

/* Register the resolver and the ARP and glean punt handlers (ip4_init). */
int arp_init(void);
void arp_fini(void);

struct rte_mbuf;
struct fwd_punt_meta;
/* The FWD_PUNT_ARP handler: one punted ARP frame (tests call it directly). */
void arp_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

/* Counters (global section of `fwdctl stats`). */
struct fwd_counter;
extern struct fwd_counter arp_req_sent, arp_req_rcvd, arp_rep_sent, arp_rep_rcvd, arp_gratuitous,
        arp_gratuitous_ignored, arp_locktime_ignored, arp_conflicts, arp_offsubnet;

#endif
