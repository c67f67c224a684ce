/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Interface addresses of l3 ports (control thread only). Each address
 * makes a local /32 in the FIB, a connected route for its subnet, and,
 * for subnets shorter than /31, a local entry for the directed broadcast.
 */
#ifndef FWD_IP4_ADDR_H
#define FWD_IP4_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "fwd_inet.h"

struct ip4_port_addrs {
	unsigned n;
	struct fwd_ip4_prefix a[FWD_MAX_ADDRS]; /* in the order added; a[0] is primary */
};

extern struct ip4_port_addrs ip4_addrs[FWD_MAX_PORTS];

/* Add or remove an address; errors come back as -errno with a message. */
int addr4_add(uint8_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen);
int addr4_del(uint8_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen);

/* True when ip is one of our addresses (on any port). */
bool addr4_is_local(uint32_t ip);

/* True when ip is the directed broadcast of one of our subnets. */
bool addr4_is_bcast(uint32_t ip);

/* The port whose connected subnet holds ip (the longest one), or -1. */
int addr4_port_of(uint32_t ip);
/* True when ip lies inside one of port's subnets. */
bool addr4_on_port(uint8_t port, uint32_t ip);

/* The source address for a packet we send out of port towards dst: the
 * port's address on dst's subnet, else its primary; 0 when it has none. */
uint32_t addr4_source(uint8_t port, uint32_t dst);

#endif
