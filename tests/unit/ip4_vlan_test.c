/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 on VLAN interfaces (the control thread's part): ARP answered and
 * learnt on the VLAN (neighbours keyed by address and VLAN id), requests
 * and replies handed to fwd_control_tx with the VLAN's id (which tags
 * them), gratuitous ARP for a new address, and ICMP errors, echo replies,
 * TCP resets, reassembly and local delivery of packets that arrived on the VLAN going
 * back out on it, from its address, counted on it. The neighbour harness
 * (neigh_harness.h) gives two ports; here p0 also carries VLANs 100 and 200.
 *
 *   p0.100  on p0, VID 100  192.168.100.1/24
 *   p0.200  on p0, VID 200  192.168.200.1/24
 */
#include <rte_tcp.h>

#include "neigh_harness.h"
#include "ip4/icmp.h"
#include "ip4/icmp_priv.h"
#include "ip4/output.h"
#include "reasm/reasm.h"

#define V100_IP IP(192, 168, 100, 1)
#define V200_IP IP(192, 168, 200, 1)
#define HV5     IP(192, 168, 100, 5)
#define HV6     IP(192, 168, 100, 6)

static uint16_t v100, v200;

static uint64_t counter_value(const char *name)
{
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c->value;
	fail_msg("no counter %s", name);
	return 0;
}

/* An address on a VLAN: through addr4_add where it takes VLAN addresses,
 * else put in place as addr4_add would (the address, its local route, the
 * connected route of its subnet through the VLAN's connected next hop). */
static void vlan_addr(uint16_t id, uint32_t addr, uint8_t len)
{
	struct fwd_ip4_prefix p = { addr, len };
	struct ip4_port_addrs *pa = &ip4_addrs[id];
	struct route4 r = { .type = ROUTE4_CONNECTED, .origin = FWD_ORIGIN_RPC, .dev = id }, old;
	bool had;
	char err[128];
	int rc = addr4_add(id, &p, FWD_ORIGIN_RPC, err, sizeof(err));

	if (rc != -EOPNOTSUPP) {
		assert_int_equal(rc, 0);
		return;
	}
	pa->a[pa->n] = p;
	pa->origin[pa->n++] = FWD_ORIGIN_RPC;
	assert_int_equal(rib4_set_local(&ip4_ribs[0], addr), 0);
	assert_int_equal(nh_connected_ref(id, &r.nh), 0);
	assert_int_equal(
	        rib4_set_route(&ip4_ribs[0], addr & ~(UINT32_MAX >> len), len, &r, &old, &had), 0);
}

static int setup(void **state)
{
	harness_setup(state);
	fwd_iface_reset();
	fwd_iface_port_sync(0); /* the ports' entries, which the table walks */
	fwd_iface_port_sync(1);
	assert_int_equal(fwd_iface_vlan_add("p0.100", 0, 100, 0, &v100), 0);
	assert_int_equal(fwd_iface_vlan_add("p0.200", 0, 200, 0, &v200), 0);
	memset(fwd_control_ctrs(v100), 0, sizeof(struct fwd_port_ctrs));
	memset(fwd_control_ctrs(v200), 0, sizeof(struct fwd_port_ctrs));
	vlan_addr(v100, V100_IP, 24);
	vlan_addr(v200, V200_IP, 24);
	assert_int_equal(reasm_init(), 0);
	icmp4_output = ip4_output;
	icmp4_ratelimit_set(0);
	return 0;
}

static int teardown(void **state)
{
	reasm_fini();
	/* the connected routes' references (the harness drops the tables whole) */
	nh_connected_unref(v100);
	nh_connected_unref(v200);
	harness_teardown(state);
	fwd_iface_reset();
	fwd_ports[0].link_up = false;
	return 0;
}

/* Captured frame i: an ARP frame of op from the VLANs' MAC (p0's) on
 * interface id, to dst, with these addresses. */
