/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small open-addressing hash of objects that carry their key at a fixed
 * offset (the FPM table's prefixes and next-hop ids): linear probing,
 * deletion by backward shift, grows at half full. Control thread only.
 */
#ifndef FWD_CP_FPM_MAP_H
#define FWD_CP_FPM_MAP_H

#include <stddef.h>

struct fpm_map {
	void **slot;
	size_t cap; /* a power of two, or 0 */
	size_t n;
	size_t key_off, key_len;
};

void *fpm_map_get(const struct fpm_map *m, const void *key);
/* Insert obj, whose key is not in m yet: 0 or -ENOMEM. */
int fpm_map_put(struct fpm_map *m, void *obj);
void fpm_map_del(struct fpm_map *m, const void *obj);
/* Free the slots (not the objects). */
void fpm_map_free(struct fpm_map *m);

/* Iterate: for (size_t i = 0; (o = fpm_map_next(m, &i)) != NULL;) without
 * putting or deleting meanwhile. */
void *fpm_map_next(const struct fpm_map *m, size_t *i);

#endif
