/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4: state shared between the control part and the workers. */
#ifndef FWD_IP4_H
#define FWD_IP4_H

#include <stdint.h>

#include <rte_byteorder.h>

#include "core/vrf.h"
#include "ip4/fib.h"
#include "ip4/rib.h"

/* The FIB of each VRF (core/vrf.h) workers look up, NULL where there is no
 * VRF: the default's made at init, the others' by the VRF's ADD hook; a FIB
 * is freed only after a grace period once its VRF is gone. */
extern struct fib4 *ip4_fibs[FWD_MAX_VRFS];

/* The RIB of each VRF, control thread only (.fib NULL: no VRF). */
extern struct rib4 ip4_ribs[FWD_MAX_VRFS];

/* Classes of the first octet of an address (RFC 1812 5.3.7, RFC 5735). */
enum ip4_class {
	IP4_UNICAST = 0,
	IP4_MARTIAN,     /* 0/8, 127/8, 240/4 but the limited broadcast */
	IP4_MULTICAST,   /* 224/4 */
	IP4_BCAST_OCTET, /* 255: the limited broadcast if all ones, else martian */
};

extern const uint8_t ip4_dst_class[256];
extern const uint8_t ip4_src_martian[256];

/*
 * Sources the fast path leaves to the slow one, by first and last octet
 * (ip4_src_watch_idx): non-zero is "look closer". IP4_WATCH_ROW marks every
 * address of a first octet that is martian (ip4_src_martian) or 169
 * (169.254/16, RFC 3927); IP4_WATCH_OWN our addresses and the directed
 * broadcasts of our subnets (RFC 1812 5.3.7), kept by ip4/addr.c on the
 * control thread (single byte stores; workers read). A source that only
 * shares those octets with one of ours is forwarded by the slow path.
 */
#define IP4_LINK_LOCAL 0xa9fe0000u /* 169.254/16 */
#define IP4_WATCH_ROW  1u
#define IP4_WATCH_OWN  2u
extern uint8_t ip4_src_watch[1u << 16];

/* The index of source address src (network order, as loaded from the
 * header) in ip4_src_watch: first octet << 8 | last octet. */
static inline unsigned ip4_src_watch_idx(uint32_t src_be)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	/* bytes a.b.c.d load as d<<24|c<<16|b<<8|a: one rotation (written
	 * so that the compiler sees it), and the low 16 bits */
	uint32_t r = src_be << 8 | src_be >> 24;

	return r & 0xffff;
#else
	return (uint16_t)(src_be >> 16 & 0xff00) | (src_be & 0xff);
#endif
}

/* Re-mark IP4_WATCH_OWN from the addresses the ports have (addr.c). */
void ip4_src_watch_sync(void);

#endif