static void assert_vlan_arp(unsigned i, uint16_t id, uint16_t op, const struct rte_ether_addr *dst,
                            uint32_t sip, const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_mbuf *want = mk_arp(op, dst, &P0_MAC, sip, tha, tip);

	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, id);
	assert_int_equal(sent[i].m->data_len, want->data_len);
	assert_memory_equal(rte_pktmbuf_mtod(sent[i].m, void *), rte_pktmbuf_mtod(want, void *),
	                    want->data_len);
	rte_pktmbuf_free(want);
}

/* Captured frame i: IPv4 from src to dst, protocol proto, leaving on
 * VLAN interface id: handed to its port with the VLAN's tag in the frame
 * (the neighbour layer writes it: nh_l2_write). Returns the IP payload. */
static const uint8_t *assert_vlan_ip(unsigned i, uint16_t id, uint32_t src, uint32_t dst,
                                     uint8_t proto)
{
	const struct rte_ether_hdr *eth;
	const struct rte_vlan_hdr *vh;
	const struct rte_ipv4_hdr *ip;

	assert_true(i < n_sent);
	assert_int_equal(sent[i].port, fwd_ifaces[id].port);
	eth = rte_pktmbuf_mtod(sent[i].m, const struct rte_ether_hdr *);
	vh = (const struct rte_vlan_hdr *)(eth + 1);
	assert_memory_equal(&eth->src_addr, &P0_MAC, 6);
	assert_int_equal(eth->ether_type, rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN));
	assert_int_equal(rte_be_to_cpu_16(vh->vlan_tci) & 0xfff, fwd_ifaces[id].vlan);
	assert_int_equal(vh->eth_proto, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4));
	ip = (const struct rte_ipv4_hdr *)(vh + 1);
	assert_int_equal(rte_be_to_cpu_32(ip->src_addr), src);
	assert_int_equal(rte_be_to_cpu_32(ip->dst_addr), dst);
	assert_int_equal(ip->next_proto_id, proto);
	assert_int_equal(rte_ipv4_cksum(ip), 0);
	return (const uint8_t *)(ip + 1);
}

/* An IPv4 packet as it arrives untagged from the demux: src -> dst, proto,
 * the fragment field frag (host order), payload l4 of len bytes. */
static struct rte_mbuf *mk_ip4(uint32_t src, uint32_t dst, uint8_t proto, uint16_t frag,
                               const void *l4, uint16_t len)
{
	struct rte_mbuf *m = mk_ip(dst, 7);
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);

	rte_pktmbuf_trim(m, 8);
	memcpy(rte_pktmbuf_append(m, len), l4, len);
	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->dst_addr = P0_MAC;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->next_proto_id = proto;
	ip->fragment_offset = rte_cpu_to_be_16(frag);
	ip->total_length = rte_cpu_to_be_16((uint16_t)(sizeof(*ip) + len));
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return m;
}

/* HV5 asks p0.100 for its address: answered there, learnt there only. */
static void learn_hv5(void)
{
	arp_in(v100, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, HV5, &ZERO_MAC, V100_IP));
	assert_non_null(neigh_lookup(fwd_ip_v4(HV5), v100));
}

