/* SPDX-License-Identifier: BSD-3-Clause */
/* Routes of either family: parsed once, then handed to ip4/route.h or ip6/route6.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/rpc.h"
#include "ip4/ip4.h"
#include "ip4/route.h"
#include "ip6/ip6.h"
#include "ip6/route6.h"
#include "l3/l3.h"
#include "port/port.h"

#define ERR(code, ...) (snprintf(err, errlen, __VA_ARGS__), -(code))

static l3_route_removed_fn removed_hook;

void l3_route_set_removed_hook(l3_route_removed_fn fn)
{
	removed_hook = fn;
}

int l3_route_origin(const struct fwd_prefix *p)
{
	if (p->family == AF_INET) {
		struct rib4_node *n = rib4_find(&ip4_rib, p->v4, p->len);
		if (n != NULL && (n->src & RIB4_SRC_ROUTE))
			return n->route.origin;
		return n != NULL && (n->src & RIB4_SRC_LOCAL) ? FWD_ORIGIN_ADDRESS : -ENOENT;
	}
	struct rib6_node *n = rib6_find(&ip6_rib, p->v6, p->len);
	if (n != NULL && (n->src & RIB6_SRC_ROUTE))
		return n->route.origin;
	return n != NULL && (n->src & RIB6_SRC_LOCAL) ? FWD_ORIGIN_ADDRESS : -ENOENT;
}

static int route_add(const struct l3_route *r, char *err, size_t errlen);

/* fwd's own routes win over a routing daemon's on the same prefix: they
 * replace one without being asked to, and the hook hears it went. */
int l3_route_add(const struct l3_route *r, char *err, size_t errlen)
{
	int old = l3_route_origin(&r->prefix), rc;
	bool over_fpm = old >= 0 && fwd_origin_is_fpm((enum fwd_origin)old) &&
	                !fwd_origin_is_fpm((enum fwd_origin)r->origin);
	struct l3_route q = *r;

	q.replace = r->replace || over_fpm;
	rc = route_add(&q, err, errlen);
	if (rc >= 0 && over_fpm && removed_hook != NULL)
		removed_hook(&r->prefix, (uint8_t)old);
	return rc;
}

int l3_family_check(struct fwd_rpc_call *call, uint32_t filter)
{
	if (filter == 0 || filter == 4 || filter == 6)
		return 0;
	return fwd_rpc_error(call, EINVAL, "bad address family: %u (0, 4 or 6)", filter);
}

int l3_route_parse_line(const char *line, struct l3_route *r, char *err, size_t errlen)
{
	char copy[256], *tok[6], *save = NULL;
	struct fwd_port *p;
	unsigned n = 0;

	if (strlen(line) >= sizeof(copy))
		return ERR(EINVAL, "line too long");
	snprintf(copy, sizeof(copy), "%s", line);
	char *hash = strchr(copy, '#');
	if (hash != NULL)
		*hash = '\0';
	for (char *t = strtok_r(copy, " \t\r\n", &save); t != NULL;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == RTE_DIM(tok))
			return ERR(EINVAL, "too many words");
		tok[n++] = t;
	}
	if (n == 0)
		return 1;
	memset(r, 0, sizeof(*r));
	r->nh[0].dev = -1;
	if (fwd_prefix_parse(tok[0], &r->prefix, false) < 0)
		return ERR(EINVAL, "bad prefix: %s", tok[0]);
	if (n == 2 && strcmp(tok[1], "blackhole") == 0) {
		r->type = L3_ROUTE_BLACKHOLE;
		return 0;
	}
	if ((n != 3 && n != 5) || strcmp(tok[1], "via") != 0 ||
	    (n == 5 && strcmp(tok[3], "dev") != 0))
		return ERR(EINVAL,
		           "expected \"PREFIX via ADDRESS [dev PORT]\" or \"PREFIX blackhole\"");
	r->type = L3_ROUTE_VIA;
	r->n_nh = 1;
	if (fwd_ip_parse(tok[2], &r->nh[0].via) < 0)
		return ERR(EINVAL, "bad gateway address: %s", tok[2]);
	if (n == 5 && (p = fwd_port_by_name(tok[4])) == NULL)
		return ERR(ENODEV, "no such port: %s", tok[4]);
	if (n == 5)
		r->nh[0].dev = p->idx;
	return 0;
}

static int route_add(const struct l3_route *r, char *err, size_t errlen)
{
	bool blackhole = r->type == L3_ROUTE_BLACKHOLE;

	if (r->type != L3_ROUTE_VIA && !blackhole)
		return ERR(EOPNOTSUPP, "unreachable and prohibit routes are not supported yet");
	if (!blackhole && r->n_nh != 1)
		return ERR(EOPNOTSUPP, "ECMP routes are not supported yet");
	if (!blackhole && r->nh[0].via.family != r->prefix.family)
		return ERR(EINVAL, "an IPv%c route needs an IPv%c gateway",
		           r->prefix.family == AF_INET ? '4' : '6',
		           r->prefix.family == AF_INET ? '4' : '6');
	if (r->prefix.family == AF_INET) {
		struct route4_req q = { fwd_prefix_v4(&r->prefix),
			                blackhole,
			                r->nh[0].via.v4,
			                r->nh[0].dev,
			                r->origin,
			                r->replace };
		return route4_add(&q, err, errlen);
	}
	struct route6_req q = { .prefix = fwd_prefix_v6(&r->prefix),
		                .blackhole = blackhole,
		                .dev = r->nh[0].dev,
		                .origin = r->origin,
		                .replace = r->replace };
	memcpy(q.via, r->nh[0].via.v6, 16);
	return route6_add(&q, err, errlen);
}

static int route_del(const struct fwd_prefix *p, char *err, size_t errlen)
{
	if (p->family == AF_INET) {
		struct fwd_ip4_prefix p4 = fwd_prefix_v4(p);
		return route4_del(&p4, err, errlen);
	}
	struct fwd_ip6_prefix p6 = fwd_prefix_v6(p);
	return route6_del(&p6, err, errlen);
}

int l3_route_del(const struct fwd_prefix *p, char *err, size_t errlen)
{
	int old = l3_route_origin(p), rc = route_del(p, err, errlen);

	if (rc == 0 && old >= 0 && removed_hook != NULL)
		removed_hook(p, (uint8_t)old);
	return rc;
}
