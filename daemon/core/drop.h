/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Named drop reasons. Every packet the dataplane frees without sending is
 * counted against exactly one of these, on the port it arrived on (or the
 * port it was to leave by, for tx_full and port_down on egress).
 * Names are what `fwdctl stats` and the metrics endpoint show: never rename.
 * policed_*: the punt policer (core/punt.c), one per punt reason in the
 * order of enum fwd_punt_reason, then NDP's per port buckets: policed_ndp
 * (Router Solicitations), policed_ns, policed_na.
 */
#ifndef FWD_DROP_H
#define FWD_DROP_H

#define FWD_DROP_REASONS(X)                                                                  \
	X(TX_FULL, "tx_full")             /* egress queue full */                            \
	X(PORT_DOWN, "port_down")         /* port administratively down */                   \
	X(NOT_FOR_US, "not_for_us")       /* l3: unicast frame for another MAC */            \
	X(UNSUPPORTED, "unsupported")     /* l3: ethertype not handled (VLAN, ...) */        \
	X(BAD_HEADER, "bad_header")       /* RFC 1812 5.2.2: version, IHL, lengths */        \
	X(BAD_CHECKSUM, "bad_checksum")   /* IPv4 header checksum */                         \
	X(BAD_ADDRESS, "bad_address")     /* RFC 1812 5.3.7 martian source/destination */    \
	X(TTL_EXCEEDED, "ttl_exceeded")   /* TTL <= 1 on a packet to forward */              \
	X(NO_ROUTE, "no_route")           /* no FIB entry */                                 \
	X(BLACKHOLE, "blackhole")         /* blackhole route */                              \
	X(UNREACHABLE, "unreachable")     /* unreachable route */                            \
	X(PROHIBITED, "prohibited")       /* prohibit route */                               \
	X(NO_NEIGHBOUR, "no_neighbour")   /* next hop failed to resolve */                   \
	X(HOLD_FULL, "hold_full")         /* per-neighbour hold queue full */                \
	X(MTU, "mtu")                     /* too big with DF set */                          \
	X(FRAG_ERROR, "frag_error")       /* could not fragment (no mbufs) */                \
	X(PUNT_FULL, "punt_full")         /* slow-path ring full */                          \
	X(LOCAL_PROTO, "local_proto")     /* to us, protocol not served */                   \
	X(ARP_INVALID, "arp_invalid")     /* malformed or foreign ARP */                     \
	X(ICMP_INVALID, "icmp_invalid")   /* malformed ICMP to us */                         \
	X(SAME_PORT, "same_port")         /* bridge: destination is the ingress port */      \
	X(BAD_SRC_MAC, "bad_src_mac")     /* bridge: group or zero source MAC */             \
	X(L2_RESERVED, "l2_reserved")     /* bridge: to 01:80:c2:00:00:0x, never relayed */  \
	X(NO_MEMBER, "no_member")         /* bridge: no other member port up to flood to */  \
	X(NO_MBUF, "no_mbuf")             /* mbuf pool exhausted while copying */            \
	X(CONTROL_TX, "control_tx")       /* control-thread packet to a port being closed */ \
	X(SCOPE, "scope")                 /* IPv6: link-local beyond its link */             \
	X(NDP_INVALID, "ndp_invalid")     /* IPv6: malformed or refused NDP */               \
	X(MULTI_SEG, "multi_seg")         /* a frame in more than one mbuf segment */        \
	X(OWN_SOURCE, "own_source")       /* source: our address or a directed broadcast */  \
	X(LINK_LOCAL, "link_local")       /* IPv4 169.254/16 to forward (RFC 3927 7) */      \
	X(RPF, "rpf")                     /* ports[].rpf: no route back (RFC 3704) */        \
	X(TRUNCATED, "truncated")         /* frame shorter than its IP length or tag says */ \
	X(REASM_TIMEOUT, "reasm_timeout") /* to us: datagram not whole in time */            \
	X(REASM_FULL, "reasm_full")       /* to us: reassembly table or datagram full */     \
	X(REASM_OVERLAP, "reasm_overlap") /* to us: overlapping fragment (RFC 5722) */       \
	X(REASM_INVALID, "reasm_invalid") /* to us: fragment lengths inconsistent */         \
	X(ACL, "acl")                     /* acls[]: a deny or reject rule (acl/) */         \
	X(POLICED_ARP, "policed_arp")                                                        \
	X(POLICED_LOCAL, "policed_local")                                                    \
	X(POLICED_RESOLVE, "policed_resolve")                                                \
	X(POLICED_GLEAN, "policed_glean")                                                    \
	X(POLICED_TTL, "policed_ttl")                                                        \
	X(POLICED_NO_ROUTE, "policed_no_route")                                              \
	X(POLICED_FRAG_NEEDED, "policed_frag_needed")                                        \
	X(POLICED_LOCAL6, "policed_local6")                                                  \
	X(POLICED_GLEAN6, "policed_glean6")                                                  \
	X(POLICED_ICMP6, "policed_icmp6")                                                    \
	X(POLICED_HBH6, "policed_hbh6")                                                      \
	X(POLICED_NDP, "policed_ndp")                                                        \
	X(POLICED_NS, "policed_ns")                                                          \
	X(POLICED_NA, "policed_na")                                                          \
	X(NDP_IGNORED, "ndp_ignored")   /* IPv6: NDP ignored, dropped before the policer */  \
	X(VLAN_UNKNOWN, "vlan_unknown") /* 802.1Q VID without an interface; 802.1ad */       \
	X(VRF_LOOP, "vrf_loop")         /* next_vrf led to another next_vrf route */

enum fwd_drop_reason {
#define FWD_DROP_ENUM(e, name) FWD_DROP_##e,
	FWD_DROP_REASONS(FWD_DROP_ENUM)
#undef FWD_DROP_ENUM
	        FWD_DROP_MAX
};

extern const char *const fwd_drop_names[FWD_DROP_MAX];

#endif
