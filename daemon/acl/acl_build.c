/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An ACL compiled with DPDK's rte_acl (control thread): one context per
 * class of packets (acl.h: family, non-first fragment or not) over the
 * IP header and the ports (acl.h, ACL4_PROTO..), with the fields its
 * rules use. A rule's userdata is its position + 1 and its priority falls with
 * its position, so the first rule that matches wins; 0 (no match) is the
 * default. A rule of no family goes into both families' contexts; one on
 * ports or ICMP type never meets a non-first fragment, one with
 * `fragment: true` only those.
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
#include "acl/acl_pre.h"

/*
 * The fields a context may have, over the key of its family. A context
 * gets the protocol and those of the others some rule of it uses (each
 * field costs every packet a step per byte, and the build a step per
 * byte of every rule: fewer fields, faster), at least one word (rte_acl
 * wants one). Of a prefix, only the words some rule's prefix reaches
 * into: an IPv6 /48 needs two of four, a /0 none.
 */
enum { U_SRC = 1, U_DST = 2, U_PORTS = 4, U_DSCP = 8 };

struct uses {
	unsigned what; /* U_PORTS, U_DSCP */
	unsigned src_words, dst_words;
};

struct fields {
	struct rte_acl_field_def def[RTE_ACL_MAX_FIELDS];
	uint8_t what[RTE_ACL_MAX_FIELDS]; /* 0 proto, U_SRC.. and the word or port number */
	uint8_t word[RTE_ACL_MAX_FIELDS];
	unsigned n, inputs;
	bool v6;
};

static void field_add(struct fields *f, uint8_t type, uint8_t size, uint32_t off, uint8_t what,
                      uint8_t word, bool new_input)
{
	struct rte_acl_field_def *d = &f->def[f->n];

	if (new_input)
		f->inputs++;
	d->type = type;
	d->size = size;
	d->field_index = (uint8_t)f->n;
	d->input_index = (uint8_t)(f->inputs - 1);
	d->offset = off;
	f->what[f->n] = what;
	f->word[f->n++] = word;
}

/* The fields of a context of family fam (ACL_V4, ACL_V6) for rules using u. */
static void fields_for(struct fields *f, int fam, const struct uses *u)
{
	bool v4 = fam == ACL_V4;
	uint32_t src = v4 ? ACL4_SRC : ACL6_SRC;
	uint32_t dst = src + (v4 ? 4 : 16);
	uint32_t sport = v4 ? ACL4_PORTS : ACL6_PORTS;
	unsigned uses = u->what, sw = u->src_words, dw = u->dst_words;

	memset(f, 0, sizeof(*f));
	f->v6 = !v4;
	field_add(f, RTE_ACL_FIELD_TYPE_BITMASK, 1, v4 ? ACL4_PROTO : ACL6_PROTO, 0, 0,
	          true); /* proto, its own input */
	if (sw == 0 && dw == 0 && (uses & (U_PORTS | U_DSCP)) == 0)
		sw = 1;
	for (unsigned w = 0; w < sw; w++)
		field_add(f, RTE_ACL_FIELD_TYPE_MASK, 4, src + 4 * w, U_SRC, (uint8_t)w, true);
	for (unsigned w = 0; w < dw; w++)
		field_add(f, RTE_ACL_FIELD_TYPE_MASK, 4, dst + 4 * w, U_DST, (uint8_t)w, true);
	if (uses & U_PORTS) {
		field_add(f, RTE_ACL_FIELD_TYPE_RANGE, 2, sport, U_PORTS, 0, true);
		field_add(f, RTE_ACL_FIELD_TYPE_RANGE, 2, sport + 2, U_PORTS, 1, false);
	}
	if (uses & U_DSCP) /* the header's first word, whose bits of DSCP rules look at */
		for (unsigned b = 0; b < 4; b++)
			field_add(f, RTE_ACL_FIELD_TYPE_BITMASK, 1, b, U_DSCP, (uint8_t)b, b == 0);
}

