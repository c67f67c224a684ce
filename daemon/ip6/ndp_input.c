/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NDP messages received (RFC 4861), control thread only. A message is
 * hostile until every check of RFC 4861 6.1.1, 6.1.2, 7.1.1, 7.1.2 and 8.1
 * passed (hop limit 255, so it came from the link; code 0; checksum;
 * lengths; options of non-zero length inside the message; :: as source only
 * for DAD); each refusal is a drop ndp_invalid and a counter of its reason.
 *
 * Then: a solicitation for one of our addresses in use on that port is
 * answered (Router, Solicited, Override; TLLA), to the asker, or to all
 * nodes when it was someone's DAD probe (RFC 4861 7.2.4). What the asker
 * and advertisers say goes to neigh_heard, whose policy decides (Linux's
 * defaults: an unsolicited NA never creates an entry). A solicitation from
 * :: or any advertisement for a tentative address of ours makes it a
 * duplicate (RFC 4862 5.4.3, 5.4.4); another host claiming an address we
 * use is counted and logged. Router Solicitations get an RA on ports with
 * `ra: true` (ndp_ra.c); RAs and Redirects from others are counted and
 * ignored: we are a router.
 */
#include <string.h>

#include <rte_ip.h>

#include "core/counters.h"
#include "core/log.h"
#include "ip6/addr6.h"
#include "ip6/ip6.h"
#include "ip6/ndp.h"
#include "ip6/ndp_guard.h"
#include "ip6/ndp_priv.h"
#include "ip6/output.h"
#include "core/punt.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define HDRS_LEN (sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv6_hdr))

struct fwd_counter ndp_invalid[NDP_INVALID_MAX] = {
#define NDP_INVALID_NAME(e, name_) [NDP_INVALID_##e] = { .name = (name_) },
	NDP_INVALID_REASONS(NDP_INVALID_NAME)
#undef NDP_INVALID_NAME
};

RTE_INIT(ndp_invalid_register)
{
	for (unsigned i = 0; i < NDP_INVALID_MAX; i++)
		fwd_counter_register(&ndp_invalid[i]);
}

FWD_COUNTER(ndp_ns_rx, "ndp_ns_rx");
FWD_COUNTER(ndp_na_rx, "ndp_na_rx");
FWD_COUNTER(ndp_rs_rx, "ndp_rs_rx");
FWD_COUNTER(ndp_ra_rx, "ndp_ra_rx_ignored");
FWD_COUNTER(ndp_redirect_rx, "ndp_redirect_rx_ignored");
FWD_COUNTER(ndp_na_tx, "ndp_na_tx");
FWD_COUNTER(ndp_na_ignored, "ndp_na_unknown_ignored");
FWD_COUNTER(ndp_na_unsolicited_updated, "ndp_na_unsolicited_updated");
FWD_COUNTER(ndp_conflicts, "ndp_address_conflicts");
FWD_COUNTER(ndp_locktime_ignored, "ndp_locktime_ignored");

static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };

/* A checked message, copied out of its frame. */
struct ndp_msg {
	uint8_t type;
	uint8_t flags; /* NA */
	bool has_lladdr;
	struct rte_ether_addr lladdr;  /* SLLA (NS, RS, RA) or TLLA (NA), when has_lladdr */
	struct rte_ether_addr eth_src; /* who sent the frame */
	uint8_t src[16], dst[16];
	uint8_t target[16]; /* NS, NA */
};

/* The fixed part of each message: its least length (RFC 4861 6.1, 7.1, 8.1). */
static uint16_t ndp_min_len(uint8_t type)
{
	switch (type) {
	case NDP_RS:
		return 8;
	case NDP_RA:
		return 16;
	case NDP_NS:
	case NDP_NA:
		return 24;
	default:
		return 40; /* Redirect */
	}
}

static bool is_our_mac(const struct rte_ether_addr *mac)
{
	for (unsigned i = 0; i < fwd_n_ports; i++)
		if (rte_is_same_ether_addr(mac, &fwd_ports[i].mac))
			return true;
	return false;
}

/* A host's link address: unicast, not zero, not one of ours. */
static bool host_mac(const struct rte_ether_addr *mac)
{
	return rte_is_valid_assigned_ether_addr(mac) && !is_our_mac(mac);
}

/* The options after the fixed part: each of non-zero length and inside the
 * message; the link-layer address the message may carry (the first one, as
 * Linux keeps) must be an Ethernet host's. Others are ignored (4.6). */
