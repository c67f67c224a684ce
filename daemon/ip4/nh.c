/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "core/daemon.h"
#include "ip4/fib.h"
#include "ip4/nh.h"
#include "port/port.h"

struct nh4 *nh4_table;
uint32_t nh4_count;

static uint32_t *free_idx; /* stack of reusable dynamic indices */
static uint32_t n_free;
static struct {
	uint32_t idx;
	uint64_t token;
} * pending; /* released, waiting for a grace period; FIFO ring */
static uint32_t pend_head, n_pending;

static void nh4_fill_port(struct nh4 *nh, uint8_t port)
{
	nh->port = port;
	nh->mtu = port < fwd_n_ports ? fwd_ports[port].mtu : 0;
	if (port < fwd_n_ports)
		rte_ether_addr_copy(&fwd_ports[port].mac, &nh->l2.src_addr);
	nh->l2.ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
}

int nh4_init(uint32_t count, int socket)
{
	if (count <= NH4_FIRST_DYNAMIC || count - 1 > FIB4_NH_MAX)
		return -EINVAL;
	nh4_table =
	        rte_zmalloc_socket("nh4", count * sizeof(*nh4_table), RTE_CACHE_LINE_SIZE, socket);
	free_idx = malloc(count * sizeof(*free_idx));
	pending = malloc(count * sizeof(*pending));
	if (nh4_table == NULL || free_idx == NULL || pending == NULL) {
		nh4_fini();
		return -ENOMEM;
	}
	nh4_count = count;
	nh4_table[NH4_IDX_NONE].type = NH4_NONE;
	nh4_table[NH4_IDX_LOCAL].type = NH4_LOCAL;
	nh4_table[NH4_IDX_BLACKHOLE].type = NH4_BLACKHOLE;
	nh4_table[NH4_IDX_RESERVED].type = NH4_RESERVED;
	for (uint8_t p = 0; p < FWD_MAX_PORTS; p++) {
		struct nh4 *nh = &nh4_table[NH4_IDX_CONNECTED + p];
		nh->type = NH4_CONNECTED;
		nh4_fill_port(nh, p);
	}
	n_free = 0;
	for (uint32_t i = count; i-- > NH4_FIRST_DYNAMIC;)
		free_idx[n_free++] = i;
	pend_head = n_pending = 0;
	return 0;
}

void nh4_fini(void)
{
	rte_free(nh4_table);
	nh4_table = NULL;
	free(free_idx);
	free_idx = NULL;
	free(pending);
	pending = NULL;
	nh4_count = n_free = n_pending = pend_head = 0;
}

void nh4_reclaim(void)
{
	while (n_pending > 0) {
		uint32_t h = pend_head;
		if (fwd.rcu != NULL && rte_rcu_qsbr_check(fwd.rcu, pending[h].token, false) != 1)
			break;
		memset(&nh4_table[pending[h].idx], 0, sizeof(struct nh4));
		free_idx[n_free++] = pending[h].idx;
		pend_head = (pend_head + 1) % nh4_count;
		n_pending--;
	}
}

int nh4_alloc(uint32_t ip, uint8_t port, uint32_t *idx)
{
	if (n_free == 0)
		nh4_reclaim();
	if (n_free == 0 && n_pending > 0 && fwd.rcu != NULL) {
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
		nh4_reclaim();
	}
	if (n_free == 0)
		return -ENOSPC;
	*idx = free_idx[--n_free];
	struct nh4 *nh = &nh4_table[*idx];
	memset(nh, 0, sizeof(*nh));
	nh->ip = ip;
	nh4_fill_port(nh, port);
	nh->type = NH4_PENDING;
	return 0;
}

void nh4_release(uint32_t idx)
{
	if (idx < NH4_FIRST_DYNAMIC || idx >= nh4_count)
		return;
	uint32_t tail = (pend_head + n_pending) % nh4_count;
	pending[tail].idx = idx;
	pending[tail].token = fwd.rcu != NULL ? rte_rcu_qsbr_start(fwd.rcu) : 0;
	n_pending++;
}

/* Take entry idx out of the fast path and wait until no worker reads its l2. */
static void nh4_quiesce(struct nh4 *nh)
{
	__atomic_store_n(&nh->fwd_len, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&nh->type, NH4_PENDING, __ATOMIC_RELEASE);
	if (fwd.rcu != NULL)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
}

/* The largest frame an mtu allows, as the fast path compares it. */
static uint16_t nh4_frame_max(uint16_t mtu)
{
	return (uint16_t)RTE_MIN((uint32_t)mtu + RTE_ETHER_HDR_LEN, (uint32_t)UINT16_MAX);
}

/* Back into the fast path: l2 and mtu are complete before workers see it. */
static void nh4_publish(struct nh4 *nh)
{
	__atomic_store_n(&nh->type, NH4_FWD, __ATOMIC_RELEASE);
	__atomic_store_n(&nh->fwd_len, nh4_frame_max(nh->mtu), __ATOMIC_RELEASE);
}

void nh4_set_l2(uint32_t idx, const struct rte_ether_addr *mac)
{
	struct nh4 *nh = &nh4_table[idx];

	if (mac == NULL) {
		if (nh->type == NH4_FWD) {
			__atomic_store_n(&nh->fwd_len, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&nh->type, NH4_PENDING, __ATOMIC_RELEASE);
		}
		return;
	}
	if (nh->type == NH4_FWD && rte_is_same_ether_addr(&nh->l2.dst_addr, mac))
		return;
	if (nh->type == NH4_FWD)
		nh4_quiesce(nh);
	rte_ether_addr_copy(mac, &nh->l2.dst_addr);
	nh4_fill_port(nh, nh->port);
	nh4_publish(nh);
}

void nh4_port_update(uint8_t port)
{
	for (uint32_t i = NH4_IDX_CONNECTED; i < nh4_count; i++) {
		struct nh4 *nh = &nh4_table[i];
		if (nh->port != port || (i >= NH4_FIRST_DYNAMIC && nh->type == NH4_NONE))
			continue;
		bool fwd_state = nh->type == NH4_FWD;
		if (fwd_state)
			nh4_quiesce(nh);
		nh4_fill_port(nh, port);
		if (fwd_state)
			nh4_publish(nh);
	}
}

uint32_t nh4_used(void)
{
	return nh4_count - NH4_FIRST_DYNAMIC - n_free - n_pending;
}
