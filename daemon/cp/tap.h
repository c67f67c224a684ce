/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane ports (ports[].tap): a kernel TAP interface per port, named
 * like it, in the daemon's network namespace. What fwd does not answer
 * itself among the packets to its addresses goes up the TAP of the port it
 * came in on (the hook of core/punt.h); what the kernel sends on the TAP
 * leaves through fwd (tap_down_class says how). Control thread only.
 */
#ifndef FWD_CP_TAP_H
#define FWD_CP_TAP_H

#include <stdbool.h>
#include <stdint.h>

/* What becomes of a frame the kernel wrote on a TAP. */
enum tap_down {
	TAP_DOWN_ROUTE4,   /* IPv4 unicast: routed by fwd's FIB (ip4_output) */
	TAP_DOWN_ROUTE6,   /* IPv6: ip6_output (multicast and link-local out of the interface) */
	TAP_DOWN_LINK,     /* IPv4 link-local multicast or broadcast: out of the port as it is */
	TAP_DOWN_ARP,      /* ARP (the TAP is NOARP: fwd alone speaks ARP): dropped */
	TAP_DOWN_NDP,      /* NDP (fwd alone speaks NDP): dropped */
	TAP_DOWN_TOO_BIG,  /* longer than the port's MTU: dropped */
	TAP_DOWN_INVALID,  /* not a whole IPv4/IPv6 packet, or another ethertype: dropped */
	TAP_DOWN_NOT_OURS, /* its source is not an address of ours: dropped */
	TAP_DOWN_NO_LINK,  /* for the link of an interface that has none (a loopback): dropped */
	TAP_DOWN_MAX
};

extern const char *const tap_down_names[TAP_DOWN_MAX];

/*
 * Classify a frame (Ethernet header first, len bytes) the kernel sent on
 * the TAP of an interface with that MTU. is_local4/is_local6 say whether a
 * source is ours (in the interface's VRF; for IPv6 link-local sources are
 * checked on that interface).
 */
enum tap_down tap_down_class(const uint8_t *frame, unsigned len, unsigned mtu,
                             bool (*is_local4)(uint16_t iface, uint32_t ip),
                             bool (*is_local6)(uint16_t iface, const uint8_t ip[16]),
                             uint16_t iface);

/*
 * The same frame (class c) written on the TAP of an interface without a
 * link (a loopback, doc/architecture.md): what would go out of the link as
 * it is (TAP_DOWN_LINK: broadcast, link-local multicast; for IPv6 a
 * link-local or multicast destination, which ip6_output sends out of the
 * interface) has nowhere to go: TAP_DOWN_NO_LINK. What is routed stays so.
 */
enum tap_down tap_down_nolink(enum tap_down c, const uint8_t *frame, unsigned len);

/*
 * The interface that owns the destination of a frame going up (Ethernet
 * header first, untagged, len bytes): owner4/owner6 of its IPv4 or IPv6
 * destination (the interface whose prefix holds it, the longest: a
 * loopback's /32 or /128), or -1 for anything else or a frame cut short.
 */
int tap_up_owner(const uint8_t *frame, unsigned len, int (*owner4)(uint32_t ip),
                 int (*owner6)(const uint8_t ip[16]));

#endif
