/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The drop reason names fwdctl accepts in `capture drops REASON...`: the
 * daemon's table (daemon/core/drop.h), copied into fwd_drop_names.h by the
 * build, so a misspelt name is refused here with the list of good ones.
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"

static const char *const drop_names[] = {
#include "fwd_drop_names.h"
};

#define N_DROP_NAMES (sizeof(drop_names) / sizeof(drop_names[0]))

bool fwd_drop_reason_known(const char *name)
{
	for (size_t i = 0; i < N_DROP_NAMES; i++)
		if (strcmp(drop_names[i], name) == 0)
			return true;
	return false;
}

void fwd_drop_reasons_print(FILE *f, const char *sep)
{
	for (size_t i = 0; i < N_DROP_NAMES; i++)
		fprintf(f, "%s%s", i ? sep : "", drop_names[i]);
	fputc('\n', f);
}
