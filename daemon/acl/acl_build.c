/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An ACL compiled with DPDK's rte_acl (control thread): one context per
 * family over the keys of acl.h (struct acl_key4, acl_key6). A rule's
 * userdata is its position + 1 and its priority falls with its position,
 * so the first rule that matches wins; 0 (no match) is the default.
 * A rule of no family goes into both contexts.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_acl.h>
#include <rte_malloc.h>

#include "acl/acl.h"

#define FDEF(t, sz, fi, ii, st, m)                                                   \
	{                                                                            \
		.type = (t), .size = (sz), .field_index = (fi), .input_index = (ii), \
		.offset = offsetof(st, m)                                            \
	}
#define MASK  RTE_ACL_FIELD_TYPE_MASK
#define BITS  RTE_ACL_FIELD_TYPE_BITMASK
#define RANGE RTE_ACL_FIELD_TYPE_RANGE

/* IPv4: proto, src, dst, sport, dport, dscp, frag, icmp type, code. */
static const struct rte_acl_field_def defs4[] = {
	FDEF(BITS, 1, 0, 0, struct acl_key4, proto),
	FDEF(MASK, 4, 1, 1, struct acl_key4, src),
	FDEF(MASK, 4, 2, 2, struct acl_key4, dst),
	FDEF(RANGE, 2, 3, 3, struct acl_key4, sport),
	FDEF(RANGE, 2, 4, 3, struct acl_key4, dport),
	FDEF(BITS, 1, 5, 4, struct acl_key4, dscp),
	FDEF(BITS, 1, 6, 4, struct acl_key4, frag),
	FDEF(BITS, 1, 7, 4, struct acl_key4, icmp_type),
	FDEF(BITS, 1, 8, 4, struct acl_key4, icmp_code),
};

/* IPv6: the addresses as four 32-bit words each. */
static const struct rte_acl_field_def defs6[] = {
	FDEF(BITS, 1, 0, 0, struct acl_key6, proto),
	FDEF(MASK, 4, 1, 1, struct acl_key6, src[0]),
	FDEF(MASK, 4, 2, 2, struct acl_key6, src[4]),
	FDEF(MASK, 4, 3, 3, struct acl_key6, src[8]),
	FDEF(MASK, 4, 4, 4, struct acl_key6, src[12]),
	FDEF(MASK, 4, 5, 5, struct acl_key6, dst[0]),
	FDEF(MASK, 4, 6, 6, struct acl_key6, dst[4]),
	FDEF(MASK, 4, 7, 7, struct acl_key6, dst[8]),
	FDEF(MASK, 4, 8, 8, struct acl_key6, dst[12]),
	FDEF(RANGE, 2, 9, 9, struct acl_key6, sport),
	FDEF(RANGE, 2, 10, 9, struct acl_key6, dport),
	FDEF(BITS, 1, 11, 10, struct acl_key6, dscp),
	FDEF(BITS, 1, 12, 10, struct acl_key6, frag),
	FDEF(BITS, 1, 13, 10, struct acl_key6, icmp_type),
	FDEF(BITS, 1, 14, 10, struct acl_key6, icmp_code),
};

/* Big enough for either family (IPv4 rules use the first fields). */
RTE_ACL_RULE_DEF(acl_rule6, RTE_DIM(defs6));

static void bits8(struct rte_acl_field *f, int16_t v, uint8_t mask)
{
	f->value.u8 = v < 0 ? 0 : (uint8_t)v;
	f->mask_range.u8 = v < 0 ? 0 : mask;
}

/* A prefix over n 32-bit words at f (family 0: any). */
static void prefix_words(struct rte_acl_field *f, const struct fwd_prefix *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int len = p->family == 0 ? 0 : (int)p->len - 32 * (int)i;
		uint32_t v;

		len = len < 0 ? 0 : len > 32 ? 32 : len;
		if (n == 1)
			v = p->family ? p->v4 : 0;
		else
			v = p->family ? (uint32_t)p->v6[4 * i] << 24 |
			                        (uint32_t)p->v6[4 * i + 1] << 16 |
			                        (uint32_t)p->v6[4 * i + 2] << 8 | p->v6[4 * i + 3]
			              : 0;
		f[i].value.u32 = len == 0 ? 0 : v;
		f[i].mask_range.u32 = (uint32_t)len;
	}
}

