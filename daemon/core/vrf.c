/* SPDX-License-Identifier: BSD-3-Clause */
/* The VRF registry (core/vrf.h). Control thread only. */
#include <errno.h>
#include <string.h>

#include "core/iface.h"
#include "core/log.h"
#include "core/vrf.h"

#define MAX_HOOKS 8

struct fwd_vrf fwd_vrfs[FWD_MAX_VRFS] = {
	[FWD_VRF_DEFAULT] = { .name = "default", .table = FWD_VRF_TABLE_DEF, .used = true },
};

static fwd_vrf_hook_fn hooks[FWD_VRF_EV_MAX][MAX_HOOKS];
static unsigned n_hooks[FWD_VRF_EV_MAX];

int fwd_vrf_by_name(const char *name)
{
	for (unsigned i = 0; i < FWD_MAX_VRFS; i++)
		if (fwd_vrfs[i].used && strcmp(fwd_vrfs[i].name, name) == 0)
			return (int)i;
	return -1;
}

int fwd_vrf_by_table(uint32_t table)
{
	for (unsigned i = 0; i < FWD_MAX_VRFS; i++)
		if (fwd_vrfs[i].used && fwd_vrfs[i].table == table)
			return (int)i;
	return -1;
}

const char *fwd_vrf_name(unsigned id)
{
	return fwd_vrf_used(id) ? fwd_vrfs[id].name : "";
}

int fwd_vrf_next(int id)
{
	for (unsigned i = (unsigned)(id + 1); i < FWD_MAX_VRFS; i++)
		if (fwd_vrfs[i].used)
			return (int)i;
	return -1;
}

int fwd_vrf_hook_add(enum fwd_vrf_event ev, fwd_vrf_hook_fn fn)
{
	if ((unsigned)ev >= FWD_VRF_EV_MAX || n_hooks[ev] == MAX_HOOKS)
		return -ENOSPC;
	hooks[ev][n_hooks[ev]++] = fn;
	return 0;
}

/* Run the DEL hooks registered before ADD hook n (all: n_hooks), last first. */
static void run_del(uint16_t id, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		if (i < n_hooks[FWD_VRF_EV_DEL])
			hooks[FWD_VRF_EV_DEL][i](id, FWD_VRF_EV_DEL);
}

static int name_ok(const char *name, uint32_t table)
{
	size_t len = strnlen(name, FWD_IFNAME_MAX);

	if (len == 0 || len == FWD_IFNAME_MAX || table == 0 || table == FWD_VRF_TABLE_DEF ||
	    table == 255)
		return -EINVAL;
	if (fwd_vrf_by_name(name) >= 0 || fwd_vrf_by_table(table) >= 0)
		return -EEXIST;
	return 0;
}

int fwd_vrf_add(const char *name, uint32_t table, uint16_t *id)
{
	int rc = name_ok(name, table), v;

	if (rc < 0)
		return rc;
	for (v = 1; v < FWD_MAX_VRFS && fwd_vrfs[v].used; v++)
		;
	if (v == FWD_MAX_VRFS)
		return -ENOSPC;
	memset(&fwd_vrfs[v], 0, sizeof(fwd_vrfs[v]));
	memcpy(fwd_vrfs[v].name, name, strlen(name));
	fwd_vrfs[v].table = table;
	fwd_vrfs[v].used = true;
	/* the DEL hooks pair with the ADD hooks by position (ip4, ip6) */
	for (unsigned i = 0; i < n_hooks[FWD_VRF_EV_ADD]; i++)
		if ((rc = hooks[FWD_VRF_EV_ADD][i]((uint16_t)v, FWD_VRF_EV_ADD)) < 0) {
			run_del((uint16_t)v, i);
			fwd_vrfs[v].used = false;
			return rc;
		}
	*id = (uint16_t)v;
	LOG(INFO, "vrf %s: added (table %u, id %d)", name, table, v);
	return 0;
}

unsigned fwd_vrf_n_ifaces(uint16_t id)
{
	unsigned n = 0;

	for (int i = fwd_iface_next_id(-1); i >= 0; i = fwd_iface_next_id(i))
		n += fwd_ifaces[i].vrf == id;
	return n;
}

int fwd_vrf_del(uint16_t id)
{
	if (!fwd_vrf_used(id))
		return -ENODEV;
	if (id == FWD_VRF_DEFAULT)
		return -EPERM;
	if (fwd_vrf_n_ifaces(id) > 0)
		return -EBUSY;
	run_del(id, n_hooks[FWD_VRF_EV_DEL]);
	LOG(INFO, "vrf %s: deleted", fwd_vrfs[id].name);
	fwd_vrfs[id].used = false;
	return 0;
}

void fwd_vrf_reset(void)
{
	for (uint16_t v = 1; v < FWD_MAX_VRFS; v++)
		if (fwd_vrfs[v].used) {
			for (int i = fwd_iface_next_id(-1); i >= 0; i = fwd_iface_next_id(i))
				if (fwd_ifaces[i].vrf == v)
					fwd_ifaces[i].vrf = FWD_VRF_DEFAULT;
			fwd_vrf_del(v);
		}
}
