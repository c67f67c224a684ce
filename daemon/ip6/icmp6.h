/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMPv6 errors (RFC 4443), built on the control thread about packets the
 * workers punt (FWD_PUNT_ICMP6), packets to us the local path refuses, and
 * packets the neighbour layer gives up on. Types and codes are those of
 * <netinet/icmp6.h>.
 */
#ifndef FWD_IP6_ICMP6_H
#define FWD_IP6_ICMP6_H

#include <stdint.h>
#include <netinet/icmp6.h>

#include <rte_mbuf.h>

/*
 * The error a worker asks for in the `aux` of a FWD_PUNT_ICMP6 punt: type,
 * code and the low 16 bits of the error's parameter (a Parameter Problem
 * pointer, or a Packet Too Big MTU: both below 2^16 for a packet that fits
 * an mbuf).
 */
static inline uint32_t icmp6_punt_aux(uint8_t type, uint8_t code, uint16_t param)
{
	return (uint32_t)type << 24 | (uint32_t)code << 16 | param;
}

/*
 * Send an ICMPv6 error of type/code about the IPv6 packet in m (data at its
 * 14-byte Ethernet header, as received on interface in_port, a port or a
 * VLAN, its tag taken out; param: the MTU of a Packet Too Big, the pointer
 * of a Parameter Problem, else 0). From the address of in_port that
 * addr6_source picks for the packet's source (a VLAN's own), with
 * as much of the packet as fits in 1280 bytes, hop limit 64. Nothing is
 * sent (each case counted) about an ICMPv6 error or redirect, a packet to
 * a multicast address or as a link-layer multicast (but Packet Too Big,
 * and Parameter Problem code 2 for an option whose type says so), a packet
 * from an unspecified, multicast, loopback or IPv4-mapped address or one of
 * ours, or beyond the rate limit (RFC 4443 2.4). m is not consumed.
 */
void icmp6_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t param,
                      uint16_t in_port);

/*
 * The neighbour layer's `unreachable` for IPv6 (struct neigh_resolver): a
 * packet held for a neighbour that did not answer gets Destination
 * Unreachable, code 3 (address unreachable). m is not consumed.
 */
void icmp6_unreachable(const struct rte_mbuf *m, uint16_t in_port);

#endif
