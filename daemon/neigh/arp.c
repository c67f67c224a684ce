/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP (RFC 826) on l3 ports: frames punted by workers are checked field by
 * field before anything is learnt from them (a frame is hostile until
 * proven otherwise), requests for our addresses are answered, and senders
 * update the table as RFC 826 "merge" says: an existing entry is refreshed,
 * a new one (stale) is created only when the request was for us. As Linux
 * with arp_accept=0, a gratuitous ARP (sender address == target address)
 * never creates one: one host could otherwise fill the table with a /16.
 * A MAC changes at most once per NEIGH_LOCKTIME_MS. RFC 5227 probes
 * (sender 0.0.0.0) for our addresses are answered, never learnt from, and
 * another host claiming one of our addresses is counted and logged.
 */
#include <string.h>

#include <rte_arp.h>
#include <rte_ether.h>

#include "core/daemon.h"
#include "core/log.h"
#include "ip4/addr.h"
#include "neigh/neigh_priv.h"
#include "port/port.h"
#include "core/counters.h"

#define ARP_FRAME_LEN (sizeof(struct rte_ether_hdr) + sizeof(struct rte_arp_hdr))

struct arp_msg {
	uint16_t op;
	struct rte_ether_addr sha;
	uint32_t sip, tip; /* host order */
};

static const struct rte_ether_addr eth_bcast = { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
static const struct rte_ether_addr eth_zero;

FWD_COUNTER(neigh_gratuitous_ignored, "arp_gratuitous_ignored");
FWD_COUNTER(neigh_conflicts, "arp_address_conflicts");

/* Our addresses another host claimed, and when that was last logged. */
#define CONFLICT_SLOTS 64
static struct {
	uint32_t ip;
	uint64_t logged_ms;
} conflicts[CONFLICT_SLOTS];

/* Build one ARP frame from port and hand it to a worker; <0 when not sent. */
static int arp_send(uint8_t port, uint16_t op, const struct rte_ether_addr *dst,
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
	eth->src_addr = fwd_ports[port].mac;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = sizeof(uint32_t);
	arp->arp_opcode = rte_cpu_to_be_16(op);
	arp->arp_data.arp_sha = fwd_ports[port].mac;
	arp->arp_data.arp_sip = rte_cpu_to_be_32(sip);
	arp->arp_data.arp_tha = *tha;
	arp->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	return neigh_hooks.tx(m, port) < 0 ? -ENOBUFS : 0; /* a full ring is counted there */
}

void neigh_arp_request(const struct neigh *n, bool unicast)
{
	uint32_t sip = addr4_source(n->port, n->ip);

	if (arp_send(n->port, RTE_ARP_OP_REQUEST, unicast ? &n->mac : &eth_bcast, &eth_zero, sip,
	             n->ip) == 0)
		neigh_arp_req_sent.value++;
}

static bool is_our_mac(const struct rte_ether_addr *mac)
{
	for (unsigned i = 0; i < fwd_n_ports; i++)
		if (rte_is_same_ether_addr(mac, &fwd_ports[i].mac))
			return true;
	return false;
}

static bool is_port_addr(uint8_t port, uint32_t ip)
{
	for (unsigned i = 0; i < ip4_addrs[port].n; i++)
		if (ip4_addrs[port].a[i].addr == ip)
			return true;
	return false;
}

/* Check a frame received on port; returns a drop reason, or -1 when it is fine. */
static int arp_parse(const struct rte_mbuf *m, uint8_t port, struct arp_msg *a)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_arp_hdr *arp = (const struct rte_arp_hdr *)(eth + 1);

	if (port >= fwd_n_ports || m->data_len < ARP_FRAME_LEN)
		return FWD_DROP_ARP_INVALID;
	if (!rte_is_broadcast_ether_addr(&eth->dst_addr) &&
	    !rte_is_same_ether_addr(&eth->dst_addr, &fwd_ports[port].mac))
		return FWD_DROP_NOT_FOR_US;
	a->op = rte_be_to_cpu_16(arp->arp_opcode);
	if (arp->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    arp->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    arp->arp_hlen != RTE_ETHER_ADDR_LEN || arp->arp_plen != sizeof(uint32_t) ||
	    (a->op != RTE_ARP_OP_REQUEST && a->op != RTE_ARP_OP_REPLY))
		return FWD_DROP_ARP_INVALID;
	a->sha = arp->arp_data.arp_sha;
	a->sip = rte_be_to_cpu_32(arp->arp_data.arp_sip);
	a->tip = rte_be_to_cpu_32(arp->arp_data.arp_tip);
	/* nothing to learn from a sender we could never send to; but a probe
	 * (RFC 5227) asks from 0.0.0.0, and a conflict is worth knowing about */
	if (!rte_is_valid_assigned_ether_addr(&a->sha) || is_our_mac(&a->sha))
		return FWD_DROP_ARP_INVALID;
	if (a->sip == 0 ? a->op != RTE_ARP_OP_REQUEST
	                : !neigh_addr_ok(port, a->sip) && !addr4_is_local(a->sip))
		return FWD_DROP_ARP_INVALID;
	return -1;
}

