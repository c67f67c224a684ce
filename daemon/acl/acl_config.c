/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config keys ACLs own, and their checks: acls[], ports[].acl_in and
 * acl_out, control.acl_local (fwd.yaml(5)). Applied at start-up and on
 * reload by acl_ctl.c; `config show` writes the loaded acls[] back (ACLs
 * change by reload only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "core/config_schema.h"

#define PATH_MAX_ 64

typedef struct fwd_config C;
typedef struct acl_conf S;
typedef struct fwd_conf_port P;
typedef struct fwd_conf_acl A;
typedef struct fwd_conf_acl_rule R;

static const char *const action_names[] = { "deny", "permit", "reject", NULL };
static const char *const default_names[] = { "deny", "permit", NULL };

static const struct conf_field rule_fields[] = {
	CONF_F("action", CONF_ENUM, R, action, .names = action_names, .required = true,
	       .hint = "deny, permit or reject"),
	CONF_F("src", CONF_NET, R, src),
	CONF_F("dst", CONF_NET, R, dst),
	CONF_F("proto", CONF_STR, R, proto, .min = 1),
	CONF_F("sport", CONF_STR, R, sport, .min = 1),
	CONF_F("dport", CONF_STR, R, dport, .min = 1),
	CONF_F("icmp_type", CONF_STR, R, icmp_type, .min = 1),
	CONF_F("icmp_code", CONF_STR, R, icmp_code, .min = 1),
	CONF_F("dscp", CONF_STR, R, dscp, .min = 1),
	CONF_F("fragment", CONF_BOOL, R, fragment, .def = false),
	{ .key = NULL },
};

static const struct conf_field rule_item = CONF_ITEM(R, rule_fields);

static const struct conf_field acl_fields[] = {
	CONF_F("name", CONF_STR, A, name, .min = 1, .required = true, .valid = fwd_conf_valid_name),
	CONF_F("default", CONF_ENUM, A, def, .names = default_names, .def = FWD_ACL_DENY),
	CONF_LIST("rules", A, rules, n_rules, rule_item, 0, FWD_MAX_ACL_RULES, .heap = true),
	{ .key = NULL },
};

static const struct conf_field acl_item = CONF_ITEM(A, acl_fields);
static const struct conf_field acls_rows[] = {
	CONF_LIST("acls", S, acls, n_acls, acl_item, 0, FWD_MAX_ACLS, .heap = true),
	{ .key = NULL },
};
static const struct conf_field port_rows[] = {
	CONF_F("acl_in", CONF_STR, P, acl_in, .min = 1, .valid = fwd_conf_valid_name),
	CONF_F("acl_out", CONF_STR, P, acl_out, .min = 1, .valid = fwd_conf_valid_name),
};
static const struct conf_field control_row =
        CONF_F("acl_local", CONF_STR, C, control.acl_local, .min = 1, .valid = fwd_conf_valid_name);

static void sect_free(void *p)
{
	S *s = p;

	for (unsigned i = 0; s->acls != NULL && i < s->n_acls; i++)
		free(s->acls[i].rules);
	free(s->acls);
}

static int sect_copy(void *dst, const void *src)
{
	const S *a = src;
	S *b = dst;

	if (a->n_acls == 0)
		return 0;
	if ((b->acls = calloc(a->n_acls, sizeof(*b->acls))) == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < a->n_acls; i++) {
		b->acls[i] = a->acls[i];
		b->acls[i].rules = NULL;
		b->n_acls = i + 1;
		if (a->acls[i].n_rules == 0)
			continue;
		b->acls[i].rules = malloc(a->acls[i].n_rules * sizeof(*b->acls[i].rules));
		if (b->acls[i].rules == NULL)
			return -ENOMEM;
		memcpy(b->acls[i].rules, a->acls[i].rules,
		       a->acls[i].n_rules * sizeof(*b->acls[i].rules));
	}
	return 0;
}

static bool sect_equal(const void *x, const void *y)
{
	const S *a = x, *b = y;

	if (a->n_acls != b->n_acls)
		return false;
	for (unsigned i = 0; i < a->n_acls; i++)
		if (!acl_conf_equal(&a->acls[i], &b->acls[i]))
			return false;
	return true;
}

static struct fwd_conf_section section = {
	.name = "acls",
	.size = sizeof(S),
	.rows = acls_rows,
	.free = sect_free,
	.copy = sect_copy,
	.equal = sect_equal,
};

const struct acl_conf *acl_conf(const struct fwd_config *cfg)
{
	return fwd_config_section(cfg, &section);
}

const struct fwd_conf_acl *fwd_config_acl(const struct fwd_config *cfg, const char *name)
{
	const S *s = acl_conf(cfg);

	for (unsigned i = 0; i < s->n_acls; i++)
		if (strcmp(s->acls[i].name, name) == 0)
			return &s->acls[i];
	return NULL;
}

static void check_rules(struct fwd_conf_checker *c, const struct fwd_conf_acl *a, unsigned i)
{
	char at[PATH_MAX_], why[128];
	struct acl_rule r;
	const char *key;

	for (unsigned j = 0; j < a->n_rules && !fwd_conf_full(c); j++) {
		if (acl_rule_parse(&a->rules[j], &r, &key, why, sizeof(why)) == 0)
			continue;
		snprintf(at, sizeof(at), "acls[%u].rules[%u]%s%s", i, j, key[0] ? "." : "", key);
		fwd_conf_error(c, at, "%s", why);
	}
}

/* An attachment naming an ACL: it must exist, on an l3 port. */
static void check_ref(struct fwd_conf_checker *c, const struct fwd_config *cfg, const char *name,
                      const char *at, const struct fwd_conf_port *p)
{
	if (name[0] == '\0')
		return;
	if (fwd_config_acl(cfg, name) == NULL)
		fwd_conf_error(c, at, "no such ACL '%s'", name);
	else if (p != NULL && p->mode != FWD_MODE_L3)
		fwd_conf_error(c, at, "only l3 ports take ACLs (this port's mode is %s)",
		               fwd_port_mode_name(p->mode));
}

static void acl_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	char at[PATH_MAX_];

	const struct acl_conf *s = acl_conf(cfg);

	for (unsigned i = 0; i < s->n_acls; i++) {
		for (unsigned j = 0; j < i; j++)
			if (strcmp(s->acls[j].name, s->acls[i].name) == 0) {
				snprintf(at, sizeof(at), "acls[%u].name", i);
				fwd_conf_error(c, at, "duplicate ACL name '%s' (first at line %u)",
				               s->acls[i].name, s->acls[j].pos.line);
			}
		check_rules(c, &s->acls[i], i);
	}
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		snprintf(at, sizeof(at), "ports[%u].acl_in", i);
		check_ref(c, cfg, cfg->ports[i].acl_in, at, &cfg->ports[i]);
		snprintf(at, sizeof(at), "ports[%u].acl_out", i);
		check_ref(c, cfg, cfg->ports[i].acl_out, at, &cfg->ports[i]);
	}
	check_ref(c, cfg, cfg->control.acl_local, "control.acl_local", NULL);
}

RTE_INIT(acl_config_register)
{
	for (unsigned i = 0; i < RTE_DIM(port_rows); i++)
		fwd_config_schema_add("ports", &port_rows[i]);
	fwd_config_schema_add("control", &control_row);
	fwd_config_register_section(&section);
	fwd_config_register_check(acl_config_check);
}
