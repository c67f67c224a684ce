/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config sections features own (doc/architecture.md, "Config"): a feature
 * keeps its struct and its keys in its own folder and registers them here;
 * every config carries one struct per section, which the generic walker
 * (config_schema.c) and emitter (config_emit.c) reach through the rows'
 * sect, and which free, copy and compare go through the section's callbacks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_priv.h"

static struct fwd_conf_section *sections[FWD_CONF_MAX_SECTIONS];
static unsigned n_sections;

void fwd_config_register_section(struct fwd_conf_section *s)
{
	if (n_sections == FWD_CONF_MAX_SECTIONS || s->size == 0)
		abort(); /* a broken build, not a bad config */
	s->slot = n_sections;
	sections[n_sections++] = s;
	for (const struct conf_field *r = s->rows; r != NULL && r->key != NULL; r++) {
		struct conf_field row = *r;

		row.sect = s;
		fwd_config_schema_add(NULL, &row);
	}
}

void *fwd_config_section(const struct fwd_config *cfg, const struct fwd_conf_section *s)
{
	return cfg->sections[s->slot];
}

char *conf_field_obj(const struct conf_field *f, char *obj)
{
	return f->sect != NULL ? ((struct fwd_config *)(void *)obj)->sections[f->sect->slot] : obj;
}

int conf_sections_new(struct fwd_config *cfg)
{
	for (unsigned i = 0; i < n_sections; i++)
		if ((cfg->sections[i] = calloc(1, sections[i]->size)) == NULL)
			return -ENOMEM;
	return 0;
}

void conf_sections_free(struct fwd_config *cfg)
{
	for (unsigned i = 0; i < n_sections; i++) {
		if (cfg->sections[i] != NULL && sections[i]->free != NULL)
			sections[i]->free(cfg->sections[i]);
		free(cfg->sections[i]);
		cfg->sections[i] = NULL;
	}
}

int fwd_config_dup_sections(struct fwd_config *dst, const struct fwd_config *src)
{
	int rc = 0;

	memset(dst->sections, 0, sizeof(dst->sections));
	for (unsigned i = 0; i < n_sections && rc == 0; i++) {
		const struct fwd_conf_section *s = sections[i];

		dst->sections[i] = calloc(1, s->size);
		if (dst->sections[i] == NULL)
			return -ENOMEM;
		if (s->copy != NULL)
			rc = s->copy(dst->sections[i], src->sections[i]);
		else
			memcpy(dst->sections[i], src->sections[i], s->size);
	}
	return rc;
}

bool fwd_config_sections_equal(const struct fwd_config *a, const struct fwd_config *b)
{
	for (unsigned i = 0; i < n_sections; i++) {
		const struct fwd_conf_section *s = sections[i];
		const void *x = a->sections[i], *y = b->sections[i];

		if (s->equal != NULL ? !s->equal(x, y) : memcmp(x, y, s->size) != 0)
			return false;
	}
	return true;
}