static int ndp_parse_options(const uint8_t *p, unsigned len, struct ndp_msg *msg)
{
	uint8_t want = msg->type == NDP_NA ? NDP_OPT_TLLA : NDP_OPT_SLLA;

	while (len > 0) {
		unsigned olen = len >= 2 ? p[1] * 8u : 0;

		if (olen == 0 || olen > len)
			return NDP_INVALID_OPTION;
		if (p[0] == want && !msg->has_lladdr && msg->type != NDP_REDIRECT) {
			const struct ndp_opt_lladdr *o = (const struct ndp_opt_lladdr *)p;

			if (olen != sizeof(*o))
				return NDP_INVALID_OPTION;
			memcpy(msg->lladdr.addr_bytes, o->mac, sizeof(o->mac));
			if (!host_mac(&msg->lladdr))
				return NDP_INVALID_LLADDR;
			msg->has_lladdr = true;
		}
		p += olen;
		len -= olen;
	}
	return -1;
}

/* IPv6 carrying ICMPv6, hop limit 255, code 0, checksum, length; *len is the
 * ICMPv6 message's. */
static int ndp_parse_header(const struct rte_mbuf *m, unsigned *len)
{
	const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
	                                                        sizeof(struct rte_ether_hdr));
	const struct ndp_icmp *h = (const struct ndp_icmp *)(ip + 1);

	if (!rte_pktmbuf_is_contiguous(m) || m->data_len < HDRS_LEN + sizeof(*h) ||
	    (rte_be_to_cpu_32(ip->vtc_flow) >> 28) != 6 || ip->proto != IPPROTO_ICMPV6)
		return NDP_INVALID_HEADER;
	*len = rte_be_to_cpu_16(ip->payload_len);
	if (*len < sizeof(*h) || HDRS_LEN + *len > m->data_len)
		return NDP_INVALID_HEADER;
	if (h->type < NDP_RS || h->type > NDP_REDIRECT)
		return NDP_INVALID_HEADER;
	if (ip->hop_limits != NDP_HOP_LIMIT)
		return NDP_INVALID_HOP_LIMIT;
	if (h->code != 0)
		return NDP_INVALID_CODE;
	if (*len < ndp_min_len(h->type))
		return NDP_INVALID_LENGTH;
	if (rte_ipv6_udptcp_cksum_verify(ip, h) != 0)
		return NDP_INVALID_CHECKSUM;
	return -1;
}

/* The addresses: who may send what to whom (6.1.1, 6.1.2, 7.1.1, 7.1.2, 8.1). */
static int ndp_check_addrs(uint16_t port, const struct ndp_msg *msg)
{
	bool from_any = ip6_is_unspecified(msg->src);

	if (ip6_is_multicast(msg->src) || ip6_is_loopback(msg->src))
		return NDP_INVALID_SOURCE;
	if (from_any && msg->type != NDP_NS && msg->type != NDP_RS)
		return NDP_INVALID_SOURCE;
	if ((msg->type == NDP_RA || msg->type == NDP_REDIRECT) && !ip6_is_linklocal(msg->src))
		return NDP_INVALID_SOURCE;
	if (from_any && msg->has_lladdr)
		return NDP_INVALID_OPTION;
	/* a DAD probe goes to the solicited-node group (ff02::1:ff00:0/104) */
	if (from_any && msg->type == NDP_NS &&
	    (memcmp(msg->dst, all_nodes, 11) != 0 || msg->dst[11] != 1 || msg->dst[12] != 0xff))
		return NDP_INVALID_DEST;
	/* to a link-scope group, or to an address of this port */
	if (ip6_is_multicast(msg->dst) ? (msg->dst[1] & 0xf) > 2 : addr6_state(port, msg->dst) < 0)
		return NDP_INVALID_DEST;
	if ((msg->type == NDP_NS || msg->type == NDP_NA) && ip6_is_multicast(msg->target))
		return NDP_INVALID_TARGET;
	if (msg->type == NDP_NA && ip6_is_multicast(msg->dst) && (msg->flags & NDP_NA_SOLICITED))
		return NDP_INVALID_SOLICITED;
	return -1;
}

#define NDP_NOT_FOR_US NDP_INVALID_MAX /* to another MAC: not_for_us, not ndp_invalid */

/* Check a frame received on port: why it is refused (enum ndp_invalid, or
 * NDP_NOT_FOR_US), or -1 when it is fine and msg holds it. */
