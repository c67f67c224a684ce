/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internals of the config loader, shared by config*.c only:
 *   config_yaml.c    libyaml events -> a small node tree (struct ynode)
 *   config_schema.c  the key tables and the generic walker that fills a config
 *   config_scalar.c  single values: numbers, booleans, strings, addresses
 *   config_emit.c    the schema walked the other way, config -> YAML
 *   config_check.c   single-value validators and cross-reference checks
 *   config_diag.c    error collection and "file:line:col" reporting
 */
#ifndef FWD_CONFIG_PRIV_H
#define FWD_CONFIG_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/config.h"

#define CONF_MAX_ERRORS 20u
#define CONF_MAX_BYTES  (16u << 20) /* a full 64k-route file is ~3 MiB */
#define CONF_MAX_NODES  (1u << 20)
#define CONF_MAX_DEPTH  16 /* the schema needs 4 */

/* ------------------------------------------------------------ diagnostics */

struct conf_msg {
	struct fwd_conf_pos pos;
	unsigned seq;
	char text[384];
};

struct conf_diag {
	const char *name; /* file name for messages */
	const char *buf;  /* the source, to show the offending line */
	size_t len;
	unsigned n;
	bool overflow;
	struct conf_msg msgs[CONF_MAX_ERRORS];
};

void conf_err(struct conf_diag *d, struct fwd_conf_pos pos, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* True once an error beyond the cap was dropped: time to stop looking. */
bool conf_diag_full(const struct conf_diag *d);
/* Writes the collected messages sorted by position; out may be NULL. */
void conf_diag_flush(struct conf_diag *d, FILE *out);
/* Position of byte offset off in the source (libyaml counts characters). */
struct fwd_conf_pos conf_offset_pos(const struct conf_diag *d, size_t off);
/* A printable, bounded copy of untrusted text for messages. */
const char *conf_quote(const char *s, size_t len, char *out, size_t outsz);
#define CONF_QUOTE_MAX 48

/* ----------------------------------------------------------------- tree */

enum ynode_type {
	YN_SCALAR,
	YN_SEQ,
	YN_MAP,
};

struct ynode {
	enum ynode_type type;
	bool plain;   /* scalar written without quotes (so it may be a number/bool) */
	uint32_t len; /* scalar bytes; the text may hold NULs from "\0" escapes */
	char *str;    /* NUL-terminated */
	struct fwd_conf_pos pos;
	struct ynode *first, *last, *next; /* children; a mapping alternates key, value */
	unsigned n;                        /* number of children */
};

struct conf_ctx {
	struct conf_diag diag;
	struct fwd_arena *arena; /* the tree */
	struct ynode *root;
	unsigned nodes;
	bool nomem;
};

/* Parse the source in c->diag into c->root; -EINVAL (reported) or -ENOMEM. */
int conf_tree_build(struct conf_ctx *c);

/* -------------------------------------------------------------- schema */

/* Fill cfg's defaults (top-level sections, not list items). */
void conf_schema_defaults(struct fwd_config *cfg);
/* Decode c->root into cfg; errors go to c->diag. Returns -EINVAL, -ENOMEM or 0. */
int conf_schema_decode(struct conf_ctx *c, struct fwd_config *cfg);

/* -------------------------------------------------------------- checks */

/* Single-value validators: NULL when s is fine, else why it is not. */
const char *conf_valid_file_prefix(const char *s);
const char *conf_valid_eal_arg(const char *s);
const char *conf_valid_socket(const char *s);
const char *conf_valid_lcores(const char *s);

/* Defaults that depend on other values, once decoded and before the checks. */
void conf_derive(struct conf_ctx *c, struct fwd_config *cfg);
/* Cross-reference checks on a decoded config; errors go to c->diag. */
void conf_check(struct conf_ctx *c, const struct fwd_config *cfg);

/*
 * Parse a dpdk.lcores string: ids in the order written, at most max stored,
 * returns the count or -EINVAL with *why set (why may be NULL).
 */
int conf_lcores_parse(const char *s, unsigned *ids, int *cpus, unsigned max, const char **why);

/* ------------------------------------------------------------- walker */

#include "core/config_schema.h"

/* Where field f's value lives: obj, or for a row of a feature's section
 * (config_section.c) the section's struct in the config obj. */
char *conf_field_obj(const struct conf_field *f, char *obj);
/* Allocate (-ENOMEM) and free every registered section of cfg. */
int conf_sections_new(struct fwd_config *cfg);
void conf_sections_free(struct fwd_config *cfg);

/* The top-level keys of struct fwd_config. */
extern const struct conf_field *const conf_root_fields;

/* A plain empty, "~" or "null" scalar: YAML's null. */
bool conf_is_null(const struct ynode *n);

void conf_type_error(struct conf_ctx *c, const char *path, const struct ynode *n,
                     const char *expected);

/* Decode scalar n into obj + f->off and record its position. */
void conf_decode_scalar(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                        char *obj, const char *path);

/* Report unknown key k of a mapping at path, suggesting the closest of fields. */
void conf_unknown_key(struct conf_ctx *c, const struct conf_field *fields, const struct ynode *k,
                      const char *path);

#endif
