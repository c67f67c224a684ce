/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One interfaces[] entry made equal in the table (reload), and the table
 * written back as interfaces[] for `config show` (what runs, fwdctl's
 * additions included); the interfaces' addresses and `ra` handed to l3's
 * reconcile, their `rpf` set here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/reload.h"
#include "core/vrf.h"
#include "iface/iface_priv.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"
#include "l3/l3_config.h"

bool iface_same_identity(const struct fwd_iface *ifp, const struct fwd_conf_iface *f)
{
	const struct fwd_iface *port;

	if (f->loopback)
		return ifp->type == FWD_IFACE_LOOPBACK;
	port = fwd_iface_by_name(f->port);
	return ifp->type == FWD_IFACE_VLAN && port != NULL && port->type == FWD_IFACE_PORT &&
	       ifp->port == port->id && ifp->vlan == f->vlan;
}

/* mtu, mode and rpf of a VLAN interface that stays */
static int settle(const struct fwd_config *next, const struct fwd_conf_iface *f,
                  struct fwd_iface *ifp, struct fwd_reload_log *log)
{
	const struct fwd_conf_bridge *b = fwd_config_bridge(next, f->bridge);
	uint8_t bridge = b != NULL ? (uint8_t)(b - next->bridges) : 0;
	uint16_t mtu = f->mtu ? f->mtu : fwd_ports[ifp->port].mtu;
	int rc = 0;

	if (ifp->mtu != mtu && (rc = fwd_iface_set_mtu(ifp->id, mtu)) == 0)
		fwd_reload_note(log, "interface %s: mtu %u", f->name, mtu);
	if (rc == 0 && (ifp->mode != f->mode || (b != NULL && ifp->bridge != bridge)) &&
	    (rc = fwd_iface_set_mode(ifp->id, f->mode, bridge)) == 0)
		fwd_reload_note(log, "interface %s: mode %s", f->name, fwd_port_mode_name(f->mode));
	if (rc == 0 && ifp->rpf != (uint8_t)f->rpf) {
		ifp->rpf = (uint8_t)f->rpf;
		fwd_reload_note(log, "interface %s: rpf %s", f->name, fwd_conf_rpf_names[f->rpf]);
	}
	return rc;
}

int iface_reconcile(const struct fwd_config *next, const struct fwd_conf_iface *f,
                    struct fwd_reload_log *log, char *err, size_t errlen)
{
	struct fwd_iface *ifp = fwd_iface_by_name(f->name);
	int rc;

	if (ifp != NULL && ifp->type == FWD_IFACE_PORT)
		return 0; /* the config check refuses it */
	if (ifp != NULL && !iface_same_identity(ifp, f)) {
		fwd_iface_del(ifp->id); /* fwdctl's, or a changed port, vlan or loopback */
		ifp = NULL;
	}
	if (ifp == NULL) {
		rc = iface_make(next, f, err, errlen);
		if (rc == 0)
			fwd_reload_note(log, "interface %s added", f->name);
		return rc;
	}
	ifp->tap = f->tap;
	if ((rc = iface_conf_vrf(ifp, f, log)) < 0) {
		snprintf(err, errlen, "interface %s: vrf %s: %s", f->name, f->vrf, strerror(-rc));
		return rc;
	}
	if (ifp->type != FWD_IFACE_VLAN)
		return 0;
	rc = settle(next, f, ifp, log);
	if (rc < 0)
		snprintf(err, errlen, "interface %s: %s", f->name, strerror(-rc));
	return rc;
}

/* ifp's addresses as they run (fwdctl's too; IPv6's first, the link-local
 * or a loopback's ::1, is not written), `ra` and `rpf`. */