static void test_request_answered_on_vlan(void **state)
{
	struct neigh *n;

	(void)state;
	learn_hv5();
	assert_int_equal(n_sent, 1);
	assert_vlan_arp(0, v100, RTE_ARP_OP_REPLY, &MAC_A, V100_IP, &MAC_A, HV5);
	assert_int_equal(arp_rep_sent.value, 1);
	n = neigh_lookup(fwd_ip_v4(HV5), v100);
	assert_int_equal(n->state, NEIGH_STALE);
	assert_int_equal(n->port, v100);
	assert_int_equal(fib4_lookup(ip4_fibs[0], HV5), n->nh);
	/* keyed by (address, VLAN): nothing on the port or the other VLAN */
	assert_null(neigh_lookup(fwd_ip_v4(HV5), 0));
	assert_null(neigh_lookup(fwd_ip_v4(HV5), v200));
	assert_int_equal(fwd_control_ctrs(v100)->consumed, 1);
	assert_int_equal(fwd_control_ctrs(0)->consumed, 0);

	/* the VLAN's address is not the port's, nor the other VLAN's: the
	 * same request untagged, or on VLAN 200, is answered by nobody */
	sent_clear();
	arp_in(0, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, HV6, &ZERO_MAC, V100_IP));
	arp_in(v200, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, HV6, &ZERO_MAC, V100_IP));
	assert_int_equal(n_sent, 0);
	assert_int_equal(drops(0, FWD_DROP_ARP_INVALID), 1);
	assert_int_equal(drops(v200, FWD_DROP_ARP_INVALID), 1);
	/* nor is p0's address on the VLAN: a host there asks from its subnet */
	arp_in(v100, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_B, HV6, &ZERO_MAC, P0_IP));
	assert_int_equal(n_sent, 0);
	assert_null(neigh_lookup(fwd_ip_v4(HV6), v100));
	/* unicast to the VLAN's MAC (its port's) is for us, to another not */
	arp_in(v100, mk_arp(RTE_ARP_OP_REQUEST, &P0_MAC, &MAC_B, HV6, &ZERO_MAC, V100_IP));
	assert_int_equal(n_sent, 1);
	assert_vlan_arp(0, v100, RTE_ARP_OP_REPLY, &MAC_B, V100_IP, &MAC_B, HV6);
	arp_in(v100, mk_arp(RTE_ARP_OP_REQUEST, &P1_MAC, &MAC_B, HV6, &ZERO_MAC, V100_IP));
	assert_int_equal(drops(v100, FWD_DROP_NOT_FOR_US), 1);
}

/* Interfaces without ARP: a bridged VLAN, a loopback, a free or bogus id. */
static void test_no_arp_there(void **state)
{
	uint16_t lo;

	(void)state;
	assert_int_equal(fwd_iface_loopback_add("lo1", &lo), 0);
	ip4_addrs[lo] = (struct ip4_port_addrs){ 1, { { IP(10, 255, 0, 1), 32 } }, { 0 } };
	fwd_ifaces[v200].mode = FWD_MODE_BRIDGE;
	arp_in(v200, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, IP(192, 168, 200, 5), &ZERO_MAC,
	                    V200_IP));
	arp_in(lo, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, IP(10, 255, 0, 2), &ZERO_MAC,
	                  IP(10, 255, 0, 1)));
	arp_in(FWD_MAX_IFACES - 1,
	       mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, HV5, &ZERO_MAC, V100_IP));
	arp_in(UINT16_MAX, mk_arp(RTE_ARP_OP_REQUEST, &BCAST, &MAC_A, HV5, &ZERO_MAC, V100_IP));
	assert_int_equal(n_sent, 0);
	assert_int_equal(neigh_count(), 0);
	assert_int_equal(drops(v200, FWD_DROP_ARP_INVALID), 1);
	assert_int_equal(drops(lo, FWD_DROP_ARP_INVALID), 1);
	assert_int_equal(drops(FWD_MAX_IFACES - 1, FWD_DROP_ARP_INVALID), 1);
	assert_int_equal(arp_announce(lo, IP(10, 255, 0, 1)), -ENETDOWN);
	assert_int_equal(arp_announce(FWD_MAX_IFACES - 1, V100_IP), -ENETDOWN);
	assert_int_equal(arp_announce(UINT16_MAX, V100_IP), -ENETDOWN);
	memset(&ip4_addrs[lo], 0, sizeof(ip4_addrs[lo]));
	fwd_ifaces[v200].mode = FWD_MODE_L3;
}

/* A packet routed to a host on the VLAN's subnet: asked for on the VLAN
 * from its address, held, and sent there once the host answers. */
