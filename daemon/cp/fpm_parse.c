/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FRR's FPM stream (zebra's dplane_fpm_nl): frames of a 4-byte header
 * (version 1, type 1 = netlink, 16-bit big-endian length including the
 * header) around one or more netlink messages in host byte order, as zebra
 * would send them to the kernel. Every length is checked before it is used;
 * a frame is decoded twice, first only to check it, so that a bad message
 * at its end leaves the ones before it unapplied.
 */
#include <arpa/inet.h>
#include <linux/lwtunnel.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cp/fpm_priv.h"

#define RTPROT_FRR_BGP        186 /* FRR's lib/zebra.h and rt_netlink.h */
#define RTPROT_FRR_ISIS       187
#define RTPROT_FRR_OSPF       188
#define RTPROT_FRR_RIP        189
#define RTPROT_FRR_RIPNG      190
#define RTPROT_FRR_EIGRP      192
#define RTPROT_FRR_ZSTATIC    196
#define RTPROT_FRR_OPENFABRIC 197
#define RTPROT_FRR_BABEL      42

const char *const fpm_err_names[FPM_ERR_MAX] = {
	[FPM_ERR_VERSION] = "version",     [FPM_ERR_TYPE] = "type",
	[FPM_ERR_FRAME_LEN] = "frame_len", [FPM_ERR_NL_LEN] = "nlmsg_len",
	[FPM_ERR_ATTR] = "attribute",      [FPM_ERR_FAMILY] = "family",
	[FPM_ERR_PREFIX] = "prefix",       [FPM_ERR_ADDR_SIZE] = "address_size",
	[FPM_ERR_NEXTHOP] = "nexthop",
};

/* A message being decoded: where it is, and where a failure goes. */
struct dec {
	unsigned index; /* of the message in its frame, from 1 */
	enum fpm_err *e;
	char *why;
	size_t whylen;
};

__attribute__((format(printf, 3, 4))) static int fail(struct dec *d, enum fpm_err e,
                                                      const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(d->why, d->whylen, "message %u: ", d->index);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < d->whylen)
		vsnprintf(d->why + n, d->whylen - (size_t)n, fmt, ap);
	va_end(ap);
	*d->e = e;
	return -1;
}

uint8_t fpm_origin_of_proto(uint8_t proto)
{
	switch (proto) {
	case RTPROT_KERNEL:
	case RTPROT_BOOT:
		return FWD_ORIGIN_KERNEL;
	case RTPROT_ZEBRA:
		return FWD_ORIGIN_ZEBRA;
	case RTPROT_STATIC:
	case RTPROT_FRR_ZSTATIC:
		return FWD_ORIGIN_STATIC;
	case RTPROT_FRR_BGP:
		return FWD_ORIGIN_BGP;
	case RTPROT_FRR_OSPF:
		return FWD_ORIGIN_OSPF;
	case RTPROT_FRR_ISIS:
		return FWD_ORIGIN_ISIS;
	case RTPROT_FRR_RIP:
	case RTPROT_FRR_RIPNG:
		return FWD_ORIGIN_RIP;
	case RTPROT_FRR_EIGRP:
		return FWD_ORIGIN_EIGRP;
	case RTPROT_FRR_BABEL:
		return FWD_ORIGIN_BABEL;
	case RTPROT_FRR_OPENFABRIC:
		return FWD_ORIGIN_OPENFABRIC;
	default:
		return FWD_ORIGIN_OTHER;
	}
}

int fpm_frame_len(const uint8_t hdr[FPM_HDR_LEN], enum fpm_err *e)
{
	unsigned len = (unsigned)hdr[2] << 8 | hdr[3];

	if (hdr[0] != FPM_VERSION)
		*e = FPM_ERR_VERSION;
	else if (hdr[1] != FPM_TYPE_NETLINK)
		*e = FPM_ERR_TYPE;
	else if (len < FPM_HDR_LEN)
		*e = FPM_ERR_FRAME_LEN;
	else
		return (int)len;
	return -1;
}

/* An attribute walk: RTA_OK with lengths checked. */
struct attrs {
	const uint8_t *p;
	size_t left;
};

