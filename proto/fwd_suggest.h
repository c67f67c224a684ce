/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "Did you mean": the closest of a few known words to a misspelt one, for
 * the config loader's unknown keys (daemon/core/config_scalar.c) and
 * fwdctl's unknown objects and commands (cli/cli.c).
 */
#ifndef FWD_SUGGEST_H
#define FWD_SUGGEST_H

#include <stddef.h>

#define FWD_SUGGEST_MAX 48 /* longer words are never close to anything */

/* Case-insensitive Levenshtein distance between a[0..la) and b; ~0u when
 * either is longer than FWD_SUGGEST_MAX. */
unsigned fwd_edit_distance(const char *a, size_t la, const char *b);

/* Whether word (of len bytes) is close enough to cand to suggest it: fewer
 * than 3 edits, and fewer than cand has letters ("ab" is not "xy"). *best
 * is the best distance so far (start with ~0u); it is lowered on a match. */
int fwd_suggest_better(const char *word, size_t len, const char *cand, unsigned *best);

#endif
