/* SPDX-License-Identifier: BSD-3-Clause */
/* ECMP groups of next hops (nexthop.h): shared by member set, counted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/vrf.h"
#include "nexthop/neigh.h"
#include "nexthop/nexthop.h"
#include "port/port.h"

struct nh_group *nh_groups;

/* The control thread's side of a slot. */
static struct grp_ctl {
	uint32_t refs; /* 0: free or waiting for its grace period */
	uint32_t nh;   /* its NH_GROUP entry */
} ctl[NH_GROUPS_MAX];

static uint32_t free_slots[NH_GROUPS_MAX], n_free_slots;
static struct {
	uint32_t slot;
	uint64_t token;
} pend[NH_GROUPS_MAX];
static uint32_t pend_head, n_pend, n_used;

int nh_groups_init(int socket)
{
	nh_groups = rte_zmalloc_socket("fwd_nh_groups", NH_GROUPS_MAX * sizeof(*nh_groups),
	                               RTE_CACHE_LINE_SIZE, socket);
	if (nh_groups == NULL)
		return -ENOMEM;
	memset(ctl, 0, sizeof(ctl));
	n_free_slots = 0;
	for (uint32_t i = NH_GROUPS_MAX; i-- > 0;)
		free_slots[n_free_slots++] = i;
	pend_head = n_pend = n_used = 0;
	return 0;
}

/* The NH_VRF entry of each VRF next_vrf routes lead to, counted. */
static uint32_t vrf_idx[FWD_MAX_VRFS], vrf_refs[FWD_MAX_VRFS];

void nh_groups_fini(void)
{
	memset(vrf_refs, 0, sizeof(vrf_refs));
	rte_free(nh_groups);
	nh_groups = NULL;
	n_free_slots = n_pend = n_used = 0;
}

