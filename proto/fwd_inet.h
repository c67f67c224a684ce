/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text forms of IPv4 addresses, prefixes and MAC addresses, shared by the
 * daemon (config, RPC arguments) and fwdctl. Parsers are strict: dotted
 * quads only (no octal, hex or short forms), prefix lengths 0-32, MACs as
 * six colon-separated hex pairs. Addresses are in host byte order.
 */
#ifndef FWD_INET_H
#define FWD_INET_H

#include <stdbool.h>
#include <stdint.h>

#define FWD_IP4_STRLEN     16 /* "255.255.255.255" + NUL */
#define FWD_PREFIX4_STRLEN 20 /* "255.255.255.255/32" + NUL, rounded up for -Wformat-truncation */
#define FWD_MAC_STRLEN     18 /* "02:00:00:00:00:01" + NUL */

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