static void test_glean_on_vlan(void **state)
{
	(void)state;
	glean(1, v100, HV6, 42);
	assert_int_equal(n_sent, 1);
	assert_vlan_arp(0, v100, RTE_ARP_OP_REQUEST, &BCAST, V100_IP, &ZERO_MAC, HV6);
	assert_int_equal(arp_req_sent.value, 1);
	assert_int_equal(state_of(HV6, v100), NEIGH_INCOMPLETE);
	/* the answer on another VLAN, or untagged, is not this one's */
	arp_in(v200, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_B, HV6, &P0_MAC, V100_IP));
	arp_in(0, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_B, HV6, &P0_MAC, V100_IP));
	assert_int_equal(state_of(HV6, v100), NEIGH_INCOMPLETE);
	assert_int_equal(n_sent, 1);
	arp_in(v100, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, HV6, &P0_MAC, V100_IP));
	assert_int_equal(state_of(HV6, v100), NEIGH_REACHABLE);
	assert_int_equal(n_sent, 2);
	assert_vlan_ip(1, v100, IP(172, 16, 9, 9), HV6, IPPROTO_UDP);
	assert_int_equal(
	        rte_be_to_cpu_16(rte_pktmbuf_mtod_offset(sent[1].m, const struct rte_ipv4_hdr *, 18)
	                                 ->packet_id),
	        42);
}

/* A new address is announced on its VLAN while the VLAN and its port are up. */
static void test_announce(void **state)
{
	(void)state;
	assert_int_equal(arp_announce(v100, V100_IP), -ENETDOWN); /* p0's link is down */
	assert_int_equal(n_sent, 0);
	fwd_ports[0].link_up = true;
	assert_int_equal(arp_announce(v100, V100_IP), 0);
	assert_int_equal(n_sent, 1);
	assert_vlan_arp(0, v100, RTE_ARP_OP_REQUEST, &BCAST, V100_IP, &ZERO_MAC, V100_IP);
	assert_int_equal(arp_announced.value, 1);
	assert_int_equal(arp_req_sent.value, 0);
	assert_int_equal(fwd_control_ctrs(v100)->created, 1);
	/* an untagged port's too */
	assert_int_equal(arp_announce(0, P0_IP), 0);
	assert_int_equal(sent[1].port, 0);
	/* the VLAN down, or its port down: silence */
	fwd_ifaces[v100].admin_up = 0;
	assert_int_equal(arp_announce(v100, V100_IP), -ENETDOWN);
	fwd_ifaces[v100].admin_up = 1;
	fwd_ports[0].admin_up = 0;
	assert_int_equal(arp_announce(v100, V100_IP), -ENETDOWN);
	fwd_ports[0].admin_up = 1;
	assert_int_equal(n_sent, 2);
	assert_int_equal(arp_announced.value, 2);
	/* a ring that refuses it: counted there, not as sent */
	tx_refuse = true;
	assert_int_equal(arp_announce(v100, V100_IP), -ENOBUFS);
	assert_int_equal(arp_announced.value, 2);
	assert_int_equal(drops(v100, FWD_DROP_TX_FULL), 1);
}

/* Errors about a packet from a host on the VLAN leave on the VLAN, from
 * its address (the source the host can reach back). */
static void test_icmp_error_on_vlan(void **state)
{
	struct rte_mbuf *m;
	const uint8_t *icmp;

	(void)state;
	learn_hv5();
	sent_clear();
	m = mk_ip4(HV5, IP(172, 16, 9, 9), IPPROTO_UDP, 0, "12345678", 8);
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, ICMP4_TTL_IN_TRANSIT, 0, v100);
	icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_NET_UNREACH, 0, v100);
	icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_ADMIN_PROHIBITED, 0, v100);
	icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_FRAG_NEEDED, 1400, v100);
	rte_pktmbuf_free(m);
	assert_int_equal(n_sent, 4);
	icmp = assert_vlan_ip(0, v100, V100_IP, HV5, IPPROTO_ICMP);
	assert_int_equal(icmp[0], ICMP4_TIME_EXCEEDED);
	icmp = assert_vlan_ip(1, v100, V100_IP, HV5, IPPROTO_ICMP);
	assert_int_equal(icmp[1], ICMP4_NET_UNREACH);
	icmp = assert_vlan_ip(2, v100, V100_IP, HV5, IPPROTO_ICMP);
	assert_int_equal(icmp[1], ICMP4_ADMIN_PROHIBITED);
	icmp = assert_vlan_ip(3, v100, V100_IP, HV5, IPPROTO_ICMP);
	assert_int_equal(icmp[1], ICMP4_FRAG_NEEDED);
	assert_int_equal(icmp[6] << 8 | icmp[7], 1400);
	assert_int_equal(fwd_control_ctrs(v100)->created, 1 + 4); /* the ARP reply, the errors */
	/* a VLAN without an address has nothing to send it from */
	memset(&ip4_addrs[v200], 0, sizeof(ip4_addrs[v200]));
	m = mk_ip4(HV5, IP(172, 16, 9, 9), IPPROTO_UDP, 0, "12345678", 8);
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, ICMP4_TTL_IN_TRANSIT, 0, v200);
	rte_pktmbuf_free(m);
	assert_int_equal(n_sent, 4);
}

