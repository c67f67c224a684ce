/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stddef.h>

#include "core/log.h"
#include "core/module.h"

static struct fwd_module *modules; /* sorted by prio */

void fwd_module_register(struct fwd_module *m)
{
	struct fwd_module **pp = &modules;

	while (*pp != NULL && (*pp)->prio <= m->prio)
		pp = &(*pp)->next;
	m->next = *pp;
	*pp = m;
}

static void fini_until(struct fwd_module *stop)
{
	/* descending prio: walk the list recursively up to stop */
	struct fwd_module *done[64];
	unsigned n = 0;

	for (struct fwd_module *m = modules; m != stop && n < RTE_DIM(done); m = m->next)
		done[n++] = m;
	while (n-- > 0)
		if (done[n]->fini != NULL)
			done[n]->fini();
}

int fwd_modules_init(const struct fwd_config *cfg)
{
	for (struct fwd_module *m = modules; m != NULL; m = m->next) {
		if (m->init == NULL)
			continue;
		int rc = m->init(cfg);
		if (rc < 0) {
			LOG(ERR, "%s: initialisation failed", m->name);
			fini_until(m);
			return rc;
		}
	}
	return 0;
}

void fwd_modules_fini(void)
{
	fini_until(NULL);
}

int fwd_modules_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                             size_t errlen)
{
	for (struct fwd_module *m = modules; m != NULL; m = m->next) {
		if (m->reload_check == NULL)
			continue;
		int rc = m->reload_check(cur, next, err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int fwd_modules_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log)
{
	int ret = 0;

	for (struct fwd_module *m = modules; m != NULL; m = m->next) {
		if (m->reload_apply == NULL)
			continue;
		int rc = m->reload_apply(cur, next, log);
		if (rc < 0) {
			LOG(ERR, "%s: reload apply failed: errno %d", m->name, -rc);
			ret = rc;
		}
	}
	return ret;
}