/* The next attribute (type, payload, size): 1, 0 at the end, -1 overrun. */
static int attr_next(struct attrs *a, uint16_t *type, const uint8_t **val, size_t *vlen)
{
	struct rtattr h;

	if (a->left == 0)
		return 0;
	if (a->left < sizeof(h))
		return -1;
	memcpy(&h, a->p, sizeof(h));
	if (h.rta_len < sizeof(h) || h.rta_len > a->left)
		return -1;
	*type = h.rta_type & NLA_TYPE_MASK;
	*val = a->p + sizeof(h);
	*vlen = h.rta_len - sizeof(h);
	size_t step = RTA_ALIGN(h.rta_len);
	a->p += step < a->left ? step : a->left;
	a->left -= step < a->left ? step : a->left;
	return 1;
}

static int addr_of(struct dec *d, int family, const uint8_t *v, size_t n, struct fwd_ip *ip,
                   const char *what)
{
	uint32_t a4;

	if ((family == AF_INET && n != 4) || (family == AF_INET6 && n != 16))
		return fail(d, FPM_ERR_ADDR_SIZE, "%s of %zu bytes for family %d", what, n, family);
	ip->family = (uint8_t)family;
	if (family == AF_INET) {
		memcpy(&a4, v, 4);
		ip->v4 = ntohl(a4);
	} else {
		memcpy(ip->v6, v, 16);
	}
	return 0;
}

static int u32_of(struct dec *d, const uint8_t *v, size_t n, uint32_t *out, const char *what)
{
	if (n < 4)
		return fail(d, FPM_ERR_ATTR, "%s of %zu bytes", what, n);
	memcpy(out, v, 4);
	return 0;
}

/*
 * RTA_ENCAP_TYPE/NHA_ENCAP_TYPE (u16) and RTA_ENCAP/NHA_ENCAP (its nested
 * data): labels or segments fwd cannot push. Either one marks m, with the
 * counter of its kind; the route is refused, not installed bare.
 */
static int encap_attr(struct dec *d, bool is_type, const uint8_t *v, size_t n, struct fpm_msg *m)
{
	uint16_t type = LWTUNNEL_ENCAP_MAX + 1;

	if (is_type) {
		if (n < sizeof(type))
			return fail(d, FPM_ERR_ATTR, "ENCAP_TYPE of %zu bytes", n);
		memcpy(&type, v, sizeof(type));
		if (type == LWTUNNEL_ENCAP_NONE)
			return 0;
	}
	if (type == LWTUNNEL_ENCAP_MPLS)
		m->encap = FPM_C_ENCAP_MPLS;
	else if (type == LWTUNNEL_ENCAP_SEG6 || type == LWTUNNEL_ENCAP_SEG6_LOCAL)
		m->encap = FPM_C_ENCAP_SEG6;
	else if (m->encap == 0 || is_type)
		m->encap = FPM_C_ENCAP_OTHER; /* RTA_ENCAP alone: the kind is its type's */
	return 0;
}

/* RTA_VIA: struct rtvia, a family and an address of that family. */
static int via_of(struct dec *d, const uint8_t *v, size_t n, struct fwd_ip *ip)
{
	uint16_t fam;

	if (n < sizeof(fam))
		return fail(d, FPM_ERR_ATTR, "RTA_VIA of %zu bytes", n);
	memcpy(&fam, v, sizeof(fam));
	if (fam != AF_INET && fam != AF_INET6)
		return fail(d, FPM_ERR_FAMILY, "RTA_VIA of family %u", fam);
	return addr_of(d, fam, v + sizeof(fam), n - sizeof(fam), ip, "RTA_VIA");
}

/* The gateway attributes inside one rtnexthop. */
static int nh_attrs(struct dec *d, int family, struct attrs a, struct fpm_nh *nh, struct fpm_msg *m)
{
	const uint8_t *v;
	uint16_t t;
	size_t n;
	int rc;

	while ((rc = attr_next(&a, &t, &v, &n)) == 1) {
		if (t == RTA_GATEWAY && addr_of(d, family, v, n, &nh->gw, "RTA_GATEWAY") < 0)
			return -1;
		if (t == RTA_VIA && via_of(d, v, n, &nh->gw) < 0)
			return -1;
		if ((t == RTA_ENCAP_TYPE || t == RTA_ENCAP) &&
		    encap_attr(d, t == RTA_ENCAP_TYPE, v, n, m) < 0)
			return -1;
	}
	return rc < 0 ? fail(d, FPM_ERR_ATTR, "attribute overruns its rtnexthop") : 0;
}

