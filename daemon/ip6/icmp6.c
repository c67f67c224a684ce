/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMPv6 error messages (RFC 4443), built on the control thread about
 * packets the workers punt (FWD_PUNT_ICMP6: Time Exceeded, Destination
 * Unreachable no route or beyond scope, Packet Too Big), packets to us the
 * local path refuses (Parameter Problem, port unreachable) and packets the
 * neighbour layer gives up on (address unreachable). The worker has already
 * counted the original as a drop, so an error we decline to send is counted
 * here by why, and one we send by kind.
 *
 * Rate limit: one token bucket for every ICMPv6 error, filled at
 * dataplane.icmp_rate a second (as IPv4's, in a bucket of its own), at most
 * max(50, rate / 20) saved up. Packet Too Big is limited too, where Linux's
 * default net.ipv6.icmp.ratemask exempts it: each one answers a large
 * packet, and a flood of them is as easy to make as of any other.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>

#include "core/counter.h"
#include "core/daemon.h"
#include "core/module.h"
#include "core/punt.h"
#include "core/ratelimit.h"
#include "core/reload.h"
#include "ip6/addr6.h"
#include "ip6/hdr6.h"
#include "ip6/icmp6.h"
#include "ip6/icmp6_priv.h"
#include "ip6/input.h"
#include "ip6/ip6.h"
#include "ip6/output.h"

#define L2_LEN  IP6_L2_LEN
#define HDR_LEN IP6_HDR_LEN

static FWD_COUNTER(sent_time_exceeded, "icmp6_time_exceeded_sent");
static FWD_COUNTER(sent_no_route, "icmp6_no_route_sent");
static FWD_COUNTER(sent_admin_prohibited, "icmp6_admin_prohibited_sent");
static FWD_COUNTER(sent_beyond_scope, "icmp6_beyond_scope_sent");
static FWD_COUNTER(sent_addr_unreach, "icmp6_addr_unreachable_sent");
static FWD_COUNTER(sent_port_unreach, "icmp6_port_unreachable_sent");
static FWD_COUNTER(sent_too_big, "icmp6_packet_too_big_sent");
static FWD_COUNTER(sent_param_problem, "icmp6_param_problem_sent");
static FWD_COUNTER(sent_other, "icmp6_other_errors_sent");
static FWD_COUNTER(ratelimited, "icmp6_ratelimited");
static FWD_COUNTER(sup_malformed, "icmp6_suppressed_malformed");
static FWD_COUNTER(sup_about_error, "icmp6_suppressed_about_error");
static FWD_COUNTER(sup_multicast, "icmp6_suppressed_multicast");
static FWD_COUNTER(sup_source, "icmp6_suppressed_source");
static FWD_COUNTER(sup_no_address, "icmp6_suppressed_no_address");
static FWD_COUNTER(no_mbuf, "icmp6_no_mbuf");

static int output_default(struct rte_mbuf *m, uint16_t port)
{
	return ip6_output(m, port);
}

int (*icmp6_output)(struct rte_mbuf *m, uint16_t port) = output_default;
uint64_t (*icmp6_clock_ns)(void) = fwd_monotonic_ns;

static struct fwd_ratelimit bucket = { .rate = 100, .burst = ICMP6_BURST_MIN };

void icmp6_ratelimit_set(uint32_t rate)
{
	fwd_ratelimit_set(&bucket, rate, RTE_MAX((uint32_t)ICMP6_BURST_MIN, rate / 20),
	                  icmp6_clock_ns());
}

bool icmp6_ratelimit_take(void)
{
	return fwd_ratelimit_take(&bucket, icmp6_clock_ns());
}

bool icmp6_source_ok(uint16_t vrf, const uint8_t a[16])
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	return !ip6_is_unspecified(a) && !ip6_is_multicast(a) && !ip6_is_loopback(a) &&
	       memcmp(a, v4mapped, sizeof(v4mapped)) != 0 &&
	       !addr6_is_local(vrf, FWD_IFACE_NONE, a);
}

