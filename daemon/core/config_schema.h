/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key descriptors of the config schema: the core's own keys are in
 * config_schema.c, a feature's are added with fwd_config_schema_add from the
 * feature (ip4/ip4_schema.c, ...). The walker (config_schema.c), the scalar
 * decoders (config_scalar.c) and the emitter (config_emit.c) read them.
 */
#ifndef FWD_CONFIG_SCHEMA_H
#define FWD_CONFIG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"

#define CONF_MAX_FIELDS 24 /* keys in one mapping */

enum conf_kind {
	CONF_STR,  /* char[size]; length min..size-1 */
	CONF_HSTR, /* char * from strdup; length min..max */
	CONF_UINT, /* uint8/16/32_t by size; strict decimal, min..max */
	CONF_BOOL, /* true | false */
	CONF_ENUM, /* int, one of names[] */
	CONF_IP,   /* struct fwd_ip, either family */
	CONF_ADDR, /* struct fwd_prefix "A.B.C.D/N" or "X::X/N", host bits kept */
	CONF_NET,  /* struct fwd_prefix, host bits must be clear */
	CONF_MAC,  /* uint8_t[6] */
	CONF_MAP,  /* a mapping described by sub[] (off 0: a section of its parent) */
	CONF_LIST, /* a sequence of *sub, count at count_off, min..max entries */
};

struct conf_field {
	const char *key; /* NULL ends a table; list elements have none */
	enum conf_kind kind;
	size_t off;  /* of the value within the enclosing object */
	size_t size; /* of the value; for a list's element descriptor, of one element */
	uint32_t min, max;
	uint32_t def;        /* UINT, BOOL, ENUM */
	const char *def_str; /* STR */
	bool required;
	const char *hint; /* added to "missing" and "too few" messages */
	const struct conf_field *sub;
	size_t count_off; /* LIST: unsigned count in the enclosing object */
	bool heap;        /* LIST: off holds a pointer to a calloc'd array */
	bool one_ok;      /* LIST of scalars: a single scalar is a list of one */
	bool has_pos;     /* MAP list elements: struct fwd_conf_pos at pos_off */
	size_t pos_off;
	const char *(*valid)(const char *s); /* STR, HSTR: NULL or why s is refused */
	const char *const *names;            /* ENUM, NULL-terminated */
	/* a top-level row of a feature's section: off and count_off are into
	 * the section's struct, not struct fwd_config (set when registered) */
	const struct fwd_conf_section *sect;
	bool quiet; /* BOOL, UINT, ENUM, LIST: config show leaves it out at its default (a
	             * route's blackhole: false would be said on every route) */
	/* LIST of MAPs: config show leaves out the items it says yes to (what a
	 * feature derived, such as a bond's port) */
	bool (*hide)(const void *item);
};

/* Feature-side helpers to write rows (types of core/config.h only). */
#define CONF_MSIZE(T, m) sizeof(((T *)0)->m)
#define CONF_F(k, kd, T, m, ...)                                                           \
	{                                                                                  \
		.key = (k), .kind = (kd), .off = offsetof(T, m), .size = CONF_MSIZE(T, m), \
		__VA_ARGS__                                                                \
	}
#define CONF_LIST(k, T, m, n, elem, lo, hi, ...)                                             \
	CONF_F(k, CONF_LIST, T, m, .count_off = offsetof(T, n), .sub = &(elem), .min = (lo), \
	       .max = (hi), __VA_ARGS__)
#define CONF_ITEM(T, fields)                                                           \
	{                                                                              \
		.kind = CONF_MAP, .size = sizeof(T), .sub = (fields), .has_pos = true, \
		.pos_off = offsetof(T, pos)                                            \
	}

/*
 * A feature's keys in the schema: row is added to the top level (parent
 * NULL), to a section ("dataplane", "control") or to every item of a list
 * ("ports"), after the keys already there; the loader, --check and `config
 * show` then know it like the core's own. From a constructor (the tables
 * are complete before main). An unknown parent or a full table is a broken
 * build: abort.
 */
void fwd_config_schema_add(const char *parent, const struct conf_field *row);

/* A name (port, bridge, group): NULL when s is fine, else why it is not. */
const char *fwd_conf_valid_name(const char *s);
#endif
