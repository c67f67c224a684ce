/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One ACL rule from its config text to numbers (acls[].rules[] in
 * fwd.yaml(5)): the loader's checks (acl_config.c) and the compiler
 * (acl_build.c) both parse through here, so what the file is refused for
 * and what is compiled cannot differ.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "acl/acl.h"

static const struct {
	const char *name;
	uint8_t num;
} protos[] = {
	{ "tcp", IPPROTO_TCP },   { "udp", IPPROTO_UDP },       { "icmp", IPPROTO_ICMP },
	{ "sctp", IPPROTO_SCTP }, { "icmpv6", IPPROTO_ICMPV6 },
};

/* Strict decimal 0..max (no sign, no leading zero); -1 otherwise. */
static long num(const char *s, size_t len, long max)
{
	long v = 0;

	if (len == 0 || len > 5 || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= max ? v : -1;
}

static int parse_proto(const char *s, int16_t *proto)
{
	long v;

	*proto = -1;
	if (s[0] == '\0')
		return 0;
	for (unsigned i = 0; i < RTE_DIM(protos); i++)
		if (strcmp(s, protos[i].name) == 0) {
			*proto = protos[i].num;
			return 0;
		}
	v = num(s, strlen(s), 255);
	if (v < 0)
		return -EINVAL;
	*proto = (int16_t)v;
	return 0;
}

/* "N" or "N-M" with N <= M; "" is 0-65535. */
static int parse_range(const char *s, uint16_t *lo, uint16_t *hi, char *why, size_t whylen)
{
	const char *dash = strchr(s, '-');
	long a, b;

	*lo = 0;
	*hi = UINT16_MAX;
	if (s[0] == '\0')
		return 0;
	a = num(s, dash ? (size_t)(dash - s) : strlen(s), UINT16_MAX);
	b = dash ? num(dash + 1, strlen(dash + 1), UINT16_MAX) : a;
	if (a < 0 || b < 0) {
		snprintf(why, whylen, "'%s' is not a port or a range N-M of ports (0-65535)", s);
		return -EINVAL;
	}
	if (a > b) {
		snprintf(why, whylen, "'%s' is an inverted range (%ld > %ld)", s, a, b);
		return -EINVAL;
	}
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

static int parse_small(const char *s, long max, int16_t *v)
{
	long x;

	*v = -1;
	if (s[0] == '\0')
		return 0;
	x = num(s, strlen(s), max);
	if (x < 0)
		return -EINVAL;
	*v = (int16_t)x;
	return 0;
}

static bool has_ports(int16_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP;
}

static bool is_icmp(int16_t proto)
{
	return proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6;
}

/* The family the rule's keys imply, or -EINVAL when they disagree. */
static int rule_family(const struct acl_rule *r, char *why, size_t whylen)
{
	int fam = r->src.family ? r->src.family : r->dst.family;

	if (r->src.family && r->dst.family && r->src.family != r->dst.family) {
		snprintf(why, whylen, "src and dst are of different families");
		return -EINVAL;
	}
	if ((r->proto == IPPROTO_ICMP && fam == AF_INET6) ||
	    (r->proto == IPPROTO_ICMPV6 && fam == AF_INET)) {
		snprintf(why, whylen, "proto %s does not go with %s addresses",
		         r->proto == IPPROTO_ICMP ? "icmp" : "icmpv6",
		         fam == AF_INET ? "IPv4" : "IPv6");
		return -EINVAL;
	}
	if (fam == 0 && r->proto == IPPROTO_ICMP)
		fam = AF_INET;
	if (fam == 0 && r->proto == IPPROTO_ICMPV6)
		fam = AF_INET6;
	return fam;
}

static int fail(const char **key, const char *k, char *why, size_t whylen, const char *msg)
{
	*key = k;
	if (msg != NULL)
		snprintf(why, whylen, "%s", msg);
	return -EINVAL;
}

/* The keys that need a protocol: ports, ICMP type and code. */
static int parse_l4(const struct fwd_conf_acl_rule *c, struct acl_rule *r, const char **key,
                    char *why, size_t whylen)
{
	if (parse_range(c->sport, &r->sport_lo, &r->sport_hi, why, whylen) < 0)
		return fail(key, "sport", why, whylen, NULL);
	if (parse_range(c->dport, &r->dport_lo, &r->dport_hi, why, whylen) < 0)
		return fail(key, "dport", why, whylen, NULL);
	if ((c->sport[0] || c->dport[0]) && !has_ports(r->proto))
		return fail(key, c->sport[0] ? "sport" : "dport", why, whylen,
		            "ports need proto tcp, udp or sctp");
	if (parse_small(c->icmp_type, 255, &r->icmp_type) < 0)
		return fail(key, "icmp_type", why, whylen, "expected a number 0-255");
	if (parse_small(c->icmp_code, 255, &r->icmp_code) < 0)
		return fail(key, "icmp_code", why, whylen, "expected a number 0-255");
	if ((r->icmp_type >= 0 || r->icmp_code >= 0) && !is_icmp(r->proto))
		return fail(key, r->icmp_type >= 0 ? "icmp_type" : "icmp_code", why, whylen,
		            "icmp_type and icmp_code need proto icmp or icmpv6");
	r->l4 = c->sport[0] || c->dport[0] || r->icmp_type >= 0 || r->icmp_code >= 0;
	if (r->l4 && c->fragment)
		return fail(key, "fragment", why, whylen,
		            "a non-first fragment has no ports nor ICMP type: drop the ports or "
		            "the fragment key");
	return 0;
}

int acl_rule_parse(const struct fwd_conf_acl_rule *c, struct acl_rule *r, const char **key,
                   char *why, size_t whylen)
{
	int fam;

	memset(r, 0, sizeof(*r));
	r->action = (uint8_t)c->action;
	r->src = c->src;
	r->dst = c->dst;
	r->fragment = c->fragment;
	if (parse_proto(c->proto, &r->proto) < 0)
		return fail(key, "proto", why, whylen,
		            "expected tcp, udp, icmp, icmpv6, sctp or a number 0-255");
	if (parse_l4(c, r, key, why, whylen) < 0)
		return -EINVAL;
	if (parse_small(c->dscp, 63, &r->dscp) < 0)
		return fail(key, "dscp", why, whylen, "expected a number 0-63");
	fam = rule_family(r, why, whylen);
	if (fam < 0)
		return fail(key, r->dst.family ? "dst" : "proto", why, whylen, NULL);
	r->family = (uint8_t)fam;
	return 0;
}

bool acl_rule_in_family(const struct acl_rule *r, int family)
{
	return r->family == 0 || r->family == family;
}