/* Add what rule r needs of a context's fields to u. */
static void rule_uses(const struct acl_rule *r, struct uses *u)
{
	u->what |= (r->l4 ? U_PORTS : 0u) | (r->dscp >= 0 ? U_DSCP : 0u);
	if (r->src.family)
		u->src_words = RTE_MAX(u->src_words, (r->src.len + 31u) / 32u);
	if (r->dst.family)
		u->dst_words = RTE_MAX(u->dst_words, (r->dst.len + 31u) / 32u);
}

bool acl_rule_in_class(const struct acl_rule *r, int cls)
{
	if (!acl_rule_in_family(r, (cls & 1) == ACL_V4 ? AF_INET : AF_INET6))
		return false;
	/* a non-first fragment: rules without ports or ICMP type; the others
	 * never meet one: rules that are only for fragments */
	return cls & ACL_FRAG ? !r->l4 : !r->fragment;
}

/* Big enough for either family. */
RTE_ACL_RULE_DEF(acl_rule_any, RTE_ACL_MAX_FIELDS);

static void bits8(struct rte_acl_field *f, int16_t v, uint8_t mask)
{
	f->value.u8 = v < 0 ? 0 : (uint8_t)v;
	f->mask_range.u8 = v < 0 ? 0 : mask;
}

/* Byte b of the header's first word for a rule on dscp (-1: any): IPv4's
 * second byte is DSCP << 2 | ECN; IPv6's first two bytes are version <<
 * 4 | DSCP >> 2, then (DSCP & 3) << 6 | ECN << 4 | flow label. */
static void dscp_byte(struct rte_acl_field *f, int16_t dscp, bool v6, unsigned b)
{
	if (dscp < 0 || b > 1 || (!v6 && b == 0))
		bits8(f, -1, 0);
	else if (!v6)
		bits8(f, (int16_t)(dscp << 2), 0xfc);
	else if (b == 0)
		bits8(f, dscp >> 2, 0x0f);
	else
		bits8(f, (int16_t)((dscp & 3) << 6), 0xc0);
}

/* Word w (host order, as rte_acl wants rules) of prefix p, and its length in that word. */
static void prefix_word(struct rte_acl_field *f, const struct fwd_prefix *p, unsigned w)
{
	int len = p->family == 0 ? 0 : (int)p->len - 32 * (int)w;
	uint32_t v;

	len = len < 0 ? 0 : len > 32 ? 32 : len;
	if (p->family == AF_INET)
		v = p->v4;
	else
		v = (uint32_t)p->v6[4 * w] << 24 | (uint32_t)p->v6[4 * w + 1] << 16 |
		    (uint32_t)p->v6[4 * w + 2] << 8 | p->v6[4 * w + 3];
	f->value.u32 = len == 0 ? 0 : v;
	f->mask_range.u32 = (uint32_t)len;
}

/* Port or ICMP range j (0: source port or type, 1: destination port or code). */
static void range(struct rte_acl_field *f, const struct acl_rule *r, unsigned j)
{
	bool icmp = r->proto == IPPROTO_ICMP || r->proto == IPPROTO_ICMPV6;
	int16_t t = j == 0 ? r->icmp_type : r->icmp_code;

	f->value.u16 = icmp ? (uint16_t)(t < 0 ? 0 : t) : j == 0 ? r->sport_lo : r->dport_lo;
	f->mask_range.u16 = icmp     ? (uint16_t)(t < 0 ? UINT16_MAX : t)
	                    : j == 0 ? r->sport_hi
	                             : r->dport_hi;
}

static void rule_fields(struct acl_rule_any *out, const struct fields *f, const struct acl_rule *r,
                        uint32_t pos, uint32_t n_rules)
{
	memset(out, 0, sizeof(*out));
	out->data.category_mask = 1;
	out->data.priority = (int32_t)(n_rules - pos); /* the first rule wins */
	out->data.userdata = pos + 1;
	for (unsigned i = 0; i < f->n; i++) {
		struct rte_acl_field *x = &out->field[i];

		if (f->what[i] == 0)
			bits8(x, r->proto, 0xff);
		else if (f->what[i] == U_SRC)
			prefix_word(x, &r->src, f->word[i]);
		else if (f->what[i] == U_DST)
			prefix_word(x, &r->dst, f->word[i]);
		else if (f->what[i] == U_PORTS)
			range(x, r, f->word[i]);
		else
			dscp_byte(x, r->dscp, f->v6, f->word[i]);
	}
}