static int ndp_parse(const struct rte_mbuf *m, uint16_t port, struct ndp_msg *msg)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(eth + 1);
	const struct ndp_ns *ns = (const struct ndp_ns *)(ip + 1);
	unsigned len, fixed;
	int bad = ndp_parse_header(m, &len);

	if (bad >= 0)
		return bad;
	memset(msg, 0, sizeof(*msg));
	msg->type = ns->h.type;
	msg->eth_src = eth->src_addr;
	memcpy(msg->src, ip->src_addr, 16);
	memcpy(msg->dst, ip->dst_addr, 16);
	if (msg->type == NDP_NS || msg->type == NDP_NA) {
		msg->flags = ns->reserved[0];
		memcpy(msg->target, ns->target, 16);
	}
	if (!host_mac(&msg->eth_src))
		return NDP_INVALID_LLADDR;
	fixed = ndp_min_len(msg->type);
	if ((bad = ndp_parse_options((const uint8_t *)ns + fixed, len - fixed, msg)) >= 0)
		return bad;
	if ((bad = ndp_check_addrs(port, msg)) >= 0)
		return bad;
	/* to our MAC, or to the group's (RFC 2464 7) */
	if (!rte_is_same_ether_addr(&eth->dst_addr, ip6_link_mac(port))) {
		struct rte_ether_addr group;

		ip6_mcast_mac(msg->dst, &group);
		if (!ip6_is_multicast(msg->dst) || !rte_is_same_ether_addr(&eth->dst_addr, &group))
			return NDP_NOT_FOR_US;
	}
	return -1;
}

/* ------------------------------------------------------------- answers */

/* An NA for our address target: to dst at mac (NULL: all nodes). */
static void ndp_send_na(uint16_t port, const uint8_t target[16], const uint8_t dst[16],
                        const struct rte_ether_addr *mac, uint8_t flags)
{
	uint16_t len = sizeof(struct ndp_ns) + sizeof(struct ndp_opt_lladdr);
	struct rte_mbuf *m = ndp_frame(port, mac, target, dst, len);
	struct ndp_ns *na;

	if (m == NULL)
		return;
	na = ndp_icmp_of(m);
	na->h.type = NDP_NA;
	na->reserved[0] = flags;
	memcpy(na->target, target, 16);
	/* always the TLLA, so Override may be set (RFC 4861 7.2.4) */
	ndp_opt_lladdr((uint8_t *)(na + 1), NDP_OPT_TLLA, ip6_link_mac(port));
	if (ndp_send(m, port) == 0)
		ndp_na_tx.value++;
}

/* Another host says it has address a, which we use: misconfiguration or spoofing. */
static void ndp_conflict(uint16_t port, const struct ndp_msg *msg, const uint8_t a[16])
{
	struct fwd_ip ip = { .family = AF_INET6 };
	char s[FWD_IP6_STRLEN], mac[FWD_MAC_STRLEN];

	memcpy(ip.v6, a, 16);
	ndp_conflicts.value++;
	if (neigh_conflict_log_due(&ip))
		LOG(WARNING, "address conflict: %s on %s claims our address %s",
		    fwd_mac_fmt(msg->eth_src.addr_bytes, mac), fwd_iface_name(port),
		    fwd_ip6_fmt(a, s));
}

static struct fwd_ip ip6_of(const uint8_t a[16])
{
	struct fwd_ip ip = { .family = AF_INET6 };

	memcpy(ip.v6, a, 16);
	return ip;
}

/* A host that asked us something (NS for our address, RS) at its SLLA:
 * learnt (stale), if it may be a neighbour on port at all; a known entry
 * takes a new SLLA and goes stale, as for an unsolicited NA with the
 * override flag (RFC 4861 7.2.3). */
static void ndp_asker(uint16_t port, const struct ndp_msg *msg)
{
	struct fwd_ip ip = ip6_of(msg->src);
	const struct neigh_resolver *r = neigh_resolver(AF_INET6);

	if (!msg->has_lladdr || r == NULL || r->check(port, &ip, NULL, NULL, 0) < 0)
		return;
	if (neigh_exists(ip, port)) {
		if (neigh_heard_advert(ip, port, &msg->lladdr, false, true) ==
		    NEIGH_HEARD_IGNORED_LOCKED)
			ndp_locktime_ignored.value++;
	} else {
		neigh_heard(ip, port, &msg->lladdr, NEIGH_HEARD_ASKED_US);
		ndp_guard_mark(msg->src); /* its advertisements may update the entry */
	}
}

