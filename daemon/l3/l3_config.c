/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a config file asks of both address families (addresses, IPv6's `ra`,
 * routes, static neighbours), made real by one reconcile at start-up and on
 * every reload:
 *
 *   1. the file becomes the state it wants (origin config);
 *   2. what fwdctl added meanwhile joins it where the file says nothing
 *      about the same object and the family's rules (ip4/addr.h,
 *      ip6/addr6.h) still accept it;
 *   3. that state is reconciled with the running one, not with the previous
 *      file: routes and neighbours the state does not want go first, then
 *      addresses, then the routes and neighbours it wants are put in place.
 *
 * The cascade that removing an address starts (routes and neighbours that
 * lose their subnet) waits until every module has its new state (the
 * families' address batches), so that nothing still wanted is taken away
 * by it. If a step fails, the running state captured before is reconciled
 * back and the reload is refused. Start-up is the same reconcile from an
 * empty state. What differs between the families is a table of their
 * operations (struct family, l3_config_fam.c); the reconcile is written once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/iface.h"
#include "core/log.h"
#include "core/module.h"
#include "core/reload.h"
#include "l3/l3_config.h"
#include "nexthop/neigh.h"
#include "port/port.h"
#include "vrf/vrf.h"

static struct l3_want *undo_state; /* the running state before the reload being applied */

static void want_free(struct l3_want *w)
{
	if (w == NULL)
		return;
	free(w->routes);
	free(w->neighs);
	free(w->ifa);
	free(w);
}

static struct l3_want *want_new(void)
{
	return calloc(1, sizeof(struct l3_want));
}

/* v with room for one more element of size elem (n used of *cap); NULL: ENOMEM. */
static void *grow(void *v, unsigned n, unsigned *cap, size_t elem)
{
	unsigned c = *cap ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return v;
	p = realloc(v, c * elem);
	if (p != NULL)
		*cap = c;
	return p;
}

int l3_want_route(struct l3_want *w, const struct l3_route *r)
{
	struct l3_route *v = grow(w->routes, w->n_routes, &w->cap_routes, sizeof(*r));

	if (v == NULL)
		return -ENOMEM;
	w->routes = v;
	w->routes[w->n_routes++] = *r;
	return 0;
}

static int want_neigh(struct l3_want *w, const struct neigh_static *n)
{
	struct neigh_static *v = grow(w->neighs, w->n_neighs, &w->cap_neighs, sizeof(*n));

	if (v == NULL)
		return -ENOMEM;
	w->neighs = v;
	w->neighs[w->n_neighs++] = *n;
	return 0;
}

/* By VRF, then prefix: a prefix is in each VRF once. */
static int route_cmp(const void *a, const void *b)
{
	const struct l3_route *x = a, *y = b;

	if (x->vrf != y->vrf)
		return x->vrf < y->vrf ? -1 : 1;
	return fwd_prefix_cmp(&x->prefix, &y->prefix);
}

static const struct l3_route *find_route(const struct l3_want *w, uint16_t vrf,
                                         const struct fwd_prefix *p, unsigned n)
{
	struct l3_route key = { .vrf = vrf, .prefix = *p };

	return n == 0 ? NULL : bsearch(&key, w->routes, n, sizeof(key), route_cmp);
}

static const struct neigh_static *find_neigh(const struct l3_want *w, const struct fwd_ip *a,
                                             uint16_t port)
{
	for (unsigned i = 0; i < w->n_neighs; i++)
		if (fwd_ip_eq(&w->neighs[i].addr, a) && w->neighs[i].port == port)
			return &w->neighs[i];
	return NULL;
}

static int find_addr(const struct l3_want_addrs *pa, const struct fwd_prefix *p)
{
	for (unsigned i = 0; i < pa->n; i++)
		if (fwd_prefix_cmp(&pa->a[i], p) == 0)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------- building states */

static int want_config(struct l3_want *w, const struct fwd_config *cfg)
{
	int rc = 0;

	for (unsigned p = 0; p < cfg->n_ports && p < fwd_n_ports; p++) {
		const struct fwd_conf_port *cp = &cfg->ports[p];

		w->ra[p] = cp->ra;
		for (unsigned i = 0; i < cp->n_addresses; i++) {
			struct l3_want_addrs *pa =
			        &w->addrs[l3_fam_index(cp->addresses[i].family)][p];

			pa->a[pa->n] = cp->addresses[i];
			pa->origin[pa->n++] = FWD_ORIGIN_CONFIG;
		}
	}
	for (unsigned i = 0; i < cfg->n_routes && rc == 0; i++) {
		const struct fwd_conf_route *cr = &cfg->routes[i];
		/* dev and port name a port or a VLAN interface (fwd.yaml(5)) */
		int dev = cr->dev[0] ? fwd_iface_id_by_name(cr->dev) : -1;
		int vrf = vrf_id_of(cr->vrf), next = vrf_id_of(cr->next_vrf);
		struct l3_route r = { .vrf = vrf > 0 ? (uint16_t)vrf : 0,
			              .next_vrf = next > 0 ? (uint16_t)next : 0,
			              .prefix = cr->prefix,
			              .type = cr->next_vrf[0]   ? L3_ROUTE_NEXT_VRF
			                      : cr->blackhole   ? L3_ROUTE_BLACKHOLE
			                      : cr->unreachable ? L3_ROUTE_UNREACHABLE
			                      : cr->prohibit    ? L3_ROUTE_PROHIBIT
			                                        : L3_ROUTE_VIA,
			              .origin = FWD_ORIGIN_CONFIG,
			              .replace = true };
		if (r.type == L3_ROUTE_VIA) {
			/* a via list is an ECMP group; dev alone, a route on a link */
			r.n_nh = cr->n_via > 0 ? cr->n_via : 1;
			for (unsigned k = 0; k < r.n_nh; k++)
				r.nh[k] = (struct l3_nh){ cr->n_via > 0 ? cr->via[k]
					                                : (struct fwd_ip){ 0 },
					                  dev };
		}
		rc = l3_want_route(w, &r);
	}
	for (unsigned i = 0; i < cfg->n_neighs && rc == 0; i++) {
		const struct fwd_conf_neigh *cn = &cfg->neighs[i];
		int id = fwd_iface_id_by_name(cn->port);
		struct neigh_static n = { cn->address, id >= 0 ? (uint16_t)id : 0,
			                  FWD_ORIGIN_CONFIG };
		memcpy(n.mac.addr_bytes, cn->mac, sizeof(cn->mac));
		rc = want_neigh(w, &n);
	}
	return rc == 0 ? l3_want_config_ifaces(w, cfg) : rc;
}

/* What runs now: every address, the routes of config and fwdctl, every
 * static neighbour (what a failed reload restores). */
static int want_running(struct l3_want *w)
{
	struct neigh_static ns;
	uint32_t pos = 0;
	int rc = 0;

	for (unsigned f = 0; f < L3_N_FAMILIES && rc == 0; f++) {
		for (unsigned p = 0; p < fwd_n_ports; p++) {
			struct l3_want_addrs *pa = &w->addrs[f][p];
			pa->n = l3_families[f]->addrs((uint8_t)p, pa->a, pa->origin);
		}
		rc = l3_families[f]->routes(w);
	}
	l3_want_running_ra(w);
	while (rc == 0 && neigh_static_next(&pos, &ns))
		rc = want_neigh(w, &ns);
	return rc == 0 ? l3_want_running_ifaces(w) : rc;
}

/* The addresses fwdctl added (in run) that the file leaves alone and still allows. */
static void keep_rpc_addrs(struct l3_want *w, const struct l3_want *run, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], why[160];

	for (unsigned f = 0; f < L3_N_FAMILIES; f++)
		for (unsigned p = 0; p < fwd_n_ports; p++)
			for (unsigned i = 0; i < run->addrs[f][p].n; i++) {
				const struct fwd_prefix *a = &run->addrs[f][p].a[i];
				struct l3_want_addrs *pa = &w->addrs[f][p];
				if (run->addrs[f][p].origin[i] != FWD_ORIGIN_RPC ||
				    find_addr(pa, a) >= 0)
					continue;
				if (l3_families[f]->rule_add(w, p, a, why, sizeof(why)) < 0) {
					fwd_reload_note(
					        log,
					        "address %s on %s (added by fwdctl) removed: %s",
					        fwd_prefix_fmt(a, buf), fwd_ports[p].name, why);
					continue;
				}
				pa->a[pa->n] = *a;
				pa->origin[pa->n++] = FWD_ORIGIN_RPC;
			}
}

/* The routes and static neighbours fwdctl added (in run) that the file leaves alone. */
static int keep_rpc_routes_neighs(struct l3_want *w, const struct l3_want *run,
                                  struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], why[160];
	unsigned n_file = w->n_routes;
	int rc = 0;

	if (n_file > 0)
		qsort(w->routes, n_file, sizeof(*w->routes), route_cmp);
	for (unsigned i = 0; i < run->n_routes && rc == 0; i++) {
		const struct l3_route *r = &run->routes[i];
		if (r->origin != FWD_ORIGIN_RPC ||
		    find_route(w, r->vrf, &r->prefix, n_file) != NULL)
			continue;
		if (l3_fam(r->prefix.family)->rule_route(w, r, why, sizeof(why)) == 0)
			rc = l3_want_route(w, r);
		else
			fwd_reload_note(log, "route %s (added by fwdctl) removed: %s",
			                fwd_prefix_fmt(&r->prefix, buf), why);
	}
	for (unsigned i = 0; i < run->n_neighs && rc == 0; i++) {
		const struct neigh_static *n = &run->neighs[i];
		if (n->origin != FWD_ORIGIN_RPC || find_neigh(w, &n->addr, n->port) != NULL)
			continue;
		if (l3_fam(n->addr.family)->rule_neigh(w, n, why, sizeof(why)) == 0)
			rc = want_neigh(w, n);
		else
			fwd_reload_note(log, "neighbour %s on %s (added by fwdctl) removed: %s",
			                fwd_ip_fmt(&n->addr, buf), fwd_iface_name(n->port), why);
	}
	return rc;
}

