/* SPDX-License-Identifier: BSD-3-Clause */
#include <time.h>

#include <rte_common.h>

#include "core/ratelimit.h"

#define NS 1000000000ull

void fwd_ratelimit_set(struct fwd_ratelimit *b, uint32_t rate, uint32_t burst, uint64_t now_ns)
{
	b->rate = rate;
	b->burst = burst;
	b->tokens = (uint64_t)burst * NS;
	b->last_ns = now_ns;
}

bool fwd_ratelimit_take(struct fwd_ratelimit *b, uint64_t now_ns)
{
	uint64_t cap = (uint64_t)b->burst * NS, dt = 0;

	if (b->rate == 0)
		return true;
	if (now_ns > b->last_ns) { /* never backwards: time is not counted twice */
		dt = now_ns - b->last_ns;
		b->last_ns = now_ns;
	}
	if (dt >= 1000 * NS) /* long idle: full, and no overflow below */
		b->tokens = cap;
	else
		b->tokens = RTE_MIN(cap, b->tokens + dt * b->rate);
	if (b->tokens < NS)
		return false;
	b->tokens -= NS;
	return true;
}

uint64_t fwd_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}
