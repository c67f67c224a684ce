/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What zebra wants, kept whole so that it outlives its connection: every
 * prefix it sent (type, origin, its own next hops or a next-hop id) and
 * every next-hop object and group. Each change is translated into an
 * l3_route for fwd's FIB, where three rules meet it:
 *
 *   - fwd's own routes (config, fwdctl) win on the same prefix: zebra's is
 *     kept here as shadowed and installed when fwd's goes away (the l3 hook
 *     tells, fpm_table_removed);
 *   - the connected subnets and addresses of fwd's ports, which zebra
 *     learns from the TAP interfaces and echoes back, are never installed;
 *   - after a reconnection every route is stale until zebra sends it again,
 *     and what is still stale at the end of the replay is removed
 *     (cp/fpm_stale.c).
 *
 * The table only ever removes from the FIB a route of an FPM origin, so it
 * never takes away one of fwd's. Control thread only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>

#include "core/vrf.h"
#include "cp/fpm_map.h"
#include "cp/fpm_priv.h"
#include "cp/fpm_table.h"
#include "cp/fpm_use.h"
#include "cp/ifmap.h"

struct fpm_stats fpm_stats;

struct fpm_map fpm_routes = { .key_off = 0, .key_len = sizeof(struct rkey) };
struct fpm_map fpm_objs = { .key_off = 0, .key_len = sizeof(uint32_t) };
static bool self; /* the FIB changes are ours: the l3 hook ignores them */
static uint64_t max_routes = FPM_MAX_ROUTES_DEFAULT; /* control.fpm_max_routes */

static const struct fpm_fib_ops l3_ops = { l3_route_add, l3_route_del, l3_route_origin,
	                                   cp_ifmap_port };
static const struct fpm_fib_ops *ops = &l3_ops;

void fpm_table_set_ops(const struct fpm_fib_ops *o)
{
	ops = o != NULL ? o : &l3_ops;
}

int fpm_fib_origin(uint16_t vrf, const struct fwd_prefix *p)
{
	return ops->origin(vrf, p);
}

int fpm_port_of(uint32_t ifindex)
{
	return ops->port_of(ifindex);
}

void fpm_table_set_max(uint64_t max)
{
	max_routes = max;
}

uint64_t fpm_table_max(void)
{
	return max_routes;
}

struct rkey fpm_rkey(uint16_t vrf, const struct fwd_prefix *p)
{
	struct rkey k = { .family = p->family, .len = p->len, .vrf = vrf };

	if (p->family == AF_INET)
		memcpy(k.addr, &p->v4, sizeof(p->v4));
	else
		memcpy(k.addr, p->v6, 16);
	return k;
}

/* Add (sign 1) or take away (-1) route e from the gauges. */
void fpm_route_account(const struct fpm_route *e, int sign)
{
	uint64_t d = (uint64_t)(int64_t)sign;

	fpm_stats.stale += e->stale ? d : 0;
	if (e->state == ST_INSTALLED) {
		fpm_stats.installed += d;
		fpm_stats.installed_by_origin[e->origin] += d;
	}
	fpm_stats.shadowed += e->state == ST_SHADOWED ? d : 0;
}

static int fib_add(const struct l3_route *r, char *err, size_t errlen)
{
	self = true;
	int rc = ops->add(r, err, errlen);
	self = false;
	return rc;
}

/* Take our route at p out of vrf's FIB, if the FIB holds one of ours there. */
static void fib_del_ours(uint16_t vrf, const struct fwd_prefix *p)
{
	char err[128];
	int o = ops->origin(vrf, p);

	if (o < 0 || !fwd_origin_is_fpm((enum fwd_origin)o))
		return;
	self = true;
	ops->del(vrf, p, err, sizeof(err));
	self = false;
}

/* One of zebra's next hops as fwd's: 0, or -1 with the reason in *why. */
static int nh_of(const struct fpm_route *e, const struct fpm_nh *z, struct l3_nh *nh,
                 enum fpm_ctr *why)
{
	if (z->gw.family != 0 && z->gw.family != e->prefix.family)
		return *why = FPM_C_GW_FAMILY, -1;
	nh->via = z->gw;
	nh->dev = z->ifindex != 0 ? ops->port_of(z->ifindex) : -1;
	if (z->gw.family == 0 && nh->dev < 0)
		return *why = FPM_C_NO_DEV, -1;
	return 0;
}

