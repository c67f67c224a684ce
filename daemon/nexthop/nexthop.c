/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "core/counter.h"
#include "core/daemon.h"
#include "core/iface.h"
#include "fwd_inet.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

struct nexthop *nh_table;
uint32_t nh_count;
uint8_t nh_use_epoch = 1; /* never 0: a cleared entry was never used */

static struct fwd_ip *addrs; /* a dynamic entry's neighbour, control thread only */
static uint32_t *free_idx;   /* reusable dynamic indices: a FIFO ring of nh_count */
static uint32_t free_head, n_free;
static struct {
	uint32_t idx;
	uint64_t token;
} * pending; /* released, waiting for a grace period; FIFO ring */
static uint32_t pend_head, n_pending;

/*
 * A neighbour entry whose link header changes is taken out of the fast path
 * first and written only once no worker can still be copying the old
 * header: after an RCU grace period that the control thread does not wait
 * for. The entry's new MAC waits here, and l2q (a FIFO ring of nh_count,
 * oldest token first) says when to look again; nh_l2_poll publishes what is
 * due. So a host flipping its MAC costs the control thread O(1) a flip,
 * never a blocking rte_rcu_qsbr_synchronize; its packets take the slow path
 * (held by the neighbour layer) for that grace period, microseconds.
 */
static struct nh_l2_wait {
	struct rte_ether_addr mac; /* to publish */
	bool waiting;              /* queued in l2q with the entry's generation */
	bool quiet_known;          /* quiet: workers may hold the header since then */
	bool repub;                /* nh_iface_update: to publish after its grace period */
	uint64_t quiet;            /* RCU token of the last unpublication */
} * l2w;
static struct {
	uint32_t idx, gen;
	uint64_t token;
} * l2q;
static uint32_t l2q_head, n_l2q;

FWD_COUNTER(nh_rcu_waits, "nexthop_rcu_waits");

static void free_push(uint32_t idx)
{
	free_idx[(free_head + n_free++) % nh_count] = idx;
}

int nh_init(uint32_t count, int socket)
{
	if (count <= NH_FIRST_DYNAMIC || count - 1 > NH_PUNT_IDX_MASK)
		return -EINVAL;
	nh_table = rte_zmalloc_socket("fwd_nexthops", count * sizeof(*nh_table),
	                              RTE_CACHE_LINE_SIZE, socket);
	free_idx = malloc(count * sizeof(*free_idx));
	pending = malloc(count * sizeof(*pending));
	addrs = calloc(count, sizeof(*addrs));
	l2w = calloc(count, sizeof(*l2w));
	l2q = malloc(count * sizeof(*l2q));
	if (nh_table == NULL || free_idx == NULL || pending == NULL || addrs == NULL ||
	    l2w == NULL || l2q == NULL || nh_groups_init(socket) < 0) {
		nh_fini();
		return -ENOMEM;
	}
	nh_count = count;
	nh_connected_reset();
	nh_table[NH_IDX_NONE].type = NH_NONE;
	nh_table[NH_IDX_LOCAL].type = NH_LOCAL;
	nh_table[NH_IDX_BLACKHOLE].type = NH_BLACKHOLE;
	nh_table[NH_IDX_RESERVED].type = NH_RESERVED;
	nh_table[NH_IDX_UNREACHABLE].type = NH_UNREACHABLE;
	nh_table[NH_IDX_PROHIBIT].type = NH_PROHIBIT;
	for (uint8_t p = 0; p < FWD_MAX_PORTS; p++) {
		struct nexthop *nh = &nh_table[NH_IDX_CONNECTED + p];
		nh->type = NH_CONNECTED;
		nh_fill(nh, p);
	}
	free_head = n_free = 0;
	for (uint32_t i = NH_FIRST_DYNAMIC; i < count; i++)
		free_push(i);
	pend_head = n_pending = 0;
	l2q_head = n_l2q = 0;
	return 0;
}

void nh_fini(void)
{
	nh_groups_fini();
	rte_free(nh_table);
	nh_table = NULL;
	free(free_idx);
	free_idx = NULL;
	free(pending);
	pending = NULL;
	free(addrs);
	addrs = NULL;
	free(l2w);
	l2w = NULL;
	free(l2q);
	l2q = NULL;
	nh_count = n_free = free_head = n_pending = pend_head = 0;
	l2q_head = n_l2q = 0;
}

void nh_reclaim(void)
{
	nh_group_reclaim();
	while (n_pending > 0) {
		uint32_t h = pend_head;
		if (fwd.rcu != NULL && rte_rcu_qsbr_check(fwd.rcu, pending[h].token, false) != 1)
			break;
		struct nexthop *nh = &nh_table[pending[h].idx];
		uint32_t gen = nh->gen;
		memset(nh, 0, sizeof(*nh));
		nh->gen = gen;
		free_push(pending[h].idx);
		pend_head = (pend_head + 1) % nh_count;
		n_pending--;
	}
}