/* ----------------------------------------------------------- reconciling */

static void drop_routes_neighs(const struct l3_want *w, const struct l3_want *run,
                               struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned i = 0; i < run->n_routes; i++) {
		const struct l3_route *r = &run->routes[i];
		if (find_route(w, r->vrf, &r->prefix, w->n_routes) == NULL &&
		    l3_route_del(r->vrf, &r->prefix, err, sizeof(err)) == 0)
			fwd_reload_note(log, "route %s removed", fwd_prefix_fmt(&r->prefix, buf));
	}
	for (unsigned i = 0; i < run->n_neighs; i++) {
		const struct neigh_static *n = &run->neighs[i];
		if (find_neigh(w, &n->addr, n->port) == NULL && neigh_del(n->addr, n->port) == 0)
			fwd_reload_note(log, "neighbour %s on %s removed",
			                fwd_ip_fmt(&n->addr, buf), fwd_iface_name(n->port));
	}
}

static int sync_addrs(const struct l3_want *w, const struct l3_want *was,
                      const struct l3_family *fam, unsigned f, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];
	struct l3_want_addrs run;

	for (unsigned p = 0; p < fwd_n_ports; p++) {
		run.n = fam->addrs((uint8_t)p, run.a, run.origin);
		for (unsigned i = run.n; i-- > 0;)
			if (find_addr(&w->addrs[f][p], &run.a[i]) < 0 &&
			    fam->addr_del((uint8_t)p, &run.a[i], err, sizeof(err)) == 0)
				fwd_reload_note(log, "address %s removed from %s",
				                fwd_prefix_fmt(&run.a[i], buf), fwd_ports[p].name);
	}
	l3_drop_ifaces(w, was, fam, log);
	for (unsigned p = 0; p < fwd_n_ports; p++) {
		const struct l3_want_addrs *pa = &w->addrs[f][p];
		run.n = fam->addrs((uint8_t)p, run.a, run.origin);
		for (unsigned i = 0; i < pa->n; i++) {
			if (find_addr(&run, &pa->a[i]) >= 0)
				continue;
			fwd_prefix_fmt(&pa->a[i], buf);
			if (fam->addr_add((uint8_t)p, &pa->a[i], pa->origin[i], err, sizeof(err)) <
			    0) {
				fwd_reload_fail(log, "address %s on %s: %s", buf, fwd_ports[p].name,
				                err);
				return -EINVAL;
			}
			fwd_reload_note(log, "address %s added to %s", buf, fwd_ports[p].name);
		}
		if (fam->port_sync != NULL)
			fam->port_sync(w, (uint8_t)p, log);
	}
	return l3_add_ifaces(w, was, fam, log);
}

