/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "core/daemon.h"
#include "fwd_inet.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

struct nexthop *nh_table;
uint32_t nh_count;

static struct fwd_ip *addrs; /* a dynamic entry's neighbour, control thread only */
static uint32_t *free_idx;   /* reusable dynamic indices: a FIFO ring of nh_count */
static uint32_t free_head, n_free;
static struct {
	uint32_t idx;
	uint64_t token;
} * pending; /* released, waiting for a grace period; FIFO ring */
static uint32_t pend_head, n_pending;

static void nh_fill_port(struct nexthop *nh, uint8_t port, uint8_t family)
{
	nh->port = port;
	nh->mtu = port < fwd_n_ports ? fwd_ports[port].mtu : 0;
	if (port < fwd_n_ports)
		rte_ether_addr_copy(&fwd_ports[port].mac, &nh->l2.src_addr);
	nh->l2.ether_type =
	        rte_cpu_to_be_16(family == AF_INET6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);
}

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
	if (nh_table == NULL || free_idx == NULL || pending == NULL || addrs == NULL ||
	    nh_groups_init(socket) < 0) {
		nh_fini();
		return -ENOMEM;
	}
	nh_count = count;
	nh_table[NH_IDX_NONE].type = NH_NONE;
	nh_table[NH_IDX_LOCAL].type = NH_LOCAL;
	nh_table[NH_IDX_BLACKHOLE].type = NH_BLACKHOLE;
	nh_table[NH_IDX_RESERVED].type = NH_RESERVED;
	nh_table[NH_IDX_UNREACHABLE].type = NH_UNREACHABLE;
	nh_table[NH_IDX_PROHIBIT].type = NH_PROHIBIT;
	for (uint8_t p = 0; p < FWD_MAX_PORTS; p++) {
		struct nexthop *nh = &nh_table[NH_IDX_CONNECTED + p];
		nh->type = NH_CONNECTED;
		nh_fill_port(nh, p, AF_INET);
	}
	free_head = n_free = 0;
	for (uint32_t i = NH_FIRST_DYNAMIC; i < count; i++)
		free_push(i);
	pend_head = n_pending = 0;
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
	nh_count = n_free = free_head = n_pending = pend_head = 0;
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
	return 0;
}

int nh_alloc(const struct fwd_ip *a, uint8_t port, uint32_t *idx)
{
	int rc = nh_take(idx);

	if (rc < 0)
		return rc;
	struct nexthop *nh = &nh_table[*idx];
	addrs[*idx] = *a;
	nh_fill_port(nh, port, a->family);
	nh->type = NH_PENDING;
	return 0;
}

int nh_alloc_group(uint32_t slot, uint32_t *idx)
{
	int rc = nh_take(idx);

	if (rc < 0)
		return rc;
	struct nexthop *nh = &nh_table[*idx];
	memset(&addrs[*idx], 0, sizeof(addrs[*idx]));
	nh->port = FWD_MAX_PORTS; /* no port of its own: nh_port_update passes it */
	nh->grp = slot;
	__atomic_store_n(&nh->type, NH_GROUP, __ATOMIC_RELEASE);
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
	pending[tail].idx = idx;
	pending[tail].token = fwd.rcu != NULL ? rte_rcu_qsbr_start(fwd.rcu) : 0;
	n_pending++;
}

/* Take entry idx out of the fast path and wait until no worker reads its l2. */
static void nh_quiesce(struct nexthop *nh)
{
	__atomic_store_n(&nh->fwd_len, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&nh->type, NH_PENDING, __ATOMIC_RELEASE);
	if (fwd.rcu != NULL)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
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

void nh_set_l2(uint32_t idx, const struct rte_ether_addr *mac)
{
	struct nexthop *nh = &nh_table[idx];

	if (mac == NULL) {
		if (nh->type == NH_FWD) {
			__atomic_store_n(&nh->fwd_len, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&nh->type, NH_PENDING, __ATOMIC_RELEASE);
		}
		return;
	}
	if (nh->type == NH_FWD && rte_is_same_ether_addr(&nh->l2.dst_addr, mac))
		return;
	if (nh->type == NH_FWD)
		nh_quiesce(nh);
	rte_ether_addr_copy(mac, &nh->l2.dst_addr);
	nh_fill_port(nh, nh->port, addrs[idx].family);
	nh_publish(nh);
}

void nh_port_update(uint8_t port)
{
	for (uint32_t i = NH_IDX_CONNECTED; i < nh_count; i++) {
		struct nexthop *nh = &nh_table[i];
		if (nh->port != port || (i >= NH_FIRST_DYNAMIC && nh->type == NH_NONE))
			continue;
		bool fwd_state = nh->type == NH_FWD;
		if (fwd_state)
			nh_quiesce(nh);
		nh_fill_port(nh, port, i >= NH_FIRST_DYNAMIC ? addrs[i].family : AF_INET);
		if (fwd_state)
			nh_publish(nh);
	}
}

uint32_t nh_used(void)
{
	return nh_count - NH_FIRST_DYNAMIC - n_free - n_pending;
}
