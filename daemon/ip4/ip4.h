/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4: state shared between the control part and the workers. */
#ifndef FWD_IP4_H
#define FWD_IP4_H

#include <stdint.h>

#include "ip4/fib.h"
#include "ip4/rib.h"

/* The FIB workers look up; created at init, never replaced while they run. */
extern struct fib4 *ip4_fib;

/* The RIB, control thread only. */
extern struct rib4 ip4_rib;

/* Classes of the first octet of an address (RFC 1812 5.3.7, RFC 5735). */
enum ip4_class {
	IP4_UNICAST = 0,
	IP4_MARTIAN,     /* 0/8, 127/8, 240/4 but the limited broadcast */
	IP4_MULTICAST,   /* 224/4 */
	IP4_BCAST_OCTET, /* 255: the limited broadcast if all ones, else martian */
};

extern const uint8_t ip4_dst_class[256];
extern const uint8_t ip4_src_martian[256];

#endif
