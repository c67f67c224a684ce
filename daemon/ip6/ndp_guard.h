/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the workers know of NDP, to sort the messages punted to us before
 * the policer (core/punt.h, input_slow.c): the control thread keeps it,
 * workers read it (single byte stores, relaxed).
 *
 * fwd ignores (ndp_input.c) Router Advertisements and Redirects (it is a
 * router), Router Solicitations on an interface without `ra`, solicitations for
 * addresses not ours (other hosts', on a shared link) and advertisements
 * for targets that are neither ours nor a neighbour's (RFC 4861 7.2.5:
 * without an entry, silently discarded). Dropped in the worker
 * (ndp_ignored), none of them takes a token that a host's solicitation or
 * the answer to ours needs. The neighbours are a filter, a bit per 16-bit
 * hash of an address: set when NDP solicits an address or learns an asker,
 * rebuilt from the neighbour table every NDP_GUARD_SYNC_MS so that the
 * bits of entries gone fade. A false "known" only lets a message on to its
 * bucket, as before.
 */
#ifndef FWD_IP6_NDP_GUARD_H
#define FWD_IP6_NDP_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/config.h"
#include "core/iface.h"

#define NDP_GUARD_BITS    (1u << 16)
#define NDP_GUARD_SYNC_MS 1000

extern uint8_t ndp_guard_known[NDP_GUARD_BITS / 8];
/* Per interface (a port or VLAN, by id): non-zero when it sends Router
 * Advertisements (ports[].ra, interfaces[].ra). */
extern uint8_t ndp_guard_rs[FWD_MAX_IFACES];

static inline unsigned ndp_guard_hash(const uint8_t a[16])
{
	uint64_t hi, lo;

	memcpy(&hi, a, sizeof(hi));
	memcpy(&lo, a + 8, sizeof(lo));
	return (unsigned)(((hi ^ lo) * UINT64_C(0x9e3779b97f4a7c15)) >> 48);
}

/* Might a be a neighbour's address? (workers) */
static inline bool ndp_guard_known_test(const uint8_t a[16])
{
	unsigned h = ndp_guard_hash(a);

	return __atomic_load_n(&ndp_guard_known[h / 8], __ATOMIC_RELAXED) & (1u << (h % 8));
}

/* Control thread. */
void ndp_guard_mark(const uint8_t a[16]);      /* a is (about to be) a neighbour */
void ndp_guard_sync(uint64_t now);             /* rebuild, when NDP_GUARD_SYNC_MS passed */
void ndp_guard_rs_set(uint16_t port, bool on); /* interface port answers Router Solicitations */
void ndp_guard_reset(void);

#endif
