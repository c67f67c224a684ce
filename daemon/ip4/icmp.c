/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMP error messages (RFC 792, RFC 1812 4.3.2), built on the control
 * thread about packets the workers punt (TTL expired, no route,
 * fragmentation needed) and packets the neighbour layer gives up on (host
 * unreachable). The worker has already counted the original as a drop, so
 * an error we decline to send is counted here by why, and one we send by
 * kind.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>

#include "core/daemon.h"
#include "core/module.h"
#include "core/punt.h"
#include "core/ratelimit.h"
#include "core/reload.h"
#include "ip4/addr.h"
#include "ip4/cksum.h"
#include "ip4/icmp.h"
#include "ip4/icmp_priv.h"
#include "ip4/ip4.h"
#include "ip4/output.h"
#include "port/port.h"
#include "core/counter.h"

#define IP4_HDR_LEN      20u
#define ICMP_TOS_CONTROL 0xc0 /* precedence 6, internetwork control (RFC 1812 4.3.2.5) */
#define ICMP_TOS_MASK    0x1e

static FWD_COUNTER(sent_time_exceeded, "icmp_time_exceeded_sent");
static FWD_COUNTER(sent_net_unreach, "icmp_net_unreachable_sent");
static FWD_COUNTER(sent_host_unreach, "icmp_host_unreachable_sent");
static FWD_COUNTER(sent_proto_unreach, "icmp_proto_unreachable_sent");
static FWD_COUNTER(sent_port_unreach, "icmp_port_unreachable_sent");
static FWD_COUNTER(sent_frag_needed, "icmp_frag_needed_sent");
static FWD_COUNTER(sent_other, "icmp_other_errors_sent");
static FWD_COUNTER(ratelimited, "icmp_ratelimited");
static FWD_COUNTER(sup_malformed, "icmp_suppressed_malformed");
static FWD_COUNTER(sup_about_error, "icmp_suppressed_about_error");
static FWD_COUNTER(sup_broadcast, "icmp_suppressed_broadcast");
static FWD_COUNTER(sup_fragment, "icmp_suppressed_fragment");
static FWD_COUNTER(sup_source, "icmp_suppressed_source");
static FWD_COUNTER(sup_no_address, "icmp_suppressed_no_address");
static FWD_COUNTER(no_mbuf, "icmp_no_mbuf");

int (*icmp4_output)(struct rte_mbuf *m) = ip4_output;
uint64_t (*icmp4_clock_ns)(void) = fwd_monotonic_ns;

/* One bucket for every error the router sends (RFC 1812 4.3.2.8). */
static struct fwd_ratelimit bucket = { .rate = 100, .burst = ICMP4_BURST_MIN };

void icmp4_ratelimit_set(uint32_t rate)
{
	/* enough for 50 ms at high rates, so the 0.5 ms punt drain ticks and
	 * their jitter do not eat into the rate */
	fwd_ratelimit_set(&bucket, rate, RTE_MAX((uint32_t)ICMP4_BURST_MIN, rate / 20),
	                  icmp4_clock_ns());
}

bool icmp4_ratelimit_take(void)
{
	return fwd_ratelimit_take(&bucket, icmp4_clock_ns());
}

bool icmp4_source_ok(uint16_t vrf, uint32_t ip)
{
	/* martian covers 0/8, 127/8, multicast, class E and 255.255.255.255 */
	return !ip4_src_martian[ip >> 24] && !addr4_is_local(vrf, ip) && !addr4_is_bcast(vrf, ip);
}

uint16_t icmp4_next_id(void)
{
	static uint16_t id;

	return id++;
}

void icmp4_ip_header(void *hdr, uint8_t tos, uint16_t total_len, uint32_t src, uint32_t dst)
{
	struct rte_ipv4_hdr *ip = hdr;

	ip->version_ihl = 0x45;
	ip->type_of_service = tos;
	ip->total_length = rte_cpu_to_be_16(total_len);
	ip->packet_id = rte_cpu_to_be_16(icmp4_next_id());
	ip->fragment_offset = 0;
	ip->time_to_live = ICMP4_TTL;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = ip4_cksum(ip);
}

