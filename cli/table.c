/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

struct fwd_table {
	size_t ncols;
	bool header;
	size_t n, cap; /* cells, header cells first */
	char **cells;
	bool *right; /* per column */
};

static void push(struct fwd_table *t, char *s)
{
	char **cells;

	if (s == NULL)
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;

		cells = realloc(t->cells, cap * sizeof(*cells));
		if (cells == NULL) {
			free(s);
			return;
		}
		t->cells = cells;
		t->cap = cap;
	}
	t->cells[t->n++] = s;
}

struct fwd_table *fwd_table_new(size_t ncols, const char *const *headers)
{
	struct fwd_table *t = calloc(1, sizeof(*t));

	if (t == NULL || ncols == 0)
		goto fail;
	t->ncols = ncols;
	t->right = calloc(ncols, sizeof(*t->right));
	if (t->right == NULL)
		goto fail;
	t->header = headers != NULL;
	for (size_t i = 0; headers != NULL && i < ncols; i++) {
		t->right[i] = headers[i][0] == '>';
		push(t, strdup(headers[i] + t->right[i]));
	}
	if (t->n != (t->header ? ncols : 0))
		goto fail;
	return t;
fail:
	fwd_table_free(t);
	return NULL;
}

void fwd_table_cell(struct fwd_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (t == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	push(t, s ? fwd_sanitize(s) : strdup("?"));
}

char *fwd_sanitize(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

char *fwd_sanitize_text(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			*p = '?';
	return s;
}

size_t fwd_table_rows(const struct fwd_table *t)
{
	return t ? t->n / t->ncols - t->header : 0;
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void print_row(const struct fwd_table *t, char *const *row, const size_t *w, FILE *out)
{
	for (size_t c = 0; c < t->ncols; c++) {
		size_t pad = w[c] - width(row[c]);
		bool last = c + 1 == t->ncols;

		if (t->right[c])
			fprintf(out, "%*s%s", (int)pad, "", row[c]);
		else
			fprintf(out, "%s%*s", row[c], last ? 0 : (int)pad, "");
		fputs(last ? "\n" : "  ", out);
	}
}

void fwd_table_print(const struct fwd_table *t, FILE *out)
{
	size_t *w, rows;

	if (t == NULL)
		return;
	w = calloc(t->ncols, sizeof(*w));
	if (w == NULL)
		return;
	rows = t->n / t->ncols;
	for (size_t i = 0; i < rows * t->ncols; i++) {
		size_t cw = width(t->cells[i]);

		if (cw > w[i % t->ncols])
			w[i % t->ncols] = cw;
	}
	for (size_t r = 0; r < rows; r++)
		print_row(t, t->cells + r * t->ncols, w, out);
	free(w);
}

void fwd_table_free(struct fwd_table *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->right);
	free(t);
}

void fwd_wrap_start(struct fwd_wrap *w, FILE *out, const char *label, size_t width_)
{
	w->out = out;
	w->width = width_;
	w->items = 0;
	char *l = strdup(label);

	fprintf(out, "%s:", l ? fwd_sanitize(l) : "?");
	free(l);
	w->indent = w->col = width(label) + 1;
}

void fwd_wrap_item(struct fwd_wrap *w, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s == NULL)
		return;
	fwd_sanitize(s);
	if (w->items > 0 && w->col + 1 + width(s) > w->width) {
		fprintf(w->out, "\n%*s", (int)w->indent, "");
		w->col = w->indent;
	}
	fprintf(w->out, " %s", s);
	w->col += 1 + width(s);
	w->items++;
	free(s);
}

void fwd_wrap_end(struct fwd_wrap *w)
{
	fputc('\n', w->out);
}