static int sync_routes(const struct l3_want *w, struct fwd_reload_log *log)
{
	char buf[FWD_PREFIX_STRLEN], err[256];

	for (unsigned i = 0; i < w->n_routes; i++) {
		const struct l3_route *r = &w->routes[i];
		if (l3_fam(r->prefix.family)->route_in_place(r))
			continue;
		int rc = l3_route_add(r, err, sizeof(err));
		fwd_prefix_fmt(&r->prefix, buf);
		if (rc < 0) {
			fwd_reload_fail(log, "%s", err); /* it names the route */
			return rc;
		}
		fwd_reload_note(log, "route %s %s", buf, rc == 1 ? "changed" : "added");
	}
	return 0;
}

static int sync_neighs(const struct l3_want *w, struct fwd_reload_log *log)
{
	char ip[FWD_IP_STRLEN], err[256];
	struct neigh_static cur;

	for (unsigned i = 0; i < w->n_neighs; i++) {
		const struct neigh_static *n = &w->neighs[i];
		bool had = neigh_static_get(n->addr, n->port, &cur);
		if (had && cur.origin == n->origin && rte_is_same_ether_addr(&cur.mac, &n->mac))
			continue;
		fwd_ip_fmt(&n->addr, ip);
		if (neigh_add_static(n->addr, n->port, &n->mac, n->origin, err, sizeof(err)) < 0) {
			fwd_reload_fail(log, "neighbour %s on %s: %s", ip, fwd_iface_name(n->port),
			                err);
			return -EINVAL;
		}
		fwd_reload_note(log, "neighbour %s on %s %s", ip, fwd_iface_name(n->port),
		                had ? "changed" : "added");
	}
	return 0;
}

