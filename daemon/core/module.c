/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/log.h"
#include "core/module.h"

#define MAX_MODULES 64

static struct fwd_module *registered;             /* in registration order, reversed */
static struct fwd_module *order[MAX_MODULES + 1]; /* dependency order, NULL-terminated */
static unsigned n_modules;

void fwd_module_register(struct fwd_module *m)
{
	m->next = registered;
	registered = m;
	n_modules = 0; /* order again */
}

static struct fwd_module *by_name(const char *name, size_t len)
{
	for (struct fwd_module *m = registered; m != NULL; m = m->next)
		if (strlen(m->name) == len && strncmp(m->name, name, len) == 0)
			return m;
	return NULL;
}

static bool placed(const struct fwd_module *m, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (order[i] == m)
			return true;
	return false;
}

/* Are all of m's dependencies among the first n placed? -EINVAL: unknown name. */
static int ready(const struct fwd_module *m, unsigned n)
{
	const char *s = m->depends_on != NULL ? m->depends_on : "";

	while (*s != '\0') {
		size_t len = strcspn(s, " ");
		struct fwd_module *d = len > 0 ? by_name(s, len) : NULL;

		if (len > 0 && d == NULL) {
			LOG(ERR, "module %s depends on unknown module %.*s", m->name, (int)len, s);
			return -EINVAL;
		}
		if (d != NULL && !placed(d, n))
			return 0;
		s += len + (s[len] == ' ');
	}
	return 1;
}

/* The unplaced module whose dependencies are placed, first by name. */
static int next_ready(unsigned n, struct fwd_module **out)
{
	*out = NULL;
	for (struct fwd_module *m = registered; m != NULL; m = m->next) {
		int rc = placed(m, n) ? 0 : ready(m, n);
		if (rc < 0)
			return rc;
		if (rc > 0 && (*out == NULL || strcmp(m->name, (*out)->name) < 0))
			*out = m;
	}
	return 0;
}

int fwd_modules_order(void)
{
	unsigned total = 0, n = 0;

	for (struct fwd_module *m = registered; m != NULL; m = m->next)
		total++;
	if (total > MAX_MODULES)
		return -E2BIG;
	while (n < total) {
		struct fwd_module *m;
		int rc = next_ready(n, &m);
		if (rc < 0)
			return rc;
		if (m == NULL) {
			LOG(ERR, "module dependencies form a cycle (%u of %u modules ordered)", n,
			    total);
			return -EINVAL;
		}
		order[n++] = m;
	}
	order[n] = NULL;
	n_modules = n;
	return 0;
}

int fwd_modules_init(const struct fwd_config *cfg)
{
	int rc = fwd_modules_order();

	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < n_modules; i++) {
		struct fwd_module *m = order[i];
		rc = m->init != NULL ? m->init(cfg) : 0;
		if (rc < 0) {
			LOG(ERR, "%s: initialisation failed", m->name);
			fwd_modules_fini();
			return rc;
		}
		m->started = true;
	}
	return 0;
}

void fwd_modules_fini(void)
{
	for (unsigned i = n_modules; i-- > 0;) {
		struct fwd_module *m = order[i];
		if (m->started && m->fini != NULL)
			m->fini();
		m->started = false;
	}
}

int fwd_modules_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                             size_t errlen)
{
	for (unsigned i = 0; i < n_modules; i++) {
		const struct fwd_module *m = order[i];
		int rc = m->reload_check != NULL ? m->reload_check(cur, next, err, errlen) : 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}

int fwd_modules_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                             struct fwd_reload_log *log)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < n_modules && rc == 0; i++)
		if (order[i]->reload_apply != NULL)
			rc = order[i]->reload_apply(cur, next, log);
	if (rc < 0) {
		LOG(ERR, "%s: reload apply failed: %s", order[i - 1]->name, strerror(-rc));
		/* the failing module restored itself: undo those before it */
		for (i--; i-- > 0;)
			if (order[i]->undo != NULL)
				order[i]->undo();
		return rc;
	}
	for (i = 0; i < n_modules; i++)
		if (order[i]->commit != NULL)
			order[i]->commit();
	return 0;
}

int fwd_modules_running(struct fwd_config *run, uint64_t *omitted)
{
	for (unsigned i = 0; i < n_modules; i++) {
		int rc = order[i]->running != NULL ? order[i]->running(run, omitted) : 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}
