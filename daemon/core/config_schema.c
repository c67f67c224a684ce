/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration schema (fwd.yaml(5), conf/fwd.yaml.5) as tables of key
 * descriptors, and the one generic walker that applies them to the YAML
 * tree. The core's keys are here; features add theirs
 * (fwd_config_schema_add). Adding a key means adding a table row, nothing
 * else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_priv.h"

const char *const fwd_conf_mode_names[] = {
	[FWD_MODE_L3] = "l3",
	[FWD_MODE_XCONNECT] = "xconnect",
	[FWD_MODE_BRIDGE] = "bridge",
	NULL,
};

const char *const fwd_conf_rpf_names[] = {
	[FWD_RPF_OFF] = "off",
	[FWD_RPF_LOOSE] = "loose",
	[FWD_RPF_STRICT] = "strict",
	NULL,
};

#define F    CONF_F
#define LIST CONF_LIST
#define SECTION(k, fields)                                    \
	{                                                     \
		.key = (k), .kind = CONF_MAP, .sub = (fields) \
	}

typedef struct fwd_config C;
typedef struct fwd_conf_port P;

static const struct conf_field eal_arg = {
	.kind = CONF_HSTR, .size = sizeof(char *), .min = 1, .max = 255, .valid = conf_valid_eal_arg
};

static const struct conf_field dpdk_fields[] = {
	F("lcores", CONF_STR, C, dpdk.lcores, .min = 1, .def_str = "0-1",
	  .valid = conf_valid_lcores),
	F("hugepages", CONF_BOOL, C, dpdk.hugepages, .def = true),
	F("memory_mb", CONF_UINT, C, dpdk.memory_mb, .min = 64, .max = 1048576, .def = 512),
	F("file_prefix", CONF_STR, C, dpdk.file_prefix, .min = 1, .def_str = "fwd",
	  .valid = conf_valid_file_prefix),
	LIST("args", C, dpdk.args, dpdk.n_args, eal_arg, 0, FWD_MAX_EAL_ARGS),
	{ .key = NULL },
};

/* Tables features add rows to have room for them (CONF_MAX_FIELDS keys). */
static struct conf_field dataplane_fields[CONF_MAX_FIELDS + 1] = {
	F("burst", CONF_UINT, C, dataplane.burst, .min = 1, .max = 512, .def = 32),
	F("mbufs", CONF_UINT, C, dataplane.mbufs, .min = 1023, .max = 16777215, .def = 16383),
	F("idle_sleep_us", CONF_UINT, C, dataplane.idle_sleep_us, .min = 0, .max = 10000, .def = 0),
	{ .key = NULL },
};

static struct conf_field control_fields[CONF_MAX_FIELDS + 1] = {
	F("socket", CONF_STR, C, control.socket, .min = 1, .def_str = FWD_SOCKET_DEFAULT,
	  .valid = conf_valid_socket),
	F("socket_group", CONF_STR, C, control.socket_group, .min = 1, .def_str = "fwd",
	  .valid = fwd_conf_valid_name),
	F("admin_group", CONF_STR, C, control.admin_group, .min = 0, .def_str = "",
	  .valid = fwd_conf_valid_name),
	{ .key = NULL },
};

static struct conf_field port_fields[CONF_MAX_FIELDS + 1] = {
	F("name", CONF_STR, P, name, .min = 1, .required = true, .valid = fwd_conf_valid_name),
	F("device", CONF_STR, P, device, .min = 1, .required = true),
	F("mode", CONF_ENUM, P, mode, .names = fwd_conf_mode_names, .def = FWD_MODE_L3),
	F("rx_queues", CONF_UINT, P, rx_queues, .min = 1, .max = 16, .def = 1),
	F("rxd", CONF_UINT, P, rxd, .min = 64, .max = 16384, .def = 1024),
	F("txd", CONF_UINT, P, txd, .min = 64, .max = 16384, .def = 1024),
	F("mtu", CONF_UINT, P, mtu, .min = 68, .max = 9600, .def = 1500),
	{ .key = NULL },
};

static const struct conf_field port_item = CONF_ITEM(P, port_fields);

/* A bond's port is shown under bonds[] (bond/bond_config.c). */
static bool port_hidden(const void *item)
{
	return ((const struct fwd_conf_port *)item)->bond;
}

