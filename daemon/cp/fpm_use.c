/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The index of next-hop ids to their users (cp/fpm_use.h). Each id in use
 * has a struct ref in a map: the routes that name it, the member slots of
 * the groups that hold it, and its job's state. A ref lives while anything
 * is linked under it or its job is queued. Control thread only.
 */
#include <stdlib.h>

#include "cp/fpm_map.h"
#include "cp/fpm_priv.h"
#include "cp/fpm_use.h"

struct ref {
	uint32_t id; /* first: the map's key */
	bool queued; /* its job is in jobs[] */
	bool in_pass, again;
	struct fpm_use *routes; /* routes naming id */
	struct fpm_use *groups; /* member slots holding id */
	struct fpm_use *pos;    /* the job's next route */
};

static struct fpm_map refs = { .key_off = 0, .key_len = sizeof(uint32_t) };
static uint32_t *jobs; /* ids, first in first out */
static size_t j_head, j_len, j_cap;

static struct ref *ref_get(uint32_t id, bool create)
{
	struct ref *r = fpm_map_get(&refs, &id);

	if (r != NULL || !create)
		return r;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	r->id = id;
	if (fpm_map_put(&refs, r) < 0) {
		free(r);
		return NULL;
	}
	return r;
}

/* Free r when nothing needs it any more. */
static void ref_put(struct ref *r)
{
	if (r->routes != NULL || r->groups != NULL || r->queued)
		return;
	fpm_map_del(&refs, r);
	free(r);
}

void fpm_use_link(struct fpm_use *u, uint32_t id, uint32_t group)
{
	struct ref *r = ref_get(id, true);
	struct fpm_use **head;

	u->id = 0;
	if (r == NULL) {
		fpm_stats.ctr[FPM_C_INSTALL_FAIL]++; /* out of memory: its changes go unseen */
		return;
	}
	head = group != 0 ? &r->groups : &r->routes;
	u->id = id;
	u->group = group;
	u->prev = NULL;
	u->next = *head;
	if (*head != NULL)
		(*head)->prev = u;
	*head = u;
}

void fpm_use_unlink(struct fpm_use *u)
{
	struct ref *r = u->id != 0 ? fpm_map_get(&refs, &u->id) : NULL;

	if (r == NULL)
		return;
	if (r->pos == u)
		r->pos = u->next;
	if (u->prev != NULL)
		u->prev->next = u->next;
	else if (u->group != 0)
		r->groups = u->next;
	else
		r->routes = u->next;
	if (u->next != NULL)
		u->next->prev = u->prev;
	u->prev = u->next = NULL;
	u->id = 0;
	ref_put(r);
}

static void job_push(struct ref *r)
{
	if (r->queued) {
		r->again |= r->in_pass; /* routes already placed in this pass need another */
		return;
	}
	if (j_len == j_cap) {
		size_t cap = j_cap ? j_cap * 2 : 64;
		uint32_t *j = realloc(jobs, cap * sizeof(*j));
		if (j == NULL) {
			fpm_stats.ctr[FPM_C_INSTALL_FAIL]++;
			return;
		}
		jobs = j;
		j_cap = cap;
	}
	jobs[j_len++] = r->id;
	r->queued = true;
}

void fpm_use_changed(uint32_t id)
{
	struct ref *r = fpm_map_get(&refs, &id), *g;

	if (r == NULL)
		return;
	if (r->routes != NULL)
		job_push(r);
	for (struct fpm_use *u = r->groups; u != NULL; u = u->next)
		if ((g = fpm_map_get(&refs, &u->group)) != NULL && g->routes != NULL)
			job_push(g);
}

/* One job's routes from its cursor: true when the deadline stopped it. */
static bool job_run(struct ref *r, uint64_t deadline_ns, unsigned *n,
                    void (*place)(struct fpm_use *u))
{
	for (;;) {
		if (!r->in_pass) {
			r->in_pass = true;
			r->pos = r->routes;
		}
		while (r->pos != NULL) {
			if ((++*n & 63) == 0 && fpm_now_ns() > deadline_ns)
				return true;
			struct fpm_use *u = r->pos;
			r->pos = u->next;
			place(u);
		}
		r->in_pass = false;
		if (!r->again)
			return false;
		r->again = false;
	}
}

bool fpm_use_work(uint64_t deadline_ns, void (*place)(struct fpm_use *u))
{
	unsigned n = 0;

	while (j_head < j_len) {
		struct ref *r = fpm_map_get(&refs, &jobs[j_head]);
		if (r != NULL && job_run(r, deadline_ns, &n, place))
			return true;
		j_head++;
		if (r != NULL) {
			r->queued = false;
			ref_put(r);
		}
	}
	j_head = j_len = 0;
	return false;
}

unsigned fpm_use_queued(void)
{
	return (unsigned)(j_len - j_head);
}

static void unlink_all(struct fpm_use *u, bool queued, void (*pending)(struct fpm_use *u))
{
	while (u != NULL) {
		struct fpm_use *next = u->next;
		if (queued && pending != NULL)
			pending(u);
		u->prev = u->next = NULL;
		u->id = 0;
		u = next;
	}
}

void fpm_use_clear(void (*pending)(struct fpm_use *u))
{
	struct ref *r;

	for (size_t i = 0; (r = fpm_map_next(&refs, &i)) != NULL;) {
		unlink_all(r->routes, r->queued, pending);
		unlink_all(r->groups, false, NULL);
		free(r);
	}
	fpm_map_free(&refs);
	free(jobs);
	jobs = NULL;
	j_head = j_len = j_cap = 0;
}
