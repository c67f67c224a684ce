/* SPDX-License-Identifier: BSD-3-Clause */
#include <stddef.h>

#include "core/counter.h"
#include "core/counters.h"

const char *const fwd_drop_names[FWD_DROP_MAX] = {
#define FWD_DROP_NAME(e, name) [FWD_DROP_##e] = name,
	FWD_DROP_REASONS(FWD_DROP_NAME)
#undef FWD_DROP_NAME
};

static struct fwd_counter *counters;

void fwd_counter_register(struct fwd_counter *c)
{
	struct fwd_counter **pp = &counters;

	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = c;
}

struct fwd_counter *fwd_counters(void)
{
	return counters;
}
