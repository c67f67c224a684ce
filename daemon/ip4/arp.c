/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP (RFC 826) on l3 interfaces (ports and VLANs, by interface id:
 * core/iface.h), the IPv4 resolver of the neighbour layer
 * (nexthop/neigh.h): frames punted by workers are checked field by field
 * before anything is learnt from them (a frame is hostile until proven
 * otherwise), requests for our addresses are answered, and what a sender
 * says goes to neigh_heard, whose policy decides (as Linux with
 * arp_accept=0: a gratuitous ARP never creates an entry; locktime). RFC
 * 5227 probes (sender 0.0.0.0) for our addresses are answered, never learnt
 * from, and another host claiming one of our addresses is counted and
 * logged. A request for our address from a sender outside the port's
 * subnets is answered as Linux answers it (a host asks from the address
 * its route gives, arp_announce=0, say its loopback's) but teaches nothing:
 * only a sender on the port's subnets can become a neighbour. The resolver's other parts: which
 * addresses may be neighbours (addr4_rule_neigh), their /32 host routes, requests, and ICMP host
 * unreachable for packets that waited in vain.
 *
 * A VLAN interface is a link of its own: its frames reach here untagged
 * (the worker's demux took the tag) with in_port its id, are checked
 * against its addresses and its MAC (its port's), teach neighbours keyed
 * by (address, VLAN id), and what we send on it leaves tagged
 * (fwd_control_tx). A new address is announced with one gratuitous
 * request (arp_announce). doc/architecture.md ("Interfaces").
 */
#include <string.h>

#include <rte_arp.h>
#include <rte_ether.h>

#include "core/counters.h"
#include "core/daemon.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/punt.h"
#include "ip4/addr.h"
#include "ip4/arp.h"
#include "ip4/icmp.h"
#include "ip4/ip4.h"
#include "nexthop/neigh.h"
#include "port/port.h"

#define ARP_FRAME_LEN (sizeof(struct rte_ether_hdr) + sizeof(struct rte_arp_hdr))

struct arp_msg {
	uint16_t op;
	bool learn; /* the sender may be a neighbour on the port */
	struct rte_ether_addr sha;
	uint32_t sip, tip; /* host order */
};

static const struct rte_ether_addr eth_bcast = { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
static const struct rte_ether_addr eth_zero;

FWD_COUNTER(arp_req_sent, "arp_requests_sent");
FWD_COUNTER(arp_req_rcvd, "arp_requests_received");
FWD_COUNTER(arp_rep_sent, "arp_replies_sent");
FWD_COUNTER(arp_rep_rcvd, "arp_replies_received");
FWD_COUNTER(arp_gratuitous, "arp_gratuitous_learned");
FWD_COUNTER(arp_gratuitous_ignored, "arp_gratuitous_ignored");
FWD_COUNTER(arp_locktime_ignored, "arp_locktime_ignored");
FWD_COUNTER(arp_conflicts, "arp_address_conflicts");
FWD_COUNTER(arp_offsubnet, "arp_offsubnet_requests_answered");
FWD_COUNTER(arp_announced, "arp_announcements_sent");

/* An interface ARP runs on: a port, or a VLAN in mode l3 (a loopback has
 * no link, a bridged VLAN's frames never come here). */
static bool arp_iface_ok(uint16_t id)
{
	if (id < FWD_MAX_PORTS)
		return id < fwd_n_ports;
	return id < FWD_MAX_IFACES && fwd_ifaces[id].type == FWD_IFACE_VLAN &&
	       fwd_ifaces[id].mode == FWD_MODE_L3;
}

/* Interface id's MAC: a port's from the port table (named there first), a
 * VLAN's (its port's) from the interface table; none past the table. */
static const struct rte_ether_addr *arp_mac(uint16_t id)
{
	if (id < FWD_MAX_PORTS)
		return &fwd_ports[id].mac;
	return id < FWD_MAX_IFACES ? &fwd_ifaces[id].mac : &eth_zero;
}

/* Build one ARP frame from interface port and hand it to a worker (tagged
 * there for a VLAN); <0 when not sent. */
static int arp_send(uint16_t port, uint16_t op, const struct rte_ether_addr *dst,
                    const struct rte_ether_addr *tha, uint32_t sip, uint32_t tip)
{
	struct rte_mbuf *m = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *arp;

	fwd_control_ctrs(port)->created++; /* from here on, sent or counted as a drop */
	if (m == NULL || rte_pktmbuf_append(m, ARP_FRAME_LEN) == NULL) {
		rte_pktmbuf_free(m);
		fwd_control_ctrs(port)->drop[FWD_DROP_NO_MBUF]++;
		return -ENOBUFS;
	}
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	arp = (struct rte_arp_hdr *)(eth + 1);
	eth->dst_addr = *dst;
	eth->src_addr = *arp_mac(port);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = sizeof(uint32_t);
	arp->arp_opcode = rte_cpu_to_be_16(op);
	arp->arp_data.arp_sha = *arp_mac(port);
	arp->arp_data.arp_sip = rte_cpu_to_be_32(sip);
	arp->arp_data.arp_tha = *tha;
	arp->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	return neigh_hooks.tx(m, port) < 0 ? -ENOBUFS : 0; /* a full ring is counted there */
}

/* Request for a's address: broadcast, or unicast to mac (a stale probe). */
static void arp_request(uint16_t port, const struct fwd_ip *a, const struct rte_ether_addr *mac)
{
	uint32_t sip = addr4_source(port, a->v4);

	if (arp_send(port, RTE_ARP_OP_REQUEST, mac != NULL ? mac : &eth_bcast, &eth_zero, sip,
	             a->v4) == 0)
		arp_req_sent.value++;
}

/* The resolver's check: may a be a neighbour on port (with that MAC)? */
static int arp_check(uint16_t port, const struct fwd_ip *a, const uint8_t *mac, char *err,
                     size_t errlen)
{
	return addr4_rule_neigh(addr4_running(), port, a->v4, mac, err, errlen);
}

static bool is_our_mac(const struct rte_ether_addr *mac)
{
	for (unsigned i = 0; i < fwd_n_ports; i++)
		if (rte_is_same_ether_addr(mac, &fwd_ports[i].mac))
			return true;
	return false;
}

static bool is_port_addr(uint16_t port, uint32_t ip)
{
	for (unsigned i = 0; i < ip4_addrs[port].n; i++)
		if (ip4_addrs[port].a[i].addr == ip)
			return true;
	return false;
}

/* A sender outside port's subnets: one host somewhere (not martian, not a
 * broadcast of ours), asking for port's own address; nothing else from
 * it is worth reading. */
static bool arp_offsubnet_ok(uint16_t port, const struct arp_msg *a)
{
	return a->op == RTE_ARP_OP_REQUEST && !addr4_on_port(port, a->sip) &&
	       !ip4_src_martian[a->sip >> 24] && !addr4_is_bcast(fwd_ifaces[port].vrf, a->sip) &&
	       is_port_addr(port, a->tip);
}

/* May the sender's address be taken from? Sets a->learn. */
static bool arp_sender_ok(uint16_t port, struct arp_msg *a)
{
	/* a probe (RFC 5227) asks from 0.0.0.0, and a conflict is worth knowing about */
	if (a->sip == 0)
		return a->op == RTE_ARP_OP_REQUEST;
	if (addr4_is_local(fwd_ifaces[port].vrf, a->sip))
		return true;
	a->learn = arp_check(port, &(struct fwd_ip){ .family = AF_INET, .v4 = a->sip }, NULL, NULL,
	                     0) == 0;
	return a->learn || arp_offsubnet_ok(port, a);
}

/* Check a frame received on port; returns a drop reason, or -1 when it is fine. */
static int arp_parse(const struct rte_mbuf *m, uint16_t port, struct arp_msg *a)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_arp_hdr *arp = (const struct rte_arp_hdr *)(eth + 1);

	if (!arp_iface_ok(port) || m->data_len < ARP_FRAME_LEN)
		return FWD_DROP_ARP_INVALID;
	if (!rte_is_broadcast_ether_addr(&eth->dst_addr) &&
	    !rte_is_same_ether_addr(&eth->dst_addr, arp_mac(port)))
		return FWD_DROP_NOT_FOR_US;
	a->op = rte_be_to_cpu_16(arp->arp_opcode);
	a->learn = false;
	if (arp->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    arp->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    arp->arp_hlen != RTE_ETHER_ADDR_LEN || arp->arp_plen != sizeof(uint32_t) ||
	    (a->op != RTE_ARP_OP_REQUEST && a->op != RTE_ARP_OP_REPLY))
		return FWD_DROP_ARP_INVALID;
	a->sha = arp->arp_data.arp_sha;
	a->sip = rte_be_to_cpu_32(arp->arp_data.arp_sip);
	a->tip = rte_be_to_cpu_32(arp->arp_data.arp_tip);
	/* nothing to learn from a sender we could never send to */
	if (!rte_is_valid_assigned_ether_addr(&a->sha) || is_our_mac(&a->sha) ||
	    !arp_sender_ok(port, a))
		return FWD_DROP_ARP_INVALID;
	return -1;
}

/* Another host says it has one of our addresses: misconfiguration or spoofing. */
static void arp_conflict(uint16_t port, const struct arp_msg *a)
{
	char ip[FWD_IP4_STRLEN], mac[FWD_MAC_STRLEN];

	struct fwd_ip sip = fwd_ip_v4(a->sip);

	arp_conflicts.value++;
	if (neigh_conflict_log_due(&sip))
		LOG(WARNING, "address conflict: %s on %s claims our address %s",
		    fwd_mac_fmt(a->sha.addr_bytes, mac), fwd_iface_name(port),
		    fwd_ip4_fmt(a->sip, ip));
}

static void arp_merge(uint16_t port, const struct arp_msg *a, bool for_us)
{
	bool gratuitous = a->sip == a->tip;
	enum neigh_heard_how how = for_us       ? NEIGH_HEARD_ASKED_US
	                           : gratuitous ? NEIGH_HEARD_GRATUITOUS
	                                        : NEIGH_HEARD_ANSWER;

	switch (neigh_heard(fwd_ip_v4(a->sip), port, &a->sha, how)) {
	case NEIGH_HEARD_CONFIRMED:
		arp_gratuitous.value += gratuitous;
		break;
	case NEIGH_HEARD_IGNORED_UNKNOWN:
		arp_gratuitous_ignored.value += gratuitous;
		break;
	case NEIGH_HEARD_IGNORED_LOCKED:
		arp_locktime_ignored.value++;
		break;
	default:
		break;
	}
}

void arp_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	uint16_t port = meta->in_port;
	struct arp_msg a;
	bool for_us;
	int bad = arp_parse(m, port, &a);

	if (bad >= 0) {
		fwd_control_drop(m, port, (enum fwd_drop_reason)bad);
		return;
	}
	rte_pktmbuf_free(m);
	fwd_control_ctrs(port)->consumed++;
	if (a.op == RTE_ARP_OP_REQUEST)
		arp_req_rcvd.value++;
	else
		arp_rep_rcvd.value++;
	if (addr4_is_local(fwd_ifaces[port].vrf, a.sip)) {
		arp_conflict(port, &a);
		return;
	}
	for_us = a.op == RTE_ARP_OP_REQUEST && is_port_addr(port, a.tip);
	/* a probe's sender has no address yet, an off-subnet one no place here */
	if (a.learn)
		arp_merge(port, &a, for_us);
	else
		arp_offsubnet.value += a.sip != 0;
	/* to a prober too (RFC 5227 2.4): from our address, to its MAC, tip 0.0.0.0 */
	if (for_us && arp_send(port, RTE_ARP_OP_REPLY, &a.sha, &a.sha, a.tip, a.sip) == 0)
		arp_rep_sent.value++;
}

/* Whether interface id can send now: admin up, on a port whose link is up. */
static bool arp_iface_up(uint16_t id)
{
	const struct fwd_iface *ifp;
	const struct fwd_port *p;

	if (!arp_iface_ok(id))
		return false;
	if (id < FWD_MAX_PORTS) {
		p = &fwd_ports[id];
	} else {
		ifp = fwd_iface_get(id);
		if (ifp == NULL || !ifp->admin_up)
			return false;
		p = &fwd_ports[ifp->port];
	}
	return p->admin_up && p->link_up;
}

int arp_announce(uint16_t id, uint32_t addr)
{
	int rc;

	if (!arp_iface_up(id))
		return -ENETDOWN;
	/* RFC 5227 2.3: a request with sender and target our address, to all */
	rc = arp_send(id, RTE_ARP_OP_REQUEST, &eth_bcast, &eth_zero, addr, addr);
	if (rc == 0)
		arp_announced.value++;
	return rc;
}

/* ---------------------------------------------------- the IPv4 resolver */

static int arp_port_of(uint16_t vrf, const struct fwd_ip *a)
{
	return addr4_port_of(vrf, a->v4);
}

/* A neighbour's host route is in the VRF of its interface. */
static int arp_host_add(const struct fwd_ip *a, uint32_t nh)
{
	return rib4_set_neigh(&ip4_ribs[fwd_ifaces[nh_table[nh].iface].vrf], a->v4, nh);
}

static void arp_host_del(const struct fwd_ip *a, uint32_t nh)
{
	rib4_clear_neigh(&ip4_ribs[fwd_ifaces[nh_table[nh].iface].vrf], a->v4, nh);
}

static void arp_unreachable(const struct rte_mbuf *m, uint16_t in_port)
{
	icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_HOST_UNREACH, 0, in_port);
}

/* A packet a worker routed to host `aux` on the connected subnet of out_port. */
static void arp_glean(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	neigh_glean(m, meta->in_port, meta->out_port, fwd_ip_v4(meta->aux));
}

int arp_init(void)
{
	static const struct neigh_resolver arp = {
		.check = arp_check,
		.port_of = arp_port_of,
		.host_add = arp_host_add,
		.host_del = arp_host_del,
		.solicit = arp_request,
		.unreachable = arp_unreachable,
	};

	neigh_resolver_set(AF_INET, &arp);
	fwd_punt_register(FWD_PUNT_ARP, arp_input);
	fwd_punt_register(FWD_PUNT_GLEAN, arp_glean);
	return 0;
}

void arp_fini(void)
{
	fwd_punt_register(FWD_PUNT_ARP, NULL);
	fwd_punt_register(FWD_PUNT_GLEAN, NULL);
}
