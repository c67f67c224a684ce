/* SPDX-License-Identifier: BSD-3-Clause */
/* What ip6/addr6.c and ip6/addr6_view.c share. */
#ifndef FWD_IP6_ADDR6_PRIV_H
#define FWD_IP6_ADDR6_PRIV_H

#include <stdbool.h>
#include <string.h>

#include "fwd_inet.h"

/* The running view's addresses are rebuilt on the next addr6_running(). */
extern bool addr6_running_stale;

static inline struct fwd_ip6_prefix prefix_of(const struct fwd_ip6_prefix *p)
{
	struct fwd_ip6_prefix s = *p;

	fwd_ip6_mask(s.addr, s.len);
	return s;
}

static inline bool same_prefix(const struct fwd_ip6_prefix *a, const struct fwd_ip6_prefix *b)
{
	return a->len == b->len && memcmp(a->addr, b->addr, 16) == 0;
}

#endif