/* The fields after the addresses, from f on (sport, dport, dscp, ...). */
static void tail_fields(struct rte_acl_field *f, const struct acl_rule *r)
{
	f[0].value.u16 = r->sport_lo;
	f[0].mask_range.u16 = r->sport_hi;
	f[1].value.u16 = r->dport_lo;
	f[1].mask_range.u16 = r->dport_hi;
	bits8(&f[2], r->dscp, 0x3f);
	/* a rule on ports or ICMP type wants the first fragment (which has them) */
	bits8(&f[3], r->fragment ? 1 : r->l4 ? 0 : -1, 1);
	bits8(&f[4], r->icmp_type, 0xff);
	bits8(&f[5], r->icmp_code, 0xff);
}

static void rule_fields(struct acl_rule6 *out, const struct acl_rule *r, int fam, uint32_t pos,
                        uint32_t n_rules)
{
	unsigned w = fam == ACL_V4 ? 1 : 4;

	memset(out, 0, sizeof(*out));
	out->data.category_mask = 1;
	out->data.priority = (int32_t)(n_rules - pos); /* the first rule wins */
	out->data.userdata = pos + 1;
	bits8(&out->field[0], r->proto, 0xff);
	prefix_words(&out->field[1], &r->src, w);
	prefix_words(&out->field[1 + w], &r->dst, w);
	tail_fields(&out->field[1 + 2 * w], r);
}

static struct rte_acl_ctx *ctx_new(int fam, uint32_t max_rules)
{
	static unsigned seq; /* rte_acl_create returns an existing context of the same name */
	char name[RTE_ACL_NAMESIZE];
	unsigned nf = fam == ACL_V4 ? RTE_DIM(defs4) : RTE_DIM(defs6);
	struct rte_acl_param prm = {
		.name = name,
		.socket_id = SOCKET_ID_ANY,
		.rule_size = RTE_ACL_RULE_SZ(nf),
		.max_rule_num = max_rules,
	};

	snprintf(name, sizeof(name), "fwd_acl%u", seq++);
	return rte_acl_create(&prm);
}

/* Add the rules of family fam and build; *ctx stays NULL when there is none. */
static int build_family(struct acl_set *s, const struct acl_rule *rules, int fam,
                        struct rte_acl_ctx **ctx)
{
	int family = fam == ACL_V4 ? AF_INET : AF_INET6;
	struct rte_acl_config cfg = { .num_categories = 1 };
	struct acl_rule6 one;
	uint32_t n = 0;
	int rc = 0;

	for (uint32_t i = 0; i < s->n_rules; i++)
		n += acl_rule_in_family(&rules[i], family);
	*ctx = NULL;
	if (n == 0)
		return 0;
	*ctx = ctx_new(fam, n);
	if (*ctx == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->n_rules && rc == 0; i++) {
		if (!acl_rule_in_family(&rules[i], family))
			continue;
		rule_fields(&one, &rules[i], fam, i, s->n_rules);
		rc = rte_acl_add_rules(*ctx, (const struct rte_acl_rule *)&one, 1);
	}
	cfg.num_fields = fam == ACL_V4 ? RTE_DIM(defs4) : RTE_DIM(defs6);
	memcpy(cfg.defs, fam == ACL_V4 ? defs4 : defs6, cfg.num_fields * sizeof(cfg.defs[0]));
	return rc != 0 ? rc : rte_acl_build(*ctx, &cfg);
}