static bool is_error_type(uint8_t type)
{
	return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

/*
 * RFC 1812 4.3.2.7 (and RFC 1122 3.2.2): the packets no error may be sent
 * about. Returns how many bytes of the original to quote (as much as fits
 * in a 576-byte error, RFC 1812 4.3.2.3, as Linux: the whole packet when it
 * is shorter, never its link padding), or 0 with *why set.
 */
static unsigned error_allowed(const struct rte_mbuf *m, uint16_t vrf, struct fwd_counter **why)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)p;
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + IP4_L2_LEN);
	unsigned avail = rte_pktmbuf_data_len(m), hlen, tot;

	*why = &sup_malformed;
	if (avail < IP4_L2_LEN + IP4_HDR_LEN)
		return 0;
	avail -= IP4_L2_LEN;
	hlen = (ip->version_ihl & 0xf) * 4u;
	tot = rte_be_to_cpu_16(ip->total_length);
	if ((ip->version_ihl >> 4) != 4 || hlen < IP4_HDR_LEN || tot < hlen || tot > avail)
		return 0;
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	*why = &sup_broadcast;
	if (rte_is_multicast_ether_addr(&eth->dst_addr) ||
	    ip4_dst_class[dst >> 24] != IP4_UNICAST || addr4_is_bcast(vrf, dst))
		return 0;
	*why = &sup_fragment;
	if (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_OFFSET_MASK))
		return 0;
	*why = &sup_source;
	if (!icmp4_source_ok(vrf, rte_be_to_cpu_32(ip->src_addr)))
		return 0;
	*why = &sup_about_error;
	if (ip->next_proto_id == IPPROTO_ICMP &&
	    (tot == hlen || is_error_type(p[IP4_L2_LEN + hlen])))
		return 0; /* an error, or an ICMP message too short to tell */
	*why = NULL;
	return RTE_MIN(tot, (unsigned)ICMP4_QUOTE_MAX);
}

