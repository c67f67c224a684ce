/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 fragmentation at the source (RFC 8200 4.5): the router's own packets only. */
#ifndef FWD_IP6_FRAG6_H
#define FWD_IP6_FRAG6_H

#include <stdint.h>

#include <rte_mbuf.h>

#define IP6_FRAG_MAX 64 /* fragments of one packet: 64,000 bytes at MTU 1280 fit */

/*
 * Split the IPv6 packet in m (data starting at a link header of l2_len
 * bytes) into fragments of at most mtu bytes of IPv6 each, with
 * identification id. Only a packet whose unfragmentable part is its bare
 * header is split (what the router makes: echo replies, errors; a
 * hop-by-hop, routing or fragment header after it is -EINVAL). Each
 * fragment is a new mbuf from pool: l2_len bytes of link header copied from
 * m, the header, a Fragment header, its share of the rest. Returns the
 * number of fragments, or -EINVAL, -E2BIG (more than max) or -ENOMEM; m is
 * not consumed in any case.
 */
int ip6_fragment(const struct rte_mbuf *m, uint16_t l2_len, uint16_t mtu, uint32_t id,
                 struct rte_mempool *pool, struct rte_mbuf **out, unsigned max);

#endif
