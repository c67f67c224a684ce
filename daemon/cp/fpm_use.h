/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who uses which of zebra's next-hop ids (cp/fpm_table.c): each route that
 * names an id and each member slot of a group is a struct fpm_use linked
 * under that id, so that a change of an id reaches its users without a
 * look at the others. A change queues the id once (a job); the job places
 * its routes again in slices of the loop's time, from a cursor that the
 * unlinking of a route moves on; a change during a job's pass runs one more
 * pass after it. Control thread only.
 */
#ifndef FWD_CP_FPM_USE_H
#define FWD_CP_FPM_USE_H

#include <stdbool.h>
#include <stdint.h>

struct fpm_use {
	struct fpm_use *prev, *next;
	uint32_t id;    /* the next-hop id used; 0: not linked */
	uint32_t group; /* a group's member slot: the group's id; a route's: 0 */
};

/* Link u under id (not 0) as a route's use (group 0) or a group's member. */
void fpm_use_link(struct fpm_use *u, uint32_t id, uint32_t group);
/* Unlink u if it is linked. */
void fpm_use_unlink(struct fpm_use *u);
/* Next-hop id changed, came or went: queue its routes and those of the
 * groups that hold it. */
void fpm_use_changed(uint32_t id);
/* Place again the routes of queued ids, calling place for each, until
 * deadline_ns (fpm_now_ns); true when some is left. */
bool fpm_use_work(uint64_t deadline_ns, void (*place)(struct fpm_use *u));
/* Ids queued (tests). */
unsigned fpm_use_queued(void);
/* Forget every id and job, with every use unlinked; pending, if not NULL,
 * is called for each route a queued job has yet to place. */
void fpm_use_clear(void (*pending)(struct fpm_use *u));

#endif
