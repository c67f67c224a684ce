/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_priv.h"

#define SHOW_COLS 120 /* characters of the offending line shown */

void conf_err(struct conf_diag *d, struct fwd_conf_pos pos, const char *fmt, ...)
{
	struct conf_msg *m;
	va_list ap;

	if (d->n == CONF_MAX_ERRORS) {
		d->overflow = true;
		return;
	}
	m = &d->msgs[d->n];
	m->pos = pos;
	m->seq = d->n++;
	va_start(ap, fmt);
	vsnprintf(m->text, sizeof(m->text), fmt, ap);
	va_end(ap);
}

bool conf_diag_full(const struct conf_diag *d)
{
	return d->overflow;
}

/*
 * Length of the line break at buf[i], 0 if none. libyaml also breaks lines
 * at NEL, LS and PS; counting them the same way keeps our lines in step
 * with its marks.
 */
static size_t break_len(const unsigned char *b, size_t len, size_t i)
{
	if (b[i] == '\r')
		return i + 1 < len && b[i + 1] == '\n' ? 2 : 1;
	if (b[i] == '\n')
		return 1;
	if (b[i] == 0xc2 && i + 1 < len && b[i + 1] == 0x85)
		return 2;
	if (b[i] == 0xe2 && i + 2 < len && b[i + 1] == 0x80 && (b[i + 2] & 0xfe) == 0xa8)
		return 3;
	return 0;
}

static bool utf8_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

struct fwd_conf_pos conf_offset_pos(const struct conf_diag *d, size_t off)
{
	const unsigned char *b = (const unsigned char *)d->buf;
	struct fwd_conf_pos pos = { 1, 1 };
	size_t i = 0;

	while (i < off && i < d->len) {
		size_t bl = break_len(b, d->len, i);

		if (bl) {
			pos.line++;
			pos.col = 1;
			i += bl;
			continue;
		}
		if (!utf8_cont(b[i]))
			pos.col++;
		i++;
	}
	if (pos.col > 1 && off < d->len && utf8_cont(b[off]))
		pos.col--; /* inside a character: point at it */
	return pos;
}

/* Byte range [*start, *end) of 1-based line; false when the source is shorter. */
static bool find_line(const struct conf_diag *d, unsigned line, size_t *start, size_t *end)
{
	const unsigned char *b = (const unsigned char *)d->buf;
	unsigned cur = 1;
	size_t i = 0;

	while (cur < line) {
		size_t bl;

		if (i >= d->len)
			return false;
		bl = break_len(b, d->len, i);
		cur += bl != 0;
		i += bl ? bl : 1;
	}
	*start = i;
	while (i < d->len && !break_len(b, d->len, i))
		i++;
	*end = i;
	return true;
}

/* Steps over one source character; returns what to show for it. */
static char next_char(const unsigned char *b, size_t *i, size_t end)
{
	unsigned char c = b[(*i)++];

	while (*i < end && utf8_cont(b[*i]))
		(*i)++;
	return c == '\t' || (c >= 0x20 && c < 0x7f) ? (char)c : '?';
}

static size_t line_chars(const unsigned char *b, size_t start, size_t end)
{
	size_t n = 0;

	for (size_t i = start; i < end; i++)
		n += !utf8_cont(b[i]);
	return n;
}

/* The offending line (a window of it when long) and a caret under pos.col. */
static void show_line(const struct conf_diag *d, FILE *out, struct fwd_conf_pos pos)
{
	const unsigned char *b = (const unsigned char *)d->buf;
	char line[SHOW_COLS + 4], caret[SHOW_COLS + 4];
	size_t start, end, i, n = 0, col = 0, skip = 0, at = SIZE_MAX;
	size_t want = pos.col - 1; /* 0-based character index of the caret */

	if (d->buf == NULL || pos.col == 0 || !find_line(d, pos.line, &start, &end))
		return;
	if (want > SHOW_COLS * 2 / 3 && line_chars(b, start, end) > SHOW_COLS) {
		skip = want - SHOW_COLS / 3;
		memcpy(line, "...", 3);
		memcpy(caret, "   ", 3);
		n = 3;
	}
	for (i = start; i < end && col < skip; col++)
		next_char(b, &i, end);
	for (; i < end && n < SHOW_COLS + 3; col++) {
		if (col == want)
			at = n;
		line[n] = next_char(b, &i, end);
		caret[n] = line[n] == '\t' ? '\t' : ' ';
		n++;
	}
	if (at == SIZE_MAX)
		at = n + (want > col ? want - col : 0);
	if (at > n + SHOW_COLS)
		at = n + SHOW_COLS;
	fprintf(out, "%.*s%s\n", (int)n, line, i < end ? "..." : "");
	fprintf(out, "%.*s%*s^\n", (int)(at < n ? at : n), caret, (int)(at > n ? at - n : 0), "");
}

static int msg_cmp(const void *a, const void *b)
{
	const struct conf_msg *x = a, *y = b;

	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void conf_diag_flush(struct conf_diag *d, FILE *out)
{
	if (out == NULL)
		return;
	qsort(d->msgs, d->n, sizeof(d->msgs[0]), msg_cmp);
	for (unsigned k = 0; k < d->n; k++) {
		const struct conf_msg *m = &d->msgs[k];

		if (m->pos.line == 0) {
			fprintf(out, "%s: %s\n", d->name, m->text);
			continue;
		}
		fprintf(out, "%s:%u:%u: %s\n", d->name, m->pos.line, m->pos.col, m->text);
		show_line(d, out, m->pos);
	}
	if (d->overflow)
		fprintf(out, "%s: too many errors, stopped after %u\n", d->name, CONF_MAX_ERRORS);
}

const char *conf_quote(const char *s, size_t len, char *out, size_t outsz)
{
	const unsigned char *b = (const unsigned char *)s;
	size_t n = 0, i = 0;

	while (i < len && n + 4 < outsz && n < CONF_QUOTE_MAX) {
		unsigned char c = b[i++];

		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		while (c >= 0x80 && i < len && utf8_cont(b[i]))
			i++;
	}
	if (i < len && n + 4 <= outsz)
		n += (size_t)sprintf(out + n, "...");
	out[n] = '\0';
	return out;
}
