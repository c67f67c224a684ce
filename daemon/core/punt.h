/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The slow path. Workers hand packets they cannot finish (ARP, packets for
 * us, packets waiting for a neighbour, packets that need an ICMP error) to
 * the control thread through one bounded multi-producer ring; each carries
 * a small metadata record in an mbuf dynamic field. The control thread
 * drains the ring from a timer and calls the handler registered for the
 * reason. A full ring is a counted drop (punt_full), never a stall.
 *
 * Before the ring, each worker polices every punt reason with a token
 * bucket of its own (worker-private: no atomics), at the rate of the
 * reason's class (dataplane.punt_rate_*, shared out over the workers);
 * what exceeds it is dropped as policed_<reason>. Address resolution has
 * buckets of its own and a ring of its own, drained first, so a flood of
 * other punts cannot crowd it out: ARP one bucket, NDP (ICMPv6 133-137,
 * which the IPv6 input sorts first: what fwd ignores it drops there) one
 * per physical port and kind of message, so a flood of advertisements or of
 * another link's solicitations leaves a host's solicitations their tokens.
 * The VLANs of a trunk share their port's buckets: tagging a flood with
 * many VIDs does not multiply its budget. LACP (slow protocols on a bond
 * member, in_port the member's port) has a bucket per port too and rides
 * the same ring: a member's LACPDUs are its heartbeat, a flood elsewhere
 * must not let its partner time it out. Everything else a punt names
 * (in_port, out_port, counters) is an interface id (core/iface.h).
 */
#ifndef FWD_PUNT_H
#define FWD_PUNT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/drop.h"

enum fwd_punt_reason {
	FWD_PUNT_ARP,         /* an ARP frame */
	FWD_PUNT_LOCAL,       /* IPv4 for one of our addresses, or a broadcast */
	FWD_PUNT_RESOLVE,     /* routed; next hop `aux` (nh_punt_tag) has no l2 address yet */
	FWD_PUNT_GLEAN,       /* routed to host `aux` on connected port out_port */
	FWD_PUNT_TTL,         /* send ICMP time exceeded */
	FWD_PUNT_NO_ROUTE,    /* send ICMP destination unreachable, code in aux */
	FWD_PUNT_FRAG_NEEDED, /* send ICMP fragmentation needed, next-hop MTU `aux` */
	FWD_PUNT_LOCAL6,      /* IPv6 for one of our addresses, or a multicast group */
	FWD_PUNT_GLEAN6,      /* IPv6 routed to its destination on connected port out_port */
	FWD_PUNT_ICMP6,       /* send the ICMPv6 error `aux` (ip6/icmp6.h: icmp6_punt_aux) */
	FWD_PUNT_HBH6,        /* IPv6 to forward with a hop-by-hop header: its options first */
	FWD_PUNT_LACP,        /* a slow-protocols frame (LACPDU, marker) on a bond member */
	FWD_PUNT_MAX
};

/*
 * The aux of a FWD_PUNT_LOCAL6 punt: the NDP message the IPv6 input found
 * (RFC 4861: ICMPv6 right after the fixed header), which picks the bucket
 * of the ingress port that polices it, and the drop reason of its excess.
 */
enum fwd_punt_nd {
	FWD_PUNT_ND_NONE,  /* not NDP: LOCAL6's bucket */
	FWD_PUNT_ND_NS,    /* Neighbor Solicitation: policed_ns */
	FWD_PUNT_ND_NA,    /* Neighbor Advertisement: policed_na */
	FWD_PUNT_ND_OTHER, /* Router Solicitation on a port that advertises: policed_ndp */
	FWD_PUNT_ND_MAX
};

/* Router Solicitations a second per port, at most (punt_rate_nd if less):
 * an RA answers them all at most every 3 s (RFC 4861 6.2.6). */
#define FWD_PUNT_RS_RATE 100

/* Policer classes: the rate of each is a key of its own (fwd.yaml(5)). */
enum fwd_punt_class {
	FWD_PUNT_CLASS_LOCAL, /* to our addresses, groups; hop-by-hop: punt_rate_local;
	                       * first: a reason left out of core/punt.c's table is here */
	FWD_PUNT_CLASS_ND,    /* ARP; NDP per port and kind: punt_rate_nd */
	FWD_PUNT_CLASS_HOLD,  /* waiting for a neighbour: punt_rate_hold */
	FWD_PUNT_CLASS_ERROR, /* asking for an ICMP error: punt_rate_error */
	FWD_PUNT_CLASS_LACP,  /* LACP, per port (not shared out): punt_rate_lacp */
	FWD_PUNT_CLASS_MAX
};

/* A worker's bucket (worker-private). */
struct fwd_punt_bucket {
	uint64_t last;   /* TSC of the last refill */
	uint64_t tokens; /* packets it may still punt */
};

#define FWD_PUNT_NO_DROP 0xff /* the packet is not dropped by being punted */

struct fwd_punt_meta {
	uint8_t reason;    /* enum fwd_punt_reason */
	uint8_t drop;      /* drop reason counted when the punt succeeds, or FWD_PUNT_NO_DROP */
	uint16_t in_port;  /* ingress interface id (core/iface.h) */
	uint16_t out_port; /* egress interface id, when known */
	uint16_t pad;
	uint32_t aux;
};

/* 12 bytes: the mbuf's dynamic field area is small and shared with drivers. */
_Static_assert(sizeof(struct fwd_punt_meta) == 12, "punt metadata size");

extern int fwd_punt_meta_offset;

static inline struct fwd_punt_meta *fwd_punt_meta(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, fwd_punt_meta_offset, struct fwd_punt_meta *);
}

