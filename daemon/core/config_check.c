/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Semantic checks of a decoded config: single values (called by the walker
 * while decoding) and the ports' names and devices (after decoding); the
 * features register the checks of what they own (fwd_config_register_check),
 * written over the same rules they apply at run time. Every problem is
 * reported at the node it comes from, and checking goes on so that one run
 * shows them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_priv.h"

static bool only_chars(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return false;
	return true;
}

const char *fwd_conf_valid_name(const char *s)
{
	return only_chars(s, "_.-") ? NULL : "use only letters, digits, '_', '.' and '-'";
}

const char *conf_valid_file_prefix(const char *s)
{
	return only_chars(s, "_-") ? NULL : "use only letters, digits, '_' and '-'";
}

/* fwd-daemon has DPDK and its drivers linked in (Makefile, DPDK_DRIVERS): a
 * driver library loaded with -d would bring a second, shared EAL with it. */
const char *conf_valid_eal_arg(const char *s)
{
	return s[0] == '-' && s[1] == 'd'
	               ? "-d (load a driver library) is not supported: fwd-daemon has its "
	                 "drivers linked in"
	               : NULL;
}

const char *conf_valid_socket(const char *s)
{
	return s[0] == '/' ? NULL : "the socket path must be absolute";
}

const char *conf_valid_lcores(const char *s)
{
	const char *why = NULL;

	return conf_lcores_parse(s, NULL, NULL, 0, &why) < 0 ? why : NULL;
}

/* ----------------------------------------------------------- cross checks */

/* Item i of sequence seq, from the cursor when it is on the way (the tree
 * does not change once built, so the cursor stays valid). */
static const struct ynode *seq_item(const struct conf_ctx *c, const struct ynode *seq,
                                    unsigned long i)
{
	/* a cache, not the context's meaning: calloc'ed, never const itself */
	struct conf_seq_cursor *k = (struct conf_seq_cursor *)&c->cursor;
	const struct ynode *v = seq->first;
	unsigned long at = 0;

	if (k->seq == seq && k->item != NULL && k->i <= i) {
		v = k->item;
		at = k->i;
	}
	for (; v != NULL && at < i; at++)
		v = v->next;
	if (v != NULL)
		*k = (struct conf_seq_cursor){ seq, v, i };
	return v;
}

/* The value in the file at path ("routes[3].via"), or the deepest node on
 * the way to it (*whole false); the tree is the source's, so a position
 * costs nothing until a problem needs one. */
static const struct ynode *path_node(const struct conf_ctx *c, const char *path, bool *whole)
{
	const struct ynode *n = c->root;
	const char *s = path;

	*whole = false;
	while (n != NULL && *s != '\0') {
		size_t len = strcspn(s, ".[");
		const struct ynode *v = NULL;

		if (len > 0 && n->type == YN_MAP) {
			for (const struct ynode *k = n->first; k != NULL && k->next != NULL && !v;
			     k = k->next->next)
				if (k->len == len && memcmp(k->str, s, len) == 0)
					v = k->next;
		} else if (len == 0 && *s == '[' && n->type == YN_SEQ) {
			char *end;
			v = seq_item(c, n, strtoul(s + 1, &end, 10));
			len = *end == ']' ? (size_t)(end + 1 - s) : 0;
		}
		if (v == NULL || len == 0)
			return n;
		n = v;
		s += len + (s[len] == '.');
	}
	*whole = n != NULL;
	return n;
}

static struct fwd_conf_pos at(const struct conf_ctx *c, const char *path)
{
	bool whole;
	const struct ynode *n = path_node(c, path, &whole);

	return n != NULL ? n->pos : (struct fwd_conf_pos){ 0, 0 };
}

/* Was this optional value written in the file? */
static bool given(const struct conf_ctx *c, const char *path)
{
	bool whole;

	path_node(c, path, &whole);
	return whole;
}

