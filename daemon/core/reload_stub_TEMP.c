/* SPDX-License-Identifier: BSD-3-Clause */
/* TEMP: the reload log until core/reload.c (the lead's) is merged; lets the
 * bridge's reload hooks link and be tested. Drop this file at merge. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/reload.h"

static void note(struct fwd_reload_log *log, const char *fmt, va_list ap)
{
	char *s;

	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 8;
		char **l = realloc(log->lines, cap * sizeof(*l));
		if (l == NULL)
			return;
		log->lines = l;
		log->cap = cap;
	}
	if (vasprintf(&s, fmt, ap) >= 0)
		log->lines[log->n++] = s;
}

void fwd_reload_note(struct fwd_reload_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(log, fmt, ap);
	va_end(ap);
}

void fwd_reload_fail(struct fwd_reload_log *log, const char *fmt, ...)
{
	va_list ap;

	log->errors++;
	va_start(ap, fmt);
	note(log, fmt, ap);
	va_end(ap);
}

void fwd_reload_log_free(struct fwd_reload_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->lines[i]);
	free(log->lines);
	log->lines = NULL;
	log->n = log->cap = 0;
}