static struct conf_field root_fields[CONF_MAX_FIELDS + 1] = {
	SECTION("dpdk", dpdk_fields),
	SECTION("dataplane", dataplane_fields),
	SECTION("control", control_fields),
	LIST("ports", C, ports, n_ports, port_item, 1, FWD_MAX_PORTS, .required = true,
	     .hint = "at least one port must be configured", .hide = port_hidden),
	{ .key = NULL },
};

const struct conf_field *const conf_root_fields = root_fields;

void fwd_config_schema_add(const char *parent, const struct conf_field *row)
{
	static const struct {
		const char *key;
		struct conf_field *table;
	} tables[] = {
		{ "", root_fields },
		{ "dataplane", dataplane_fields },
		{ "control", control_fields },
		{ "ports", port_fields },
	};
	struct conf_field *t = NULL;
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(tables[i].key, parent != NULL ? parent : "") == 0)
			t = tables[i].table;
	while (t != NULL && t[n].key != NULL)
		n++;
	if (t == NULL || n == CONF_MAX_FIELDS)
		abort(); /* a broken build, not a bad config */
	t[n] = *row;
	t[n + 1] = (struct conf_field){ .key = NULL };
}

/* ----------------------------------------------------------------- walker */

static void store_uint(void *dst, size_t size, uint32_t v)
{
	uint16_t v16 = (uint16_t)v;
	uint8_t v8 = (uint8_t)v;

	if (size == sizeof(v))
		memcpy(dst, &v, sizeof(v));
	else if (size == sizeof(v16))
		memcpy(dst, &v16, sizeof(v16));
	else
		memcpy(dst, &v8, sizeof(v8));
}

static void apply_defaults(const struct conf_field *fields, char *obj)
{
	for (const struct conf_field *f = fields; f->key; f++) {
		char *dst = conf_field_obj(f, obj) + f->off;

		if (f->kind == CONF_MAP)
			apply_defaults(f->sub, dst);
		else if (f->kind == CONF_STR && f->def_str)
			snprintf(dst, f->size, "%s", f->def_str);
		else if (f->kind == CONF_UINT || f->kind == CONF_BOOL || f->kind == CONF_ENUM)
			store_uint(dst, f->size, f->def);
	}
}

void conf_schema_defaults(struct fwd_config *cfg)
{
	apply_defaults(conf_root_fields, (char *)cfg);
}

static const char *node_kind(const struct ynode *n)
{
	static const char *const names[] = {
		[YN_SCALAR] = "a single value",
		[YN_SEQ] = "a list",
		[YN_MAP] = "a mapping",
	};

	if (n->type == YN_SCALAR && conf_is_null(n))
		return "an empty value";
	return names[n->type];
}

/* "ports[1].mtu" from "ports[1]" and "mtu"; the root's children have no prefix. */
static void child_path(char *out, size_t size, const char *path, const char *key)
{
	if (snprintf(out, size, "%s%s%s", path, path[0] ? "." : "", key) >= (int)size)
		out[0] = '\0'; /* cannot happen: paths are built from schema keys */
}

static const char *where(const char *path)
{
	return path[0] ? path : "top level";
}

void conf_type_error(struct conf_ctx *c, const char *path, const struct ynode *n,
                     const char *expected)
{
	conf_err(&c->diag, n->pos, "%s: expected %s, got %s", where(path), expected, node_kind(n));
}

static void decode_map(struct conf_ctx *c, const struct conf_field *fields, const struct ynode *n,
                       char *obj, const char *path);

static void decode_item(struct conf_ctx *c, const struct conf_field *elem, const struct ynode *item,
                        char *slot, const char *path, unsigned i)
{
	char sub[96];

	if (snprintf(sub, sizeof(sub), "%s[%u]", path, i) >= (int)sizeof(sub))
		sub[0] = '\0'; /* cannot happen: paths are built from schema keys */
	if (elem->kind != CONF_MAP) {
		conf_decode_scalar(c, elem, item, slot, sub);
		return;
	}
	apply_defaults(elem->sub, slot);
	memcpy(slot + elem->pos_off, &item->pos, sizeof(item->pos));
	decode_map(c, elem->sub, item, slot, sub);
}

