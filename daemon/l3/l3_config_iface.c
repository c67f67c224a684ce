/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The part of the reconcile (l3_config.c) of the interfaces that are not
 * ports (VLANs, loopbacks): their addresses, by interface id, wanted by a
 * file (through the hook of the module that owns interfaces[]) or running.
 * They follow the ports' rules (the family's rule_add over the whole
 * state), are removed with the ports' before any is added and added after
 * the ports', so that an address can move between any two interfaces in
 * one reload.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/iface.h"
#include "core/reload.h"
#include "l3/l3_config.h"
#include "port/port.h"

static l3_iface_addrs_fn iface_addrs;

void l3_config_set_iface_addrs(l3_iface_addrs_fn fn)
{
	iface_addrs = fn;
}

int l3_want_iface_addr(struct l3_want *w, uint16_t id, const struct fwd_prefix *a, uint8_t origin)
{
	if (w->n_ifa == w->cap_ifa) {
		unsigned c = w->cap_ifa ? w->cap_ifa * 2 : 16;
		struct l3_want_ifa *v = realloc(w->ifa, c * sizeof(*v));

		if (v == NULL)
			return -ENOMEM;
		w->ifa = v;
		w->cap_ifa = c;
	}
	w->ifa[w->n_ifa++] = (struct l3_want_ifa){ id, origin, *a };
	return 0;
}

static bool has_ifa(const struct l3_want *w, uint16_t id, const struct fwd_prefix *a)
{
	for (unsigned i = 0; i < w->n_ifa; i++)
		if (w->ifa[i].id == id && fwd_prefix_cmp(&w->ifa[i].a, a) == 0)
			return true;
	return false;
}

unsigned l3_want_addrs_of(const struct l3_want *w, uint16_t id, unsigned f, struct fwd_prefix *a,
                          uint8_t *origin)
{
	uint8_t af = l3_families[f]->af;
	unsigned n = 0;

	if (id < FWD_MAX_PORTS) {
		n = w->addrs[f][id].n;
		memcpy(a, w->addrs[f][id].a, n * sizeof(*a));
		memcpy(origin, w->addrs[f][id].origin, n);
		return n;
	}
	for (unsigned i = 0; i < w->n_ifa && n < FWD_MAX_ADDRS; i++)
		if (w->ifa[i].id == id && w->ifa[i].a.family == af) {
			a[n] = w->ifa[i].a;
			origin[n++] = w->ifa[i].origin;
		}
	return n;
}

int l3_want_config_ifaces(struct l3_want *w, const struct fwd_config *cfg)
{
	return iface_addrs != NULL ? iface_addrs(w, cfg) : 0;
}

int l3_want_running_ifaces(struct l3_want *w)
{
	struct fwd_prefix a[FWD_MAX_ADDRS];
	uint8_t origin[FWD_MAX_ADDRS];
	const struct fwd_iface *ifp;
	int rc = 0;

	for (ifp = fwd_iface_next(FWD_MAX_PORTS - 1); ifp != NULL && rc == 0;
	     ifp = fwd_iface_next(ifp->id))
		for (unsigned f = 0; f < L3_N_FAMILIES; f++) {
			unsigned n = l3_families[f]->addrs(ifp->id, a, origin);

			for (unsigned i = 0; i < n && rc == 0; i++)
				rc = l3_want_iface_addr(w, ifp->id, &a[i], origin[i]);
		}
	return rc;
}

/* fwdctl's addresses (in run) the file leaves alone, where the rules on the
 * state w wants still take them, as the ports' (l3_config.c). */
int l3_keep_rpc_ifaces(struct l3_want *w, const struct l3_want *run, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], why[160];
	int rc = 0;

	for (unsigned i = 0; i < run->n_ifa && rc == 0; i++) {
		const struct l3_want_ifa *l = &run->ifa[i];

		if (l->origin != FWD_ORIGIN_RPC || has_ifa(w, l->id, &l->a))
			continue;
		if (l3_fam(l->a.family)->rule_add(w, l->id, &l->a, why, sizeof(why)) < 0)
			fwd_reload_note(log, "address %s on %s (added by fwdctl) removed: %s",
			                fwd_prefix_fmt(&l->a, buf), fwd_iface_name(l->id), why);
		else
			rc = l3_want_iface_addr(w, l->id, &l->a, FWD_ORIGIN_RPC);
	}
	return rc;
}

void l3_drop_ifaces(const struct l3_want *w, const struct l3_want *run, const struct l3_family *fam,
                    struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned i = 0; i < run->n_ifa; i++) {
		const struct l3_want_ifa *l = &run->ifa[i];

		if (l->a.family == fam->af && !has_ifa(w, l->id, &l->a) &&
		    fam->addr_del(l->id, &l->a, err, sizeof(err)) == 0)
			fwd_reload_note(log, "address %s removed from %s",
			                fwd_prefix_fmt(&l->a, buf), fwd_iface_name(l->id));
	}
}

int l3_add_ifaces(const struct l3_want *w, const struct l3_want *run, const struct l3_family *fam,
                  struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];
	const struct fwd_iface *ifp;

	for (unsigned i = 0; i < w->n_ifa; i++) {
		const struct l3_want_ifa *l = &w->ifa[i];

		if (l->a.family != fam->af || has_ifa(run, l->id, &l->a))
			continue;
		fwd_prefix_fmt(&l->a, buf);
		if (fam->addr_add(l->id, &l->a, l->origin, err, sizeof(err)) < 0) {
			fwd_reload_fail(log, "address %s on %s: %s", buf, fwd_iface_name(l->id),
			                err);
			return -EINVAL;
		}
		fwd_reload_note(log, "address %s added to %s", buf, fwd_iface_name(l->id));
	}
	for (ifp = fwd_iface_next(FWD_MAX_PORTS - 1); ifp != NULL && fam->port_sync != NULL;
	     ifp = fwd_iface_next(ifp->id))
		fam->port_sync(w, ifp->id, log);
	return 0;
}
