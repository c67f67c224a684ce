/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Next hops of both address families: what a FIB lookup leads to, the one
 * table IPv4 and IPv6 routes point into. Workers read entries without
 * locks; the control thread writes them. An entry's `type` is the one byte
 * the fast path tests: NH_FWD means "write l2 and send on port", and
 * fwd_len, non-zero only then, is its one size test. Rewriting a live
 * entry's l2 header goes through NH_PENDING and an RCU grace period
 * (nh_set_l2, which does not wait for it), so a worker never sends a
 * half-written header.
 *
 * Index 0 is the "no route" entry (a FIB miss yields 0). Indices below
 * NH_FIRST_DYNAMIC are fixed and shared by the families: local delivery,
 * blackhole, the reserved destinations, and one "connected subnet,
 * neighbour unknown" entry per port. A dynamic entry is a neighbour's
 * (nexthop/neigh.h: family, address and interface) or a VLAN's connected
 * entry (nh_connected_ref). Its generation changes each
 * time the index is handed out, so a packet punted while waiting for it
 * (it carries the generation it saw) can tell that the neighbour it was
 * routed to has gone. Released indices are reused first in, first out,
 * after an RCU grace period. ECMP groups will be entries of their own type
 * whose members are dynamic entries.
 */
#ifndef FWD_NEXTHOP_H
#define FWD_NEXTHOP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config.h"
#include "core/counter.h"
#include "core/worker.h"

enum nh_type {
	NH_NONE = 0,    /* no route */
	NH_FWD,         /* resolved neighbour: rewrite and send */
	NH_PENDING,     /* neighbour known by address, l2 not (yet) valid */
	NH_CONNECTED,   /* on a connected subnet: resolve the destination itself */
	NH_LOCAL,       /* one of our addresses */
	NH_BLACKHOLE,   /* drop silently */
	NH_RESERVED,    /* never routed (IPv4: 0/8, 127/8, 224/3, RFC 1812 5.3.7) */
	NH_GROUP,       /* ECMP: one of the members of group `grp`, by flow hash */
	NH_UNREACHABLE, /* an unreachable route: drop, ICMP unreachable (host / no route) */
	NH_PROHIBIT,    /* a prohibit route: drop, ICMP administratively prohibited */
	NH_VRF,         /* a next_vrf route: look the destination up again in VRF `vrf` */
};

#define NH_IDX_NONE        0u
#define NH_IDX_LOCAL       1u
#define NH_IDX_BLACKHOLE   2u
#define NH_IDX_RESERVED    3u
#define NH_IDX_UNREACHABLE 4u
#define NH_IDX_PROHIBIT    5u
#define NH_IDX_CONNECTED   8u /* + port index */
#define NH_FIRST_DYNAMIC   (NH_IDX_CONNECTED + FWD_MAX_PORTS)

/* A neighbour's address: struct fwd_ip (fwd_inet.h), of either family. */

struct nexthop {
	/* read by workers */
	uint8_t type;     /* enum nh_type */
	uint8_t port;     /* PHYSICAL tx port: fwd_ifaces[iface].port (FWD, PENDING, CONNECTED) */
	uint16_t mtu;     /* the egress interface's L3 MTU (a tag does not count) */
	uint16_t fwd_len; /* largest frame (mtu + Ethernet header, before any tag) while type
	                   * is NH_FWD, else 0: the fast path's one test */
	uint8_t failed;   /* a neighbour's entry whose resolution failed: ECMP skips it */
	uint8_t used;     /* workers write: nh_use_epoch when they last forwarded by it */
	uint16_t iface;   /* egress INTERFACE id (FWD_IFACE_NONE: a group) */
	uint8_t tag;      /* NH_TAG_LEN when hdr carries an 802.1Q tag, else 0 */
	uint8_t pad;
	union {
		/* written at (frame start - 4) in one 16-byte store, the frame's
		 * ethertype (at +12) left where it is: untagged, 4 unused bytes,
		 * dst MAC, src MAC; tagged, dst MAC, src MAC, 0x8100, TCI (the
		 * frame then starts 4 bytes earlier). Valid while fwd_len != 0. */
		uint8_t hdr[16];
		uint32_t grp; /* NH_GROUP: its slot in nh_groups */
		uint16_t vrf; /* NH_VRF: the VRF looked in next (core/vrf.h) */
	};
	uint32_t gen; /* changes with every new owner of the index; punts carry it */
} __rte_aligned(32);

_Static_assert(sizeof(struct nexthop) == 32, "a next hop is half a cache line");

#define NH_TAG_LEN 4 /* an 802.1Q tag: TPID and TCI */