/* The next hops that next-hop object id stands for, appended to r. */
static int nhs_of_obj(const struct fpm_route *e, uint32_t id, struct l3_route *r, enum fpm_ctr *why)
{
	const struct fpm_obj *o = fpm_map_get(&fpm_objs, &id);

	if (o == NULL)
		return *why = FPM_C_NHG_UNKNOWN, -1;
	if (o->encap != 0)
		return *why = (enum fpm_ctr)o->encap, -1;
	if (o->blackhole) {
		r->type = L3_ROUTE_BLACKHOLE;
		return 0;
	}
	if (o->n_grp == 0) {
		if (r->n_nh >= FWD_ECMP_MAX)
			return 0;
		return nh_of(e, &o->nh, &r->nh[r->n_nh++], why);
	}
	for (unsigned i = 0; i < o->n_grp; i++) {
		const struct fpm_obj *m = fpm_map_get(&fpm_objs, &o->grp[i].id);
		if (m == NULL || m->n_grp != 0)
			return *why = FPM_C_NHG_UNKNOWN, -1;
		if (m->encap != 0)
			return *why = (enum fpm_ctr)m->encap, -1;
		if (m->blackhole || r->n_nh >= FWD_ECMP_MAX)
			continue;
		if (nh_of(e, &m->nh, &r->nh[r->n_nh++], why) < 0)
			return -1;
	}
	return 0;
}

/* Route e as fwd's FIB takes it: 0, or -1 with the reason in *why. */
static int resolve(const struct fpm_route *e, struct l3_route *r, enum fpm_ctr *why)
{
	memset(r, 0, sizeof(*r));
	r->vrf = e->key.vrf;
	r->prefix = e->prefix;
	r->type = e->type;
	r->origin = e->origin;
	r->replace = true;
	if (e->type != L3_ROUTE_VIA)
		return 0;
	if (e->nh_id != 0 && nhs_of_obj(e, e->nh_id, r, why) < 0)
		return -1;
	for (unsigned i = 0; e->nh_id == 0 && i < e->n_nh; i++)
		if (nh_of(e, &e->nh[i], &r->nh[r->n_nh++], why) < 0)
			return -1;
	if (r->type == L3_ROUTE_VIA && r->n_nh == 0)
		return *why = FPM_C_NO_DEV, -1;
	if (r->type != L3_ROUTE_VIA)
		r->n_nh = 0;
	return 0;
}

/* The state e can take in the FIB, with the FIB changed to match. */
static enum route_state place(const struct fpm_route *e)
{
	char buf[FWD_PREFIX_STRLEN], err[200];
	enum fpm_ctr why = FPM_C_MAX;
	int o = ops->origin(e->key.vrf, &e->prefix);
	struct l3_route r;

	/* fe80::/64 of the kernel interfaces: fwd's own link-local subnet on
	 * every l3 port (link-local destinations are never routed) */
	bool linklocal = e->prefix.family == AF_INET6 && e->prefix.len >= 10 &&
	                 e->prefix.v6[0] == 0xfe && (e->prefix.v6[1] & 0xc0) == 0x80;

	if (o == FWD_ORIGIN_ADDRESS || linklocal)
		return fpm_stats.ctr[FPM_C_CONNECTED]++, ST_CONNECTED;
	if (o >= 0 && !fwd_origin_is_fpm((enum fwd_origin)o))
		return ST_SHADOWED;
	if (e->encap != 0) { /* counted when it came: not installed bare */
		fib_del_ours(e->key.vrf, &e->prefix);
		return ST_NONE;
	}
	if (resolve(e, &r, &why) < 0) {
		fpm_stats.ctr[why]++;
		fib_del_ours(e->key.vrf, &e->prefix);
		return why == FPM_C_NHG_UNKNOWN ? ST_WAITING : ST_NONE;
	}
	if (fib_add(&r, err, sizeof(err)) < 0) {
		fpm_stats.ctr[FPM_C_INSTALL_FAIL]++;
		snprintf(fpm_stats.last_install_error, sizeof(fpm_stats.last_install_error),
		         "%s: %s", fwd_prefix_fmt(&e->prefix, buf), err);
		fib_del_ours(e->key.vrf, &e->prefix);
		return ST_NONE;
	}
	return ST_INSTALLED;
}