void icmp6_ip_header(void *hdr, uint16_t payload_len, uint8_t tc, const uint8_t src[16],
                     const uint8_t dst[16])
{
	struct rte_ipv6_hdr *ip = hdr;

	ip->vtc_flow = rte_cpu_to_be_32(UINT32_C(6) << 28 | (uint32_t)tc << RTE_IPV6_HDR_TC_SHIFT);
	ip->payload_len = rte_cpu_to_be_16(payload_len);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = ICMP6_HOP_LIMIT;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
}

/* An ICMPv6 error or redirect (RFC 4443 2.4 e.1, e.2), or an ICMPv6
 * message too short to tell; as Linux, a header chain that does not parse,
 * or a later fragment, is not known to be one. */
static bool about_error(const uint8_t *ip, unsigned len)
{
	struct ip6_chain c;

	if (!ip6_chain_skip(ip, len, &c) || c.proto != IPPROTO_ICMPV6 || c.later_frag)
		return false;
	return c.off >= len || ip[c.off] < 128 || ip[c.off] == ND_REDIRECT;
}

/* RFC 4443 2.4 (e.3-e.5): Packet Too Big, and Parameter Problem code 2
 * about an option whose type's high bits are 10, may answer a multicast. */
static bool multicast_ok(const uint8_t *ip, unsigned len, uint8_t type, uint8_t code,
                         uint32_t param)
{
	if (type == ICMP6_PACKET_TOO_BIG)
		return true;
	return type == ICMP6_PARAM_PROB && code == ICMP6_PARAMPROB_OPTION && param < len &&
	       ip[param] >> 6 == 2;
}

/* The packets no error may be sent about (RFC 4443 2.4 e). Returns how
 * many bytes of the original to quote, or 0 with *why set. */
static unsigned error_allowed(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t param,
                              uint16_t vrf, struct fwd_counter **why)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, L2_LEN);
	unsigned len;

	*why = &sup_malformed;
	if (rte_pktmbuf_data_len(m) < L2_LEN + HDR_LEN || ip[0] >> 4 != 6)
		return 0;
	len = HDR_LEN + (ip[4] << 8 | ip[5]);
	if (len > rte_pktmbuf_data_len(m) - L2_LEN)
		return 0;
	*why = &sup_multicast;
	if ((ip6_is_multicast(ip + 24) || rte_is_multicast_ether_addr(&eth->dst_addr)) &&
	    !multicast_ok(ip, len, type, code, param))
		return 0;
	*why = &sup_source;
	if (!icmp6_source_ok(vrf, ip + 8))
		return 0;
	*why = &sup_about_error;
	if (about_error(ip, len))
		return 0;
	*why = NULL;
	return RTE_MIN(len, (unsigned)ICMP6_QUOTE_MAX);
}

/* The message: link header space, IPv6 header, ICMPv6 header, quote. */
static struct rte_mbuf *error_build(const struct rte_mbuf *m, unsigned quote, uint8_t type,
                                    uint8_t code, uint32_t param, const uint8_t src[16])
{
	const struct rte_ipv6_hdr *orig =
	        rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, L2_LEN);
	uint16_t icmp_len = (uint16_t)(ICMP6_ERR_HDR_LEN + quote), ck;
	struct rte_mbuf *out = fwd.pool != NULL ? rte_pktmbuf_alloc(fwd.pool) : NULL;
	rte_be32_t be_param = rte_cpu_to_be_32(param);
	uint8_t *p, *icmp;

	if (out == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(out, L2_LEN + HDR_LEN + icmp_len);
	if (p == NULL) {
		rte_pktmbuf_free(out);
		return NULL;
	}
	memset(p, 0, L2_LEN);
	icmp6_ip_header(p + L2_LEN, icmp_len, 0, src, orig->src_addr);
	icmp = p + L2_LEN + HDR_LEN;
	icmp[0] = type;
	icmp[1] = code;
	icmp[2] = icmp[3] = 0;
	memcpy(icmp + 4, &be_param, sizeof(be_param));
	memcpy(icmp + ICMP6_ERR_HDR_LEN, orig, quote);
	ck = ip6_l4_cksum((const struct rte_ipv6_hdr *)(p + L2_LEN), IPPROTO_ICMPV6, icmp,
	                  icmp_len);
	memcpy(icmp + 2, &ck, sizeof(ck));
	return out;
}