static struct rte_acl_ctx *ctx_new(unsigned n_fields, uint32_t max_rules)
{
	static unsigned seq; /* rte_acl_create returns an existing context of the same name */
	char name[RTE_ACL_NAMESIZE];
	struct rte_acl_param prm = {
		.name = name,
		.socket_id = SOCKET_ID_ANY,
		.rule_size = RTE_ACL_RULE_SZ(n_fields),
		.max_rule_num = max_rules,
	};

	snprintf(name, sizeof(name), "fwd_acl%u", seq++);
	return rte_acl_create(&prm);
}

/* Add the rules of class cls and build; *ctx stays NULL when there is none. */
static int build_class(struct acl_set *s, const struct acl_rule *rules, int cls,
                       struct rte_acl_ctx **ctx)
{
	struct rte_acl_config cfg = { .num_categories = 1 };
	struct acl_rule_any one;
	struct fields f;
	struct uses u = { 0, 0, 0 };
	uint32_t n = 0;
	int rc = 0;

	for (uint32_t i = 0; i < s->n_rules; i++)
		if (acl_rule_in_class(&rules[i], cls)) {
			n++;
			rule_uses(&rules[i], &u);
		}
	*ctx = NULL;
	if (n == 0)
		return 0;
	if (cls & ACL_FRAG) /* no rule on ports is in it */
		u.what &= ~(unsigned)U_PORTS;
	fields_for(&f, cls & 1, &u);
	*ctx = ctx_new(f.n, n);
	if (*ctx == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->n_rules && rc == 0; i++) {
		if (!acl_rule_in_class(&rules[i], cls))
			continue;
		rule_fields(&one, &f, &rules[i], i, s->n_rules);
		rc = rte_acl_add_rules(*ctx, (const struct rte_acl_rule *)&one, 1);
	}
	cfg.num_fields = f.n;
	memcpy(cfg.defs, f.def, f.n * sizeof(cfg.defs[0]));
	return rc != 0 ? rc : rte_acl_build(*ctx, &cfg);
}

static int set_alloc(struct acl_set *s, const struct fwd_conf_acl *conf)
{
	static uint32_t ids; /* control thread (and tests) only */
	size_t n = conf->n_rules + 1u;

	s->id = ++ids;
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
	/* the workers there are (created before the modules start) and the
	 * control thread's column */
	for (unsigned w = 0; w <= FWD_MAX_WORKERS; w++) {
		if (w >= fwd.n_workers && w != FWD_MAX_WORKERS)
			continue;
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
	int rc = 0;

	if (s == NULL || set_alloc(s, conf) < 0) {
		snprintf(err, errlen, "acl %s: out of memory", conf->name);
		goto fail;
	}
	rules = parse_all(s, conf, err, errlen);
	if (rules == NULL)
		goto fail;
	for (int cls = 0; cls < ACL_CLASSES && rc == 0; cls++)
		rc = build_class(s, rules, cls, &s->ctx[cls]);
	if (rc != 0) {
		snprintf(err, errlen, "acl %s: rte_acl: %s", conf->name, strerror(-rc));
		goto fail;
	}
	s->pre = acl_pre_build(rules, s->n_rules);
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
	for (int cls = 0; cls < ACL_CLASSES; cls++)
		rte_acl_free(s->ctx[cls]);
	acl_pre_free(s->pre);
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

void acl_set_classify(const struct acl_set *s, int cls, const uint8_t **keys, uint32_t *res,
                      unsigned n)
{
	if (s->ctx[cls] == NULL || rte_acl_classify(s->ctx[cls], keys, res, n, 1) != 0)
		memset(res, 0, n * sizeof(*res));
}

struct acl_hits acl_set_hits(const struct acl_set *s, uint32_t i)
{
	struct acl_hits h = { 0, 0 };

	for (unsigned w = 0; w <= FWD_MAX_WORKERS; w++) {
		if (s->hits[w] == NULL)
			continue;
		h.pkts += s->hits[w][i].pkts;
		h.bytes += s->hits[w][i].bytes;
	}
	h.pkts -= s->base[i].pkts;
	h.bytes -= s->base[i].bytes;
	return h;
}
