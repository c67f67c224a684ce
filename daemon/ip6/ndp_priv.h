/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside NDP (control thread only): the messages' wire format (RFC 4861 4),
 * frames out (ndp_tx.c), what input hands DAD (ndp_dad.c) and Router
 * Advertisements (ndp_ra.c), and the counters. Unit tests include it to
 * drive the timers with the neighbour layer's fake clock.
 */
#ifndef FWD_NDP_PRIV_H
#define FWD_NDP_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/counter.h"

#define NDP_HOP_LIMIT 255 /* RFC 4861: sent with 255, received only with 255 */
#define NDP_TICK_MS   100 /* DAD and RA timers */

/* ICMPv6 types (RFC 4861 4) */
#define NDP_RS       133
#define NDP_RA       134
#define NDP_NS       135
#define NDP_NA       136
#define NDP_REDIRECT 137

/* options (RFC 4861 4.6) */
#define NDP_OPT_SLLA   1
#define NDP_OPT_TLLA   2
#define NDP_OPT_PREFIX 3
#define NDP_OPT_MTU    5

/* NA flags, in the first byte after the checksum */
#define NDP_NA_ROUTER    0x80
#define NDP_NA_SOLICITED 0x40
#define NDP_NA_OVERRIDE  0x20

/* The ICMPv6 header and the fixed part of each message. */
struct ndp_icmp {
	uint8_t type, code;
	rte_be16_t cksum;
} __rte_packed;

struct ndp_ns { /* also NA: flags in reserved[0] */
	struct ndp_icmp h;
	uint8_t reserved[4];
	uint8_t target[16];
} __rte_packed;

struct ndp_ra {
	struct ndp_icmp h;
	uint8_t cur_hop_limit;
	uint8_t flags; /* M, O */
	rte_be16_t lifetime_s;
	rte_be32_t reachable_ms;
	rte_be32_t retrans_ms;
} __rte_packed;

struct ndp_opt_lladdr {
	uint8_t type, len; /* len in units of 8 bytes: 1 */
	uint8_t mac[RTE_ETHER_ADDR_LEN];
} __rte_packed;

struct ndp_opt_mtu {
	uint8_t type, len;
	rte_be16_t reserved;
	rte_be32_t mtu;
} __rte_packed;

struct ndp_opt_prefix {
	uint8_t type, len; /* 4 */
	uint8_t prefix_len;
	uint8_t flags; /* L 0x80, A 0x40 */
	rte_be32_t valid_s;
	rte_be32_t preferred_s;
	rte_be32_t reserved;
	uint8_t prefix[16];
} __rte_packed;

/* ndp_tx.c: frames from the control thread. */

/*
 * An Ethernet + IPv6 + ICMPv6 frame of icmp_len bytes (zeroed) on port, to
 * dst at link address mac (NULL: dst's multicast MAC), hop limit 255.
 * Counted as created; NULL (counted no_mbuf) when the pool is empty.
 */
struct rte_mbuf *ndp_frame(uint16_t port, const struct rte_ether_addr *mac, const uint8_t src[16],
                           const uint8_t dst[16], uint16_t icmp_len);
/* The ICMPv6 message of a frame from ndp_frame. */
void *ndp_icmp_of(struct rte_mbuf *m);
/* Write a link-layer address option of type at p; returns the byte after it. */
uint8_t *ndp_opt_lladdr(uint8_t *p, uint8_t type, const struct rte_ether_addr *mac);
/* Checksum the ICMPv6 message and hand the frame to a worker; <0: dropped (counted). */
int ndp_send(struct rte_mbuf *m, uint16_t port);
/* A solicitation for target from src (:: for DAD) to dst: its solicited-node
 * group, or the target itself at mac (a unicast probe). <0 when not sent. */
int ndp_send_ns(uint16_t port, const uint8_t src[16], const uint8_t target[16],
                const struct rte_ether_addr *mac);

/* Can port send (administratively up, link up)? DAD and RAs wait until it can. */
bool ndp_port_ready(uint16_t port);

/* Random numbers for DAD and RA delays (tests make them fixed). */
extern uint64_t (*ndp_random)(void);
/* A random number of milliseconds in [0, max_ms]. */
uint64_t ndp_random_ms(uint64_t max_ms);

/* ndp_dad.c */
void ndp_dad_tick(uint64_t now);
void ndp_dad_reset(void);
/* A message says someone else has tentative address a of port: stop DAD,
 * the address is a duplicate. */
void ndp_dad_conflict(uint16_t port, const uint8_t a[16]);
/* Interface port goes: its runs and their table. */
void ndp_dad_gone(uint16_t port);

/* ndp_ra.c */
void ndp_ra_tick(uint64_t now);
void ndp_ra_reset(void);
/* A valid Router Solicitation on port: an answer, within the rate limit. */
void ndp_ra_solicited(uint16_t port);
bool ndp_ra_enabled(uint16_t port);
/* Interface port goes: its last RA (lifetime 0) if it sent any, its state
 * cleared for the next interface of that id. */
void ndp_ra_gone(uint16_t port);

/* ndp.c: what the control loop's timer runs (tests call it with their clock). */
void ndp_tick(void);
/* Register the resolver and reset every state, without a timer event (tests). */
void ndp_module_init(void);
void ndp_module_fini(void);

/* Why a message was refused: each is a drop ndp_invalid and a counter. */
#define NDP_INVALID_REASONS(X)                                                                 \
	X(HEADER, "ndp_invalid_header")       /* not IPv6 + ICMPv6 of consistent lengths */    \
	X(HOP_LIMIT, "ndp_invalid_hop_limit") /* not 255: from beyond the link */              \
	X(CHECKSUM, "ndp_invalid_checksum")                                                    \
	X(CODE, "ndp_invalid_code")                                                            \
	X(LENGTH, "ndp_invalid_length")       /* shorter than the message's fixed part */      \
	X(OPTION, "ndp_invalid_option")       /* length 0, past the end, bad lladdr length */  \
	X(LLADDR, "ndp_invalid_lladdr")       /* link address not a host's (or ours) */        \
	X(TARGET, "ndp_invalid_target")       /* multicast target */                           \
	X(SOURCE, "ndp_invalid_source")       /* multicast, loopback, :: where not allowed */  \
	X(DEST, "ndp_invalid_dest")           /* not ours, or a group the message can't use */ \
	X(SOLICITED, "ndp_invalid_solicited") /* NA to a group with the Solicited flag */

enum ndp_invalid {
#define NDP_INVALID_ENUM(e, name) NDP_INVALID_##e,
	NDP_INVALID_REASONS(NDP_INVALID_ENUM)
#undef NDP_INVALID_ENUM
	        NDP_INVALID_MAX
};

/* Counters (global section of `fwdctl stats`, fwd_counter_total in metrics). */
extern struct fwd_counter ndp_invalid[NDP_INVALID_MAX];
extern struct fwd_counter ndp_locktime_ignored; /* a new MAC within locktime (nexthop/neigh.h) */
extern struct fwd_counter ndp_ns_rx, ndp_na_rx, ndp_rs_rx, ndp_ra_rx, ndp_redirect_rx, ndp_ns_tx,
        ndp_na_tx, ndp_ra_tx, ndp_na_ignored, ndp_na_unsolicited_updated, ndp_conflicts,
        ndp_dad_duplicate;

#endif