/* The neighbour's MAC in an entry's header (FWD; zero while unresolved). */
static inline const struct rte_ether_addr *nh_dst_mac(const struct nexthop *nh)
{
	return (const struct rte_ether_addr *)(const void *)&nh->hdr[NH_TAG_LEN - nh->tag];
}

/* Write nh's header before the frame's ethertype (eth: the frame's start,
 * with at least 4 bytes of headroom): one 16-byte store at eth - 4. */
static __rte_always_inline void nh_hdr_write(const struct nexthop *nh, uint8_t *eth)
{
	memcpy(eth - NH_TAG_LEN, nh->hdr, sizeof(nh->hdr));
}

/* After nh_hdr_write of a tagging next hop: the frame starts 4 bytes earlier. */
static __rte_always_inline void nh_tag_mbuf(struct rte_mbuf *m)
{
	m->data_off -= NH_TAG_LEN;
	m->data_len += NH_TAG_LEN;
	m->pkt_len += NH_TAG_LEN;
}

/* Does nh's physical port differ from a run's (the fast paths)? Compared
 * in memory, so that the loop neither loads the port nor moves it into the run's
 * register when, as nearly always, they are the same. */
static __rte_always_inline bool nh_other_port(const struct nexthop *nh, unsigned run)
{
#if defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__)
	bool differ;

	__asm__("cmpb %b[run], %[port]" : "=@ccne"(differ) : [port] "m"(nh->port), [run] "q"(run));
	return differ;
#else
	return nh->port != run;
#endif
}

/*
 * A frame of length len leaving on a VLAN (nh->tag), its header written
 * by nh_hdr_write: it now starts 4 bytes earlier; the VLAN counts it, and
 * *tags the bytes a fast path's run adds for tags (sent, not received).
 * Its length as sent, which the port's run counts.
 */
static __rte_always_inline unsigned nh_tag_out(struct fwd_worker *w, struct rte_mbuf *m,
                                               const struct nexthop *nh, unsigned len,
                                               uint32_t *tags)
{
	nh_tag_mbuf(m);
	len += NH_TAG_LEN;
	fwd_vlan_tx_count(w, nh->iface, len);
	*tags += NH_TAG_LEN;
	return len;
}

/* A frame that came in tagged (18-byte header, the tag kept) and leaves
 * untagged: nh_hdr_write wrote its 14-byte header 4 bytes in, where the
 * frame now starts. */
static __rte_always_inline void nh_untag_mbuf(struct rte_mbuf *m)
{
	m->data_off += NH_TAG_LEN;
	m->data_len -= NH_TAG_LEN;
	m->pkt_len -= NH_TAG_LEN;
}

/*
 * Fill the link header of m for next hop nh (slow paths, control thread):
 * m's data starts with a 14-byte Ethernet header to fill, and ethertype
 * (big-endian) goes into it; with a tag, the frame grows by 4 bytes at
 * the front (18-byte header). 0, or -ENOBUFS (m untouched) when m has no
 * headroom for the tag: the caller counts the drop.
 */
int nh_l2_write(const struct nexthop *nh, struct rte_mbuf *m, uint16_t ethertype_be);

/*
 * A packet a worker punts while its next hop idx resolves carries idx and
 * the low bits of the entry's generation in one word (fwd_punt_meta.aux): an
 * index has at most 22 bits (dataplane.nexthops <= 4194304), and for the 10
 * bits of generation to repeat, the index would have to be handed out 1024
 * times while the packet waits in the punt ring, which is drained every
 * half millisecond.
 */
#define NH_PUNT_IDX_BITS 22
#define NH_PUNT_IDX_MASK ((UINT32_C(1) << NH_PUNT_IDX_BITS) - 1)

static inline uint32_t nh_punt_tag(uint32_t idx, uint32_t gen)
{
	return (idx & NH_PUNT_IDX_MASK) | gen << NH_PUNT_IDX_BITS;
}

static inline uint32_t nh_punt_idx(uint32_t tag)
{
	return tag & NH_PUNT_IDX_MASK;
}

/* Does tag name the current owner of its index? */
static inline bool nh_punt_current(uint32_t tag, uint32_t gen)
{
	return (tag >> NH_PUNT_IDX_BITS) == (gen & (UINT32_MAX >> NH_PUNT_IDX_BITS));
}

/* Blocking RCU waits of the next-hop layer (a table full of released
 * entries, a port's MTU or MAC change): never one per neighbour MAC change. */
extern struct fwd_counter nh_rcu_waits;

