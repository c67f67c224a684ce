/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>

#include "core/arena.h"

#define ARENA_CHUNK (64u * 1024)
#define ARENA_ALIGN _Alignof(max_align_t)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	_Alignas(max_align_t) unsigned char data[];
};

struct fwd_arena {
	struct arena_chunk *chunks; /* newest first; the last one is kept on reset */
};

static struct arena_chunk *chunk_new(size_t size)
{
	struct arena_chunk *c = malloc(sizeof(*c) + size);

	if (c == NULL)
		return NULL;
	c->next = NULL;
	c->size = size;
	c->used = 0;
	return c;
}

struct fwd_arena *fwd_arena_new(void)
{
	struct fwd_arena *a = calloc(1, sizeof(*a));

	if (a == NULL)
		return NULL;
	a->chunks = chunk_new(ARENA_CHUNK);
	if (a->chunks == NULL) {
		free(a);
		return NULL;
	}
	return a;
}

void fwd_arena_reset(struct fwd_arena *a)
{
	struct arena_chunk *c;

	if (a == NULL)
		return;
	while (a->chunks->next != NULL) {
		c = a->chunks;
		a->chunks = c->next;
		free(c);
	}
	a->chunks->used = 0;
	/* A huge first chunk from an earlier large reply is not worth keeping. */
	if (a->chunks->size > ARENA_CHUNK) {
		c = chunk_new(ARENA_CHUNK);
		if (c != NULL) {
			free(a->chunks);
			a->chunks = c;
		}
	}
}

void fwd_arena_free(struct fwd_arena *a)
{
	struct arena_chunk *c;

	if (a == NULL)
		return;
	while ((c = a->chunks) != NULL) {
		a->chunks = c->next;
		free(c);
	}
	free(a);
}

void *fwd_arena_alloc(struct fwd_arena *a, size_t size)
{
	size_t need = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	struct arena_chunk *c = a->chunks, *n;

	if (need < size)
		return NULL;
	if (c->size - c->used < need) {
		n = chunk_new(need > ARENA_CHUNK / 4 ? need : ARENA_CHUNK);
		if (n == NULL)
			return NULL;
		/* A big private chunk goes behind the current one so its free space stays usable.
		 */
		if (need > ARENA_CHUNK / 4 && c->size - c->used > 0) {
			n->next = c->next;
			c->next = n;
			n->used = need;
			return n->data;
		}
		n->next = c;
		a->chunks = c = n;
	}
	c->used += need;
	return c->data + c->used - need;
}