static struct fwd_counter *sent_counter(uint8_t type, uint8_t code)
{
	static struct fwd_counter *const unreach[] = {
		[ICMP6_DST_UNREACH_NOROUTE] = &sent_no_route,
		[ICMP6_DST_UNREACH_ADMIN] = &sent_admin_prohibited,
		[ICMP6_DST_UNREACH_BEYONDSCOPE] = &sent_beyond_scope,
		[ICMP6_DST_UNREACH_ADDR] = &sent_addr_unreach,
		[ICMP6_DST_UNREACH_NOPORT] = &sent_port_unreach,
	};

	switch (type) {
	case ICMP6_TIME_EXCEEDED:
		return &sent_time_exceeded;
	case ICMP6_PACKET_TOO_BIG:
		return &sent_too_big;
	case ICMP6_PARAM_PROB:
		return &sent_param_problem;
	case ICMP6_DST_UNREACH:
		if (code < RTE_DIM(unreach) && unreach[code] != NULL)
			return unreach[code];
		return &sent_other;
	default:
		return &sent_other;
	}
}

void icmp6_send_error_from(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t param,
                           uint16_t in_port, const uint8_t *src)
{
	struct fwd_counter *why;
	unsigned quote = error_allowed(
	        m, type, code, param, in_port < FWD_MAX_IFACES ? fwd_ifaces[in_port].vrf : 0, &why);
	uint8_t from[16];
	struct rte_mbuf *out;

	if (quote == 0) {
		why->value++;
		return;
	}
	if (src != NULL)
		memcpy(from, src, sizeof(from));
	else if (!addr6_source(in_port, rte_pktmbuf_mtod_offset(m, const uint8_t *, L2_LEN + 8),
	                       from)) {
		sup_no_address.value++;
		return;
	}
	if (!icmp6_ratelimit_take()) {
		ratelimited.value++;
		return;
	}
	out = error_build(m, quote, type, code, param, from);
	if (out == NULL) {
		no_mbuf.value++;
		return;
	}
	/* a failed output is counted there */
	if (icmp6_output(out, in_port) == 0)
		sent_counter(type, code)->value++;
}

void icmp6_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t param,
                      uint16_t in_port)
{
	icmp6_send_error_from(m, type, code, param, in_port, NULL);
}

void icmp6_unreachable(const struct rte_mbuf *m, uint16_t in_port)
{
	icmp6_send_error(m, ICMP6_DST_UNREACH, ICMP6_DST_UNREACH_ADDR, 0, in_port);
}

/* FWD_PUNT_ICMP6: the error the worker asked for (icmp6_punt_aux). */
static void punt_error(struct rte_mbuf *m, const struct fwd_punt_meta *meta)
{
	icmp6_send_error(m, (uint8_t)(meta->aux >> 24), (uint8_t)(meta->aux >> 16),
	                 meta->aux & 0xffff, meta->in_port);
	rte_pktmbuf_free(m);
}

RTE_INIT(icmp6_punt_register)
{
	fwd_punt_register(FWD_PUNT_ICMP6, punt_error);
}

static int icmp6_init(const struct fwd_config *cfg)
{
	icmp6_ratelimit_set(cfg->dataplane.icmp_rate);
	return 0;
}

static int icmp6_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                              struct fwd_reload_log *log)
{
	(void)log; /* icmp4 notes the change of the key they share */
	if (next->dataplane.icmp_rate != cur->dataplane.icmp_rate)
		icmp6_ratelimit_set(next->dataplane.icmp_rate);
	return 0;
}

static struct fwd_module icmp6_module = {
	.name = "icmp6",
	.depends_on = "punt",
	.init = icmp6_init,
	.reload_apply = icmp6_reload_apply,
};
FWD_MODULE(icmp6_module);
