/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Local delivery of IPv6 (FWD_PUNT_LOCAL6), on the control thread: packets
 * for one of our addresses (a link-local one only on its own interface),
 * and for the groups an l3 interface (a port or a VLAN: `port` below is an
 * interface id) listens to as a router's would (all-nodes
 * ff02::1, all-routers ff02::2 and ff05::2, the solicited-node group of
 * each of its addresses, tentative ones included, for DAD).
 *
 * The extension headers are read in order (RFC 8200 4): hop-by-hop (first
 * only) and destination options (hdr6.h: unknown options as their type
 * says), a routing header with segments left (we route by none: Parameter
 * Problem code 0 at its type), a fragment (put together by reasm6.c, which
 * hands the whole datagram back here; an atomic fragment, RFC 6946, is
 * taken whole).
 *
 * Then, as the IPv4 local path does (ip4/local.c), for consistency: ICMPv6
 * to us is checked (length, checksum); echo requests are answered (to a
 * group too, as Linux with echo_ignore_multicast 0, from the address the
 * port would use towards the asker), NDP (133-137, right after the fixed
 * header) goes to ndp_input, MLD (130-132, 143) is counted as mld_ignored
 * and consumed (we are no multicast router), the rest is dropped
 * (local_proto). UDP to our unicast address gets Destination Unreachable,
 * port (so a traceroute to the router ends), TCP to it a reset
 * (tcp_rst6.c; nothing to a group), any other next header Parameter
 * Problem code 1, from the address the packet was sent to. Every packet ends as a reply, a
 * hand-over or a counted drop.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "core/counter.h"
#include "core/counters.h"
#include "core/punt.h"
#include "ip6/addr6.h"
#include "ip6/hdr6.h"
#include "ip6/icmp6.h"
#include "ip6/icmp6_priv.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "ip6/ndp.h"

#define L2_LEN  IP6_L2_LEN
#define HDR_LEN IP6_HDR_LEN

static FWD_COUNTER(echo_replies, "icmp6_echo_replies_sent");
static FWD_COUNTER(mld_ignored, "mld_ignored");
static FWD_COUNTER(local_udp_invalid, "local6_udp_invalid");

void (*local6_ndp)(struct rte_mbuf *m, uint16_t in_port) = ndp_input;

/* A packet to us, as far as this file has read it. */
struct local6 {
	struct rte_mbuf *m;
	uint8_t *ip; /* the IPv6 header */
	unsigned len;
	uint16_t port;
	bool group; /* to a multicast group */
	bool ours;  /* to a group port listens to, or to one of our addresses */
	struct ip6_chain c;
};

/* The worker checked the header and trimmed the frame to it; check again
 * what this file relies on, cheaply, against anything that reaches the
 * handler some other way. */
static bool header_ok(const struct rte_mbuf *m)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, L2_LEN);

	return m->nb_segs == 1 && m->data_len >= L2_LEN + HDR_LEN && ip[0] >> 4 == 6 &&
	       HDR_LEN + (ip[4] << 8 | ip[5]) == (unsigned)m->data_len - L2_LEN;
}

/* A group port listens to. */
static bool listening(uint16_t port, const uint8_t g[16])
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
	static const uint8_t all_routers[16] = { 0xff, 0x02, [15] = 2 };
	static const uint8_t site_routers[16] = { 0xff, 0x05, [15] = 2 };
	const struct ip6_port_addrs *pa = &ip6_addrs[port];
	uint8_t sn[16];

	if (memcmp(g, all_nodes, 16) == 0 || memcmp(g, all_routers, 16) == 0 ||
	    memcmp(g, site_routers, 16) == 0)
		return true;
	for (unsigned i = 0; i < pa->n; i++) {
		if (pa->state[i] == ADDR6_DUPLICATE)
			continue;
		ip6_solicited_node(pa->a[i].addr, sn);
		if (memcmp(g, sn, 16) == 0)
			return true;
	}
	return false;
}

/* Ours: a group port listens to, a link-local address of port, or any of
 * our other addresses (the weak host model, as Linux and ip4/local.c). */
static bool for_us(uint16_t port, const uint8_t dst[16])
{
	if (port >= FWD_MAX_IFACES)
		return false;
	if (ip6_is_multicast(dst))
		return listening(port, dst);
	return addr6_is_local(fwd_ifaces[port].vrf, ip6_is_linklocal(dst) ? port : FWD_IFACE_NONE,
	                      dst);
}

static void drop(struct local6 *l, enum fwd_drop_reason why)
{
	fwd_control_drop(l->m, l->port, why);
}

/* An error about a packet to us: from the address it was sent to, or for a
 * group from the port's (icmp6.c sends few errors about those). Then the
 * packet is dropped as `why`. */
static void refuse(struct local6 *l, uint8_t type, uint8_t code, uint32_t param,
                   enum fwd_drop_reason why)
{
	icmp6_send_error_from(l->m, type, code, param, l->port, l->group ? NULL : l->ip + 24);
	drop(l, why);
}

/* The options of the header at l->c.off (hop-by-hop when hbh): false when
 * they dropped the packet. */