/*
 * Which neighbours carry traffic, for eviction (nexthop/neigh.c): the
 * control thread advances nh_use_epoch (1..255) every second; a worker
 * reads it once a burst and, for each packet it forwards, stores it into
 * the entry's `used` only when it differs: a compare a packet, a store an
 * entry and epoch. The one field of an entry workers write.
 */
extern uint8_t nh_use_epoch;

static __rte_always_inline void nh_mark_used(const struct nexthop *nh, uint8_t epoch)
{
	if (unlikely(nh->used != epoch))
		__atomic_store_n(&((struct nexthop *)(uintptr_t)nh)->used, epoch, __ATOMIC_RELAXED);
}

/* Did workers forward by entry idx since the epoch began? (control thread) */
bool nh_used_this_epoch(uint32_t idx);
/* The next epoch (control thread, once a second). */
void nh_use_epoch_next(void);

/* The table workers index with FIB results; fixed size, set at init. */
extern struct nexthop *nh_table;
extern uint32_t nh_count;

int nh_init(uint32_t count, int socket);
void nh_fini(void);

/* A dynamic entry for neighbour a on interface iface, type NH_PENDING; its
 * port, MTU, source MAC and tag come from the interface. -ENOSPC when full. */
int nh_alloc(const struct fwd_ip *a, uint16_t iface, uint32_t *idx);
/* Return a dynamic entry; reusable once no worker can still hold it. */
void nh_release(uint32_t idx);
/* The neighbour address of a dynamic entry (control thread). */
const struct fwd_ip *nh_addr(uint32_t idx);
/* Make entry idx forward to mac (FWD), or stop forwarding (mac NULL: PENDING).
 * A new MAC for an entry workers may still be reading is published only
 * after an RCU grace period, which nobody waits for: until nh_l2_poll
 * publishes it, nh_l2_waiting is true and the entry is PENDING. */
void nh_set_l2(uint32_t idx, const struct rte_ether_addr *mac);
bool nh_l2_waiting(uint32_t idx);
/* Publish the new MACs whose grace period has passed, calling published
 * (when not NULL) with each entry's index. Control thread, never blocks. */
void nh_l2_poll(void (*published)(uint32_t idx));
/* Interface iface's MTU or MAC changed: refresh the entries on it (a
 * port's: its VLANs' entries too, as they carry its MAC). */
void nh_iface_update(uint16_t iface);
/*
 * The connected next hop of a VLAN interface (type NH_CONNECTED, a dynamic
 * entry): a port's is the fixed NH_IDX_CONNECTED + port, a loopback has
 * none (-ENODEV). Counted per interface (one reference per connected
 * route); the last unref releases it after an RCU grace period.
 * 0, -ENODEV, -ENOSPC.
 */
int nh_connected_ref(uint16_t iface, uint32_t *idx);
void nh_connected_unref(uint16_t iface);
/* Forget every VLAN's connected entry (nh_init: a new table holds none). */
void nh_connected_reset(void);
/* Reclaim released entries whose grace period has ended. */
void nh_reclaim(void);
/* The neighbour layer marks an entry whose resolution failed (or no longer). */
void nh_set_failed(uint32_t idx, bool failed);

/*
 * ECMP groups. A group is an entry of type NH_GROUP whose members are
 * neighbour entries; its member set never changes (a route whose next hops
 * change takes another group), so workers read it without any care beyond
 * the RCU grace period before a freed slot is reused. Groups are shared:
 * every route over the same members holds the same group (counted
 * references). The fast path picks the member at the flow's hash, skipping
 * members whose resolution failed (as Linux's fib_multipath_use_neigh); a
 * member still resolving is used, so that its packets wait for it.
 */
#define NH_GROUPS_MAX 4096

struct nh_group {
	uint32_t n; /* 2..FWD_ECMP_MAX */
	uint32_t m[FWD_ECMP_MAX];
};

extern struct nh_group *nh_groups;

/* One step of the flow hash ECMP picks members by: a CRC32-C step where
 * the CPU has one (SSE4.2), else a multiplicative mix. */
static inline uint32_t nh_hash_step(uint32_t h, uint32_t v)
{
#ifdef __SSE4_2__
	return __builtin_ia32_crc32si(h, v);
#else
	h = (h ^ v) * 0x9e3779b1u;
	return h ^ (h >> 15);
#endif
}

/* The member of group entry g (type NH_GROUP) a flow with hash h takes. */
static inline uint32_t nh_group_pick(const struct nexthop *tbl, const struct nexthop *g, uint32_t h)
{
	const struct nh_group *grp = &nh_groups[__atomic_load_n(&g->grp, __ATOMIC_ACQUIRE)];
	uint32_t n = grp->n, i = (uint32_t)(((uint64_t)h * n) >> 32);

	for (uint32_t k = 0; k < n; k++) {
		uint32_t idx = grp->m[i];
		if (likely(!__atomic_load_n(&tbl[idx].failed, __ATOMIC_RELAXED)))
			return idx;
		i = i + 1 == n ? 0 : i + 1;
	}
	return grp->m[(uint32_t)(((uint64_t)h * n) >> 32)];
}