static void decode_list(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                        char *obj, const char *path)
{
	const struct conf_field *elem = f->sub;
	unsigned i = 0, *count = (unsigned *)(obj + f->count_off);
	char *arr = obj + f->off;

	if (n->type == YN_SCALAR && f->one_ok && elem->kind != CONF_MAP) {
		*count = 1;
		conf_decode_scalar(c, elem, n, arr, path); /* named without an index */
		return;
	}
	if (n->type != YN_SEQ) {
		conf_type_error(c, path, n, "a list");
		return;
	}
	if (n->n < f->min) {
		if (f->hint)
			conf_err(&c->diag, n->pos, "%s: %s", path, f->hint);
		else
			conf_err(&c->diag, n->pos, "%s: at least %u entries are required", path,
			         f->min);
		return;
	}
	if (f->heap && n->n) {
		arr = calloc(n->n < f->max ? n->n : f->max, elem->size);
		if (arr == NULL) {
			c->nomem = true;
			return;
		}
		memcpy(obj + f->off, &arr, sizeof(arr));
	}
	for (const struct ynode *item = n->first; item && !conf_diag_full(&c->diag);
	     item = item->next, i++) {
		if (i == f->max) {
			conf_err(&c->diag, item->pos, "%s: too many entries (at most %u)", path,
			         f->max);
			return;
		}
		*count = i + 1;
		decode_item(c, elem, item, arr + (size_t)i * elem->size, path, i);
	}
}

static const struct conf_field *find_field(const struct conf_field *fields, const struct ynode *k)
{
	for (const struct conf_field *f = fields; f->key; f++)
		if (strlen(f->key) == k->len && memcmp(f->key, k->str, k->len) == 0)
			return f;
	return NULL;
}

static void decode_value(struct conf_ctx *c, const struct conf_field *f, const struct ynode *v,
                         char *obj, const char *path)
{
	if (f->kind == CONF_MAP)
		decode_map(c, f->sub, v, obj + f->off, path);
	else if (f->kind == CONF_LIST)
		decode_list(c, f, v, obj, path);
	else
		conf_decode_scalar(c, f, v, obj, path);
}

static void missing_keys(struct conf_ctx *c, const struct conf_field *fields,
                         const struct ynode *const *seen, const struct ynode *n, const char *path)
{
	for (unsigned i = 0; fields[i].key; i++)
		if (fields[i].required && seen[i] == NULL)
			conf_err(&c->diag, n->pos, "%s%smissing required key '%s'%s%s%s", path,
			         path[0] ? ": " : "", fields[i].key, fields[i].hint ? " (" : "",
			         fields[i].hint ? fields[i].hint : "", fields[i].hint ? ")" : "");
}

static void decode_map(struct conf_ctx *c, const struct conf_field *fields, const struct ynode *n,
                       char *obj, const char *path)
{
	const struct ynode *seen[CONF_MAX_FIELDS] = { NULL };

	if (n->type != YN_MAP) {
		conf_type_error(c, path, n, "a mapping");
		return;
	}
	for (const struct ynode *k = n->first; k && k->next && !conf_diag_full(&c->diag);
	     k = k->next->next) {
		const struct conf_field *f = k->type == YN_SCALAR ? find_field(fields, k) : NULL;
		char sub[96];

		if (f == NULL) {
			conf_unknown_key(c, fields, k, path);
			continue;
		}
		if (seen[f - fields]) {
			conf_err(&c->diag, k->pos, "%s%sduplicate key '%s' (first at line %u)",
			         path, path[0] ? ": " : "", f->key, seen[f - fields]->pos.line);
			continue;
		}
		seen[f - fields] = k;
		child_path(sub, sizeof(sub), path, f->key);
		decode_value(c, f, k->next, conf_field_obj(f, obj), sub);
	}
	missing_keys(c, fields, seen, n, path);
}

int conf_schema_decode(struct conf_ctx *c, struct fwd_config *cfg)
{
	const struct ynode *r = c->root;

	if (r == NULL || (r->type == YN_SCALAR && conf_is_null(r)))
		conf_err(&c->diag, r ? r->pos : (struct fwd_conf_pos){ 1, 1 },
		         "no ports configured (the file is empty)");
	else
		decode_map(c, conf_root_fields, r, (char *)cfg, "");
	if (c->nomem)
		return -ENOMEM;
	return c->diag.n ? -EINVAL : 0;
}
