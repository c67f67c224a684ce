/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Zebra's table across connections, and the work left for later turns of
 * the loop (cp/fpm_table.h). Next-hop ids are a connection's own (a
 * restarted zebra numbers its objects anew): on a new connection every
 * route is stale until sent again, keeps the next hops its id stood for,
 * written out, and the objects are forgotten; what is still stale at the
 * end of the replay is swept. Besides the ids' jobs (cp/fpm_use.c), routes
 * to place again after a reload and the sweep are queued here, each route
 * once. Control thread only.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "cp/fpm_map.h"
#include "cp/fpm_priv.h"
#include "cp/fpm_table.h"
#include "cp/fpm_use.h"

/* Routes to place again after a reload, a sweep: prefixes, looked up
 * again when their turn comes; a route is queued once to be placed. */
enum { WORK_PLACE, WORK_SWEEP };

struct work {
	struct rkey key;
	uint8_t op;
};

static struct work *queue;
static size_t q_head, q_len, q_cap;

static void queue_push(struct fpm_route *e, uint8_t op)
{
	if (op == WORK_PLACE && e->queued)
		return;
	if (q_len == q_cap) {
		size_t cap = q_cap ? q_cap * 2 : 1024;
		struct work *q = realloc(queue, cap * sizeof(*q));
		if (q == NULL) {
			fpm_stats.ctr[FPM_C_INSTALL_FAIL]++;
			return;
		}
		queue = q;
		q_cap = cap;
	}
	queue[q_len++] = (struct work){ e->key, op };
	e->queued |= op == WORK_PLACE;
}

/* Write out the next hops route e's id stands for, so that it no longer
 * depends on ids (a new connection's ids mean other things). */
static void freeze(struct fpm_route *e)
{
	const struct fpm_obj *o = fpm_map_get(&fpm_objs, &e->nh_id), *m;
	struct fpm_nh nh[FWD_ECMP_MAX];
	unsigned n = 0;

	if (e->nh_id == 0)
		return;
	fpm_use_unlink(&e->use);
	e->nh_id = 0;
	if (o != NULL && o->blackhole && e->type == L3_ROUTE_VIA)
		e->type = L3_ROUTE_BLACKHOLE;
	if (o != NULL && o->encap != 0)
		e->encap = o->encap; /* refused it stays */
	for (unsigned i = 0; o != NULL && i < o->n_grp; i++)
		if ((m = fpm_map_get(&fpm_objs, &o->grp[i].id)) != NULL && m->encap != 0)
			e->encap = m->encap;
	if (o != NULL && o->n_grp == 0 && !o->blackhole)
		nh[n++] = o->nh;
	for (unsigned i = 0; o != NULL && i < o->n_grp; i++)
		if ((m = fpm_map_get(&fpm_objs, &o->grp[i].id)) != NULL && m->n_grp == 0 &&
		    !m->blackhole && n < FWD_ECMP_MAX)
			nh[n++] = m->nh;
	free(e->nh);
	e->nh = n > 0 ? malloc(n * sizeof(*nh)) : NULL;
	e->n_nh = e->nh != NULL ? n : 0;
	if (e->nh != NULL)
		memcpy(e->nh, nh, n * sizeof(*nh));
}

static void requeue(struct fpm_use *u)
{
	queue_push(container_of(u, struct fpm_route, use), WORK_PLACE);
}

void fpm_table_mark_stale(void)
{
	struct fpm_route *e;

	fpm_use_clear(requeue); /* the ids go; what their jobs had left to do stays */
	for (size_t i = 0; (e = fpm_map_next(&fpm_routes, &i)) != NULL;) {
		fpm_route_account(e, -1);
		freeze(e);
		if (e->state == ST_WAITING)
			e->state = ST_NONE; /* for an id of the old connection: never to come */
		e->stale = true;
		fpm_route_account(e, 1);
	}
	fpm_objs_clear();
	/* a sweep still under way was the last connection's: this one has its grace */
	size_t keep = q_head;
	for (size_t i = q_head; i < q_len; i++)
		if (queue[i].op != WORK_SWEEP)
			queue[keep++] = queue[i];
	q_len = keep;
}

void fpm_table_sweep_start(void)
{
	struct fpm_route *e;

	for (size_t i = 0; (e = fpm_map_next(&fpm_routes, &i)) != NULL;)
		if (e->stale)
			queue_push(e, WORK_SWEEP);
}

static void place_use(struct fpm_use *u)
{
	fpm_route_install(container_of(u, struct fpm_route, use));
}

bool fpm_table_work(uint64_t deadline_ns)
{
	if (fpm_use_work(deadline_ns, place_use))
		return true;
	for (unsigned n = 0; q_head < q_len; n++) {
		if ((n & 63) == 63 && fpm_now_ns() > deadline_ns)
			return true;
		const struct work *w = &queue[q_head++];
		struct fpm_route *e = fpm_map_get(&fpm_routes, &w->key);
		if (e == NULL)
			continue;
		if (w->op == WORK_PLACE) {
			e->queued = false;
			fpm_route_install(e);
		} else if (e->stale) {
			fpm_route_remove(e);
			fpm_stats.ctr[FPM_C_STALE_SWEPT]++;
		}
	}
	q_head = q_len = 0;
	return false;
}

bool fpm_table_pending(void)
{
	return q_head < q_len || fpm_use_queued() > 0;
}

void fpm_table_recheck(void)
{
	struct fpm_route *e;

	for (size_t i = 0; (e = fpm_map_next(&fpm_routes, &i)) != NULL;) {
		int o = e->state == ST_INSTALLED ? fpm_fib_origin(e->key.vrf, &e->prefix) : -1;
		if (e->state == ST_NONE ||
		    (e->state == ST_INSTALLED && (o < 0 || !fwd_origin_is_fpm((enum fwd_origin)o))))
			queue_push(e, WORK_PLACE);
	}
}

unsigned fpm_table_sweep(void)
{
	uint64_t before = fpm_stats.ctr[FPM_C_STALE_SWEPT];

	fpm_table_sweep_start();
	fpm_table_work(UINT64_MAX);
	return (unsigned)(fpm_stats.ctr[FPM_C_STALE_SWEPT] - before);
}

void fpm_work_clear(void)
{
	free(queue);
	queue = NULL;
	q_head = q_len = q_cap = 0;
}
