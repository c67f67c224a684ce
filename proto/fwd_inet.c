/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
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