static void ndp_ns(uint16_t port, const struct ndp_msg *msg)
{
	bool from_any = ip6_is_unspecified(msg->src);
	int state = addr6_state(port, msg->target);

	if (!from_any && addr6_is_local(fwd_ifaces[port].vrf, FWD_IFACE_NONE, msg->src)) {
		ndp_conflict(port, msg, msg->src);
		return;
	}
	if (state == ADDR6_TENTATIVE) {
		if (from_any) /* someone else's DAD for it (RFC 4862 5.4.3) */
			ndp_dad_conflict(port, msg->target);
		return;
	}
	if (state != ADDR6_PREFERRED) /* not ours on this link (RFC 4861 7.2.3) */
		return;
	if (from_any) { /* defend it (RFC 4861 7.2.4) */
		ndp_send_na(port, msg->target, all_nodes, NULL, NDP_NA_ROUTER | NDP_NA_OVERRIDE);
		return;
	}
	ndp_asker(port, msg);
	/* without an SLLA (a unicast probe), back to the frame's sender */
	ndp_send_na(port, msg->target, msg->src, msg->has_lladdr ? &msg->lladdr : &msg->eth_src,
	            NDP_NA_ROUTER | NDP_NA_SOLICITED | NDP_NA_OVERRIDE);
}

/* What an NA says about a neighbour: solicited, an answer; unsolicited, an
 * update of an existing entry at most (RFC 4861 7.2.5). */
static void ndp_na_merge(uint16_t port, const struct ndp_msg *msg)
{
	switch (neigh_heard_advert(ip6_of(msg->target), port, msg->has_lladdr ? &msg->lladdr : NULL,
	                           msg->flags & NDP_NA_SOLICITED, msg->flags & NDP_NA_OVERRIDE)) {
	case NEIGH_HEARD_UPDATED:
		ndp_na_unsolicited_updated.value++;
		return;
	case NEIGH_HEARD_IGNORED_UNKNOWN:
		ndp_na_ignored.value++;
		return;
	case NEIGH_HEARD_IGNORED_LOCKED:
		ndp_locktime_ignored.value++;
		return;
	default:
		return;
	}
}

static void ndp_na(uint16_t port, const struct ndp_msg *msg)
{
	int state = addr6_state(port, msg->target);

	if (state == ADDR6_TENTATIVE) /* RFC 4862 5.4.4 */
		ndp_dad_conflict(port, msg->target);
	else if (addr6_is_local(fwd_ifaces[port].vrf, FWD_IFACE_NONE, msg->target))
		ndp_conflict(port, msg, msg->target);
	else /* not ours, or a duplicate: the other host's (addr6.h), a neighbour */
		ndp_na_merge(port, msg);
}

static void ndp_rs(uint16_t port, const struct ndp_msg *msg)
{
	if (!ndp_ra_enabled(port))
		return;
	if (!ip6_is_unspecified(msg->src))
		ndp_asker(port, msg);
	ndp_ra_solicited(port);
}

void ndp_input(struct rte_mbuf *m, uint16_t in_port)
{
	uint16_t port = in_port < FWD_MAX_IFACES ? in_port : 0;
	struct ndp_msg msg;
	int bad = ip6_link_l3(in_port) ? ndp_parse(m, in_port, &msg) : NDP_INVALID_HEADER;

	if (bad == NDP_NOT_FOR_US) {
		fwd_control_drop(m, port, FWD_DROP_NOT_FOR_US);
		return;
	}
	if (bad >= 0) {
		ndp_invalid[bad].value++;
		fwd_control_drop(m, port, FWD_DROP_NDP_INVALID);
		return;
	}
	rte_pktmbuf_free(m);
	fwd_control_ctrs(port)->consumed++;
	switch (msg.type) {
	case NDP_NS:
		ndp_ns_rx.value++;
		ndp_ns(port, &msg);
		break;
	case NDP_NA:
		ndp_na_rx.value++;
		ndp_na(port, &msg);
		break;
	case NDP_RS:
		ndp_rs_rx.value++;
		ndp_rs(port, &msg);
		break;
	case NDP_RA:
		ndp_ra_rx.value++;
		break;
	default:
		ndp_redirect_rx.value++;
		break;
	}
}
