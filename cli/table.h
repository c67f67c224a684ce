/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Human output: tables whose columns fit their content, and numbers with
 * units. A header starting with '>' right-aligns its column (the '>' is
 * not printed); a table without headers prints key/value lists.
 */
#ifndef FWD_CLI_TABLE_H
#define FWD_CLI_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fwd_table;

/* headers: ncols strings, or NULL for no header row. NULL on ENOMEM. */
struct fwd_table *fwd_table_new(size_t ncols, const char *const *headers);
/* Append a cell; rows fill left to right and wrap after ncols. */
void fwd_table_cell(struct fwd_table *t, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
size_t fwd_table_rows(const struct fwd_table *t);
void fwd_table_print(const struct fwd_table *t, FILE *out);
void fwd_table_free(struct fwd_table *t);

/* Replace terminal control characters in s (daemon strings are untrusted). */
char *fwd_sanitize(char *s);
/* The same for text of several lines (the daemon's diagnostics: a message, the
 * line it is about and a caret under the column): newline and tab are kept. */
char *fwd_sanitize_text(char *s);

#define FWD_FMT_LEN 32

/* 3 significant digits with an SI prefix: "1.23 Mpps", "9.87 Gbit/s", "950 pps". */
char *fwd_fmt_si(char buf[FWD_FMT_LEN], double v, const char *unit);
/* Binary prefixes: "512 B", "1.21 KiB", "9.31 GiB". */
char *fwd_fmt_bytes(char buf[FWD_FMT_LEN], uint64_t v);
/* With thousands separators: "12,034". */
char *fwd_fmt_count(char buf[FWD_FMT_LEN], uint64_t v);
/* "45s", "12m05s", "2h03m", "3d04h". */
char *fwd_fmt_duration(char buf[FWD_FMT_LEN], uint64_t seconds);

/*
 * "label: a=1 b=2 ..." wrapped before width columns, continuation lines
 * indented under the first item. Items are added one by one.
 */
struct fwd_wrap {
	FILE *out;
	size_t width, indent, col;
	int items;
};

void fwd_wrap_start(struct fwd_wrap *w, FILE *out, const char *label, size_t width);
void fwd_wrap_item(struct fwd_wrap *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fwd_wrap_end(struct fwd_wrap *w);

#endif
