/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMP errors (RFC 792, RFC 1812 4.3.2) and local delivery (echo), on the
 * control thread.
 */
#ifndef FWD_IP4_ICMP_H
#define FWD_IP4_ICMP_H

#include <stdint.h>

#include <rte_mbuf.h>

/* Error types and codes (RFC 792, RFC 1191) for icmp4_send_error. */
#define ICMP4_DEST_UNREACH     3
#define ICMP4_TIME_EXCEEDED    11
#define ICMP4_NET_UNREACH      0 /* codes of ICMP4_DEST_UNREACH */
#define ICMP4_HOST_UNREACH     1
#define ICMP4_PROTO_UNREACH    2
#define ICMP4_PORT_UNREACH     3
#define ICMP4_FRAG_NEEDED      4
#define ICMP4_ADMIN_PROHIBITED 13
#define ICMP4_TTL_IN_TRANSIT   0 /* code of ICMP4_TIME_EXCEEDED */

/*
 * Send an ICMP error of type/code about the IPv4 packet in m (data at its
 * 14-byte Ethernet header, untagged, as received on interface in_port: a
 * port or a VLAN, core/iface.h; `aux` is the next-hop MTU for
 * "fragmentation needed"). Quotes as much of the packet as fits in a
 * 576-byte error (RFC 1812 4.3.2.3), sources it from in_port's address
 * (addr4_source: a VLAN's own), routes it back (ip4_output: to a host on
 * the VLAN's subnet it leaves tagged on that VLAN), and sends
 * nothing about ICMP errors, link or IP broadcasts and multicasts,
 * non-first fragments or martian sources, or beyond the rate limit
 * (RFC 1812 4.3.2.7, 4.3.2.8): each such case is counted. m is not consumed.
 */
void icmp4_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                      uint16_t in_port);

#endif
