/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame summaries for `fwdctl capture`. The bytes come from the wire:
 * every field is bounds-checked against what was captured, and a frame
 * too short for the next header says so instead of guessing.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"

struct sbuf {
	char *p;
	size_t len, cap;
};

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static void add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len + 1 >= b->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = min_size(b->len + (size_t)n, b->cap - 1);
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static const char *ip4(const uint8_t *p, char buf[INET_ADDRSTRLEN])
{
	return inet_ntop(AF_INET, p, buf, INET_ADDRSTRLEN);
}

static const char *mac(const uint8_t *p, char buf[18])
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3], p[4], p[5]);
	return buf;
}

static const char *icmp_name(uint8_t type, uint8_t code)
{
	static const char *const unreach[] = { "net unreachable",      "host unreachable",
		                               "protocol unreachable", "port unreachable",
		                               "fragmentation needed", "source route failed" };

	switch (type) {
	case 0:
		return "echo reply";
	case 3:
		return code < 6 ? unreach[code] : "destination unreachable";
	case 5:
		return "redirect";
	case 8:
		return "echo request";
	case 11:
		return code == 0 ? "time exceeded in transit" : "fragment reassembly time exceeded";
	case 12:
		return "parameter problem";
	default:
		return NULL;
	}
}

static void icmp4(struct sbuf *b, const uint8_t *d, size_t len)
{
	const char *name;

	if (len < 4) {
		add(b, " ICMP (truncated)");
		return;
	}
	name = icmp_name(d[0], d[1]);
	if (name != NULL)
		add(b, " ICMP %s", name);
	else
		add(b, " ICMP type %u code %u", d[0], d[1]);
	if ((d[0] == 0 || d[0] == 8) && len >= 8)
		add(b, " id %u seq %u", be16(d + 4), be16(d + 6));
}

static void tcp_flags(struct sbuf *b, uint8_t f)
{
	static const char letters[] = "FSRP.U"; /* FIN SYN RST PSH ACK URG, tcpdump's */
	char s[8];
	size_t n = 0;

	for (unsigned i = 0; i < 6; i++)
		if (f & (1u << i))
			s[n++] = letters[i];
	s[n] = '\0';
	add(b, " [%s]", n ? s : "none");
}

/* After "SRC > DST": ports and the transport's own summary. */
static void ip4_payload(struct sbuf *b, uint8_t proto, const uint8_t *d, size_t len,
                        bool first_frag)
{
	if (!first_frag) {
		add(b, " proto %u (fragment)", proto);
		return;
	}
	switch (proto) {
	case 1:
		icmp4(b, d, len);
		break;
	case 6:
		if (len >= 14) {
			add(b, " TCP %u > %u", be16(d), be16(d + 2));
			tcp_flags(b, d[13]);
		} else {
			add(b, " TCP (truncated)");
		}
		break;
	case 17:
		if (len >= 8)
			add(b, " UDP %u > %u len %u", be16(d), be16(d + 2), be16(d + 4));
		else
			add(b, " UDP (truncated)");
		break;
	default:
		add(b, " proto %u", proto);
	}
}

static void ipv4(struct sbuf *b, const uint8_t *d, size_t len)
{
	char s[INET_ADDRSTRLEN], t[INET_ADDRSTRLEN];
	size_t ihl;
	uint16_t frag;

	if (len < 20 || (d[0] >> 4) != 4 || (ihl = (size_t)(d[0] & 0xf) * 4) < 20) {
		add(b, "IPv4 (truncated or bad header)");
		return;
	}
	add(b, "%s > %s", ip4(d + 12, s), ip4(d + 16, t));
	frag = be16(d + 6);
	ip4_payload(b, d[9], d + min_size(ihl, len), len > ihl ? len - ihl : 0,
	            (frag & 0x1fff) == 0);
	if (frag & 0x3fff)
		add(b, " frag off %u%s", (frag & 0x1fff) * 8u, frag & 0x2000 ? " more" : "");
	add(b, " ttl %u", d[8]);
}

static void arp(struct sbuf *b, const uint8_t *d, size_t len)
{
	char s[INET_ADDRSTRLEN], t[INET_ADDRSTRLEN], m[18];

	/* Ethernet/IPv4 ARP only: hardware type 1, protocol 0x0800, sizes 6 and 4 */
	if (len < 28 || be16(d) != 1 || be16(d + 2) != 0x0800 || d[4] != 6 || d[5] != 4) {
		add(b, "ARP (not Ethernet/IPv4, or truncated)");
		return;
	}
	if (be16(d + 6) == 1)
		add(b, "ARP who-has %s tell %s", ip4(d + 24, t), ip4(d + 14, s));
	else if (be16(d + 6) == 2)
		add(b, "ARP %s is-at %s", ip4(d + 14, s), mac(d + 8, m));
	else
		add(b, "ARP op %u", be16(d + 6));
}

static void ipv6(struct sbuf *b, const uint8_t *d, size_t len)
{
	char s[INET6_ADDRSTRLEN], t[INET6_ADDRSTRLEN];

	if (len < 40) {
		add(b, "IPv6 (truncated)");
		return;
	}
	inet_ntop(AF_INET6, d + 8, s, sizeof(s));
	inet_ntop(AF_INET6, d + 24, t, sizeof(t));
	add(b, "IPv6 %s > %s next-header %u", s, t, d[6]);
}

void fwd_capture_describe(const uint8_t *d, size_t len, char *out, size_t outlen)
{
	struct sbuf b = { .p = out, .cap = outlen };
	char m1[18], m2[18];
	size_t off = 12;
	uint16_t type;

	if (outlen == 0)
		return;
	out[0] = '\0';
	if (len < 14) {
		add(&b, "truncated frame");
		return;
	}
	type = be16(d + off);
	while ((type == 0x8100 || type == 0x88a8) && len >= off + 6) {
		add(&b, "vlan %u ", be16(d + off + 2) & 0xfff);
		type = be16(d + off + 4);
		off += 4;
	}
	off += 2;
	if (type == 0x0800)
		ipv4(&b, d + off, len - off);
	else if (type == 0x0806)
		arp(&b, d + off, len - off);
	else if (type == 0x86dd)
		ipv6(&b, d + off, len - off);
	else
		add(&b, "%s > %s ethertype 0x%04x", mac(d + 6, m1), mac(d, m2), type);
}
