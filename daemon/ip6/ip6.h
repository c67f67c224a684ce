/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6: state shared between the control part and the workers, and the
 * address classes (RFC 4291) every part of ip6/ tests the same way.
 */
#ifndef FWD_IP6_H
#define FWD_IP6_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>

#include "core/vrf.h"
#include "route/fib6.h"
#include "ip6/rib6.h"

/* The FIB of each VRF workers look up and its RIB (control thread only),
 * as ip4_fibs and ip4_ribs (ip4/ip4.h). */
extern struct fib6 *ip6_fibs[FWD_MAX_VRFS];
extern struct rib6 ip6_ribs[FWD_MAX_VRFS];

/*
 * Told when the default VRF's FIB, having refused a route for lack of groups, has room
 * again (groups freed since), at most once a second: routes refused before
 * may fit now. Neighbours whose /128 was refused are retried the same way
 * by ip6 itself (nexthop's neigh_addresses_changed). One hook; NULL
 * removes it. ip6_fib_room_check is the reclaim tick's look (tests call it).
 */
void ip6_fib_set_room_hook(void (*fn)(void));
void ip6_fib_room_check(void);
#define IP6_ROOM_TICKS 10 /* reclaim ticks (100 ms) between two retries */

#define IP6_MIN_MTU 1280 /* RFC 8200 5: every link carries this much */

/*
 * Sources the fast path leaves to the slow one, by their last 16 bits:
 * non-zero where one of our addresses ends so (ip6/addr6.c keeps it on the
 * control thread, single byte stores; workers read). The slow path drops a
 * source that is really ours (its FIB entry is local: own_source) and
 * forwards the others.
 */
extern uint8_t ip6_src_watch[1u << 16];

static inline unsigned ip6_src_watch_idx(const uint8_t a[16])
{
	uint16_t x;

	memcpy(&x, &a[14], sizeof(x)); /* as it loads: one instruction */
	return x;
}

/* Re-mark ip6_src_watch from the addresses the ports have (addr6.c). */
void ip6_src_watch_sync(void);

static inline bool ip6_is_multicast(const uint8_t a[16])
{
	return a[0] == 0xff;
}

/* fe80::/10 */
static inline bool ip6_is_linklocal(const uint8_t a[16])
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

static inline bool ip6_is_unspecified(const uint8_t a[16])
{
	static const uint8_t zero[16];

	return memcmp(a, zero, 16) == 0;
}

static inline bool ip6_is_loopback(const uint8_t a[16])
{
	static const uint8_t one[16] = { [15] = 1 };

	return memcmp(a, one, 16) == 0;
}

/* ff02::1:ffXX:XXXX, the solicited-node multicast address of a (RFC 4291 2.7.1). */
static inline void ip6_solicited_node(const uint8_t a[16], uint8_t out[16])
{
	static const uint8_t base[13] = { 0xff, 0x02, [11] = 0x01, [12] = 0xff };

	memcpy(out, base, sizeof(base));
	memcpy(out + 13, a + 13, 3);
}

/* The Ethernet address of IPv6 multicast group a: 33:33 and its last 32 bits (RFC 2464 7). */
static inline void ip6_mcast_mac(const uint8_t a[16], struct rte_ether_addr *mac)
{
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(&mac->addr_bytes[2], a + 12, 4);
}

/* fe80::/64 with the modified EUI-64 of mac, as Linux derives it (RFC 4291 2.5.1, appendix A). */
static inline void ip6_linklocal_of(const struct rte_ether_addr *mac, uint8_t out[16])
{
	const uint8_t *m = mac->addr_bytes;

	memset(out, 0, 16);
	out[0] = 0xfe;
	out[1] = 0x80;
	out[8] = m[0] ^ 0x02;
	out[9] = m[1];
	out[10] = m[2];
	out[11] = 0xff;
	out[12] = 0xfe;
	out[13] = m[3];
	out[14] = m[4];
	out[15] = m[5];
}

#endif
