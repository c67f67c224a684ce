/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside ICMPv6: shared by icmp6.c (errors), local.c (delivery to us) and
 * hbh.c, and the seams unit tests replace. Control thread only.
 */
#ifndef FWD_IP6_ICMP6_PRIV_H
#define FWD_IP6_ICMP6_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "core/punt.h"
#include "ip6/ip6.h"

#define ICMP6_HOP_LIMIT   64 /* Linux's default hop limit (net.ipv6.conf.*.hop_limit) */
#define ICMP6_BURST_MIN   50 /* errors that may leave at once after a quiet spell */
#define ICMP6_ERR_HDR_LEN 8  /* type, code, checksum, 4 bytes of parameter */
/* RFC 4443 2.4 (c): as much of the packet as fits in the minimum MTU */
#define ICMP6_QUOTE_MAX (IP6_MIN_MTU - 40 - ICMP6_ERR_HDR_LEN)

/* Where built packets go: ip6_output in the daemon, a capture in tests.
 * port: the link of a link-local destination (the ingress port). */
extern int (*icmp6_output)(struct rte_mbuf *m, uint16_t port);
/* Monotonic nanoseconds for the rate limiter; tests drive it by hand. */
extern uint64_t (*icmp6_clock_ns)(void);

/* Errors per second (0 = unlimited), dataplane.icmp_rate as for IPv4, in a
 * bucket of their own; it starts full. */
void icmp6_ratelimit_set(uint32_t rate);
/* Take a token for a packet that answers another unasked (an error, a TCP
 * reset); false: over the rate. */
bool icmp6_ratelimit_take(void);

/* May a be the destination of a packet we answer: one host (not
 * unspecified, multicast, loopback or IPv4-mapped) that is not us? */
bool icmp6_source_ok(uint16_t vrf, const uint8_t a[16]);

/* Fill a 40-byte IPv6 header: traffic class tc, no flow label, next
 * header ICMPv6, hop limit ICMP6_HOP_LIMIT. */
void icmp6_ip_header(void *hdr, uint16_t payload_len, uint8_t tc, const uint8_t src[16],
                     const uint8_t dst[16]);

/* icmp6_send_error from address src (NULL: the ingress port's, as
 * addr6_source picks). Errors about packets to one of our addresses come
 * from that address, as the sender addressed it. */
void icmp6_send_error_from(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t param,
                           uint16_t in_port, const uint8_t *src);

/* The FWD_PUNT_LOCAL6 handler (local.c); m is consumed. */
void local6_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta);
/* Reassemble m, a fragment (an offset or M set) to us whose Fragment header
 * is at frag_off from its IPv6 header and named by the byte at nh_off
 * (reasm6.c): the whole datagram goes through local6_input again once every
 * piece is in (reasm/reasm.h); m is consumed. */
void local6_reassemble(struct rte_mbuf *m, uint16_t port, unsigned frag_off, unsigned nh_off);
/* Where local6_input hands NDP messages: ndp_input, a capture in tests. */
extern void (*local6_ndp)(struct rte_mbuf *m, uint16_t in_port);

/* A TCP segment at off in the packet ip (len bytes, header to the end) to
 * our unicast address, answered with a reset (tcp_rst6.c); m is consumed. */
void tcp6_reset(struct rte_mbuf *m, uint16_t port, const uint8_t *ip, unsigned off, unsigned len);

/* The FWD_PUNT_HBH6 handler (hbh.c); m is consumed. */
void hbh6_forward(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

#endif
