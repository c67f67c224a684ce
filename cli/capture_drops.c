/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The drop reason names fwdctl accepts in `capture drops REASON...`: the
 * daemon's table (daemon/core/drop.h), copied into fwd_drop_names.h by the
 * build, so a misspelt name is refused here with the list of good ones; and
 * what each means, from drop.h's comments (fwd_drop_help.h), for -l.
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"

static const char *const drop_names[] = {
#include "fwd_drop_names.h"
};

#define N_DROP_NAMES (sizeof(drop_names) / sizeof(drop_names[0]))

static const struct {
	const char *name, *help;
} drop_help[] = {
#include "fwd_drop_help.h"
};

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

/* One reason a line: its name and what it means. The punt policer's reasons
 * share one meaning (drop.h gives them none of their own). */
void fwd_drop_reasons_describe(FILE *f)
{
	for (size_t i = 0; i < sizeof(drop_help) / sizeof(drop_help[0]); i++) {
		const char *n = drop_help[i].name, *h = drop_help[i].help;

		if (h[0] == '\0' && strncmp(n, "policed_", 8) == 0)
			fprintf(f,
			        "%-20s punted %s packets over their rate (dataplane.punt_rate_*)\n",
			        n, n + 8);
		else
			fprintf(f, "%-20s %s\n", n, h);
	}
}
