/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMP errors (RFC 792, RFC 1812 4.3.2) and local delivery (echo), on the
 * control thread.
 */
#ifndef FWD_IP4_ICMP_H
#define FWD_IP4_ICMP_H

#include <stdint.h>

#include <rte_mbuf.h>

/*
 * Send an ICMP error of type/code about the IPv4 packet in m (data at its
 * 14-byte Ethernet header, as received on port in_port; `aux` is the
 * next-hop MTU for "fragmentation needed"). Quotes the IP header and the
 * first 8 bytes of payload, sources it from in_port's address, and sends
 * nothing about ICMP errors, link or IP broadcasts and multicasts,
 * non-first fragments or martian sources, or beyond the rate limit
 * (RFC 1812 4.3.2.7, 4.3.2.8): each such case is counted. m is not consumed.
 */
void icmp4_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                      uint8_t in_port);

#endif