/* A free dynamic index, its entry cleared (a new generation). */
static int nh_take(uint32_t *idx)
{
	if (n_free == 0)
		nh_reclaim();
	if (n_free == 0 && n_pending > 0 && fwd.rcu != NULL) {
		nh_rcu_waits.value++;
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
		nh_reclaim();
	}
	if (n_free == 0)
		return -ENOSPC;
	*idx = free_idx[free_head];
	free_head = (free_head + 1) % nh_count;
	n_free--;
	struct nexthop *nh = &nh_table[*idx];
	uint32_t gen = nh->gen + 1;
	memset(nh, 0, sizeof(*nh));
	nh->gen = gen;
	memset(&l2w[*idx], 0, sizeof(l2w[*idx])); /* a queued old generation is skipped */
	return 0;
}

int nh_alloc(const struct fwd_ip *a, uint16_t iface, uint32_t *idx)
{
	int rc = nh_take(idx);

	if (rc < 0)
		return rc;
	struct nexthop *nh = &nh_table[*idx];
	addrs[*idx] = *a;
	nh_fill(nh, iface);
	nh->type = NH_PENDING;
	return 0;
}

int nh_alloc_connected(uint16_t iface, uint32_t *idx)
{
	int rc = nh_take(idx);

	if (rc < 0)
		return rc;
	struct nexthop *nh = &nh_table[*idx];
	memset(&addrs[*idx], 0, sizeof(addrs[*idx]));
	nh_fill(nh, iface);
	__atomic_store_n(&nh->type, NH_CONNECTED, __ATOMIC_RELEASE);
	return 0;
}

int nh_alloc_group(uint32_t slot, uint32_t *idx)
{
	int rc = nh_take(idx);

	if (rc < 0)
		return rc;
	struct nexthop *nh = &nh_table[*idx];
	memset(&addrs[*idx], 0, sizeof(addrs[*idx]));
	nh->port = FWD_MAX_PORTS; /* no port of its own: nh_iface_update passes it */
	nh->iface = FWD_IFACE_NONE;
	nh->grp = slot;
	__atomic_store_n(&nh->type, NH_GROUP, __ATOMIC_RELEASE);
	return 0;
}

int nh_alloc_vrf(uint16_t vrf, uint32_t *idx)
{
	int rc = nh_take(idx);

	if (rc < 0)
		return rc;
	struct nexthop *nh = &nh_table[*idx];
	memset(&addrs[*idx], 0, sizeof(addrs[*idx]));
	nh->port = FWD_MAX_PORTS; /* no port, no interface: never forwarded by */
	nh->iface = FWD_IFACE_NONE;
	nh->vrf = vrf;
	__atomic_store_n(&nh->type, NH_VRF, __ATOMIC_RELEASE);
	return 0;
}

void nh_set_failed(uint32_t idx, bool failed)
{
	if (idx >= NH_FIRST_DYNAMIC && idx < nh_count)
		__atomic_store_n(&nh_table[idx].failed, failed, __ATOMIC_RELAXED);
}

const struct fwd_ip *nh_addr(uint32_t idx)
{
	return &addrs[idx < nh_count ? idx : 0];
}

void nh_release(uint32_t idx)
{
	if (idx < NH_FIRST_DYNAMIC || idx >= nh_count)
		return;
	uint32_t tail = (pend_head + n_pending) % nh_count;
	l2w[idx].waiting = false;
	pending[tail].idx = idx;
	pending[tail].token = fwd.rcu != NULL ? rte_rcu_qsbr_start(fwd.rcu) : 0;
	n_pending++;
}

/* Take entry idx out of the fast path; workers may copy its l2 until the
 * grace period that starts now has passed. */
static void nh_unpublish(uint32_t idx)
{
	struct nexthop *nh = &nh_table[idx];

	__atomic_store_n(&nh->fwd_len, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&nh->type, NH_PENDING, __ATOMIC_RELEASE);
	l2w[idx].quiet = fwd.rcu != NULL ? rte_rcu_qsbr_start(fwd.rcu) : 0;
	l2w[idx].quiet_known = true;
}

/* Has no worker been able to read idx's l2 since it was last unpublished? */
static bool nh_quiet(uint32_t idx)
{
	return !l2w[idx].quiet_known || fwd.rcu == NULL ||
	       rte_rcu_qsbr_check(fwd.rcu, l2w[idx].quiet, false) == 1;
}

/* The largest frame an mtu allows, as the fast path compares it. */
static uint16_t nh_frame_max(uint16_t mtu)
{
	return (uint16_t)RTE_MIN((uint32_t)mtu + RTE_ETHER_HDR_LEN, (uint32_t)UINT16_MAX);
}