static int set_alloc(struct acl_set *s, const struct fwd_conf_acl *conf)
{
	size_t n = conf->n_rules + 1u;

	snprintf(s->name, sizeof(s->name), "%s", conf->name);
	s->n_rules = conf->n_rules;
	s->conf = *conf;
	s->conf.rules = NULL;
	s->action = calloc(n, 1);
	s->base = calloc(n, sizeof(*s->base));
	if (s->action == NULL || s->base == NULL)
		return -ENOMEM;
	if (conf->n_rules != 0) {
		s->conf.rules = malloc(conf->n_rules * sizeof(*conf->rules));
		if (s->conf.rules == NULL)
			return -ENOMEM;
		memcpy(s->conf.rules, conf->rules, conf->n_rules * sizeof(*conf->rules));
	}
	for (unsigned w = 0; w <= FWD_MAX_WORKERS; w++) {
		s->hits[w] = rte_zmalloc("fwd_acl_hits", n * sizeof(struct acl_hits),
		                         RTE_CACHE_LINE_SIZE);
		if (s->hits[w] == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* The rules parsed, and the actions filled; -EINVAL with the reason in err. */
static struct acl_rule *parse_all(struct acl_set *s, const struct fwd_conf_acl *conf, char *err,
                                  size_t errlen)
{
	struct acl_rule *rules = calloc(conf->n_rules + 1u, sizeof(*rules));
	char why[128];
	const char *key;

	if (rules == NULL) {
		snprintf(err, errlen, "acl %s: out of memory", conf->name);
		return NULL;
	}
	s->action[0] = (uint8_t)conf->def;
	for (uint32_t i = 0; i < conf->n_rules; i++) {
		if (acl_rule_parse(&conf->rules[i], &rules[i], &key, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "acl %s: rule %u: %s: %s", conf->name, i + 1, key,
			         why);
			free(rules);
			return NULL;
		}
		s->action[i + 1] = rules[i].action;
	}
	return rules;
}

struct acl_set *acl_set_build(const struct fwd_conf_acl *conf, char *err, size_t errlen)
{
	struct acl_set *s = calloc(1, sizeof(*s));
	struct acl_rule *rules = NULL;
	int rc = -ENOMEM;

	if (s == NULL || set_alloc(s, conf) < 0) {
		snprintf(err, errlen, "acl %s: out of memory", conf->name);
		goto fail;
	}
	rules = parse_all(s, conf, err, errlen);
	if (rules == NULL)
		goto fail;
	rc = build_family(s, rules, ACL_V4, &s->ctx[ACL_V4]);
	if (rc == 0)
		rc = build_family(s, rules, ACL_V6, &s->ctx[ACL_V6]);
	if (rc != 0) {
		snprintf(err, errlen, "acl %s: rte_acl: %s", conf->name, strerror(-rc));
		goto fail;
	}
	free(rules);
	return s;
fail:
	free(rules);
	acl_set_free(s);
	return NULL;
}

void acl_set_free(struct acl_set *s)
{
	if (s == NULL)
		return;
	rte_acl_free(s->ctx[ACL_V4]);
	rte_acl_free(s->ctx[ACL_V6]);
	for (unsigned w = 0; w <= FWD_MAX_WORKERS; w++)
		rte_free(s->hits[w]);
	free(s->action);
	free(s->base);
	free(s->conf.rules);
	free(s);
}

/* The same rule, wherever it is written. */
static bool rule_equal(const struct fwd_conf_acl_rule *x, const struct fwd_conf_acl_rule *y)
{
	return x->action == y->action && x->fragment == y->fragment &&
	       x->src.family == y->src.family && x->dst.family == y->dst.family &&
	       (x->src.family == 0 || fwd_prefix_cmp(&x->src, &y->src) == 0) &&
	       (x->dst.family == 0 || fwd_prefix_cmp(&x->dst, &y->dst) == 0) &&
	       strcmp(x->proto, y->proto) == 0 && strcmp(x->sport, y->sport) == 0 &&
	       strcmp(x->dport, y->dport) == 0 && strcmp(x->icmp_type, y->icmp_type) == 0 &&
	       strcmp(x->icmp_code, y->icmp_code) == 0 && strcmp(x->dscp, y->dscp) == 0;
}

bool acl_conf_equal(const struct fwd_conf_acl *a, const struct fwd_conf_acl *b)
{
	if (strcmp(a->name, b->name) != 0 || a->def != b->def || a->n_rules != b->n_rules)
		return false;
	for (unsigned i = 0; i < a->n_rules; i++)
		if (!rule_equal(&a->rules[i], &b->rules[i]))
			return false;
	return true;
}

void acl_set_classify(const struct acl_set *s, int fam, const uint8_t **keys, uint32_t *res,
                      unsigned n)
{
	if (s->ctx[fam] == NULL || rte_acl_classify(s->ctx[fam], keys, res, n, 1) != 0)
		memset(res, 0, n * sizeof(*res));
}

struct acl_hits acl_set_hits(const struct acl_set *s, uint32_t i)
{
	struct acl_hits h = { 0, 0 };

	for (unsigned w = 0; w <= FWD_MAX_WORKERS; w++) {
		h.pkts += s->hits[w][i].pkts;
		h.bytes += s->hits[w][i].bytes;
	}
	h.pkts -= s->base[i].pkts;
	h.bytes -= s->base[i].bytes;
	return h;
}
