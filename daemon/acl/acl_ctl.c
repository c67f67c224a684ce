/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ACLs on the control thread: compiling acls[] at start-up and on reload,
 * publishing them with their attachments (ports[].acl_in, acl_out,
 * control.acl_local) as one struct acl_state, and freeing the old one once
 * no worker can hold it (RCU). ACLs a reload leaves unchanged keep their
 * compiled contexts and counters. `stats clear` starts their counters
 * again from zero.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_rcu_qsbr.h>

#include "acl/acl.h"
#include "core/iface.h"
#include "core/event.h"
#include "core/log.h"
#include "core/module.h"
#include "core/punt.h"
#include "core/reload.h"
#include "port/port.h"
#include "stats/stats_ctl.h"

struct acl_state *acl_state;

static struct acl_state *prev; /* before the last reload_apply, until commit or undo */

static const struct acl_set *find(const struct acl_state *st, const char *name)
{
	for (unsigned i = 0; st != NULL && name[0] != '\0' && i < st->n_sets; i++)
		if (strcmp(st->sets[i]->name, name) == 0)
			return st->sets[i];
	return NULL;
}

static bool holds(const struct acl_state *st, const struct acl_set *s)
{
	for (unsigned i = 0; st != NULL && i < st->n_sets; i++)
		if (st->sets[i] == s)
			return true;
	return false;
}

/* Free st and those of its sets that keep does not hold. */
static void state_free(struct acl_state *st, const struct acl_state *keep)
{
	for (unsigned i = 0; st != NULL && i < st->n_sets; i++)
		if (!holds(keep, st->sets[i]))
			acl_set_free(st->sets[i]);
	free(st);
}

/* The filter bits of interface id in st. */
static uint8_t filter_bits(const struct acl_state *st, unsigned id)
{
	return (uint8_t)((st != NULL && st->in[id] ? FWD_FILTER_IN : 0) |
	                 (st != NULL && st->out[id] ? FWD_FILTER_OUT : 0));
}

/* The filter bits of every interface (a port's in its fwd_ports entry too)
 * after st is in place, so that a worker that sees a bit finds what it
 * stands for. A port one of whose VLANs has an acl_out filters its tx
 * bursts (st->vlan_out first: the worker reads it once the bit is set). */
static void publish_bits(struct acl_state *st)
{
	uint8_t vlan_out[FWD_MAX_PORTS] = { 0 };
	struct fwd_iface *ifp;

	FWD_IFACE_FOREACH(ifp)
	{
		ifp->filter = filter_bits(st, ifp->id);
		if (ifp->id >= FWD_MAX_PORTS && ifp->port < FWD_MAX_PORTS &&
		    (ifp->filter & FWD_FILTER_OUT))
			vlan_out[ifp->port] = 1;
	}
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		if (st != NULL)
			st->vlan_out[i] = vlan_out[i];
		fwd_ports[i].filter =
		        (uint8_t)(filter_bits(st, i) | (vlan_out[i] ? FWD_FILTER_OUT : 0));
	}
}

static void publish(struct acl_state *st)
{
	__atomic_store_n(&acl_state, st, __ATOMIC_RELEASE);
	publish_bits(st);
}

static void wait_readers(void)
{
	if (fwd.rcu != NULL)
		rte_rcu_qsbr_synchronize(fwd.rcu, RTE_QSBR_THRID_INVALID);
}

/* The set for ACL c: the old one when unchanged, else compiled anew. */
static struct acl_set *set_for(const struct fwd_conf_acl *c, const struct acl_state *old,
                               struct fwd_reload_log *log, char *err, size_t errlen)
{
	const struct acl_set *o = find(old, c->name);
	struct acl_set *s;
	uint64_t t0;

	if (o != NULL && acl_conf_equal(&o->conf, c))
		return (struct acl_set *)(uintptr_t)o;
	t0 = rte_get_tsc_cycles();
	s = acl_set_build(c, err, errlen);
	if (s == NULL)
		return NULL;
	LOG(INFO, "acl %s: %u rules compiled in %.1f ms", c->name, c->n_rules,
	    (double)(rte_get_tsc_cycles() - t0) * 1e3 / (double)rte_get_tsc_hz());
	if (log != NULL)
		fwd_reload_note(log, "acl %s: %s, %u rules", c->name, o ? "replaced" : "added",
		                c->n_rules);
	return s;
}