void neigh_arp_reset(void)
{
	memset(conflicts, 0, sizeof(conflicts));
}

/* Should a conflict on ip be logged now? One line per address a minute. */
static bool conflict_log_due(uint32_t ip, uint64_t now)
{
	unsigned slot = 0;

	for (unsigned i = 0; i < CONFLICT_SLOTS; i++) {
		if (conflicts[i].ip == ip) {
			slot = i;
			break;
		}
		if (conflicts[i].logged_ms < conflicts[slot].logged_ms)
			slot = i; /* else reuse the longest quiet one */
	}
	if (conflicts[slot].ip == ip && now - conflicts[slot].logged_ms < NEIGH_CONFLICT_LOG_MS)
		return false;
	conflicts[slot].ip = ip;
	conflicts[slot].logged_ms = now;
	return true;
}

/* Another host says it has one of our addresses: misconfiguration or spoofing. */
static void arp_conflict(uint8_t port, const struct arp_msg *a)
{
	char ip[FWD_IP4_STRLEN], mac[FWD_MAC_STRLEN];

	neigh_conflicts.value++;
	if (conflict_log_due(a->sip, neigh_hooks.now_ms()))
		LOG(WARNING, "address conflict: %s on %s claims our address %s",
		    fwd_mac_fmt(a->sha.addr_bytes, mac), fwd_ports[port].name,
		    fwd_ip4_fmt(a->sip, ip));
}

static void arp_merge(uint8_t port, const struct arp_msg *a, bool for_us)
{
	struct neigh *n = neigh_lookup(a->sip, port);
	bool gratuitous = a->sip == a->tip;

	if (n == NULL) {
		if (for_us)
			neigh_learn(a->sip, port, &a->sha);
		else if (gratuitous)
			neigh_gratuitous_ignored.value++;
		return;
	}
	if (n->state == NEIGH_PERMANENT)
		return; /* configured by an operator: ARP never overrides it */
	if (neigh_mac_locked(n, &a->sha)) {
		neigh_locktime_ignored.value++;
		return;
	}
	neigh_confirm(n, &a->sha);
	if (gratuitous)
		neigh_gratuitous.value++;
}

void neigh_arp_input(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	uint8_t port = meta->in_port;
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
		neigh_arp_req_rcvd.value++;
	else
		neigh_arp_rep_rcvd.value++;
	if (addr4_is_local(a.sip)) {
		arp_conflict(port, &a);
		return;
	}
	for_us = a.op == RTE_ARP_OP_REQUEST && is_port_addr(port, a.tip);
	if (a.sip != 0) /* a probe's sender has no address yet: nothing to learn */
		arp_merge(port, &a, for_us);
	/* to a prober too (RFC 5227 2.4): from our address, to its MAC, tip 0.0.0.0 */
	if (for_us && arp_send(port, RTE_ARP_OP_REPLY, &a.sha, &a.sha, a.tip, a.sip) == 0)
		neigh_arp_rep_sent.value++;
}
