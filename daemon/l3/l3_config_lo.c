/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The loopbacks' part of the reconcile (l3_config.c): their addresses, by
 * interface id, wanted by a file (through the hook of the module that owns
 * interfaces[]) or running. Removed with the ports' before any is added,
 * so that an address can move between interfaces in one reload.
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
	if (w->n_lo == w->cap_lo) {
		unsigned c = w->cap_lo ? w->cap_lo * 2 : 16;
		struct l3_want_lo *v = realloc(w->lo, c * sizeof(*v));

		if (v == NULL)
			return -ENOMEM;
		w->lo = v;
		w->cap_lo = c;
	}
	w->lo[w->n_lo++] = (struct l3_want_lo){ id, origin, *a };
	return 0;
}

static bool has_lo(const struct l3_want *w, uint16_t id, const struct fwd_prefix *a)
{
	for (unsigned i = 0; i < w->n_lo; i++)
		if (w->lo[i].id == id && fwd_prefix_cmp(&w->lo[i].a, a) == 0)
			return true;
	return false;
}

int l3_want_config_lo(struct l3_want *w, const struct fwd_config *cfg)
{
	return iface_addrs != NULL ? iface_addrs(w, cfg) : 0;
}

int l3_want_running_lo(struct l3_want *w)
{
	struct fwd_prefix a[FWD_MAX_ADDRS];
	uint8_t origin[FWD_MAX_ADDRS];
	const struct fwd_iface *ifp;
	int rc = 0;

	FWD_IFACE_FOREACH(ifp)
	{
		for (unsigned f = 0; f < L3_N_FAMILIES && ifp->type == FWD_IFACE_LOOPBACK; f++) {
			unsigned n = l3_families[f]->addrs(ifp->id, a, origin);

			for (unsigned i = 0; i < n && rc == 0; i++)
				rc = l3_want_iface_addr(w, ifp->id, &a[i], origin[i]);
		}
	}
	return rc;
}

static bool same_addr(const struct fwd_prefix *a, const struct fwd_prefix *b)
{
	if (a->family != b->family)
		return false;
	return a->family == AF_INET ? a->v4 == b->v4 : memcmp(a->v6, b->v6, 16) == 0;
}

/* Does w give a's address to an interface already (the file's wins)? */
static bool taken(const struct l3_want *w, const struct fwd_prefix *a)
{
	const struct l3_want_addrs *pa;

	for (unsigned p = 0; p < fwd_n_ports; p++) {
		pa = &w->addrs[l3_fam_index(a->family)][p];
		for (unsigned i = 0; i < pa->n; i++)
			if (same_addr(&pa->a[i], a))
				return true;
	}
	for (unsigned i = 0; i < w->n_lo; i++)
		if (same_addr(&w->lo[i].a, a))
			return true;
	return false;
}

int l3_keep_rpc_lo(struct l3_want *w, const struct l3_want *run, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN];
	int rc = 0;

	for (unsigned i = 0; i < run->n_lo && rc == 0; i++) {
		const struct l3_want_lo *l = &run->lo[i];

		if (l->origin != FWD_ORIGIN_RPC || has_lo(w, l->id, &l->a))
			continue;
		if (taken(w, &l->a))
			fwd_reload_note(log,
			                "address %s on %s (added by fwdctl) removed: the file "
			                "configures it",
			                fwd_prefix_fmt(&l->a, buf), fwd_iface_name(l->id));
		else
			rc = l3_want_iface_addr(w, l->id, &l->a, FWD_ORIGIN_RPC);
	}
	return rc;
}

void l3_drop_lo(const struct l3_want *w, const struct l3_want *run, const struct l3_family *fam,
                struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned i = 0; i < run->n_lo; i++) {
		const struct l3_want_lo *l = &run->lo[i];

		if (l->a.family == fam->af && !has_lo(w, l->id, &l->a) &&
		    fam->addr_del(l->id, &l->a, err, sizeof(err)) == 0)
			fwd_reload_note(log, "address %s removed from %s",
			                fwd_prefix_fmt(&l->a, buf), fwd_iface_name(l->id));
	}
}

int l3_add_lo(const struct l3_want *w, const struct l3_want *run, const struct l3_family *fam,
              struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned i = 0; i < w->n_lo; i++) {
		const struct l3_want_lo *l = &w->lo[i];

		if (l->a.family != fam->af || has_lo(run, l->id, &l->a))
			continue;
		fwd_prefix_fmt(&l->a, buf);
		if (fam->addr_add(l->id, &l->a, l->origin, err, sizeof(err)) < 0) {
			fwd_reload_fail(log, "address %s on %s: %s", buf, fwd_iface_name(l->id),
			                err);
			return -EINVAL;
		}
		fwd_reload_note(log, "address %s added to %s", buf, fwd_iface_name(l->id));
	}
	return 0;
}
