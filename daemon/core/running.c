/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include "core/daemon.h"
#include "core/module.h"
#include "core/running.h"

static int copy_args(struct fwd_config *dst, const struct fwd_config *src)
{
	for (unsigned i = 0; i < src->dpdk.n_args; i++)
		if ((dst->dpdk.args[i] = strdup(src->dpdk.args[i])) == NULL)
			return -1;
	return 0;
}

struct fwd_config *fwd_running_config(uint64_t *omitted)
{
	struct fwd_config *run = malloc(sizeof(*run));

	if (run == NULL)
		return NULL;
	*run = *fwd.cfg;
	memset(run->dpdk.args, 0, sizeof(run->dpdk.args));
	run->routes = NULL;
	run->neighs = NULL;
	run->n_routes = run->n_neighs = 0;
	for (unsigned p = 0; p < run->n_ports; p++)
		run->ports[p].n_addresses = 0; /* each family adds what it runs */
	*omitted = 0;
	if (fwd_config_dup_sections(run, fwd.cfg) < 0 || copy_args(run, fwd.cfg) < 0 ||
	    fwd_modules_running(run, omitted) < 0) {
		fwd_config_free(run);
		return NULL;
	}
	return run;
}
