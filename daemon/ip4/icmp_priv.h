/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the ICMP module: shared by icmp.c (errors), local.c (delivery
 * to our addresses) and tcp_rst.c, and the seams unit tests replace. Control thread only.
 */
#ifndef FWD_IP4_ICMP_PRIV_H
#define FWD_IP4_ICMP_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "core/punt.h"

#define ICMP4_TTL         64
#define ICMP4_BURST_MIN   50  /* errors that may leave at once after a quiet spell */
#define ICMP4_ERR_HDR_LEN 8   /* type, code, checksum, 4 bytes "rest of header" */
#define ICMP4_ERR_MAX     576 /* bytes of a whole error, IP header included (RFC 1812 4.3.2.3) */
#define ICMP4_QUOTE_MAX   (ICMP4_ERR_MAX - 20 - ICMP4_ERR_HDR_LEN) /* 548 of the original */

/* Where built packets go: ip4_output in the daemon, a capture in tests. */
extern int (*icmp4_output)(struct rte_mbuf *m);
/* Monotonic nanoseconds for the rate limiter; tests drive it by hand. */
extern uint64_t (*icmp4_clock_ns)(void);

/* Errors per second (0 = unlimited); the bucket starts full. */
void icmp4_ratelimit_set(uint32_t rate);
/* Take a token for a packet that answers another unasked (an error, a TCP
 * reset); false: over the rate. */
bool icmp4_ratelimit_take(void);

/* True when ip can be the source of a packet we answer: a single host
 * that is not us (RFC 1812 4.3.2.7, 5.3.7). */
bool icmp4_source_ok(uint16_t vrf, uint32_t ip);

/* The next IP id for a packet the control thread builds. */
uint16_t icmp4_next_id(void);

/* Fill a 20-byte IPv4 header (no options) and its checksum. */
void icmp4_ip_header(void *hdr, uint8_t tos, uint16_t total_len, uint32_t src, uint32_t dst);

/* icmp4_send_error from address src (host order; 0: the ingress port's).
 * Errors about packets to one of our addresses come from that address, as
 * the sender addressed it (a traceroute to it ends on it). */
void icmp4_send_error_from(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                           uint16_t in_port, uint32_t src);

/* The FWD_PUNT_LOCAL handler (local.c); m is consumed. */
void local4_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

/* A fragment (MF or an offset); reasm4.c. */
struct rte_ipv4_hdr;
bool local4_is_fragment(const struct rte_ipv4_hdr *ip);
/* Reassemble the fragment m, which local4_input checked (header, to us,
 * source): the whole datagram goes through local4_input again once every
 * piece is in (reasm/reasm.h); m is consumed. */
void local4_reassemble(struct rte_mbuf *m, uint16_t port);
/* A TCP segment to us (local.c, header checked: hlen, total length tot),
 * answered with a reset (tcp_rst.c); m is consumed. */
void tcp4_reset(struct rte_mbuf *m, uint16_t port, unsigned hlen, unsigned tot);

#endif