static bool options_ok(struct local6 *l, unsigned hlen, bool hbh)
{
	uint32_t pointer = 0;

	switch (ip6_opts_check(l->ip, l->c.off, hlen, hbh, &pointer)) {
	case IP6_OPTS_OK:
		return true;
	case IP6_OPTS_PARAM:
		refuse(l, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_OPTION, pointer, FWD_DROP_BAD_HEADER);
		return false;
	default:
		drop(l, FWD_DROP_BAD_HEADER);
		return false;
	}
}

/* One extension header at l->c.off, of hlen bytes: false when it dropped
 * the packet. */
static bool ext_ok(struct local6 *l, unsigned hlen)
{
	const uint8_t *h = l->ip + l->c.off;

	switch (l->c.proto) {
	case IPPROTO_HOPOPTS:
		if (l->c.off != HDR_LEN) { /* RFC 8200 4.1: only right after the header */
			refuse(l, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_NEXTHEADER, l->c.nh_off,
			       FWD_DROP_BAD_HEADER);
			return false;
		}
		return options_ok(l, hlen, true);
	case IPPROTO_DSTOPTS:
		return options_ok(l, hlen, false);
	case IPPROTO_ROUTING:
		if (h[3] != 0) { /* segments left: we would have to route it on */
			refuse(l, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_HEADER, l->c.off + 2,
			       FWD_DROP_BAD_HEADER);
			return false;
		}
		return true;
	default:                                   /* IPPROTO_FRAGMENT */
		if ((h[2] << 8 | h[3]) & 0xfff9) { /* an offset or more to come */
			local6_reassemble(l->m, l->port, l->c.off, l->c.nh_off);
			return false;
		}
		return true; /* an atomic fragment (RFC 6946): whole as it is */
	}
}

/* Read the extension headers; false when one dropped the packet. On true,
 * l->c names the upper-layer header. */
static bool chain_ok(struct local6 *l)
{
	l->c.proto = l->ip[6];
	l->c.off = HDR_LEN;
	l->c.nh_off = 6;
	l->c.later_frag = false;
	while (l->c.proto == IPPROTO_HOPOPTS || l->c.proto == IPPROTO_DSTOPTS ||
	       l->c.proto == IPPROTO_ROUTING || l->c.proto == IPPROTO_FRAGMENT) {
		unsigned hlen = ip6_ext_len(l->ip, l->len, l->c.off, l->c.proto);

		if (hlen == 0) {
			drop(l, FWD_DROP_BAD_HEADER);
			return false;
		}
		if (!ext_ok(l, hlen))
			return false;
		l->c.nh_off = l->c.off;
		l->c.proto = l->ip[l->c.off];
		l->c.off += hlen;
	}
	return true;
}

/* Turn the echo request into its reply in place (extension headers left
 * out: the reply has a bare header) and send it. */
static void echo_reply(struct local6 *l, unsigned icmp_len)
{
	uint8_t asker[16], from[16], tc = (uint8_t)(l->ip[0] << 4 | l->ip[1] >> 4);
	uint8_t *ip, *icmp;
	uint16_t ck;

	memcpy(asker, l->ip + 8, 16);
	if (!icmp6_source_ok(fwd_ifaces[l->port].vrf, asker)) {
		drop(l, FWD_DROP_BAD_ADDRESS); /* from us, or from nobody in particular */
		return;
	}
	if (!l->group)
		memcpy(from, l->ip + 24, 16); /* the address asked for */
	else if (!addr6_source(l->port, asker, from)) {
		drop(l, FWD_DROP_LOCAL_PROTO); /* no address to answer from */
		return;
	}
	/* the ICMPv6 message stays where it is; the header moves up to it */
	rte_pktmbuf_adj(l->m, (uint16_t)(l->c.off - HDR_LEN));
	ip = rte_pktmbuf_mtod_offset(l->m, uint8_t *, L2_LEN);
	icmp = ip + HDR_LEN;
	icmp[0] = ICMP6_ECHO_REPLY;
	icmp[1] = 0;
	icmp[2] = icmp[3] = 0;
	icmp6_ip_header(ip, (uint16_t)icmp_len, tc, from, asker);
	ck = ip6_l4_cksum((const struct rte_ipv6_hdr *)ip, IPPROTO_ICMPV6, icmp, icmp_len);
	memcpy(icmp + 2, &ck, sizeof(ck));
	l->m->ol_flags = 0;
	fwd_control_ctrs(l->port)->consumed++; /* the request; ip6_output counts the reply made */
	if (icmp6_output(l->m, l->port) == 0)
		echo_replies.value++;
}

static bool is_mld(uint8_t type)
{
	return type == MLD_LISTENER_QUERY || type == MLD_LISTENER_REPORT ||
	       type == MLD_LISTENER_REDUCTION || type == 143; /* MLDv2 report, RFC 3810 */
}

/* For the interface's kernel interface (its TAP: a port's, or a VLAN's
 * with `tap: true`), when it has one: to us, or to a link-scope group
 * (OSPFv3's ff02::5 and ::6, ...). */