/* An echo request with a valid checksum: id 0x77, seq 1, then data. */
static void echo_msg(uint8_t *msg, unsigned len)
{
	uint16_t ck;

	memset(msg, 0, len);
	msg[0] = 8, msg[5] = 0x77, msg[7] = 1;
	for (unsigned i = 8; i < len; i++)
		msg[i] = (uint8_t)i;
	ck = (uint16_t)~rte_raw_cksum(msg, len);
	memcpy(msg + 2, &ck, 2);
}

static void local_in(uint16_t id, struct rte_mbuf *m)
{
	punt(local4_input, m, FWD_PUNT_LOCAL, id, id, 0);
}

/* An echo to the VLAN's address is answered on the VLAN, whole or in
 * fragments; a bad one is counted on the VLAN. */
static void test_echo_on_vlan(void **state)
{
	uint8_t msg[16];
	const uint8_t *icmp;

	(void)state;
	learn_hv5();
	sent_clear();
	echo_msg(msg, sizeof(msg));
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, 0, msg, sizeof(msg)));
	assert_int_equal(n_sent, 1);
	icmp = assert_vlan_ip(0, v100, V100_IP, HV5, IPPROTO_ICMP);
	assert_int_equal(icmp[0], 0);
	assert_memory_equal(icmp + 4, msg + 4, sizeof(msg) - 4);
	assert_int_equal(fwd_control_ctrs(v100)->consumed, 2); /* the ARP request, the echo */
	/* in two fragments: put together, answered on the VLAN */
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, RTE_IPV4_HDR_MF_FLAG, msg, 8));
	assert_int_equal(reasm_pending(), 1);
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, 1, msg + 8, 8));
	assert_int_equal(reasm_pending(), 0);
	assert_int_equal(n_sent, 2);
	icmp = assert_vlan_ip(1, v100, V100_IP, HV5, IPPROTO_ICMP);
	assert_memory_equal(icmp + 4, msg + 4, sizeof(msg) - 4);
	assert_int_equal(fwd_control_ctrs(v100)->consumed, 5);
	/* the ARP reply, the datagram, two echo replies */
	assert_int_equal(fwd_control_ctrs(v100)->created, 4);
	/* a bad checksum, and a fragment that overlaps: drops of the VLAN */
	msg[9] ^= 1;
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, 0, msg, sizeof(msg)));
	assert_int_equal(drops(v100, FWD_DROP_ICMP_INVALID), 1);
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, RTE_IPV4_HDR_MF_FLAG, msg, 16));
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, 1, msg, 8));
	assert_int_equal(drops(v100, FWD_DROP_REASM_OVERLAP), 2);
	assert_int_equal(drops(0, FWD_DROP_ICMP_INVALID) + drops(0, FWD_DROP_REASM_OVERLAP), 0);
	assert_int_equal(n_sent, 2);
}

/* A SYN from HV5 to dst, arriving on interface id. */
static void tcp_syn_to(uint16_t id, uint32_t dst)
{
	static const uint8_t syn[20] = { 0x9c, 0x40, 0, 22, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02 };
	struct rte_mbuf *m = mk_ip4(HV5, dst, IPPROTO_TCP, 0, syn, sizeof(syn));
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	struct rte_tcp_hdr *tcp = (struct rte_tcp_hdr *)(ip + 1);

	tcp->cksum = rte_ipv4_udptcp_cksum(ip, tcp);
	local_in(id, m);
}

static uint16_t up_id;
static unsigned n_up;

static bool up_hook(struct rte_mbuf *m, uint16_t id)
{
	if (id != v100) /* only p0.100 has a kernel interface here */
		return false;
	up_id = id;
	n_up++;
	rte_pktmbuf_free(m);
	return true;
}