/* Bind the attachments of cfg in st; the interfaces above the ports keep
 * old's, by ACL name, until iface/ binds them again (acl_iface_bind). */
static void attach(struct acl_state *st, const struct fwd_config *cfg, const struct acl_state *old)
{
	for (unsigned id = FWD_MAX_PORTS; old != NULL && id < FWD_MAX_IFACES; id++) {
		if (old->in[id] != NULL)
			st->in[id] = find(st, old->in[id]->name);
		if (old->out[id] != NULL)
			st->out[id] = find(st, old->out[id]->name);
	}
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_port *p = fwd_port_by_name(cfg->ports[i].name);

		if (p == NULL)
			continue;
		st->in[p->idx] = find(st, cfg->ports[i].acl_in);
		st->out[p->idx] = find(st, cfg->ports[i].acl_out);
	}
	st->local = find(st, cfg->control.acl_local);
}

/* A new state for cfg, sharing the unchanged sets of old; NULL with err. */
static struct acl_state *state_build(const struct fwd_config *cfg, const struct acl_state *old,
                                     struct fwd_reload_log *log, char *err, size_t errlen)
{
	static uint32_t gens; /* each state its own: the workers' caches (acl_cache.c) */
	struct acl_state *st = calloc(1, sizeof(*st));

	if (st == NULL) {
		snprintf(err, errlen, "acl: out of memory");
		return NULL;
	}
	if (++gens == 0) /* 0 tags no entry; 2^32 reloads later, harmless */
		++gens;
	st->gen = gens;
	const struct acl_conf *conf = acl_conf(cfg);

	for (unsigned i = 0; i < conf->n_acls; i++) {
		struct acl_set *s = set_for(&conf->acls[i], old, log, err, errlen);

		if (s == NULL) {
			state_free(st, old);
			return NULL;
		}
		st->sets[st->n_sets++] = s;
	}
	attach(st, cfg, old);
	return st;
}

/* A verdict cache for each worker, on its socket; a worker without one
 * (out of memory) classifies every packet. */
static void caches_new(void)
{
	for (unsigned w = 0; w < fwd.n_workers; w++) {
		const struct fwd_worker *wk = fwd.workers[w];

		acl_caches[w] = acl_cache_new(w, wk != NULL ? (int)rte_lcore_to_socket_id(wk->lcore)
		                                            : SOCKET_ID_ANY);
		if (acl_caches[w] == NULL)
			LOG(WARNING, "acl: worker %u: no memory for its verdict cache", w);
	}
}

static int acl_module_init(const struct fwd_config *cfg)
{
	char err[256];
	struct acl_state *st = state_build(cfg, NULL, NULL, err, sizeof(err));

	if (st == NULL) {
		LOG(ERR, "%s", err);
		return -ENOMEM;
	}
	caches_new();
	publish(st);
	return 0;
}

static void acl_module_fini(void)
{
	struct acl_state *st = acl_state;

	publish(NULL);
	wait_readers();
	state_free(st, NULL);
	for (unsigned w = 0; w < FWD_MAX_WORKERS; w++) {
		acl_cache_free(acl_caches[w]);
		acl_caches[w] = NULL;
	}
}

/* `fwdctl monitor config`: each ACL a reload changed. */
static void note_changes(const struct acl_state *old, const struct acl_state *st)
{
	for (unsigned i = 0; i < st->n_sets; i++) {
		struct fwd_event *e;

		if (holds(old, st->sets[i]) || (e = fwd_event_new(FWD_EVENT_CONFIG, "acl")) == NULL)
			continue;
		snprintf(e->text, sizeof(e->text), "acl %s: %s, %u rules", st->sets[i]->name,
		         find(old, st->sets[i]->name) ? "replaced" : "added", st->sets[i]->n_rules);
	}
	for (unsigned i = 0; old != NULL && i < old->n_sets; i++) {
		struct fwd_event *e;

		if (find(st, old->sets[i]->name) != NULL ||
		    (e = fwd_event_new(FWD_EVENT_CONFIG, "acl")) == NULL)
			continue;
		snprintf(e->text, sizeof(e->text), "acl %s: removed", old->sets[i]->name);
	}
}