static void running_l3(const struct fwd_iface *ifp, struct fwd_conf_iface *e)
{
	const struct ip4_port_addrs *pa = &ip4_addrs[ifp->id];
	const struct ip6_port_addrs *pa6 = &ip6_addrs[ifp->id];

	e->n_addresses = 0;
	for (unsigned i = 0; i < pa->n && e->n_addresses < FWD_MAX_ADDRS; i++)
		e->addresses[e->n_addresses++] = fwd_prefix_of4(&pa->a[i]);
	for (unsigned i = 1; i < pa6->n && e->n_addresses < FWD_MAX_ADDRS; i++)
		e->addresses[e->n_addresses++] = fwd_prefix_of6(&pa6->a[i]);
	if (ifp->type != FWD_IFACE_VLAN)
		return;
	e->ra = pa6->ra;
	e->rpf = (enum fwd_rpf)ifp->rpf;
}

/* What ifp runs as an interfaces[] entry; the ACLs as the file said, or
 * nothing for one fwdctl added. */
static void entry_of(const struct fwd_config *run, const struct fwd_iface *ifp,
                     const struct fwd_conf_iface *loaded, struct fwd_conf_iface *e)
{
	memset(e, 0, sizeof(*e));
	if (loaded != NULL)
		*e = *loaded;
	snprintf(e->name, sizeof(e->name), "%s", ifp->name);
	e->loopback = ifp->type == FWD_IFACE_LOOPBACK;
	e->tap = ifp->tap;
	snprintf(e->vrf, sizeof(e->vrf), "%s",
	         ifp->vrf != FWD_VRF_DEFAULT ? fwd_vrf_name(ifp->vrf) : "");
	running_l3(ifp, e);
	if (e->loopback)
		return;
	snprintf(e->port, sizeof(e->port), "%s", fwd_ports[ifp->port].name);
	e->vlan = ifp->vlan;
	e->mtu = ifp->mtu == fwd_ports[ifp->port].mtu ? 0 : ifp->mtu;
	e->mode = (enum fwd_port_mode)ifp->mode;
	e->bridge[0] = '\0';
	if (ifp->mode == FWD_MODE_BRIDGE && ifp->bridge < run->n_bridges)
		snprintf(e->bridge, sizeof(e->bridge), "%s", run->bridges[ifp->bridge].name);
}

int iface_running(struct fwd_config *run, uint64_t *omitted)
{
	struct iface_conf *s = iface_conf_mut(run);
	struct fwd_conf_iface *arr = calloc(fwd_iface_count() + 1, sizeof(*arr));
	const struct fwd_iface *ifp;
	unsigned n = 0;

	(void)omitted;
	if (arr == NULL)
		return -ENOMEM;
	FWD_IFACE_FOREACH(ifp)
	{
		if (ifp->type == FWD_IFACE_VLAN || ifp->type == FWD_IFACE_LOOPBACK)
			entry_of(run, ifp, iface_conf_find(fwd.cfg, ifp->name), &arr[n++]);
	}
	free(s->ifaces);
	s->ifaces = arr;
	s->n = n;
	return 0;
}

/* The addresses (and a VLAN's `ra`) of cfg's interfaces, for the one
 * reconcile of addresses (l3/l3_config.c), which runs after this module
 * made the interfaces; a bridge VLAN has none. */
static int want_iface_addrs(struct l3_want *w, const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);
	int rc = 0;

	for (unsigned i = 0; i < s->n && rc == 0; i++) {
		const struct fwd_conf_iface *f = &s->ifaces[i];
		const struct fwd_iface *ifp = fwd_iface_by_name(f->name);

		if (ifp == NULL || ifp->type == FWD_IFACE_PORT || !fwd_iface_is_l3(ifp))
			continue;
		w->ra[ifp->id] = ifp->type == FWD_IFACE_VLAN && f->ra;
		for (unsigned k = 0; k < f->n_addresses && rc == 0; k++)
			rc = l3_want_iface_addr(w, ifp->id, &f->addresses[k], FWD_ORIGIN_CONFIG);
	}
	return rc;
}

RTE_INIT(iface_addrs_register)
{
	l3_config_set_iface_addrs(want_iface_addrs);
}