static int multipath(struct dec *d, int family, const uint8_t *v, size_t n, struct fpm_msg *m)
{
	struct rtnexthop h;

	while (n > 0) {
		if (n < sizeof(h))
			return fail(d, FPM_ERR_NEXTHOP, "truncated rtnexthop");
		memcpy(&h, v, sizeof(h));
		if (h.rtnh_len < sizeof(h) || h.rtnh_len > n)
			return fail(d, FPM_ERR_NEXTHOP, "rtnexthop of length %u in %zu bytes",
			            h.rtnh_len, n);
		struct fpm_nh nh = { .ifindex = h.rtnh_ifindex > 0 ? (uint32_t)h.rtnh_ifindex : 0 };
		struct attrs a = { v + sizeof(h), h.rtnh_len - sizeof(h) };
		if (nh_attrs(d, family, a, &nh, m) < 0)
			return -1;
		if (m->n_nh < FWD_ECMP_MAX)
			m->nh[m->n_nh++] = nh;
		else
			m->truncated = true;
		size_t step = RTNH_ALIGN(h.rtnh_len);
		v += step < n ? step : n;
		n -= step < n ? step : n;
	}
	return 0;
}

/* One route attribute into m (one is the single next hop RTA_GATEWAY/OIF make). */
static int route_attr(struct dec *d, int family, uint16_t t, const uint8_t *v, size_t n,
                      struct fpm_msg *m, struct fpm_nh *one, uint32_t *table, bool *dst)
{
	struct fwd_ip ip = { 0 };

	switch (t) {
	case RTA_DST:
		if (addr_of(d, family, v, n, &ip, "RTA_DST") < 0)
			return -1;
		memcpy(m->prefix.v6, ip.v6, 16); /* the union, zeroed past an IPv4 address */
		*dst = true;
		return 0;
	case RTA_GATEWAY:
		return addr_of(d, family, v, n, &one->gw, "RTA_GATEWAY");
	case RTA_VIA:
		return via_of(d, v, n, &one->gw);
	case RTA_OIF:
		return u32_of(d, v, n, &one->ifindex, "RTA_OIF");
	case RTA_TABLE:
		return u32_of(d, v, n, table, "RTA_TABLE");
	case RTA_NH_ID:
		return u32_of(d, v, n, &m->nh_id, "RTA_NH_ID");
	case RTA_MULTIPATH:
		return multipath(d, family, v, n, m);
	case RTA_ENCAP_TYPE:
	case RTA_ENCAP:
		return encap_attr(d, t == RTA_ENCAP_TYPE, v, n, m);
	default:
		return 0; /* RTA_PRIORITY, RTA_PREFSRC, RTA_METRICS, ...: not fwd's business */
	}
}

static int route_type(uint8_t rtm_type, uint8_t *type)
{
	switch (rtm_type) {
	case RTN_UNICAST:
		*type = L3_ROUTE_VIA;
		return 0;
	case RTN_BLACKHOLE:
		*type = L3_ROUTE_BLACKHOLE;
		return 0;
	case RTN_UNREACHABLE:
		*type = L3_ROUTE_UNREACHABLE;
		return 0;
	case RTN_PROHIBIT:
		*type = L3_ROUTE_PROHIBIT;
		return 0;
	default:
		return -1;
	}
}

static bool host_bits_clear(const struct fwd_prefix *p)
{
	if (p->family == AF_INET)
		return (p->v4 & ~fwd_ip4_mask(p->len)) == 0;
	for (unsigned i = p->len; i < 128; i++)
		if (p->v6[i / 8] & (0x80 >> (i % 8)))
			return false;
	return true;
}

static int skip(struct fpm_msg *m, enum fpm_ctr c)
{
	m->kind = FPM_MSG_SKIP;
	m->skip_ctr = (uint8_t)c;
	return 0;
}

/* The attributes after the rtmsg: destination, next hops, table. */
static int route_attrs(struct dec *d, const struct rtmsg *rtm, const uint8_t *p, size_t len,
                       struct fpm_msg *m, uint32_t *table)
{
	size_t hdr = NLMSG_ALIGN(sizeof(*rtm));
	struct attrs a = { p + hdr, len > hdr ? len - hdr : 0 };
	struct fpm_nh one = { 0 };
	bool dst = false;
	const uint8_t *v;
	uint16_t t;
	size_t n;
	int rc;

