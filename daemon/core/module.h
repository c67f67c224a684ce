/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Features plug into the daemon's life cycle from constructors:
 *
 *	static struct fwd_module ip4_module = {
 *		.name = "ip4", .depends_on = "punt neigh", .init = ..., };
 *	FWD_MODULE(ip4_module);
 *
 * Modules start in the order of their named dependencies (a module's init
 * runs after the init of every module it names; ties go by name), on the
 * control thread after EAL, mempool and port configuration and before the
 * ports start and workers launch; fini runs in the reverse order after
 * workers have stopped. doc/architecture.md says which layer may depend on
 * which; `make lint` checks that includes follow the same declarations.
 *
 * On `config reload`, every module's reload_check must accept the new
 * config before any reload_apply runs, so a refused reload changes nothing.
 * A reload_apply that fails leaves its own state as it was; the modules
 * applied before it are then undone (undo, in reverse order), and when all
 * succeeded each one's commit runs (cascades that must not run before every
 * module has its new state, such as removing what lost its subnet).
 */
#ifndef FWD_MODULE_H
#define FWD_MODULE_H

#include <rte_common.h>

#include "core/config.h"

struct fwd_reload_log; /* collects one line per applied change */

struct fwd_module {
	const char *name;
	const char *depends_on; /* names of modules, separated by spaces; NULL: none */
	int (*init)(const struct fwd_config *cfg);
	void (*fini)(void);
	/* Return 0, or -errno with a message in err (one line). */
	int (*reload_check)(const struct fwd_config *cur, const struct fwd_config *next, char *err,
	                    size_t errlen);
	/* Return 0, or -errno with the module's state unchanged and the reason in log. */
	int (*reload_apply)(const struct fwd_config *cur, const struct fwd_config *next,
	                    struct fwd_reload_log *log);
	void (*undo)(void);   /* back to the state before the last reload_apply */
	void (*commit)(void); /* every reload_apply succeeded */
	/* Write what the module holds now over its sections of run (a copy of
	 * the loaded config) for `config show`; -ENOMEM. */
	int (*running)(struct fwd_config *run, uint64_t *omitted);
	struct fwd_module *next;
	bool started; /* init ran and succeeded */
};

void fwd_module_register(struct fwd_module *m);

#define FWD_MODULE(m)                      \
	RTE_INIT(fwd_module_reg_##m)       \
	{                                  \
		fwd_module_register(&(m)); \
	}

/* Put the modules in dependency order; -EINVAL (logged) for an unknown name
 * or a cycle. fwd_modules_init does it first; tests call it to check. */
int fwd_modules_order(void);

/* Run every module's init in order; on failure, fini those already done. */
int fwd_modules_init(const struct fwd_config *cfg);
void fwd_modules_fini(void);

int fwd_modules_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                             size_t errlen);
/* Every module's reload_apply; on a failure those applied are undone and
 * the error returned, else every module commits. */
int fwd_modules_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log);

/* Every module's running hook, in order. */
int fwd_modules_running(struct fwd_config *run, uint64_t *omitted);

#endif
