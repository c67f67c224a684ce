/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/siphash.h"
#include "cp/fpm_map.h"

/* Keyed (core/siphash.h): the prefixes are what BGP peers announce, and
 * with a hash anyone can compute they could make one long probe run. */
static size_t hash(const void *key, size_t len)
{
	return (size_t)fwd_keyed_hash(key, len);
}

static const void *key_of(const struct fpm_map *m, const void *obj)
{
	return (const char *)obj + m->key_off;
}

static size_t find(const struct fpm_map *m, const void *key)
{
	size_t i = hash(key, m->key_len) & (m->cap - 1);

	while (m->slot[i] != NULL && memcmp(key_of(m, m->slot[i]), key, m->key_len) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *fpm_map_get(const struct fpm_map *m, const void *key)
{
	return m->cap == 0 ? NULL : m->slot[find(m, key)];
}

static int grow(struct fpm_map *m)
{
	struct fpm_map bigger = *m;

	bigger.cap = m->cap ? m->cap * 2 : 64;
	bigger.slot = calloc(bigger.cap, sizeof(void *));
	if (bigger.slot == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i] != NULL)
			bigger.slot[find(&bigger, key_of(m, m->slot[i]))] = m->slot[i];
	free(m->slot);
	*m = bigger;
	return 0;
}

int fpm_map_put(struct fpm_map *m, void *obj)
{
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return -ENOMEM;
	m->slot[find(m, key_of(m, obj))] = obj;
	m->n++;
	return 0;
}

void fpm_map_del(struct fpm_map *m, const void *obj)
{
	size_t mask = m->cap - 1, i, j;

	if (m->cap == 0 || m->slot[i = find(m, key_of(m, obj))] == NULL)
		return;
	m->slot[i] = NULL;
	m->n--;
	/* Backward shift: move up what probed past the hole. */
	for (j = (i + 1) & mask; m->slot[j] != NULL; j = (j + 1) & mask) {
		size_t home = hash(key_of(m, m->slot[j]), m->key_len) & mask;

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->slot[i] = m->slot[j];
			m->slot[j] = NULL;
			i = j;
		}
	}
}

void fpm_map_free(struct fpm_map *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}

void *fpm_map_next(const struct fpm_map *m, size_t *i)
{
	while (*i < m->cap) {
		void *o = m->slot[(*i)++];

		if (o != NULL)
			return o;
	}
	return NULL;
}
