/* SPDX-License-Identifier: BSD-3-Clause */
/* Decoding of single YAML values into config fields, and unknown-key hints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/config_priv.h"
#include "fwd_suggest.h"

#define Q(n, buf) conf_quote((n)->str, (n)->len, (buf), sizeof(buf))

bool conf_is_null(const struct ynode *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };

	if (n->type != YN_SCALAR || !n->plain)
		return false;
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
		if (strcmp(n->str, nulls[i]) == 0)
			return true;
	return false;
}

/* Checks shared by every text value; 0, or -EINVAL once reported. */
static int check_text(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                      const char *path)
{
	size_t max = f->kind == CONF_STR ? f->size - 1 : f->max;
	const char *why = NULL;
	char q[CONF_QUOTE_MAX + 8];

	if (memchr(n->str, '\0', n->len))
		why = "contains a NUL character";
	for (size_t i = 0; why == NULL && i < n->len; i++)
		if ((unsigned char)n->str[i] < 0x20 || n->str[i] == 0x7f)
			why = "contains a control character";
	if (why == NULL && n->len < f->min)
		why = "must not be empty";
	if (why) {
		conf_err(&c->diag, n->pos, "%s: %s", path, why);
		return -EINVAL;
	}
	if (n->len > max) {
		conf_err(&c->diag, n->pos, "%s: '%s' is too long (%u characters, at most %zu)",
		         path, Q(n, q), n->len, max);
		return -EINVAL;
	}
	why = f->valid ? f->valid(n->str) : NULL;
	if (why) {
		conf_err(&c->diag, n->pos, "%s: invalid value '%s': %s", path, Q(n, q), why);
		return -EINVAL;
	}
	return 0;
}

static int decode_text(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                       char *dst, const char *path)
{
	char *s;

	if (check_text(c, f, n, path) < 0)
		return -EINVAL;
	if (f->kind == CONF_STR) {
		memcpy(dst, n->str, n->len + 1);
		return 0;
	}
	s = strdup(n->str);
	if (s == NULL) {
		c->nomem = true;
		return -ENOMEM;
	}
	*(char **)(void *)dst = s; /* freed with the config */
	return 0;
}

/*
 * Strict decimal: digits only, no sign, no leading zero (YAML 1.1 reads
 * "010" as octal), no exponent or base prefix. -ERANGE for a number too big
 * or negative, -EINVAL for anything else that is not a number.
 */
static int parse_u32(const char *s, uint32_t *v)
{
	uint64_t x = 0;
	size_t i = s[0] == '-' ? 1 : 0;
	size_t start = i;

	for (; s[i] >= '0' && s[i] <= '9'; i++) {
		x = x * 10 + (uint64_t)(s[i] - '0');
		if (x > UINT32_MAX)
			x = (uint64_t)UINT32_MAX + 1; /* saturate: still digits to check */
	}
	if (i == start || s[i] != '\0' || (i - start > 1 && s[start] == '0'))
		return -EINVAL;
	if (start || x > UINT32_MAX)
		return start && x == 0 ? -EINVAL : -ERANGE;
	*v = (uint32_t)x;
	return 0;
}

static int decode_uint(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                       char *dst, const char *path)
{
	char q[CONF_QUOTE_MAX + 8];
	uint32_t v = 0;
	int rc = n->plain ? parse_u32(n->str, &v) : -EINVAL;

	if (rc == 0 && (v < f->min || v > f->max))
		rc = -ERANGE;
	if (rc == -ERANGE)
		conf_err(&c->diag, n->pos, "%s: %s is out of range (%u..%u)", path, Q(n, q), f->min,
		         f->max);
	else if (rc < 0)
		conf_err(&c->diag, n->pos, "%s: expected a decimal number (%u..%u), got %s'%s'",
		         path, f->min, f->max, n->plain ? "" : "a quoted string ", Q(n, q));
	else if (f->size == sizeof(uint16_t))
		memcpy(dst, &(uint16_t){ (uint16_t)v }, sizeof(uint16_t));
	else
		memcpy(dst, &v, sizeof(v));
	return rc;
}

static int decode_bool(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                       char *dst, const char *path)
{
	char q[CONF_QUOTE_MAX + 8];
	bool v = strcmp(n->str, "true") == 0;

	(void)f;
	if (!n->plain || (!v && strcmp(n->str, "false") != 0)) {
		conf_err(&c->diag, n->pos, "%s: expected true or false, got %s'%s'", path,
		         n->plain ? "" : "a quoted string ", Q(n, q));
		return -EINVAL;
	}
	memcpy(dst, &v, sizeof(v));
	return 0;
}

static int decode_enum(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                       char *dst, const char *path)
{
	char q[CONF_QUOTE_MAX + 8], list[128] = "";
	int i;

	for (i = 0; f->names[i]; i++) {
		if (strcmp(n->str, f->names[i]) == 0) {
			memcpy(dst, &i, sizeof(i));
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
		         i == 0            ? ""
		         : f->names[i + 1] ? ", "
		                           : " or ",
		         f->names[i]);
	}
	conf_err(&c->diag, n->pos, "%s: unknown value '%s' (expected %s)", path, Q(n, q), list);
	return -EINVAL;
}