void fpm_route_install(struct fpm_route *e)
{
	fpm_route_account(e, -1);
	e->state = (uint8_t)place(e);
	fpm_route_account(e, 1);
}

static void route_free(struct fpm_route *e)
{
	if (e == NULL)
		return;
	free(e->nh);
	free(e);
}

void fpm_route_remove(struct fpm_route *e)
{
	fpm_route_account(e, -1);
	if (e->state == ST_INSTALLED)
		fib_del_ours(e->key.vrf, &e->prefix);
	fpm_use_unlink(&e->use);
	fpm_map_del(&fpm_routes, e);
	fpm_stats.routes = fpm_routes.n;
	route_free(e);
}

static struct fpm_route *route_new(const struct rkey *k)
{
	struct fpm_route *e = calloc(1, sizeof(*e));

	if (e == NULL)
		return NULL;
	e->key = *k;
	if (fpm_map_put(&fpm_routes, e) < 0) {
		free(e);
		return NULL;
	}
	fpm_stats.routes = fpm_routes.n;
	return e;
}

/* Would route e (NULL: new) be one more of this connection's, past the cap? */
static bool over_max(const struct fpm_route *e, const struct fwd_prefix *p)
{
	char buf[FWD_PREFIX_STRLEN];

	if ((e != NULL && !e->stale) || fpm_stats.routes - fpm_stats.stale < max_routes)
		return false;
	fpm_stats.ctr[FPM_C_ROUTE_LIMIT]++;
	snprintf(fpm_stats.last_install_error, sizeof(fpm_stats.last_install_error),
	         "%s: control.fpm_max_routes (%" PRIu64 ") reached", fwd_prefix_fmt(p, buf),
	         max_routes);
	return true;
}

static void route_set(const struct fpm_msg *m)
{
	int vrf = fpm_vrf_of(m);

	if (vrf < 0)
		return; /* counted */
	struct rkey k = fpm_rkey((uint16_t)vrf, &m->prefix);
	struct fpm_route *e = fpm_map_get(&fpm_routes, &k);

	if (over_max(e, &m->prefix))
		return; /* a stale one stays so, and goes with the sweep */
	struct fpm_nh *nh = m->n_nh > 0 ? malloc(m->n_nh * sizeof(*nh)) : NULL;

	if ((m->n_nh > 0 && nh == NULL) || (e == NULL && (e = route_new(&k)) == NULL)) {
		free(nh);
		fpm_stats.ctr[FPM_C_INSTALL_FAIL]++;
		snprintf(fpm_stats.last_install_error, sizeof(fpm_stats.last_install_error),
		         "out of memory");
		return;
	}
	fpm_route_account(e, -1);
	e->stale = false;
	fpm_route_account(e, 1);
	free(e->nh);
	e->prefix = m->prefix;
	e->type = m->type;
	e->origin = m->origin;
	if (e->nh_id != m->nh_id) {
		fpm_use_unlink(&e->use);
		if (m->nh_id != 0)
			fpm_use_link(&e->use, m->nh_id, 0);
	}
	e->nh_id = m->nh_id;
	e->n_nh = m->n_nh;
	e->nh = nh;
	if (nh != NULL)
		memcpy(nh, m->nh, m->n_nh * sizeof(*nh));
	e->encap = m->encap;
	fpm_stats.ctr[m->encap] += m->encap != 0;
	fpm_stats.ctr[FPM_C_ECMP_TRUNC] += m->truncated;
	fpm_route_install(e);
}

/* Link (or unlink) the member slots of group o under their ids. */
static void members_link(struct fpm_obj *o, bool link)
{
	for (unsigned i = 0; i < o->n_grp; i++)
		if (link)
			fpm_use_link(&o->member[i], o->grp[i].id, o->id);
		else
			fpm_use_unlink(&o->member[i]);
}

