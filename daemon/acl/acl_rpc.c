/* SPDX-License-Identifier: BSD-3-Clause */
/* RPC: acl list, acl show NAME (its rules with their hits, paged). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "core/rpc.h"
#include "fwd_inet.h"

#define RULE_PAGE 4096 /* rules a page: well below the 1 MiB frame */

static const char *const action_name[] = { "deny", "permit", "reject" };

static const char *prefix_str(struct fwd_rpc_call *call, const struct fwd_prefix *p)
{
	char buf[FWD_PREFIX_STRLEN];

	return p->family == 0 ? "" : fwd_rpc_strdup(call, fwd_prefix_fmt(p, buf));
}

/* Name, default, attachments and totals of s in st. */
static Fwd__AclInfo *acl_info(struct fwd_rpc_call *call, const struct acl_state *st,
                              const struct acl_set *s)
{
	Fwd__AclInfo *a = fwd_rpc_alloc(call, sizeof(*a));
	const struct fwd_iface *ifp;

	fwd__acl_info__init(a);
	a->name = fwd_rpc_strdup(call, s->name);
	a->default_action = (char *)action_name[s->action[0] % 3];
	a->rule_count = s->n_rules;
	a->acl_in = (char **)fwd_rpc_ptr_array(call, fwd_iface_count());
	a->acl_out = (char **)fwd_rpc_ptr_array(call, fwd_iface_count());
	FWD_IFACE_FOREACH(ifp)
	{ /* ports first, then VLANs and loopbacks */
		if (st->in[ifp->id] == s)
			a->acl_in[a->n_acl_in++] = (char *)ifp->name;
		if (st->out[ifp->id] == s)
			a->acl_out[a->n_acl_out++] = (char *)ifp->name;
	}
	a->local = st->local == s;
	for (uint32_t i = 0; i <= s->n_rules; i++) {
		struct acl_hits h = acl_set_hits(s, i);

		a->packets += h.pkts;
		a->bytes += h.bytes;
	}
	return a;
}

static int acl_list(struct fwd_rpc_call *call)
{
	Fwd__AclListResp *r = fwd_rpc_alloc(call, sizeof(*r));
	const struct acl_state *st = acl_state;

	fwd__acl_list_resp__init(r);
	r->acls = (Fwd__AclInfo **)fwd_rpc_ptr_array(call, FWD_MAX_ACLS);
	for (unsigned i = 0; st != NULL && i < st->n_sets; i++)
		r->acls[r->n_acls++] = acl_info(call, st, st->sets[i]);
	call->resp->body_case = FWD__RESPONSE__BODY_ACL_LIST;
	call->resp->acl_list = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ACL_LIST, acl_list, FWD_RPC_READ);

/* Rule i of s (0: the default) with its hits. */
static Fwd__AclRule *rule_msg(struct fwd_rpc_call *call, const struct acl_set *s, uint32_t i)
{
	Fwd__AclRule *m = fwd_rpc_alloc(call, sizeof(*m));
	struct acl_hits h = acl_set_hits(s, i);

	fwd__acl_rule__init(m);
	m->index = i;
	m->action = (char *)action_name[s->action[i] % 3];
	m->packets = h.pkts;
	m->bytes = h.bytes;
	if (i == 0)
		return m;
	const struct fwd_conf_acl_rule *c = &s->conf.rules[i - 1];
	m->src = (char *)prefix_str(call, &c->src);
	m->dst = (char *)prefix_str(call, &c->dst);
	m->proto = fwd_rpc_strdup(call, c->proto);
	m->sport = fwd_rpc_strdup(call, c->sport);
	m->dport = fwd_rpc_strdup(call, c->dport);
	m->icmp_type = fwd_rpc_strdup(call, c->icmp_type);
	m->icmp_code = fwd_rpc_strdup(call, c->icmp_code);
	m->dscp = fwd_rpc_strdup(call, c->dscp);
	m->fragment = c->fragment;
	return m;
}

struct show_cursor {
	char name[FWD_NAME_MAX];
	const void *set; /* compared, never followed: a reload may have freed it */
	uint32_t next;   /* the next rule index to send */
};

static const struct acl_set *show_find(const char *name)
{
	const struct acl_state *st = acl_state;

	for (unsigned i = 0; st != NULL && i < st->n_sets; i++)
		if (strcmp(st->sets[i]->name, name) == 0)
			return st->sets[i];
	return NULL;
}

/* Fill one page; 1 when more follow. */
static int show_page(struct fwd_rpc_call *call)
{
	struct show_cursor *c = call->cursor;
	const struct acl_set *s = show_find(c->name);
	Fwd__AclInfo *a;
	uint32_t end;

	if (s == NULL || (c->set != NULL && s != c->set))
		return fwd_rpc_error(call, EAGAIN, "acl %s changed while it was listed", c->name);
	c->set = s;
	a = acl_info(call, acl_state, s);
	end = RTE_MIN(s->n_rules + 1, c->next + RULE_PAGE);
	a->rules = (Fwd__AclRule **)fwd_rpc_ptr_array(call, end - c->next);
	for (; c->next < end; c->next++)
		a->rules[a->n_rules++] = rule_msg(call, s, c->next);
	call->resp->body_case = FWD__RESPONSE__BODY_ACL;
	call->resp->acl = a;
	return c->next <= s->n_rules;
}

static int acl_show(struct fwd_rpc_call *call)
{
	const char *name = call->req->acl_show->name;
	struct show_cursor *c;
	int rc;

	if (name == NULL || show_find(name) == NULL)
		return fwd_rpc_error(call, ENOENT, "no such acl: %s", name ? name : "");
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	snprintf(c->name, sizeof(c->name), "%s", name);
	call->cursor = c;
	call->cursor_free = free;
	rc = show_page(call);
	if (rc == 1)
		call->next = show_page;
	return rc < 0 ? rc : 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ACL_SHOW, acl_show, FWD_RPC_READ);