	while ((rc = attr_next(&a, &t, &v, &n)) == 1)
		if (route_attr(d, rtm->rtm_family, t, v, n, m, &one, table, &dst) < 0)
			return -1;
	if (rc < 0)
		return fail(d, FPM_ERR_ATTR, "attribute overruns its route message");
	if (!dst && rtm->rtm_dst_len != 0)
		return fail(d, FPM_ERR_PREFIX, "prefix length %u without RTA_DST",
		            rtm->rtm_dst_len);
	if (!host_bits_clear(&m->prefix))
		return fail(d, FPM_ERR_PREFIX, "host bits set past the prefix length");
	if (m->n_nh == 0 && (one.gw.family != 0 || one.ifindex != 0))
		m->nh[m->n_nh++] = one;
	return 0;
}

static int route_msg(struct dec *d, uint16_t type, const uint8_t *p, size_t len, struct fpm_msg *m)
{
	struct rtmsg rtm;
	uint32_t table;

	if (len < sizeof(rtm))
		return fail(d, FPM_ERR_NL_LEN, "route message of %zu bytes", len);
	memcpy(&rtm, p, sizeof(rtm));
	if (rtm.rtm_family == AF_MPLS)
		return skip(m, FPM_C_SKIP_FAMILY);
	if (rtm.rtm_family != AF_INET && rtm.rtm_family != AF_INET6)
		return fail(d, FPM_ERR_FAMILY, "route of family %u", rtm.rtm_family);
	m->prefix.family = rtm.rtm_family;
	m->prefix.len = rtm.rtm_dst_len;
	if (rtm.rtm_dst_len > (rtm.rtm_family == AF_INET ? 32 : 128))
		return fail(d, FPM_ERR_PREFIX, "prefix length %u", rtm.rtm_dst_len);
	table = rtm.rtm_table; /* RTA_TABLE, when given, overrides it */
	if (route_attrs(d, &rtm, p, len, m, &table) < 0)
		return -1;
	m->origin = fpm_origin_of_proto(rtm.rtm_protocol);
	m->table = table; /* its VRF: fpm_table.c */
	if (type == RTM_DELROUTE) {
		m->kind = FPM_MSG_ROUTE_DEL;
		return 0;
	}
	if (route_type(rtm.rtm_type, &m->type) < 0)
		return skip(m, FPM_C_SKIP_TYPE);
	m->kind = FPM_MSG_ROUTE_ADD;
	return 0;
}

static int nh_attr(struct dec *d, int family, uint16_t t, const uint8_t *v, size_t n,
                   struct fpm_msg *m)
{
	struct nexthop_grp g;

	switch (t) {
	case NHA_ID:
		return u32_of(d, v, n, &m->id, "NHA_ID");
	case NHA_BLACKHOLE:
		m->blackhole = true;
		return 0;
	case NHA_OIF:
		return u32_of(d, v, n, &m->nh[0].ifindex, "NHA_OIF");
	case NHA_GATEWAY:
		if (family != AF_INET && family != AF_INET6)
			return fail(d, FPM_ERR_FAMILY, "NHA_GATEWAY in a next hop of family %d",
			            family);
		return addr_of(d, family, v, n, &m->nh[0].gw, "NHA_GATEWAY");
	case NHA_ENCAP_TYPE:
	case NHA_ENCAP:
		return encap_attr(d, t == NHA_ENCAP_TYPE, v, n, m);
	case NHA_GROUP:
		if (n == 0 || n % sizeof(g) != 0)
			return fail(d, FPM_ERR_NEXTHOP, "NHA_GROUP of %zu bytes", n);
		for (size_t off = 0; off < n; off += sizeof(g)) {
			memcpy(&g, v + off, sizeof(g));
			if (m->n_grp < FWD_ECMP_MAX)
				m->grp[m->n_grp++] = (struct fpm_grp){ g.id, g.weight };
			else
				m->truncated = true;
		}
		return 0;
	default:
		return 0; /* NHA_GROUP_TYPE, NHA_FDB, ...: not fwd's business */
	}
}

static int nexthop_msg(struct dec *d, uint16_t type, const uint8_t *p, size_t len,
                       struct fpm_msg *m)
{
	struct nhmsg nhm;
	const uint8_t *v;
	uint16_t t;
	size_t n;
	int rc;

