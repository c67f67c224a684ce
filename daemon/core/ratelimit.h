/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A token bucket, for the control thread's rate limits (the ICMP errors of
 * each family): `rate` tokens a second, at most `burst` saved up. Tokens
 * are kept in billionths so that a refill is one multiplication of the
 * nanoseconds elapsed. The caller gives the time, so tests drive a clock
 * of their own. A fresh bucket (all zero but rate and burst) counts as
 * idle long enough to be full.
 */
#ifndef FWD_RATELIMIT_H
#define FWD_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct fwd_ratelimit {
	uint32_t rate; /* tokens a second; 0: unlimited */
	uint32_t burst;
	uint64_t tokens; /* x 10^9 */
	uint64_t last_ns;
};

/* A new rate and burst; the bucket starts full. */
void fwd_ratelimit_set(struct fwd_ratelimit *b, uint32_t rate, uint32_t burst, uint64_t now_ns);
/* Take a token at time now_ns; false when none is left. */
bool fwd_ratelimit_take(struct fwd_ratelimit *b, uint64_t now_ns);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t fwd_monotonic_ns(void);

#endif
