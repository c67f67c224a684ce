/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key descriptors of the config schema, shared by the walker
 * (config_schema.c) and the scalar decoders (config_scalar.c).
 */
#ifndef FWD_CONFIG_SCHEMA_H
#define FWD_CONFIG_SCHEMA_H

#include "core/config_priv.h"

#define CONF_MAX_FIELDS 16 /* keys in one mapping */

enum conf_kind {
	CONF_STR,  /* char[size]; length min..size-1 */
	CONF_HSTR, /* char * from strdup; length min..max */
	CONF_UINT, /* uint8/16/32_t by size; strict decimal, min..max */
	CONF_BOOL, /* true | false */
	CONF_ENUM, /* int, one of names[] */
	CONF_IP4,  /* uint32_t, host order */
	CONF_ADDR, /* struct fwd_ip4_prefix "A.B.C.D/N", host bits kept */
	CONF_NET,  /* struct fwd_ip4_prefix, host bits must be clear */
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
	bool has_pos;     /* MAP list elements: struct fwd_conf_pos at pos_off */
	size_t pos_off;
	const char *(*valid)(const char *s); /* STR, HSTR: NULL or why s is refused */
	const char *const *names;            /* ENUM, NULL-terminated */
};

/* The top-level keys of struct fwd_config. */
extern const struct conf_field conf_root_fields[];

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