static void obj_set(const struct fpm_msg *m)
{
	struct fpm_obj *o = fpm_map_get(&fpm_objs, &m->id);

	if (o == NULL && fpm_objs.n >= max_routes) {
		fpm_stats.ctr[FPM_C_NH_LIMIT]++;
		return;
	}
	if (o == NULL) {
		if ((o = calloc(1, sizeof(*o))) == NULL ||
		    (o->id = m->id, fpm_map_put(&fpm_objs, o)) < 0) {
			free(o);
			fpm_stats.ctr[FPM_C_INSTALL_FAIL]++;
			return;
		}
		fpm_stats.groups = fpm_objs.n;
	}
	members_link(o, false);
	o->blackhole = m->blackhole;
	o->encap = m->encap;
	o->n_grp = m->n_grp;
	memcpy(o->grp, m->grp, sizeof(o->grp));
	o->nh = m->nh[0];
	members_link(o, true);
	fpm_stats.ctr[FPM_C_ECMP_TRUNC] += m->truncated;
	fpm_use_changed(m->id); /* its fpm_routes, or those waiting for it */
}

void fpm_obj_free(struct fpm_obj *o)
{
	members_link(o, false);
	free(o);
}

static void obj_del(uint32_t id)
{
	struct fpm_obj *o = fpm_map_get(&fpm_objs, &id);

	if (o == NULL) {
		fpm_stats.ctr[FPM_C_DEL_UNKNOWN]++;
		return;
	}
	fpm_map_del(&fpm_objs, o);
	fpm_stats.groups = fpm_objs.n;
	fpm_obj_free(o);
	fpm_use_changed(id); /* as the kernel: its routes go (here: wait for it) */
}

void fpm_table_apply(const struct fpm_msg *m, void *arg)
{
	struct fpm_route *e;

	(void)arg;
	fpm_stats.ctr[FPM_C_MESSAGES]++;
	switch (m->kind) {
	case FPM_MSG_SKIP:
		fpm_stats.ctr[m->skip_ctr]++;
		return;
	case FPM_MSG_ROUTE_ADD:
		fpm_stats.ctr[FPM_C_ROUTE_ADD]++;
		route_set(m);
		return;
	case FPM_MSG_ROUTE_DEL:
		fpm_stats.ctr[FPM_C_ROUTE_DEL]++;
		if ((e = fpm_vrf_del_target(m)) != NULL)
			fpm_route_remove(e);
		return;
	case FPM_MSG_NH_ADD:
		fpm_stats.ctr[FPM_C_NH_ADD]++;
		obj_set(m);
		return;
	case FPM_MSG_NH_DEL:
		fpm_stats.ctr[FPM_C_NH_DEL]++;
		obj_del(m->id);
		return;
	}
}

uint64_t fpm_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void fpm_table_removed(uint16_t vrf, const struct fwd_prefix *p, uint8_t origin)
{
	struct rkey k = fpm_rkey(vrf, p);
	struct fpm_route *e;

	if (self || (e = fpm_map_get(&fpm_routes, &k)) == NULL)
		return;
	if (!fwd_origin_is_fpm((enum fwd_origin)origin)) {
		fpm_route_install(e); /* fwd's route went away: zebra's comes back */
		return;
	}
	/* Ours went: replaced by a fwd route, or deleted by fwdctl. */
	int o = ops->origin(vrf, p);
	fpm_route_account(e, -1);
	e->state = o >= 0 && !fwd_origin_is_fpm((enum fwd_origin)o) ? ST_SHADOWED : ST_NONE;
	fpm_route_account(e, 1);
}

void fpm_objs_clear(void)
{
	struct fpm_obj *o;

	for (size_t i = 0; (o = fpm_map_next(&fpm_objs, &i)) != NULL;)
		fpm_obj_free(o);
	fpm_map_free(&fpm_objs);
	fpm_stats.groups = 0;
}

void fpm_table_clear(void)
{
	void *x;

	fpm_use_clear(NULL);
	for (size_t i = 0; (x = fpm_map_next(&fpm_routes, &i)) != NULL;)
		route_free(x);
	fpm_objs_clear();
	fpm_map_free(&fpm_routes);
	fpm_work_clear();
	memset(&fpm_stats, 0, sizeof(fpm_stats));
}