/* Either family: a value with a colon is read as IPv6 (and told so when bad). */
static int decode_ip(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                     char *dst, const char *path)
{
	char q[CONF_QUOTE_MAX + 8];
	struct fwd_ip a;

	(void)f;
	if (fwd_ip_parse(n->str, &a) == 0) {
		memcpy(dst, &a, sizeof(a));
		return 0;
	}
	if (strchr(n->str, ':') != NULL)
		conf_err(&c->diag, n->pos, "%s: '%s' is not an IPv6 address", path, Q(n, q));
	else
		conf_err(&c->diag, n->pos, "%s: '%s' is not an IPv4 address (expected A.B.C.D)",
		         path, Q(n, q));
	return -EINVAL;
}

static int decode_mac(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                      char *dst, const char *path)
{
	char q[CONF_QUOTE_MAX + 8];

	(void)f;
	if (fwd_mac_parse(n->str, (uint8_t *)dst) == 0)
		return 0;
	conf_err(&c->diag, n->pos, "%s: '%s' is not a MAC address (expected xx:xx:xx:xx:xx:xx)",
	         path, Q(n, q));
	return -EINVAL;
}

static int decode_prefix(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                         char *dst, const char *path)
{
	char q[CONF_QUOTE_MAX + 8], norm[FWD_PREFIX_STRLEN];
	/* "/N" is required: a bare address as a prefix is more often a slip than a host */
	bool slash = strchr(n->str, '/') != NULL, v6 = strchr(n->str, ':') != NULL;
	struct fwd_prefix p;

	if (slash && fwd_prefix_parse(n->str, &p, f->kind == CONF_ADDR) == 0) {
		memcpy(dst, &p, sizeof(p));
		return 0;
	}
	if (slash && f->kind == CONF_NET && fwd_prefix_parse(n->str, &p, true) == 0) {
		if (p.family == AF_INET6)
			fwd_ip6_mask(p.v6, p.len);
		else
			p.v4 &= fwd_ip4_mask(p.len);
		conf_err(&c->diag, n->pos, "%s: %s has host bits set (the prefix is %s)", path,
		         Q(n, q), fwd_prefix_fmt(&p, norm));
		return -EINVAL;
	}
	conf_err(&c->diag, n->pos, "%s: '%s' is not an %s %s (expected %s)", path, Q(n, q),
	         v6 ? "IPv6" : "IPv4",
	         f->kind == CONF_NET ? "prefix" : "address with prefix length",
	         v6 ? "X:X::X/N, N = 0..128" : "A.B.C.D/N, N = 0..32");
	return -EINVAL;
}

typedef int decode_fn(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                      char *dst, const char *path);

static const struct {
	decode_fn *fn;
	const char *expected; /* for "expected X, got a list" */
} decoders[] = {
	[CONF_STR] = { decode_text, "a string" },
	[CONF_HSTR] = { decode_text, "a string" },
	[CONF_UINT] = { decode_uint, "a number" },
	[CONF_BOOL] = { decode_bool, "true or false" },
	[CONF_ENUM] = { decode_enum, "a single value" },
	[CONF_IP] = { decode_ip, "an IP address" },
	[CONF_ADDR] = { decode_prefix, "an IP address/N" },
	[CONF_NET] = { decode_prefix, "an IP prefix" },
	[CONF_MAC] = { decode_mac, "a MAC address" },
};

void conf_decode_scalar(struct conf_ctx *c, const struct conf_field *f, const struct ynode *n,
                        char *obj, const char *path)
{
	char *dst = obj + f->off;

	if (n->type != YN_SCALAR || conf_is_null(n)) {
		conf_type_error(c, path, n, decoders[f->kind].expected);
		return;
	}
	if (f->kind != CONF_STR && f->kind != CONF_HSTR && memchr(n->str, '\0', n->len)) {
		conf_err(&c->diag, n->pos, "%s: contains a NUL character", path);
		return;
	}
	decoders[f->kind].fn(c, f, n, dst, path);
}

void conf_unknown_key(struct conf_ctx *c, const struct conf_field *fields, const struct ynode *k,
                      const char *path)
{
	const char *best = NULL, *sep = path[0] ? ": " : "";
	unsigned best_d = ~0u;
	char q[CONF_QUOTE_MAX + 8];

	if (k->type != YN_SCALAR) {
		conf_err(&c->diag, k->pos, "%s%skeys must be plain strings, not %s", path, sep,
		         k->type == YN_SEQ ? "a list" : "a mapping");
		return;
	}
	for (const struct conf_field *f = fields; k->len <= CONF_QUOTE_MAX && f->key; f++)
		if (fwd_suggest_better(k->str, k->len, f->key, &best_d))
			best = f->key;
	if (best)
		conf_err(&c->diag, k->pos, "%s%sunknown key '%s' (did you mean '%s'?)", path, sep,
		         Q(k, q), best);
	else
		conf_err(&c->diag, k->pos, "%s%sunknown key '%s'", path, sep, Q(k, q));
}
