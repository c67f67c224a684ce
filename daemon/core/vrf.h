/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The VRF registry (control thread writes; workers read only the VRF id an
 * interface carries, fwd_iface.vrf). VRF 0 is "default", kernel table 254,
 * always there. A VRF is a routing domain: every interface is in exactly
 * one, and each VRF has its own RIB and FIB per family, which ip4/ and ip6/
 * make and free through the hooks below (core calls nothing above it).
 * doc/architecture.md ("VRFs").
 */
#ifndef FWD_VRF_H
#define FWD_VRF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/iface.h"

#define FWD_MAX_VRFS      256
#define FWD_VRF_DEFAULT   0
#define FWD_VRF_NONE      UINT16_MAX
#define FWD_VRF_TABLE_DEF 254 /* RT_TABLE_MAIN: the default VRF's kernel table */

struct fwd_vrf {
	char name[FWD_IFNAME_MAX];
	uint32_t table; /* the kernel's and FRR's routing table id */
	bool used;
};

extern struct fwd_vrf fwd_vrfs[FWD_MAX_VRFS];

static inline bool fwd_vrf_used(unsigned id)
{
	return id < FWD_MAX_VRFS && fwd_vrfs[id].used;
}
/* The id of the VRF called name / of kernel table table, or -1. */
int fwd_vrf_by_name(const char *name);
int fwd_vrf_by_table(uint32_t table);
/* The name of VRF id, "" when there is none. */
const char *fwd_vrf_name(unsigned id);
/* The next VRF in use after id (start with -1), or -1. */
int fwd_vrf_next(int id);
#define FWD_VRF_FOREACH(v) for (int v = fwd_vrf_next(-1); v >= 0; v = fwd_vrf_next(v))

/*
 * Add a VRF: 0 and its id in *id, or -EINVAL (name empty or too long,
 * table 0, 254 or 255), -EEXIST (name or table taken), -ENOSPC
 * (FWD_MAX_VRFS in use), or what an ADD hook returned (then nothing is
 * left of it). Delete: -ENODEV (no such VRF), -EPERM (the default),
 * -EBUSY while an interface is in it.
 */
int fwd_vrf_add(const char *name, uint32_t table, uint16_t *id);
int fwd_vrf_del(uint16_t id);
/* How many interfaces are in VRF id. */
unsigned fwd_vrf_n_ifaces(uint16_t id);

/*
 * Hooks of the layers that keep per-VRF state (ip4/, ip6/ tables): ADD
 * runs after a VRF is made (a hook's error undoes the add: the DEL hooks
 * of those before it run), DEL before one goes, when no interface is in it.
 */
enum fwd_vrf_event {
	FWD_VRF_EV_ADD,
	FWD_VRF_EV_DEL,
	FWD_VRF_EV_MAX,
};
typedef int (*fwd_vrf_hook_fn)(uint16_t id, enum fwd_vrf_event ev);
int fwd_vrf_hook_add(enum fwd_vrf_event ev, fwd_vrf_hook_fn fn);

/* Remove every VRF but the default one (module fini, tests). */
void fwd_vrf_reset(void);

#endif
