/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>

#include "fwd_inet.h"

/*
 * A decimal number of 1..maxdig digits with no leading zero (so "010" can
 * never be read as octal by someone else's tool). Returns the number of
 * characters used, or 0.
 */
static size_t parse_dec(const char *s, size_t maxdig, unsigned *val)
{
	size_t i = 0;
	unsigned v = 0;

	while (s[i] >= '0' && s[i] <= '9') {
		if (i == maxdig)
			return 0;
		v = v * 10 + (unsigned)(s[i] - '0');
		i++;
	}
	if (i == 0 || (i > 1 && s[0] == '0'))
		return 0;
	*val = v;
	return i;
}

/* Parses a dotted quad at the start of s; returns the characters used or 0. */
static size_t parse_quad(const char *s, uint32_t *addr)
{
	uint32_t a = 0;
	size_t pos = 0;

	for (int i = 0; i < 4; i++) {
		unsigned octet;
		size_t n;

		if (i > 0 && s[pos++] != '.')
			return 0;
		n = parse_dec(s + pos, 3, &octet);
		if (n == 0 || octet > 255)
			return 0;
		a = a << 8 | octet;
		pos += n;
	}
	*addr = a;
	return pos;
}

int fwd_ip4_parse(const char *s, uint32_t *addr)
{
	uint32_t a;
	size_t n = parse_quad(s, &a);

	if (n == 0 || s[n] != '\0')
		return -EINVAL;
	*addr = a;
	return 0;
}