int fwd_config_port_index(const struct fwd_config *cfg, const char *name)
{
	for (unsigned i = 0; i < cfg->n_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

static fwd_config_iface_index_fn iface_index_fn;
static fwd_config_iface_index_fn vrf_index_fn;

void fwd_config_set_iface_index_fn(fwd_config_iface_index_fn fn)
{
	iface_index_fn = fn;
}

int fwd_config_iface_index(const struct fwd_config *cfg, const char *name)
{
	int i = fwd_config_port_index(cfg, name);

	if (i >= 0 || iface_index_fn == NULL)
		return i;
	i = iface_index_fn(cfg, name);
	return i >= 0 ? FWD_MAX_PORTS + i : -1;
}

int fwd_config_vrf_index(const struct fwd_config *cfg, const char *name)
{
	if (vrf_index_fn != NULL)
		return vrf_index_fn(cfg, name);
	return name[0] == '\0' || strcmp(name, "default") == 0 ? 0 : -1;
}

void fwd_config_set_vrf_index_fn(fwd_config_iface_index_fn fn)
{
	vrf_index_fn = fn;
}

/* "ports[i].key" (one buffer: the message is formatted before the next call) */
static const char *path_of(unsigned i, const char *key)
{
	static char path[48];

	snprintf(path, sizeof(path), "ports[%u].%s", i, key);
	return path;
}

static void check_ports(struct conf_ctx *c, const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];

		for (unsigned j = 0; j < i; j++) {
			if (strcmp(cfg->ports[j].name, p->name) == 0)
				fwd_conf_error((struct fwd_conf_checker *)c, path_of(i, "name"),
				               "duplicate port name '%s' (first at line %u)",
				               p->name, cfg->ports[j].pos.line);
			if (strcmp(cfg->ports[j].device, p->device) == 0)
				fwd_conf_error((struct fwd_conf_checker *)c, path_of(i, "device"),
				               "device '%s' is already used by port '%s'",
				               p->device, cfg->ports[j].name);
		}
	}
}

/* ------------------------------------------------- checks of the features */

#define MAX_CHECKS 16

static fwd_conf_check_fn checks[MAX_CHECKS], machine_checks[MAX_CHECKS];
static unsigned n_checks, n_machine_checks;
bool fwd_config_machine_checks;

void fwd_config_register_check(fwd_conf_check_fn fn)
{
	if (n_checks == MAX_CHECKS)
		abort(); /* a broken invariant of the build, not of a config */
	checks[n_checks++] = fn;
}

void fwd_config_register_machine_check(fwd_conf_check_fn fn)
{
	if (n_machine_checks == MAX_CHECKS)
		abort();
	machine_checks[n_machine_checks++] = fn;
}

void fwd_conf_error(struct fwd_conf_checker *fc, const char *path, const char *fmt, ...)
{
	struct conf_ctx *c = (struct conf_ctx *)fc;
	char text[sizeof(c->diag.msgs[0].text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	conf_err(&c->diag, at(c, path), "%s%s%s", path, path[0] ? ": " : "", text);
}

bool fwd_conf_given(const struct fwd_conf_checker *fc, const char *path)
{
	return given((const struct conf_ctx *)fc, path);
}

bool fwd_conf_full(const struct fwd_conf_checker *fc)
{
	return conf_diag_full(&((const struct conf_ctx *)fc)->diag);
}

void conf_derive(struct conf_ctx *c, struct fwd_config *cfg)
{
	uint32_t half = cfg->dataplane.nexthops / 2;

	/* the default leaves half the next hops at least to routes' gateways */
	if (!given(c, "dataplane.neigh_max") && cfg->dataplane.neigh_max > half)
		cfg->dataplane.neigh_max = half;
}

static void check_dataplane(struct conf_ctx *c, const struct fwd_config *cfg)
{
	uint32_t max = cfg->dataplane.neigh_max;

	if (max >= cfg->dataplane.nexthops)
		fwd_conf_error((struct fwd_conf_checker *)c, "dataplane.neigh_max",
		               "%u must be below dataplane.nexthops (%u), so that routes always "
		               "find room for their gateways",
		               max, cfg->dataplane.nexthops);
}

void conf_check(struct conf_ctx *c, const struct fwd_config *cfg)
{
	check_dataplane(c, cfg);
	check_ports(c, cfg);
	for (unsigned i = 0; i < n_checks; i++)
		checks[i]((struct fwd_conf_checker *)c, cfg);
	/* the machine only once the file holds together: a port named twice
	 * is reported once, not also for its device */
	for (unsigned i = 0; fwd_config_machine_checks && c->diag.n == 0 && i < n_machine_checks;
	     i++)
		machine_checks[i]((struct fwd_conf_checker *)c, cfg);
}