	if (len < sizeof(nhm))
		return fail(d, FPM_ERR_NL_LEN, "next-hop message of %zu bytes", len);
	memcpy(&nhm, p, sizeof(nhm));
	if (nhm.nh_family != AF_UNSPEC && nhm.nh_family != AF_INET && nhm.nh_family != AF_INET6)
		return fail(d, FPM_ERR_FAMILY, "next hop of family %u", nhm.nh_family);
	struct attrs a = { p + NLMSG_ALIGN(sizeof(nhm)),
		           len > NLMSG_ALIGN(sizeof(nhm)) ? len - NLMSG_ALIGN(sizeof(nhm)) : 0 };
	while ((rc = attr_next(&a, &t, &v, &n)) == 1)
		if (nh_attr(d, nhm.nh_family, t, v, n, m) < 0)
			return -1;
	if (rc < 0)
		return fail(d, FPM_ERR_ATTR, "attribute overruns its next-hop message");
	if (m->id == 0)
		return fail(d, FPM_ERR_NEXTHOP, "next hop without NHA_ID");
	m->origin = fpm_origin_of_proto(nhm.nh_protocol);
	m->n_nh = m->n_grp == 0 && !m->blackhole ? 1 : 0;
	m->kind = type == RTM_NEWNEXTHOP ? FPM_MSG_NH_ADD : FPM_MSG_NH_DEL;
	return 0;
}

static int message(struct dec *d, const struct nlmsghdr *h, const uint8_t *p, struct fpm_msg *m)
{
	size_t len = h->nlmsg_len - NLMSG_HDRLEN;

	memset(m, 0, sizeof(*m));
	switch (h->nlmsg_type) {
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		return route_msg(d, h->nlmsg_type, p, len, m);
	case RTM_NEWNEXTHOP:
	case RTM_DELNEXTHOP:
		return nexthop_msg(d, h->nlmsg_type, p, len, m);
	default:
		return skip(m, FPM_C_SKIP_MSG);
	}
}

/* One pass over the messages; fn NULL checks only. */
static int walk(const uint8_t *p, size_t len, void (*fn)(const struct fpm_msg *, void *), void *arg,
                struct dec *d)
{
	struct nlmsghdr h;
	struct fpm_msg m;

	d->index = 0;
	while (len > 0) {
		d->index++;
		if (len < sizeof(h))
			return fail(d, FPM_ERR_NL_LEN, "%zu bytes left, short of a header", len);
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
			return fail(d, FPM_ERR_NL_LEN, "nlmsg_len %u with %zu bytes left",
			            h.nlmsg_len, len);
		if (NLMSG_ALIGN(h.nlmsg_len) != h.nlmsg_len && h.nlmsg_len != len)
			return fail(d, FPM_ERR_NL_LEN, "nlmsg_len %u is not aligned", h.nlmsg_len);
		if (message(d, &h, p + NLMSG_HDRLEN, &m) < 0)
			return -1;
		if (fn != NULL)
			fn(&m, arg);
		p += h.nlmsg_len;
		len -= h.nlmsg_len;
	}
	return (int)d->index;
}

bool fpm_frame_apply(const uint8_t *p, size_t len, size_t *off,
                     bool (*fn)(const struct fpm_msg *m, void *arg), void *arg)
{
	enum fpm_err e = FPM_ERR_MAX;
	char why[8];
	struct dec d = { 0, &e, why, sizeof(why) };
	struct nlmsghdr h;
	struct fpm_msg m;

	while (*off + sizeof(h) <= len) {
		memcpy(&h, p + *off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - *off)
			break; /* not checked by fpm_frame_parse: the caller's bug */
		d.index++;
		bool more = message(&d, &h, p + *off + NLMSG_HDRLEN, &m) < 0 || fn(&m, arg);
		*off += h.nlmsg_len;
		if (!more)
			return *off >= len;
	}
	return true;
}

int fpm_frame_parse(const uint8_t *p, size_t len, void (*fn)(const struct fpm_msg *m, void *arg),
                    void *arg, enum fpm_err *e, char *why, size_t whylen)
{
	struct dec d = { 0, e, why, whylen };

	if (fn != NULL && walk(p, len, NULL, NULL, &d) < 0)
		return -1;
	return walk(p, len, fn, arg, &d);
}