/* Back into the fast path: l2 and mtu are complete before workers see it. */
static void nh_publish(struct nexthop *nh)
{
	__atomic_store_n(&nh->type, NH_FWD, __ATOMIC_RELEASE);
	__atomic_store_n(&nh->fwd_len, nh_frame_max(nh->mtu), __ATOMIC_RELEASE);
}

static void nh_write_l2(uint32_t idx, const struct rte_ether_addr *mac)
{
	struct nexthop *nh = &nh_table[idx];

	nh_fill(nh, nh->iface);
	memcpy(&nh->hdr[NH_TAG_LEN - nh->tag], mac, RTE_ETHER_ADDR_LEN);
	nh_publish(nh);
}

void nh_set_l2(uint32_t idx, const struct rte_ether_addr *mac)
{
	struct nexthop *nh = &nh_table[idx];
	struct nh_l2_wait *w = &l2w[idx];

	if (mac == NULL) {
		if (nh->type == NH_FWD)
			nh_unpublish(idx);
		w->waiting = false; /* a queued publication is void */
		return;
	}
	if (nh->type == NH_FWD && rte_is_same_ether_addr(nh_dst_mac(nh), mac))
		return;
	if (nh->type == NH_FWD)
		nh_unpublish(idx);
	w->mac = *mac;
	if (w->waiting)
		return; /* the queued publication takes the latest MAC */
	if (nh_quiet(idx)) {
		nh_write_l2(idx, mac);
		return;
	}
	if (n_l2q == nh_count) { /* cancelled ones fill it: make room by waiting */
		nh_rcu_waits.value++;
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
		nh_l2_poll(NULL);
	}
	w->waiting = true;
	l2q[(l2q_head + n_l2q++) % nh_count] = (typeof(*l2q)){ idx, nh->gen, w->quiet };
}

bool nh_l2_waiting(uint32_t idx)
{
	return idx < nh_count && l2w[idx].waiting;
}

void nh_l2_poll(void (*published)(uint32_t idx))
{
	while (n_l2q > 0) {
		typeof(*l2q) e = l2q[l2q_head];
		struct nh_l2_wait *w = &l2w[e.idx];

		if (fwd.rcu != NULL && rte_rcu_qsbr_check(fwd.rcu, e.token, false) != 1)
			return;
		l2q_head = (l2q_head + 1) % nh_count;
		n_l2q--;
		if (!w->waiting || nh_table[e.idx].gen != e.gen)
			continue; /* cancelled, or the index has another owner */
		w->waiting = false;
		nh_write_l2(e.idx, &w->mac);
		if (published != NULL)
			published(e.idx);
	}
}

/* Is entry i (not a free one, not a group) on interface iface, or on port
 * iface's VLANs? */
static bool nh_on_iface(uint32_t i, uint16_t iface)
{
	const struct nexthop *nh = &nh_table[i];

	if ((i >= NH_FIRST_DYNAMIC && nh->type == NH_NONE) || nh->type == NH_GROUP)
		return false;
	return nh->iface == iface || (iface < FWD_MAX_PORTS && nh->port == iface);
}

/* Two passes around one grace period, however many entries the interface has. */
void nh_iface_update(uint16_t iface)
{
	uint32_t n_fwd = 0;

	for (uint32_t i = NH_IDX_CONNECTED; i < nh_count; i++) {
		struct nexthop *nh = &nh_table[i];
		l2w[i].repub = nh->type == NH_FWD && nh_on_iface(i, iface);
		if (l2w[i].repub) {
			__atomic_store_n(&nh->fwd_len, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&nh->type, NH_PENDING, __ATOMIC_RELEASE);
			n_fwd++;
		}
	}
	if (n_fwd > 0 && fwd.rcu != NULL) {
		nh_rcu_waits.value++;
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
	}
	for (uint32_t i = NH_IDX_CONNECTED; i < nh_count; i++) {
		struct nexthop *nh = &nh_table[i];
		if (!nh_on_iface(i, iface))
			continue;
		nh_fill(nh, nh->iface);
		if (l2w[i].repub)
			nh_publish(nh);
		l2w[i].repub = false;
	}
}

bool nh_used_this_epoch(uint32_t idx)
{
	return idx < nh_count &&
	       __atomic_load_n(&nh_table[idx].used, __ATOMIC_RELAXED) == nh_use_epoch;
}

void nh_use_epoch_next(void)
{
	uint8_t e = nh_use_epoch == UINT8_MAX ? 1 : nh_use_epoch + 1;

	__atomic_store_n(&nh_use_epoch, e, __ATOMIC_RELAXED);
}
