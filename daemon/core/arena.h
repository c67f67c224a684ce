/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A bump allocator in 64 KiB chunks, freed all at once: the config loader's
 * YAML tree, and each RPC reply (reset between replies, keeping one chunk).
 * Allocations are aligned for any type. Control thread only.
 */
#ifndef FWD_ARENA_H
#define FWD_ARENA_H

#include <stddef.h>

struct fwd_arena;

struct fwd_arena *fwd_arena_new(void); /* NULL: ENOMEM */
/* size bytes, not zeroed; NULL when out of memory. */
void *fwd_arena_alloc(struct fwd_arena *a, size_t size);
/* Everything allocated is gone; one chunk is kept for what comes next. */
void fwd_arena_reset(struct fwd_arena *a);
void fwd_arena_free(struct fwd_arena *a); /* a may be NULL */

#endif
