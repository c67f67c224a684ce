/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 fragmentation (RFC 791, RFC 1812 4.2.2.7) into flat, single-segment mbufs. */
#ifndef FWD_IP4_FRAG_H
#define FWD_IP4_FRAG_H

#include <stdint.h>

#include <rte_mbuf.h>

#define IP4_FRAG_MAX 256 /* fragments of one packet: 9600 bytes at MTU 68 fit */

/*
 * Split the IPv4 packet in m (data starting at an Ethernet header of l2_len
 * bytes, DF clear, total length > mtu) into fragments of at most mtu bytes
 * each. Each fragment is a new mbuf from pool holding l2_len bytes of space
 * for the link header (contents undefined) then the IP fragment with its
 * header checksum set. Options flagged "copied" are repeated in every
 * fragment, the others go in the first only. Returns the number of
 * fragments, or -EINVAL (malformed or mtu too small), -E2BIG (more than max)
 * or -ENOMEM; m is not consumed in any case.
 */
int ip4_fragment(const struct rte_mbuf *m, uint16_t l2_len, uint16_t mtu, struct rte_mempool *pool,
                 struct rte_mbuf **out, unsigned max);

/* The options of hdr that go in non-first fragments, into out (max 40 bytes,
 * padded to a multiple of 4); returns their length. */
unsigned ip4_frag_copied_options(const uint8_t *opts, unsigned len, uint8_t *out);

#endif
