/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An interface into another VRF (fwd.yaml(5) VRFS): `fwdctl iface set NAME
 * vrf VRF` at run time, and the `vrf` of interfaces[] entries, made or
 * changed by a reload. The move itself (core's fwd_iface_set_vrf) takes the
 * interface's addresses, the routes through it and its neighbours out of
 * its VRF, as Linux does when a device changes its master; its addresses
 * then come back in the new VRF: here for fwdctl, by l3's reconcile for a
 * reload (it runs after this module).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/iface.h"
#include "core/reload.h"
#include "core/rpc.h"
#include "core/vrf.h"
#include "iface/iface_priv.h"
#include "l3/l3_config.h"
#include "vrf/vrf.h"

/* An interface's addresses of both families (IPv6's link-local one aside). */
struct held {
	unsigned n;
	struct fwd_prefix a[L3_N_FAMILIES * FWD_MAX_ADDRS];
	uint8_t origin[L3_N_FAMILIES * FWD_MAX_ADDRS];
};

static void hold(uint16_t id, struct held *h)
{
	h->n = 0;
	for (unsigned f = 0; f < L3_N_FAMILIES; f++)
		h->n += l3_families[f]->addrs(id, h->a + h->n, h->origin + h->n);
}

static int put_back(uint16_t id, const struct held *h, char *err, size_t errlen)
{
	for (unsigned i = 0; i < h->n; i++) {
		int rc = l3_fam(h->a[i].family)->addr_add(id, &h->a[i], h->origin[i], err, errlen);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Move id to vrf with its addresses; on a clash there, back where it was. */
static int move_with_addrs(uint16_t id, uint16_t vrf, char *err, size_t errlen)
{
	uint16_t old = fwd_ifaces[id].vrf;
	struct held h;
	char ignored[160];
	int rc;

	hold(id, &h);
	rc = vrf_move(id, vrf);
	if (rc == 0 && (rc = put_back(id, &h, err, errlen)) < 0) {
		vrf_move(id, old);
		put_back(id, &h, ignored, sizeof(ignored));
	} else if (rc < 0) {
		snprintf(err, errlen, "%s", strerror(-rc));
	}
	return rc;
}

int iface_set_vrf(struct fwd_rpc_call *call, const struct fwd_iface *ifp, const char *name)
{
	int v = vrf_id_of(name);

	if (v < 0) {
		snprintf(call->error, sizeof(call->error), "no such VRF: %.64s", name);
		return -ENOENT;
	}
	if (ifp->type != FWD_IFACE_LOOPBACK && !fwd_iface_is_l3(ifp)) {
		snprintf(call->error, sizeof(call->error),
		         "%s is not l3: only l3 interfaces are in a VRF", ifp->name);
		return -EINVAL;
	}
	return move_with_addrs(ifp->id, (uint16_t)v, call->error, sizeof(call->error));
}

int iface_conf_vrf(const struct fwd_iface *ifp, const struct fwd_conf_iface *f,
                   struct fwd_reload_log *log)
{
	int v = vrf_id_of(f->vrf);
	int rc;

	if (v < 0 || ifp->vrf == (uint16_t)v)
		return v < 0 ? -ENOENT : 0;
	rc = vrf_move(ifp->id, (uint16_t)v);
	if (rc == 0 && log != NULL)
		fwd_reload_note(log, "interface %s: vrf %s", f->name, fwd_vrf_name((unsigned)v));
	return rc;
}