int fwd_ip4_prefix_parse(const char *s, struct fwd_ip4_prefix *p, bool host_bits_ok)
{
	unsigned len = 32;
	uint32_t a;
	size_t n = parse_quad(s, &a);

	if (n == 0)
		return -EINVAL;
	if (s[n] == '/') {
		size_t m = parse_dec(s + n + 1, 2, &len);

		if (m == 0 || len > 32)
			return -EINVAL;
		n += 1 + m;
	}
	if (s[n] != '\0')
		return -EINVAL;
	if (!host_bits_ok && (a & ~fwd_ip4_mask((uint8_t)len)) != 0)
		return -EINVAL;
	p->addr = a;
	p->len = (uint8_t)len;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int fwd_mac_parse(const char *s, uint8_t mac[6])
{
	uint8_t m[6];

	for (int i = 0; i < 6; i++) {
		const char *h = s + 3 * i;
		int hi = hexval(h[0]);
		int lo = hi < 0 ? -1 : hexval(h[1]);

		if (lo < 0 || h[2] != (i == 5 ? '\0' : ':'))
			return -EINVAL;
		m[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, m, sizeof(m));
	return 0;
}

char *fwd_ip4_fmt(uint32_t addr, char buf[FWD_IP4_STRLEN])
{
	snprintf(buf, FWD_IP4_STRLEN, "%u.%u.%u.%u", addr >> 24, (addr >> 16) & 0xff,
	         (addr >> 8) & 0xff, addr & 0xff);
	return buf;
}

char *fwd_ip4_prefix_fmt(const struct fwd_ip4_prefix *p, char buf[FWD_PREFIX4_STRLEN])
{
	char a[FWD_IP4_STRLEN];

	/* the clamp tells gcc -O3 the length has two digits at most */
	snprintf(buf, FWD_PREFIX4_STRLEN, "%s/%u", fwd_ip4_fmt(p->addr, a),
	         p->len <= 32 ? p->len : 32u);
	return buf;
}

char *fwd_mac_fmt(const uint8_t mac[6], char buf[FWD_MAC_STRLEN])
{
	snprintf(buf, FWD_MAC_STRLEN, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2],
	         mac[3], mac[4], mac[5]);
	return buf;
}

int fwd_ip6_parse(const char *s, uint8_t addr[16])
{
	uint8_t a[16];

	if (inet_pton(AF_INET6, s, a) != 1)
		return -EINVAL;
	memcpy(addr, a, sizeof(a));
	return 0;
}

void fwd_ip6_mask(uint8_t addr[16], uint8_t len)
{
	for (unsigned i = 0; i < 16; i++) {
		unsigned bits = len > 8 * i ? len - 8 * i : 0;

		if (bits < 8)
			addr[i] &= (uint8_t)(0xff00u >> bits);
	}
}

bool fwd_ip6_in_prefix(const uint8_t addr[16], const uint8_t p[16], uint8_t len)
{
	unsigned full = len / 8, rest = len % 8;

	if (len > 128 || memcmp(addr, p, full) != 0)
		return false;
	return rest == 0 || ((addr[full] ^ p[full]) & (uint8_t)(0xff00u >> rest)) == 0;
}

int fwd_ip6_prefix_parse(const char *s, struct fwd_ip6_prefix *p, bool host_bits_ok)
{
	char buf[FWD_IP6_STRLEN];
	const char *slash = strchr(s, '/');
	size_t n = slash != NULL ? (size_t)(slash - s) : strlen(s);
	unsigned len = 128;
	uint8_t a[16], m[16];

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (fwd_ip6_parse(buf, a) < 0)
		return -EINVAL;
	if (slash != NULL) {
		size_t d = parse_dec(slash + 1, 3, &len);

		if (d == 0 || slash[1 + d] != '\0' || len > 128)
			return -EINVAL;
	}
	memcpy(m, a, sizeof(a));
	fwd_ip6_mask(m, (uint8_t)len);
	if (!host_bits_ok && memcmp(m, a, sizeof(a)) != 0)
		return -EINVAL;
	memcpy(p->addr, a, sizeof(a));
	p->len = (uint8_t)len;
	return 0;
}

char *fwd_ip6_fmt(const uint8_t addr[16], char buf[FWD_IP6_STRLEN])
{
	if (inet_ntop(AF_INET6, addr, buf, FWD_IP6_STRLEN) == NULL)
		snprintf(buf, FWD_IP6_STRLEN, "?");
	return buf;
}

char *fwd_ip6_prefix_fmt(const struct fwd_ip6_prefix *p, char buf[FWD_PREFIX_STRLEN])
{
	char a[FWD_IP6_STRLEN];

	snprintf(buf, FWD_PREFIX_STRLEN, "%s/%u", fwd_ip6_fmt(p->addr, a),
	         p->len <= 128 ? p->len : 128u);
	return buf;
}

int fwd_ip_parse(const char *s, struct fwd_ip *a)
{
	struct fwd_ip r = { 0 };

	if (fwd_ip4_parse(s, &r.v4) == 0)
		r.family = AF_INET;
	else if (fwd_ip6_parse(s, r.v6) == 0)
		r.family = AF_INET6;
	else
		return -EINVAL;
	*a = r;
	return 0;
}

int fwd_prefix_parse(const char *s, struct fwd_prefix *p, bool host_bits_ok)
{
	struct fwd_ip4_prefix p4;
	struct fwd_ip6_prefix p6;

	if (fwd_ip4_prefix_parse(s, &p4, host_bits_ok) == 0)
		*p = fwd_prefix_of4(&p4);
	else if (fwd_ip6_prefix_parse(s, &p6, host_bits_ok) == 0)
		*p = fwd_prefix_of6(&p6);
	else
		return -EINVAL;
	return 0;
}

char *fwd_ip_fmt(const struct fwd_ip *a, char buf[FWD_IP_STRLEN])
{
	if (a->family == AF_INET6)
		return fwd_ip6_fmt(a->v6, buf);
	return fwd_ip4_fmt(a->v4, buf);
}

char *fwd_prefix_fmt(const struct fwd_prefix *p, char buf[FWD_PREFIX_STRLEN])
{
	struct fwd_ip4_prefix p4;
	struct fwd_ip6_prefix p6;

	if (p->family == AF_INET6) {
		p6 = fwd_prefix_v6(p);
		return fwd_ip6_prefix_fmt(&p6, buf);
	}
	p4 = fwd_prefix_v4(p);
	return fwd_ip4_prefix_fmt(&p4, buf);
}

bool fwd_ip_eq(const struct fwd_ip *a, const struct fwd_ip *b)
{
	if (a->family != b->family)
		return false;
	return a->family == AF_INET6 ? memcmp(a->v6, b->v6, sizeof(a->v6)) == 0 : a->v4 == b->v4;
}

struct fwd_ip6_prefix fwd_prefix_v6(const struct fwd_prefix *p)
{
	struct fwd_ip6_prefix r;

	memcpy(r.addr, p->v6, sizeof(r.addr));
	r.len = p->len;
	return r;
}

struct fwd_prefix fwd_prefix_of4(const struct fwd_ip4_prefix *p)
{
	struct fwd_prefix r = { .family = AF_INET, .len = p->len };

	r.v4 = p->addr;
	return r;
}

struct fwd_prefix fwd_prefix_of6(const struct fwd_ip6_prefix *p)
{
	struct fwd_prefix r = { .family = AF_INET6, .len = p->len };

	memcpy(r.v6, p->addr, sizeof(r.v6));
	return r;
}

int fwd_prefix_cmp(const struct fwd_prefix *a, const struct fwd_prefix *b)
{
	int d;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->family == AF_INET6)
		d = memcmp(a->v6, b->v6, sizeof(a->v6));
	else
		d = a->v4 < b->v4 ? -1 : a->v4 > b->v4;
	if (d != 0)
		return d < 0 ? -1 : 1;
	return a->len < b->len ? -1 : a->len > b->len;
}

bool fwd_prefixes_eq(const struct fwd_prefix *a, unsigned na, const struct fwd_prefix *b,
                     unsigned nb)
{
	if (na != nb)
		return false;
	for (unsigned k = 0; k < na; k++)
		if (fwd_prefix_cmp(&a[k], &b[k]) != 0)
			return false;
	return true;
}