static bool up_ok(const struct local6 *l)
{
	return l->ours || (l->group && (l->ip[25] & 0x0f) == 2);
}

static void local_icmp6(struct local6 *l)
{
	const uint8_t *icmp = l->ip + l->c.off;
	unsigned len = l->len - l->c.off;

	/* NDP checks its own messages, checksum included, and counts each refusal
	 * by reason (ndp_invalid_*) */
	if (len >= 4 && l->ours && icmp[0] >= ND_ROUTER_SOLICIT && icmp[0] <= ND_REDIRECT) {
		if (l->c.off != HDR_LEN)
			drop(l, FWD_DROP_NDP_INVALID); /* NDP comes bare (ndp_input reads it so) */
		else
			local6_ndp(l->m, l->port);
		return;
	}
	if (len < 4 ||
	    ip6_l4_sum((const struct rte_ipv6_hdr *)l->ip, IPPROTO_ICMPV6, icmp, len) != 0xffff) {
		drop(l, FWD_DROP_ICMP_INVALID);
		return;
	}
	/* MLD is about the groups we do not listen to as much as about ours */
	if (is_mld(icmp[0])) {
		mld_ignored.value++;
		fwd_control_ctrs(l->port)->consumed++;
		rte_pktmbuf_free(l->m);
		return;
	}
	/* errors, echo replies, other types: the port's kernel interface's
	 * (not NDP's types, to a group fwd does not listen to: ignored) */
	if (icmp[0] != ICMP6_ECHO_REQUEST &&
	    !(icmp[0] >= ND_ROUTER_SOLICIT && icmp[0] <= ND_REDIRECT) && up_ok(l) &&
	    fwd_punt_up_take(l->m, l->port))
		return;
	if (!l->ours) {
		drop(l, FWD_DROP_LOCAL_PROTO);
		return;
	}
	if (icmp[0] == ICMP6_ECHO_REQUEST && len >= 8) {
		echo_reply(l, len);
		return;
	}
	/* replies and errors about packets of ours: we keep no sockets */
	drop(l, icmp[0] == ICMP6_ECHO_REQUEST ? FWD_DROP_ICMP_INVALID : FWD_DROP_LOCAL_PROTO);
}

/* RFC 8200 8.1: the UDP checksum is mandatory in IPv6. */
static bool udp_ok(const struct local6 *l)
{
	const uint8_t *udp = l->ip + l->c.off;
	unsigned len = l->len - l->c.off, ulen;

	if (len < sizeof(struct rte_udp_hdr))
		return false;
	ulen = (unsigned)(udp[4] << 8 | udp[5]);
	if (ulen < sizeof(struct rte_udp_hdr) || ulen > len || (udp[6] == 0 && udp[7] == 0))
		return false;
	return ip6_l4_sum((const struct rte_ipv6_hdr *)l->ip, IPPROTO_UDP, udp, ulen) == 0xffff;
}

static void local_udp(struct local6 *l)
{
	if (!udp_ok(l)) {
		local_udp_invalid.value++;
		drop(l, FWD_DROP_LOCAL_PROTO);
		return;
	}
	refuse(l, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_NOPORT, 0, FWD_DROP_LOCAL_PROTO);
}

void local6_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	struct local6 l = { .m = m, .port = meta->in_port };

	if (!header_ok(m)) {
		fwd_control_drop(m, l.port, FWD_DROP_BAD_HEADER);
		return;
	}
	l.ip = rte_pktmbuf_mtod_offset(m, uint8_t *, L2_LEN);
	l.len = HDR_LEN + (l.ip[4] << 8 | l.ip[5]);
	l.group = ip6_is_multicast(l.ip + 24);
	l.ours = for_us(l.port, l.ip + 24);
	if (!l.ours && !l.group) {
		drop(&l,
		     FWD_DROP_LOCAL_PROTO); /* not ours at all (a punt that should not have been) */
		return;
	}
	if (!chain_ok(&l))
		return;
	if (l.c.proto == IPPROTO_ICMPV6) {
		local_icmp6(&l);
		return;
	}
	if (up_ok(&l) && fwd_punt_up_take(m, l.port))
		return; /* the port's kernel interface serves it */
	if (!l.ours) {
		drop(&l, FWD_DROP_LOCAL_PROTO); /* a group we do not listen to */
		return;
	}
	switch (l.c.proto) {
	case IPPROTO_UDP:
		local_udp(&l);
		return;
	case IPPROTO_TCP:
		if (!l.group) {
			tcp6_reset(m, l.port, l.ip, l.c.off, l.len);
			return;
		}
		drop(&l, FWD_DROP_LOCAL_PROTO);
		return;
	case IPPROTO_NONE:
		drop(&l, FWD_DROP_LOCAL_PROTO);
		return;
	default:
		refuse(&l, ICMP6_PARAM_PROB, ICMP6_PARAMPROB_NEXTHEADER, l.c.nh_off,
		       FWD_DROP_LOCAL_PROTO);
		return;
	}
}

RTE_INIT(local6_punt_register)
{
	fwd_punt_register(FWD_PUNT_LOCAL6, local6_input);
}
