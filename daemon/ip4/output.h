/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 packets the control thread originates (ICMP errors, echo replies). */
#ifndef FWD_IP4_OUTPUT_H
#define FWD_IP4_OUTPUT_H

#include <rte_mbuf.h>

#define IP4_L2_LEN 14 /* bytes of link header space in front of the IP header */

/*
 * Route and send m: its data starts at IP4_L2_LEN bytes of link header
 * space, then a complete IPv4 packet (checksums set). Looks the destination
 * up in the FIB and hands it to the neighbour layer; m is always consumed.
 * Returns 0, or -EHOSTUNREACH when there is no route (counted, dropped).
 */
int ip4_output(struct rte_mbuf *m);

#endif
