/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>
#include <strings.h>

#include "fwd_suggest.h"

unsigned fwd_edit_distance(const char *a, size_t la, const char *b)
{
	unsigned row[FWD_SUGGEST_MAX + 1];
	size_t lb = strlen(b);

	if (la > FWD_SUGGEST_MAX || lb > FWD_SUGGEST_MAX)
		return ~0u;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned sub = diag + (strncasecmp(a + i - 1, b + j - 1, 1) != 0);
			unsigned best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;

			row[j] = sub < best ? sub : best;
			diag = up;
		}
	}
	return row[lb];
}

int fwd_suggest_better(const char *word, size_t len, const char *cand, unsigned *best)
{
	unsigned d = fwd_edit_distance(word, len, cand);

	if (d >= 3 || d >= strlen(cand) || d >= *best)
		return 0;
	*best = d;
	return 1;
}