/* Make the running state w; deletions first. Inside the families' batches. */
static int reconcile(const struct l3_want *w, struct fwd_reload_log *log)
{
	struct l3_want *run = want_new();
	int rc = run != NULL ? want_running(run) : -ENOMEM;

	if (rc == 0)
		drop_routes_neighs(w, run, log);
	for (unsigned f = 0; f < L3_N_FAMILIES && rc == 0; f++)
		rc = sync_addrs(w, run, l3_families[f], f, log);
	if (rc == 0)
		rc = sync_routes(w, log);
	if (rc == 0)
		rc = sync_neighs(w, log);
	want_free(run);
	return rc;
}

/* Back to state w after a failure; what it notes is not the reload's. */
static void restore(const struct l3_want *w)
{
	struct fwd_reload_log quiet = { 0 };

	if (reconcile(w, &quiet) < 0)
		LOG(ERR, "addresses and routes could not be restored in full: %s",
		    quiet.n > 0 ? quiet.lines[quiet.n - 1] : "out of memory");
	fwd_reload_log_free(&quiet);
}

static void batches(bool begin)
{
	for (unsigned f = 0; f < L3_N_FAMILIES; f++)
		(begin ? l3_families[f]->batch_begin : l3_families[f]->batch_end)();
}

static int l3_config_apply(const struct fwd_config *cfg, struct fwd_reload_log *log)
{
	struct l3_want *w = want_new(), *before = want_new();
	int rc = w != NULL && before != NULL ? 0 : -ENOMEM;

	if (rc == 0 && (rc = want_config(w, cfg)) == 0 && (rc = want_running(before)) == 0) {
		keep_rpc_addrs(w, before, log);
		rc = keep_rpc_routes_neighs(w, before, log);
		if (rc == 0)
			rc = l3_keep_rpc_ifaces(w, before, log);
	}
	if (rc < 0) {
		fwd_reload_fail(log, "addresses and routes: out of memory");
		want_free(w);
		want_free(before);
		return rc;
	}
	if (w->n_routes > 0)
		qsort(w->routes, w->n_routes, sizeof(*w->routes), route_cmp);
	batches(true);
	rc = reconcile(w, log);
	want_free(w);
	if (rc < 0) {
		restore(before);
		batches(false);
		want_free(before);
		return rc;
	}
	want_free(undo_state);
	undo_state = before;
	return 0;
}

static void l3_config_commit(void)
{
	want_free(undo_state);
	undo_state = NULL;
	batches(false);
}

static void l3_config_undo(void)
{
	if (undo_state != NULL)
		restore(undo_state);
	l3_config_commit();
}

/* Start-up: the reload's reconcile, from an empty state. */
static int l3_config_init(const struct fwd_config *cfg)
{
	struct fwd_reload_log log = { 0 };
	int rc = l3_config_apply(cfg, &log);

	if (rc < 0)
		LOG(ERR, "%s", log.errors > 0 ? log.lines[log.last_error] : strerror(-rc));
	else
		l3_config_commit();
	fwd_reload_log_free(&log);
	return rc;
}

static int l3_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                           struct fwd_reload_log *log)
{
	(void)cur; /* the running state is the reference, not the previous file */
	return l3_config_apply(next, log);
}

static int l3_config_running(struct fwd_config *run, uint64_t *omitted)
{
	for (unsigned f = 0; f < L3_N_FAMILIES; f++) {
		int rc = l3_families[f]->running(run, omitted);

		if (rc < 0)
			return rc;
	}
	return 0;
}

static struct fwd_module l3_config_module = {
	.name = "l3-config",
	.depends_on = "ip4 ip6 vrf",
	.init = l3_config_init,
	.reload_apply = l3_reload_apply,
	.undo = l3_config_undo,
	.commit = l3_config_commit,
	.running = l3_config_running,
};
FWD_MODULE(l3_config_module);
