/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text forms of IPv4 and IPv6 addresses, prefixes and MAC addresses, shared
 * by the daemon (config, RPC arguments) and fwdctl. Parsers are strict:
 * dotted quads only (no octal, hex or short forms), IPv6 as inet_pton(3)
 * reads it, prefix lengths 0-32 and 0-128 in plain decimal, MACs as six
 * colon-separated hex pairs. IPv4 addresses are in host byte order, IPv6
 * ones as their 16 bytes in network order; output is RFC 5952's form.
 */
#ifndef FWD_INET_H
#define FWD_INET_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#define FWD_IP4_STRLEN     16 /* "255.255.255.255" + NUL */
#define FWD_PREFIX4_STRLEN 20 /* "255.255.255.255/32" + NUL, rounded up for -Wformat-truncation */
#define FWD_MAC_STRLEN     18 /* "02:00:00:00:00:01" + NUL */
#define FWD_IP6_STRLEN     46 /* INET6_ADDRSTRLEN */
#define FWD_IP_STRLEN      FWD_IP6_STRLEN
#define FWD_PREFIX_STRLEN  50 /* an IPv6 address, "/128" and NUL */

/* An IPv4 address with prefix length; addr in host byte order. */
struct fwd_ip4_prefix {
	uint32_t addr;
	uint8_t len;
};

/* Returns 0, or -EINVAL with nothing written. */
int fwd_ip4_parse(const char *s, uint32_t *addr);
int fwd_mac_parse(const char *s, uint8_t mac[6]);

/*
 * "A.B.C.D/N"; without "/N" the length is 32. With host_bits_ok false, a
 * prefix with bits set past its length is -EINVAL (routes); with true they
 * are kept (interface addresses such as 10.0.0.1/24).
 */
int fwd_ip4_prefix_parse(const char *s, struct fwd_ip4_prefix *p, bool host_bits_ok);

char *fwd_ip4_fmt(uint32_t addr, char buf[FWD_IP4_STRLEN]);
char *fwd_ip4_prefix_fmt(const struct fwd_ip4_prefix *p, char buf[FWD_PREFIX4_STRLEN]);
char *fwd_mac_fmt(const uint8_t mac[6], char buf[FWD_MAC_STRLEN]);

/* An IPv6 address with prefix length. */
struct fwd_ip6_prefix {
	uint8_t addr[16];
	uint8_t len;
};

/* An address of either family (family: AF_INET or AF_INET6; 0: none). */
struct fwd_ip {
	uint8_t family;
	union {
		uint32_t v4; /* host order */
		uint8_t v6[16];
	};
};

/* A prefix of either family. */
struct fwd_prefix {
	uint8_t family;
	uint8_t len;
	union {
		uint32_t v4; /* host order */
		uint8_t v6[16];
	};
};

int fwd_ip6_parse(const char *s, uint8_t addr[16]);
/* "X:X::X/N"; without "/N" the length is 128; host bits as for IPv4. */
int fwd_ip6_prefix_parse(const char *s, struct fwd_ip6_prefix *p, bool host_bits_ok);
char *fwd_ip6_fmt(const uint8_t addr[16], char buf[FWD_IP6_STRLEN]);
char *fwd_ip6_prefix_fmt(const struct fwd_ip6_prefix *p, char buf[FWD_PREFIX_STRLEN]);
/* Clear the bits of addr past len. */
void fwd_ip6_mask(uint8_t addr[16], uint8_t len);
/* True when addr lies inside addr p/len. */
bool fwd_ip6_in_prefix(const uint8_t addr[16], const uint8_t p[16], uint8_t len);

/* Either family: an IPv4 form is tried first (strictly), then IPv6. */
int fwd_ip_parse(const char *s, struct fwd_ip *a);
int fwd_prefix_parse(const char *s, struct fwd_prefix *p, bool host_bits_ok);
char *fwd_ip_fmt(const struct fwd_ip *a, char buf[FWD_IP_STRLEN]);
char *fwd_prefix_fmt(const struct fwd_prefix *p, char buf[FWD_PREFIX_STRLEN]);
bool fwd_ip_eq(const struct fwd_ip *a, const struct fwd_ip *b);
/* Order: IPv4 before IPv6, then address, then length (qsort-style result). */
int fwd_prefix_cmp(const struct fwd_prefix *a, const struct fwd_prefix *b);
/* Two lists of prefixes hold the same ones in the same order. */
bool fwd_prefixes_eq(const struct fwd_prefix *a, unsigned na, const struct fwd_prefix *b,
                     unsigned nb);

static inline struct fwd_ip fwd_ip_v4(uint32_t ip)
{
	struct fwd_ip a = { .family = AF_INET };

	a.v4 = ip;
	return a;
}

static inline struct fwd_ip fwd_ip_v6(const uint8_t ip[16])
{
	struct fwd_ip a = { .family = AF_INET6 };

	memcpy(a.v6, ip, sizeof(a.v6));
	return a;
}

/* Conversions between the family-tagged forms and each family's own. */
static inline struct fwd_ip4_prefix fwd_prefix_v4(const struct fwd_prefix *p)
{
	return (struct fwd_ip4_prefix){ p->v4, p->len };
}

struct fwd_ip6_prefix fwd_prefix_v6(const struct fwd_prefix *p);
struct fwd_prefix fwd_prefix_of4(const struct fwd_ip4_prefix *p);
struct fwd_prefix fwd_prefix_of6(const struct fwd_ip6_prefix *p);

static inline uint32_t fwd_ip4_mask(uint8_t len)
{
	return len == 0 ? 0 : ~UINT32_C(0) << (32 - len);
}

/* True when addr lies inside prefix p. */
static inline bool fwd_ip4_in_prefix(uint32_t addr, const struct fwd_ip4_prefix *p)
{
	return ((addr ^ p->addr) & fwd_ip4_mask(p->len)) == 0;
}

#endif