/* What fwd does not answer goes up the VLAN's own kernel interface. */
static void test_up_the_vlan(void **state)
{
	uint8_t msg[16];

	(void)state;
	learn_hv5();
	sent_clear();
	fwd_punt_up = up_hook;
	local_in(v100, mk_ip4(HV5, V100_IP, 47, 0, "12345678", 8));
	assert_int_equal(n_up, 1);
	assert_int_equal(up_id, v100);
	/* an echo is fwd's own answer, still on the VLAN */
	echo_msg(msg, sizeof(msg));
	local_in(v100, mk_ip4(HV5, V100_IP, IPPROTO_ICMP, 0, msg, sizeof(msg)));
	assert_int_equal(n_up, 1);
	assert_int_equal(n_sent, 1);
	assert_vlan_ip(0, v100, V100_IP, HV5, IPPROTO_ICMP);
	/* p0.200 has none: fwd answers GRE with protocol unreachable, from
	 * the address the packet was sent to */
	local_in(v200, mk_ip4(HV5, V200_IP, 47, 0, "12345678", 8));
	assert_int_equal(n_up, 1);
	assert_int_equal(n_sent, 2);
	assert_vlan_ip(1, v100, V200_IP, HV5, IPPROTO_ICMP);
	assert_int_equal(drops(v200, FWD_DROP_LOCAL_PROTO), 1);
	fwd_punt_up = NULL;
	tcp_syn_to(v100, V100_IP); /* no kernel interface now: fwd's reset */
	assert_int_equal(n_sent, 3);
	assert_int_equal(assert_vlan_ip(2, v100, V100_IP, HV5, IPPROTO_TCP)[13],
	                 RTE_TCP_RST_FLAG | RTE_TCP_ACK_FLAG);
	assert_int_equal(drops(v100, FWD_DROP_LOCAL_PROTO), 1);
}

/* ip4_output through the VLAN's connected route: the host is asked for
 * on the VLAN, the error waits and then leaves tagged; a reply larger than
 * the VLAN's own MTU leaves in fragments. */
static void test_output_connected_vlan(void **state)
{
	static uint8_t msg[1000];
	struct rte_mbuf *m = mk_ip4(HV6, IP(172, 16, 9, 9), IPPROTO_UDP, 0, "12345678", 8);

	(void)state;
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, ICMP4_TTL_IN_TRANSIT, 0, v100);
	rte_pktmbuf_free(m);
	assert_int_equal(n_sent, 1);
	assert_vlan_arp(0, v100, RTE_ARP_OP_REQUEST, &BCAST, V100_IP, &ZERO_MAC, HV6);
	arp_in(v100, mk_arp(RTE_ARP_OP_REPLY, &P0_MAC, &MAC_A, HV6, &P0_MAC, V100_IP));
	assert_int_equal(n_sent, 2);
	assert_vlan_ip(1, v100, V100_IP, HV6, IPPROTO_ICMP);
	sent_clear();

	/* p0.100's MTU, not p0's 1,500, bounds what leaves on it */
	assert_int_equal(fwd_iface_set_mtu(v100, 600), 0);
	echo_msg(msg, sizeof(msg));
	local_in(v100, mk_ip4(HV6, V100_IP, IPPROTO_ICMP, 0, msg, sizeof(msg)));
	assert_int_equal(n_sent, 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		        sent[i].m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN + 4);
		assert_vlan_ip(i, v100, V100_IP, HV6, IPPROTO_ICMP);
		assert_true(rte_be_to_cpu_16(ip->total_length) <= 600);
	}
	assert_int_equal(counter_value("ip4_output_fragmented"), 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_request_answered_on_vlan),
		T(test_no_arp_there),
		T(test_glean_on_vlan),
		T(test_announce),
		T(test_icmp_error_on_vlan),
		T(test_echo_on_vlan),
		T(test_up_the_vlan),
		T(test_output_connected_vlan),
	};

	return cmocka_run_group_tests(tests, harness_group_setup, harness_group_teardown);
}