/* The error message: link header space, IP header, ICMP header, quote. */
static struct rte_mbuf *error_build(const struct rte_mbuf *m, unsigned quote, uint8_t type,
                                    uint8_t code, uint32_t aux, uint32_t src)
{
	const struct rte_ipv4_hdr *orig =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	uint16_t icmp_len = (uint16_t)(ICMP4_ERR_HDR_LEN + quote), ck;
	struct rte_mbuf *out = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	uint8_t *p, *icmp;

	if (out == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(out, IP4_L2_LEN + IP4_HDR_LEN + icmp_len);
	if (p == NULL) {
		rte_pktmbuf_free(out);
		return NULL;
	}
	memset(p, 0, IP4_L2_LEN + IP4_HDR_LEN + ICMP4_ERR_HDR_LEN);
	icmp4_ip_header(p + IP4_L2_LEN,
	                (uint8_t)(ICMP_TOS_CONTROL | (orig->type_of_service & ICMP_TOS_MASK)),
	                (uint16_t)(IP4_HDR_LEN + icmp_len), src, rte_be_to_cpu_32(orig->src_addr));
	icmp = p + IP4_L2_LEN + IP4_HDR_LEN;
	icmp[0] = type;
	icmp[1] = code;
	if (type == ICMP4_DEST_UNREACH && code == ICMP4_FRAG_NEEDED) {
		/* RFC 1191: the next-hop MTU in the low half of the second word */
		icmp[6] = (uint8_t)(aux >> 8);
		icmp[7] = (uint8_t)aux;
	}
	memcpy(icmp + ICMP4_ERR_HDR_LEN, orig, quote);
	ck = (uint16_t)~rte_raw_cksum(icmp, icmp_len);
	memcpy(icmp + 2, &ck, sizeof(ck));
	return out;
}

static struct fwd_counter *sent_counter(uint8_t type, uint8_t code)
{
	static struct fwd_counter *const unreach[] = {
		[ICMP4_NET_UNREACH] = &sent_net_unreach,
		[ICMP4_HOST_UNREACH] = &sent_host_unreach,
		[ICMP4_PROTO_UNREACH] = &sent_proto_unreach,
		[ICMP4_PORT_UNREACH] = &sent_port_unreach,
		[ICMP4_FRAG_NEEDED] = &sent_frag_needed,
	};

	if (type == ICMP4_TIME_EXCEEDED)
		return &sent_time_exceeded;
	if (type == ICMP4_DEST_UNREACH && code < RTE_DIM(unreach))
		return unreach[code];
	return &sent_other;
}

void icmp4_send_error_from(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                           uint16_t in_port, uint32_t src)
{
	struct fwd_counter *why;
	unsigned quote =
	        error_allowed(m, in_port < FWD_MAX_IFACES ? fwd_ifaces[in_port].vrf : 0, &why);
	const struct rte_ipv4_hdr *orig;
	struct rte_mbuf *out;

	if (quote == 0) {
		why->value++;
		return;
	}
	orig = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, IP4_L2_LEN);
	/* in_port is an interface id: a VLAN's error comes from the VLAN's address */
	if (src == 0 && in_port < FWD_MAX_IFACES)
		src = addr4_source(in_port, rte_be_to_cpu_32(orig->src_addr));
	if (src == 0) {
		sup_no_address.value++;
		return;
	}
	if (!icmp4_ratelimit_take()) {
		ratelimited.value++;
		return;
	}
	out = error_build(m, quote, type, code, aux, src);
	if (out == NULL) {
		no_mbuf.value++;
		return;
	}
	/* a failed output is counted there (control_output_no_route) */
	if (icmp4_output(out) == 0)
		sent_counter(type, code)->value++;
}

void icmp4_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                      uint16_t in_port)
{
	icmp4_send_error_from(m, type, code, aux, in_port, 0);
}

/* ---------------------------------------------------------- punt handlers */

static void punt_ttl(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	icmp4_send_error(m, ICMP4_TIME_EXCEEDED, ICMP4_TTL_IN_TRANSIT, 0, meta->in_port);
	rte_pktmbuf_free(m);
}

static void punt_no_route(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	icmp4_send_error(m, ICMP4_DEST_UNREACH, (uint8_t)meta->aux, 0, meta->in_port);
	rte_pktmbuf_free(m);
}

static void punt_frag_needed(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	icmp4_send_error(m, ICMP4_DEST_UNREACH, ICMP4_FRAG_NEEDED, meta->aux, meta->in_port);
	rte_pktmbuf_free(m);
}

RTE_INIT(icmp4_punt_register)
{
	fwd_punt_register(FWD_PUNT_TTL, punt_ttl);
	fwd_punt_register(FWD_PUNT_NO_ROUTE, punt_no_route);
	fwd_punt_register(FWD_PUNT_FRAG_NEEDED, punt_frag_needed);
}

static int icmp4_init(const struct fwd_config *cfg)
{
	icmp4_ratelimit_set(cfg->dataplane.icmp_rate);
	return 0;
}

static int icmp4_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                              struct fwd_reload_log *log)
{
	if (next->dataplane.icmp_rate == cur->dataplane.icmp_rate)
		return 0;
	icmp4_ratelimit_set(next->dataplane.icmp_rate);
	fwd_reload_note(log, "dataplane.icmp_rate %u -> %u", cur->dataplane.icmp_rate,
	                next->dataplane.icmp_rate);
	return 0;
}

static struct fwd_module icmp4_module = {
	.name = "icmp4",
	.depends_on = "ip4",
	.init = icmp4_init,
	.reload_apply = icmp4_reload_apply,
};
FWD_MODULE(icmp4_module);
