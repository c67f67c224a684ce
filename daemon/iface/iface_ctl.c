/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interfaces[] applied to the interface table (core/iface.h): at start-up
 * every entry is made; a reload reconciles the table with the new file
 * (entries gone are deleted, new ones made, a changed port, vlan or
 * loopback is a delete and an add, a changed mtu or mode is set in place)
 * and leaves alone the interfaces fwdctl added that the file does not name.
 * `config show` gets what runs (iface_running).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/iface.h"
#include "core/log.h"
#include "acl/acl.h"
#include "core/module.h"
#include "core/reload.h"
#include "iface/iface_priv.h"

/* The bridge index set_mode wants: the bridge's place in cfg->bridges. */
static uint8_t bridge_index(const struct fwd_config *cfg, const struct fwd_conf_iface *f)
{
	const struct fwd_conf_bridge *b = fwd_config_bridge(cfg, f->bridge);

	return b != NULL ? (uint8_t)(b - cfg->bridges) : 0;
}

/* Make f; 0 or -errno with the reason in err. */
int iface_make(const struct fwd_config *cfg, const struct fwd_conf_iface *f, char *err,
               size_t errlen)
{
	struct fwd_iface *port = f->loopback ? NULL : fwd_iface_by_name(f->port);
	uint16_t id;
	int rc;

	if (!f->loopback && (port == NULL || port->type != FWD_IFACE_PORT))
		rc = -ENODEV;
	else if (f->loopback)
		rc = fwd_iface_loopback_add(f->name, &id);
	else
		rc = fwd_iface_vlan_add(f->name, (uint8_t)port->id, f->vlan, f->mtu, &id);
	if (rc == 0 && !f->loopback && f->mode != FWD_MODE_L3)
		rc = fwd_iface_set_mode(id, f->mode, bridge_index(cfg, f));
	if (rc == -EEXIST && !f->loopback)
		snprintf(err, errlen, "interface %s: the name, or VLAN %u of port %s, is taken",
		         f->name, f->vlan, f->port);
	else if (rc == -EEXIST)
		snprintf(err, errlen, "interface %s: the name is taken", f->name);
	else if (rc == -ERANGE)
		snprintf(err, errlen, "interface %s: mtu %u is above the MTU of port %s", f->name,
		         f->mtu, f->port);
	else if (rc < 0)
		snprintf(err, errlen, "interface %s: %s", f->name, strerror(-rc));
	if (rc < 0)
		return rc;
	fwd_ifaces[id].tap = f->tap;
	fwd_ifaces[id].rpf = (uint8_t)f->rpf; /* workers read it: one byte */
	if ((rc = iface_conf_vrf(&fwd_ifaces[id], f, NULL)) < 0)
		snprintf(err, errlen, "interface %s: vrf %s: %s", f->name, f->vrf, strerror(-rc));
	return rc;
}

/* interfaces[].acl_in, acl_out: bound by id, which exists only now. */
static void iface_acl_bind(const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);

	acl_iface_bind_begin();
	for (unsigned i = 0; i < s->n; i++) {
		const struct fwd_iface *ifp = fwd_iface_by_name(s->ifaces[i].name);

		if (ifp != NULL)
			acl_iface_bind(ifp->id, s->ifaces[i].acl_in, s->ifaces[i].acl_out);
	}
	acl_iface_bind_end();
}

/* The reload's note of each interface whose ACLs changed. */
static void iface_acl_notes(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	const struct iface_conf *b = iface_conf(next);

	for (unsigned i = 0; i < b->n; i++) {
		const struct fwd_conf_iface *f = &b->ifaces[i];
		const struct fwd_conf_iface *o = iface_conf_find(cur, f->name);

		if (strcmp(o ? o->acl_in : "", f->acl_in) != 0)
			fwd_reload_note(log, "interface %s: acl_in %s", f->name,
			                f->acl_in[0] ? f->acl_in : "none");
		if (strcmp(o ? o->acl_out : "", f->acl_out) != 0)
			fwd_reload_note(log, "interface %s: acl_out %s", f->name,
			                f->acl_out[0] ? f->acl_out : "none");
	}
}

static int iface_init(const struct fwd_config *cfg)
{
	const struct iface_conf *s = iface_conf(cfg);
	char err[160];

	for (unsigned i = 0; i < s->n; i++) {
		int rc = iface_make(cfg, &s->ifaces[i], err, sizeof(err));

		if (rc < 0) {
			LOG(ERR, "%s", err);
			fwd_iface_reset();
			return rc;
		}
	}
	iface_acl_bind(cfg);
	return 0;
}

static void iface_fini(void)
{
	fwd_iface_reset();
}

static int iface_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                              struct fwd_reload_log *log)
{
	const struct iface_conf *a = iface_conf(cur), *b = iface_conf(next);
	char err[160];
	int rc = 0;

	/* gone from the file, or no longer the same interface: delete */
	for (unsigned i = 0; i < a->n; i++) {
		const struct fwd_conf_iface *f = iface_conf_find(next, a->ifaces[i].name);
		struct fwd_iface *ifp = fwd_iface_by_name(a->ifaces[i].name);

		if (ifp == NULL || ifp->type == FWD_IFACE_PORT ||
		    (f && iface_same_identity(ifp, f)))
			continue;
		fwd_iface_del(ifp->id);
		fwd_reload_note(log, "interface %s deleted", a->ifaces[i].name);
	}
	for (unsigned i = 0; i < b->n && rc == 0; i++)
		rc = iface_reconcile(next, &b->ifaces[i], log, err, sizeof(err));
	if (rc < 0)
		fwd_reload_fail(log, "%s", err);
	else {
		iface_acl_bind(next);
		iface_acl_notes(cur, next, log);
	}
	return rc;
}

static struct fwd_module iface_module = {
	.name = "iface",
	.depends_on = "bridge acl vrf",
	.init = iface_init,
	.fini = iface_fini,
	.reload_apply = iface_reload_apply,
	.running = iface_running,
};
FWD_MODULE(iface_module);
