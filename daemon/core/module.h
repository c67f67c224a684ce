/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Features plug into the daemon's life cycle from constructors:
 *
 *	static struct fwd_module ip4_module = { .name = "ip4", .prio = 300, .init = ..., };
 *	FWD_MODULE(ip4_module);
 *
 * init runs on the control thread after EAL, mempool and port configuration
 * and before the ports start and workers launch, in ascending prio; fini in
 * descending prio after workers have stopped. On `config reload`, every
 * module's reload_check must accept the new config before any reload_apply
 * runs, so a refused reload changes nothing.
 */
#ifndef FWD_MODULE_H
#define FWD_MODULE_H

#include <rte_common.h>

#include "core/config.h"

struct fwd_reload_log; /* collects one line per applied change */

struct fwd_module {
	const char *name;
	int prio;
	int (*init)(const struct fwd_config *cfg);
	void (*fini)(void);
	/* Return 0, or -errno with a message in err (one line). */
	int (*reload_check)(const struct fwd_config *cur, const struct fwd_config *next, char *err,
	                    size_t errlen);
	int (*reload_apply)(const struct fwd_config *cur, const struct fwd_config *next,
	                    struct fwd_reload_log *log);
	struct fwd_module *next;
};

void fwd_module_register(struct fwd_module *m);

#define FWD_MODULE(m)                      \
	RTE_INIT(fwd_module_reg_##m)       \
	{                                  \
		fwd_module_register(&(m)); \
	}

/* Run every module's init in order; on failure, fini those already done. */
int fwd_modules_init(const struct fwd_config *cfg);
void fwd_modules_fini(void);

int fwd_modules_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                             size_t errlen);
int fwd_modules_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log);

#endif