void nh_group_reclaim(void)
{
	while (n_pend > 0) {
		if (fwd.rcu != NULL &&
		    rte_rcu_qsbr_check(fwd.rcu, pend[pend_head].token, false) != 1)
			break;
		free_slots[n_free_slots++] = pend[pend_head].slot;
		pend_head = (pend_head + 1) % NH_GROUPS_MAX;
		n_pend--;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The live group with exactly members m (sorted), or -1. */
static int find(const uint32_t *m, unsigned n)
{
	for (uint32_t s = 0; s < NH_GROUPS_MAX; s++)
		if (ctl[s].refs != 0 && nh_groups[s].n == n &&
		    memcmp(nh_groups[s].m, m, n * sizeof(*m)) == 0)
			return (int)s;
	return -1;
}

int nh_group_get(const uint32_t *members, unsigned n, uint32_t *idx)
{
	uint32_t m[FWD_ECMP_MAX];
	int s;

	if (n < 2 || n > FWD_ECMP_MAX || nh_groups == NULL)
		return -EINVAL;
	memcpy(m, members, n * sizeof(*m));
	qsort(m, n, sizeof(*m), cmp_u32);
	for (unsigned i = 1; i < n; i++)
		if (m[i] == m[i - 1])
			return -EINVAL;
	if ((s = find(m, n)) >= 0) {
		for (unsigned i = 0; i < n; i++) /* the group holds its own */
			neigh_unref(m[i]);
		ctl[s].refs++;
		*idx = ctl[s].nh;
		return 0;
	}
	if (n_free_slots == 0)
		nh_group_reclaim();
	if (n_free_slots == 0 && n_pend > 0 && fwd.rcu != NULL) {
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
		nh_group_reclaim();
	}
	if (n_free_slots == 0)
		return -ENOSPC;
	uint32_t slot = free_slots[n_free_slots - 1];
	/* written before any worker can reach the slot through the entry */
	nh_groups[slot].n = n;
	memcpy(nh_groups[slot].m, m, n * sizeof(*m));
	int rc = nh_alloc_group(slot, idx);
	if (rc < 0)
		return rc;
	n_free_slots--;
	ctl[slot].refs = 1;
	ctl[slot].nh = *idx;
	n_used++;
	return 0;
}

/* The slot of group entry idx, or -1. */
static int slot_of(uint32_t idx)
{
	if (nh_groups == NULL || idx >= nh_count || nh_table[idx].type != NH_GROUP)
		return -1;
	uint32_t s = nh_table[idx].grp;
	return s < NH_GROUPS_MAX && ctl[s].refs != 0 && ctl[s].nh == idx ? (int)s : -1;
}

void nh_group_put(uint32_t idx)
{
	int s = slot_of(idx);

	if (s < 0 || --ctl[s].refs > 0)
		return;
	n_used--;
	nh_release(idx); /* the entry and the slot come back after a grace period */
	for (unsigned i = 0; i < nh_groups[s].n; i++)
		neigh_unref(nh_groups[s].m[i]);
	uint32_t tail = (pend_head + n_pend) % NH_GROUPS_MAX;
	pend[tail].slot = (uint32_t)s;
	pend[tail].token = fwd.rcu != NULL ? rte_rcu_qsbr_start(fwd.rcu) : 0;
	n_pend++;
}

unsigned nh_group_members(uint32_t idx, uint32_t m[FWD_ECMP_MAX])
{
	int s = slot_of(idx);

	if (s < 0)
		return 0;
	memcpy(m, nh_groups[s].m, nh_groups[s].n * sizeof(*m));
	return nh_groups[s].n;
}

bool nh_uses_iface(uint32_t idx, uint16_t iface)
{
	uint32_t m[FWD_ECMP_MAX];
	unsigned n = nh_group_members(idx, m);

	if (n == 0)
		return idx < nh_count && nh_table[idx].iface == iface;
	for (unsigned i = 0; i < n; i++)
		if (nh_table[m[i]].iface == iface)
			return true;
	return false;
}

uint32_t nh_groups_used(void)
{
	return n_used;
}

int nh_route_ref(unsigned n, const struct fwd_ip *via, const uint16_t *iface, uint32_t *nh)
{
	uint32_t m[FWD_ECMP_MAX];
	int rc = 0;
	unsigned i;

	if (n == 0 || n > FWD_ECMP_MAX)
		return -EINVAL;
	for (i = 0; i < n && rc == 0; i++)
		rc = neigh_ref(via[i], iface[i], &m[i]);
	if (rc < 0) {
		while (--i > 0)
			neigh_unref(m[i - 1]);
		return rc;
	}
	if (n == 1) {
		*nh = m[0];
		return 0;
	}
	rc = nh_group_get(m, n, nh);
	if (rc < 0)
		for (i = 0; i < n; i++)
			neigh_unref(m[i]);
	return rc;
}

void nh_route_unref(uint32_t nh)
{
	if (nh < nh_count && nh_table[nh].type == NH_GROUP)
		nh_group_put(nh);
	else
		neigh_unref(nh);
}

static int nh_vrf_ref(int vrf, uint32_t *nh)
{
	int rc;

	if (!fwd_vrf_used((unsigned)vrf))
		return -ENODEV;
	if (vrf_refs[vrf] == 0 && (rc = nh_alloc_vrf((uint16_t)vrf, &vrf_idx[vrf])) < 0)
		return rc;
	vrf_refs[vrf]++;
	*nh = vrf_idx[vrf];
	return 0;
}

static void nh_vrf_unref(uint32_t nh)
{
	uint16_t vrf = nh_table[nh].vrf;

	if (vrf < FWD_MAX_VRFS && vrf_refs[vrf] > 0 && vrf_idx[vrf] == nh && --vrf_refs[vrf] == 0)
		nh_release(nh);
}

unsigned nh_gateways(uint32_t nh, struct fwd_ip out[FWD_ECMP_MAX])
{
	uint32_t m[FWD_ECMP_MAX];
	unsigned n = nh_group_members(nh, m);

	if (n == 0)
		m[n++] = nh;
	for (unsigned i = 0; i < n; i++)
		out[i] = *nh_addr(m[i]);
	return n;
}

int nh_route_fixed(uint8_t type, int dev, uint32_t *nh)
{
	switch (type) {
	case NH_BLACKHOLE:
		*nh = NH_IDX_BLACKHOLE;
		return 0;
	case NH_UNREACHABLE:
		*nh = NH_IDX_UNREACHABLE;
		return 0;
	case NH_PROHIBIT:
		*nh = NH_IDX_PROHIBIT;
		return 0;
	case NH_CONNECTED:
		if (dev < 0 || dev >= FWD_MAX_IFACES)
			return -ENODEV;
		if (dev < FWD_MAX_PORTS
		            ? (unsigned)dev >= fwd_n_ports || fwd_ports[dev].mode != FWD_MODE_L3
		            : !fwd_iface_is_l3(&fwd_ifaces[dev]))
			return -ENODEV;
		return nh_connected_ref((uint16_t)dev, nh);
	case NH_VRF:
		return nh_vrf_ref(dev, nh);
	default:
		return -EINVAL;
	}
}

void nh_route_fixed_put(uint32_t nh)
{
	if (nh >= NH_FIRST_DYNAMIC && nh < nh_count && nh_table[nh].type == NH_CONNECTED)
		nh_connected_unref(nh_table[nh].iface);
	else if (nh >= NH_FIRST_DYNAMIC && nh < nh_count && nh_table[nh].type == NH_VRF)
		nh_vrf_unref(nh);
}
