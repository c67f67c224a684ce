/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which of fwd's VRFs a route from zebra is for (doc/frr.md "VRFs").
 *
 * With kernel VRF devices (control.vrf_backend: vrf) a route carries its
 * VRF's table (RTA_TABLE, or rtm_table): the VRF with that table, 254 the
 * default; a table no VRF has is counted (unknown_table) and skipped.
 *
 * With zebra -n (control.vrf_backend: netns) FRR 8.4 sends every
 * namespace's routes with table 254, each namespace's main, and next hops
 * naming interfaces by their index in that namespace. fwd's kernel
 * interfaces keep the index they had in fwd's namespace (cp/tap_vrf.c), so
 * a route goes to the VRF of the interfaces its next hops name; next hops
 * in two VRFs are counted (vrf_mixed) and skipped; a route naming none of
 * fwd's interfaces (a blackhole) is the default VRF's. A delete names no
 * interface: it is the route of the one VRF that has that prefix from
 * zebra; with several, it is counted (vrf_ambiguous) and left to the
 * sweep after zebra's next replay. Control thread only.
 */
#include <stdlib.h>

#include <rte_common.h>

#include "core/counter.h"
#include "core/vrf.h"
#include "cp/fpm_table.h"

static FWD_COUNTER(unknown_table, "fpm_unknown_table"); /* also in the metrics */
static bool netns;

void fpm_table_set_netns(bool on)
{
	netns = on;
}

static int by_table(uint32_t table)
{
	int vrf = fwd_vrf_by_table(table);

	if (vrf < 0) {
		fpm_stats.ctr[FPM_C_UNKNOWN_TABLE]++;
		unknown_table.value++;
	}
	return vrf;
}

/* The VRF of the interface of kernel index ifindex, or -1 (none of fwd's). */
static int vrf_of_ifindex(uint32_t ifindex)
{
	int port = ifindex != 0 ? fpm_port_of(ifindex) : -1;
	const struct fwd_iface *ifp = port >= 0 ? fwd_iface_get((uint16_t)port) : NULL;

	return ifp != NULL ? ifp->vrf : -1;
}

/* netns: the VRF all of m's next hops' interfaces are in. */
static int by_interfaces(const struct fpm_msg *m)
{
	int vrf = -1;

	for (unsigned i = 0; i < m->n_nh; i++) {
		int v = vrf_of_ifindex(m->nh[i].ifindex);

		if (v < 0 || v == vrf)
			continue;
		if (vrf >= 0) {
			fpm_stats.ctr[FPM_C_VRF_MIXED]++;
			return -1;
		}
		vrf = v;
	}
	return vrf < 0 ? FWD_VRF_DEFAULT : vrf;
}

int fpm_vrf_of(const struct fpm_msg *m)
{
	if (netns && m->table == FWD_VRF_TABLE_DEF)
		return by_interfaces(m);
	return by_table(m->table);
}

struct fpm_route *fpm_vrf_del_target(const struct fpm_msg *m)
{
	struct fpm_route *e, *found = NULL;
	struct rkey k;
	int vrf;

	if (!netns || m->table != FWD_VRF_TABLE_DEF) {
		if ((vrf = by_table(m->table)) < 0)
			return NULL;
		k = fpm_rkey((uint16_t)vrf, &m->prefix);
		if ((found = fpm_map_get(&fpm_routes, &k)) == NULL)
			fpm_stats.ctr[FPM_C_DEL_UNKNOWN]++;
		return found;
	}
	FWD_VRF_FOREACH(v)
	{
		k = fpm_rkey((uint16_t)v, &m->prefix);
		if ((e = fpm_map_get(&fpm_routes, &k)) == NULL)
			continue;
		if (found != NULL) {
			fpm_stats.ctr[FPM_C_VRF_AMBIGUOUS]++;
			return NULL;
		}
		found = e;
	}
	if (found == NULL)
		fpm_stats.ctr[FPM_C_DEL_UNKNOWN]++;
	return found;
}

void fpm_table_vrf_gone(uint16_t vrf)
{
	struct fpm_route *e, **gone;
	size_t n = 0;

	if (fpm_routes.n == 0 || (gone = malloc(fpm_routes.n * sizeof(*gone))) == NULL)
		return;
	for (size_t i = 0; (e = fpm_map_next(&fpm_routes, &i)) != NULL;)
		if (e->key.vrf == vrf)
			gone[n++] = e;
	/* its FIB goes with it: the entries are forgotten, nothing is deleted */
	for (size_t i = 0; i < n; i++) {
		fpm_route_account(gone[i], -1);
		gone[i]->state = ST_NONE;
		fpm_route_account(gone[i], 1);
		fpm_route_remove(gone[i]);
	}
	free(gone);
}

static int on_vrf_del(uint16_t vrf, enum fwd_vrf_event ev)
{
	(void)ev;
	fpm_table_vrf_gone(vrf);
	return 0;
}

RTE_INIT(fpm_vrf_hooks)
{
	fwd_vrf_hook_add(FWD_VRF_EV_DEL, on_vrf_del);
}
