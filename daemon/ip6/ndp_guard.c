/* SPDX-License-Identifier: BSD-3-Clause */
/* The control thread's side of ndp_guard.h: the filter of neighbours'
 * addresses and the interfaces that answer Router Solicitations. */
#include "ip6/ndp_guard.h"
#include "nexthop/neigh.h"

uint8_t ndp_guard_known[NDP_GUARD_BITS / 8];
uint8_t ndp_guard_rs[FWD_MAX_IFACES];

static uint64_t synced_ms;

static void set_byte(uint8_t *b, uint8_t v)
{
	if (*b != v)
		__atomic_store_n(b, v, __ATOMIC_RELAXED);
}

void ndp_guard_mark(const uint8_t a[16])
{
	unsigned h = ndp_guard_hash(a);

	set_byte(&ndp_guard_known[h / 8], (uint8_t)(ndp_guard_known[h / 8] | 1u << (h % 8)));
}

void ndp_guard_sync(uint64_t now)
{
	static uint8_t want[sizeof(ndp_guard_known)];
	uint32_t pos = 0;
	struct fwd_ip a;

	if (now - synced_ms < NDP_GUARD_SYNC_MS)
		return;
	synced_ms = now;
	memset(want, 0, sizeof(want));
	while (neigh_addr_next(&pos, &a))
		if (a.family == AF_INET6) {
			unsigned h = ndp_guard_hash(a.v6);

			want[h / 8] |= (uint8_t)(1u << (h % 8));
		}
	for (unsigned i = 0; i < sizeof(want); i++)
		set_byte(&ndp_guard_known[i], want[i]);
}

void ndp_guard_rs_set(uint16_t port, bool on)
{
	if (port < FWD_MAX_IFACES)
		set_byte(&ndp_guard_rs[port], on);
}

void ndp_guard_reset(void)
{
	memset(ndp_guard_known, 0, sizeof(ndp_guard_known));
	memset(ndp_guard_rs, 0, sizeof(ndp_guard_rs));
	synced_ms = 0;
}