/* A reload log line for each attachment that changed. */
static void note_attachments(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log)
{
	for (unsigned i = 0; i < next->n_ports; i++) {
		const struct fwd_conf_port *n = &next->ports[i];
		const struct fwd_conf_port *c = fwd_config_port(cur, n->name);

		if (c == NULL || strcmp(c->acl_in, n->acl_in) != 0)
			fwd_reload_note(log, "port %s: acl_in %s", n->name,
			                n->acl_in[0] ? n->acl_in : "none");
		if (c == NULL || strcmp(c->acl_out, n->acl_out) != 0)
			fwd_reload_note(log, "port %s: acl_out %s", n->name,
			                n->acl_out[0] ? n->acl_out : "none");
	}
	if (strcmp(cur->control.acl_local, next->control.acl_local) != 0)
		fwd_reload_note(log, "acl_local %s",
		                next->control.acl_local[0] ? next->control.acl_local : "none");
}

static int acl_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	char err[256];
	struct acl_state *st;

	st = state_build(next, acl_state, log, err, sizeof(err));
	if (st == NULL) {
		fwd_reload_fail(log, "%s", err);
		return -ENOMEM;
	}
	for (unsigned i = 0; acl_state != NULL && i < acl_state->n_sets; i++)
		if (find(st, acl_state->sets[i]->name) == NULL)
			fwd_reload_note(log, "acl %s: removed", acl_state->sets[i]->name);
	note_attachments(cur, next, log);
	prev = acl_state;
	publish(st);
	return 0;
}

static void acl_undo(void)
{
	struct acl_state *st = acl_state;

	publish(prev);
	wait_readers();
	state_free(st, prev);
	prev = NULL;
}

static void acl_commit(void)
{
	struct acl_state *old = prev;

	prev = NULL;
	if (old == NULL)
		return;
	note_changes(old, acl_state);
	wait_readers();
	state_free(old, acl_state);
}

/* The interfaces bound since acl_iface_bind_begin: end unbinds the others
 * (not begin, so a rebound interface is never unfiltered in between). */
static bool bound[FWD_MAX_IFACES];

void acl_iface_bind_begin(void)
{
	memset(bound, 0, sizeof(bound));
}

void acl_iface_bind(uint16_t id, const char *acl_in, const char *acl_out)
{
	struct acl_state *st = acl_state;

	if (st == NULL || id < FWD_MAX_PORTS || id >= FWD_MAX_IFACES)
		return;
	bound[id] = true;
	__atomic_store_n(&st->in[id], acl_in ? find(st, acl_in) : NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&st->out[id], acl_out ? find(st, acl_out) : NULL, __ATOMIC_RELEASE);
}

void acl_iface_bind_end(void)
{
	struct acl_state *st = acl_state;

	for (unsigned id = FWD_MAX_PORTS; st != NULL && id < FWD_MAX_IFACES; id++) {
		if (bound[id])
			continue;
		__atomic_store_n(&st->in[id], NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&st->out[id], NULL, __ATOMIC_RELEASE);
	}
	publish_bits(st);
}

/* An interface going: its id may be handed out again, without its ACLs. */
static void acl_iface_gone(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	struct acl_state *st = acl_state;

	(void)ev;
	if (st == NULL || ifp->id < FWD_MAX_PORTS)
		return;
	fwd_ifaces[ifp->id].filter = 0;
	__atomic_store_n(&st->in[ifp->id], NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&st->out[ifp->id], NULL, __ATOMIC_RELEASE);
	publish_bits(st); /* its port may have no other VLAN with an acl_out */
}

/* `stats clear`: each rule counts from zero again. */
static void acl_stats_clear(void)
{
	for (unsigned i = 0; acl_state != NULL && i < acl_state->n_sets; i++) {
		struct acl_set *s = acl_state->sets[i];

		for (uint32_t r = 0; r <= s->n_rules; r++) {
			struct acl_hits h = acl_set_hits(s, r);

			s->base[r].pkts += h.pkts;
			s->base[r].bytes += h.bytes;
		}
	}
}

static struct fwd_module acl_module = {
	.name = "acl",
	.depends_on = "port ip4 ip6",
	.init = acl_module_init,
	.fini = acl_module_fini,
	.reload_apply = acl_reload_apply,
	.undo = acl_undo,
	.commit = acl_commit,
};
FWD_MODULE(acl_module);

RTE_INIT(acl_ctl_register)
{
	fwd_filter = acl_filter;
	fwd_local_filter = acl_local;
	fwd_stats_on_clear(acl_stats_clear);
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 40, acl_iface_gone);
}