/* Does a member of group entry g (type NH_GROUP) leave by interface iface? (workers) */
static inline bool nh_group_has_iface(const struct nexthop *tbl, const struct nexthop *g,
                                      uint16_t iface)
{
	const struct nh_group *grp = &nh_groups[__atomic_load_n(&g->grp, __ATOMIC_ACQUIRE)];

	for (uint32_t k = 0; k < grp->n; k++)
		if (tbl[grp->m[k]].iface == iface)
			return true;
	return false;
}

/*
 * Does the route to a packet's source, next hop nh, pass the reverse-path
 * filter mode (enum fwd_rpf, RFC 3704) of the interface it came in by?
 * Strict: the route leaves by that interface (a VLAN, not just its port;
 * any member of an ECMP group); loose: any
 * route that is not blackhole, unreachable or prohibit (as Linux's
 * rp_filter=2). Our own addresses and reserved ranges never pass.
 */
static inline bool nh_rpf_pass(const struct nexthop *tbl, const struct nexthop *nh, uint16_t in,
                               uint8_t strict)
{
	switch (nh->type) {
	case NH_FWD:
	case NH_PENDING:
	case NH_CONNECTED:
		return !strict || nh->iface == in;
	case NH_GROUP:
		return !strict || nh_group_has_iface(tbl, nh, in);
	default:
		return false;
	}
}

/*
 * The group of members m[0..n-1] (2 <= n <= FWD_ECMP_MAX, neighbour entries
 * the caller holds one reference to each, from neigh_ref): the group takes
 * those references over (or drops them, when it already holds its own) and
 * the caller gets one reference to the group. 0 and its index, -ENOSPC.
 */
int nh_group_get(const uint32_t *m, unsigned n, uint32_t *idx);
/* Drop a reference; the last one releases the group and its members. */
void nh_group_put(uint32_t idx);
/* The members of group idx (control thread): their count, 0 if idx is none. */
unsigned nh_group_members(uint32_t idx, uint32_t m[FWD_ECMP_MAX]);
/* Does next hop idx (a group or a single entry) leave by interface iface? */
bool nh_uses_iface(uint32_t idx, uint16_t iface);
uint32_t nh_groups_used(void);

/*
 * A route's next hop over gateways via[i] on interface iface[i] (n <= FWD_ECMP_MAX):
 * the neighbour's entry for one, an ECMP group for more (repeated gateways
 * are refused: -EINVAL). 0, or -ENOSPC / -EINVAL with nothing taken.
 * nh_route_unref gives back what nh_route_ref took.
 */
int nh_route_ref(unsigned n, const struct fwd_ip *via, const uint16_t *iface, uint32_t *nh);
void nh_route_unref(uint32_t nh);
/* The gateways of a route's next hop (a neighbour's entry or a group). */
unsigned nh_gateways(uint32_t nh, struct fwd_ip out[FWD_ECMP_MAX]);
/* The fixed next hop of a route without a gateway: type NH_BLACKHOLE,
 * NH_UNREACHABLE, NH_PROHIBIT, NH_CONNECTED (the link of l3 interface
 * dev: a VLAN's takes a reference, nh_route_fixed_put gives it back) or
 * NH_VRF (dev: the VRF of a next_vrf route; one counted entry per VRF).
 * 0, -ENODEV (dev is not an l3 port or VLAN, or no VRF), -ENOSPC or -EINVAL. */
int nh_route_fixed(uint8_t type, int dev, uint32_t *nh);
void nh_route_fixed_put(uint32_t nh);
/* Within the layer: port, MTU, source MAC and tag of interface iface into
 * nh (its neighbour's MAC stays); a VLAN's connected entry (nh_iface.c). */
void nh_fill(struct nexthop *nh, uint16_t iface);
int nh_alloc_connected(uint16_t iface, uint32_t *idx);
/* Within the layer: a group entry for slot (nhgroup.c). */
int nh_alloc_group(uint32_t slot, uint32_t *idx);
/* Within the layer: an NH_VRF entry for VRF vrf. */
int nh_alloc_vrf(uint16_t vrf, uint32_t *idx);
/* Reclaim freed group slots whose grace period has ended. */
void nh_group_reclaim(void);
int nh_groups_init(int socket);
void nh_groups_fini(void);

#endif