/* Called on the control thread with one punted packet (which it owns). */
typedef void (*fwd_punt_fn)(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

void fwd_punt_register(enum fwd_punt_reason reason, fwd_punt_fn fn);

/* Control thread: counters of packets the control thread consumed or dropped
 * on behalf of interface iface (summed into `fwdctl stats` with the
 * workers'). */
struct fwd_port_ctrs;
struct fwd_port_ctrs *fwd_control_ctrs(uint16_t iface);

/* Count a drop made by the control thread and free the packet. */
void fwd_control_drop(struct rte_mbuf *m, uint16_t iface, enum fwd_drop_reason reason);

/* An interface's kernel interface (tap: true, cp/tap.c), set by the layer
 * that keeps them: local delivery hands it a packet to us, arrived on
 * interface iface, that fwd does not answer itself (all but ARP, NDP and
 * ICMP echo requests). It returns true when it took m (sent up on iface's,
 * or on the loopback's that owns the destination, or dropped and counted),
 * false when there is none: the caller then does what it does without. */
extern bool (*fwd_punt_up)(struct rte_mbuf *m, uint16_t iface);

/* fwd_punt_up when set and m's interface has a kernel interface. */
static inline bool fwd_punt_up_take(struct rte_mbuf *m, uint16_t iface)
{
	return fwd_punt_up != NULL && fwd_punt_up(m, iface);
}

/*
 * The filter of what is addressed to the router itself (control.acl_local,
 * acl/), set by the feature that keeps it: the control thread offers it
 * every FWD_PUNT_LOCAL and FWD_PUNT_LOCAL6 packet before local delivery.
 * It returns true when it took m (dropped and counted, or refused), false
 * to deliver it. It passes ARP (never punted as LOCAL) and NDP itself.
 */
extern bool (*fwd_local_filter)(struct rte_mbuf *m, const struct fwd_punt_meta *meta);

/* Hand punted packets to their handlers (a bounded batch, as one timer tick
 * does); returns how many. The fuzzers call it without the event loop. */
unsigned fwd_punt_drain(void);

/* Set the policer's rates (packets a second for each reason of a class,
 * over all workers; 0: not policed). Control thread. */
void fwd_punt_rates_set(const uint32_t rates[FWD_PUNT_CLASS_MAX]);

int fwd_punt_init(void);
void fwd_punt_fini(void);

#endif
