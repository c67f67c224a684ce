/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Calls put off until a table's pending work completes (control thread
 * only): the FIBs keep what must wait for their sliced write, such as the
 * release of a replaced route's next hop (ip4/fib.h, route/fib6.h).
 */
#ifndef FWD_CORE_DEFERRED_H
#define FWD_CORE_DEFERRED_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define FWD_DEFERRED_MAX 8

struct fwd_deferred {
	unsigned n;
	struct {
		void (*fn)(uint32_t arg);
		uint32_t arg;
	} call[FWD_DEFERRED_MAX];
};

/* Keep fn(arg) for later; false when full (the caller completes its work
 * first, which runs those kept, then calls fn itself). */
static inline bool fwd_deferred_add(struct fwd_deferred *d, void (*fn)(uint32_t), uint32_t arg)
{
	if (d->n == FWD_DEFERRED_MAX)
		return false;
	d->call[d->n].fn = fn;
	d->call[d->n++].arg = arg;
	return true;
}

/* Run what was kept, in order; a call may keep new ones, for the next run. */
static inline void fwd_deferred_run(struct fwd_deferred *d)
{
	struct fwd_deferred run = *d;

	d->n = 0;
	for (unsigned i = 0; i < run.n; i++)
		run.call[i].fn(run.call[i].arg);
}

#endif
