/* SPDX-License-Identifier: BSD-3-Clause */
/* Routes of either family: parsed once, then handed to the route core
 * (route/route_core.h) with their family's ops (ip4/route.h, ip6/route6.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/err.h"
#include "core/event.h"
#include "core/iface.h"
#include "core/rpc.h"
#include "core/vrf.h"
#include "ip4/ip4.h"
#include "ip4/route.h"
#include "ip6/ip6.h"
#include "ip6/route6.h"
#include "l3/l3.h"
#include "nexthop/nexthop.h"
#include "port/port.h"
#include "route/route_core.h"

static l3_route_removed_fn removed_hook;

void l3_route_set_removed_hook(l3_route_removed_fn fn)
{
	removed_hook = fn;
}

int l3_route_origin(uint16_t vrf, const struct fwd_prefix *p)
{
	if (!fwd_vrf_used(vrf))
		return -ENOENT;
	if (p->family == AF_INET) {
		struct rib4_node *n = rib4_find(&ip4_ribs[vrf], p->v4, p->len);
		if (n != NULL && (n->src & RIB4_SRC_ROUTE))
			return n->route.origin;
		return n != NULL && (n->src & RIB4_SRC_LOCAL) ? FWD_ORIGIN_ADDRESS : -ENOENT;
	}
	struct rib6_node *n = rib6_find(&ip6_ribs[vrf], p->v6, p->len);
	if (n != NULL && (n->src & RIB6_SRC_ROUTE))
		return n->route.origin;
	return n != NULL && (n->src & RIB6_SRC_LOCAL) ? FWD_ORIGIN_ADDRESS : -ENOENT;
}

static int route_add(const struct l3_route *r, char *err, size_t errlen);

static const char *const special_words[] = {
	[L3_ROUTE_BLACKHOLE] = "blackhole",
	[L3_ROUTE_UNREACHABLE] = "unreachable",
	[L3_ROUTE_PROHIBIT] = "prohibit",
};

/* The gateways of r, comma separated (as many as fit), or its type. */
static void via_text(const struct l3_route *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (r->type != L3_ROUTE_VIA) {
		snprintf(buf, len, "%s", special_words[r->type]);
		return;
	}
	for (unsigned i = 0; i < r->n_nh && r->nh[i].via.family != 0 && off < len; i++) {
		char a[FWD_IP_STRLEN];
		int n = snprintf(buf + off, len - off, "%s%s", i ? "," : "",
		                 fwd_ip_fmt(&r->nh[i].via, a));
		off += n > 0 ? (size_t)n : 0;
	}
}

/* `fwdctl monitor route`: r (NULL for a deletion) on prefix p. */
static void route_event(const char *action, uint16_t vrf, const struct fwd_prefix *p,
                        const struct l3_route *r, int origin)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_ROUTE, action);

	if (e == NULL)
		return;
	fwd_prefix_fmt(p, e->prefix);
	if (vrf != FWD_VRF_DEFAULT) /* "": the default VRF's, as before VRFs */
		snprintf(e->vrf, sizeof(e->vrf), "%s", fwd_vrf_name(vrf));
	if (origin >= 0)
		snprintf(e->origin, sizeof(e->origin), "%s",
		         fwd_origin_name((enum fwd_origin)origin));
	if (r == NULL)
		return;
	via_text(r, e->text, sizeof(e->text));
	if (r->type == L3_ROUTE_VIA && r->n_nh > 0 && r->nh[0].dev >= 0)
		snprintf(e->port, sizeof(e->port), "%s", fwd_iface_name((unsigned)r->nh[0].dev));
}

/* fwd's own routes win over a routing daemon's on the same prefix: they
 * replace one without being asked to, and the hook hears it went. */
int l3_route_add(const struct l3_route *r, char *err, size_t errlen)
{
	int old = l3_route_origin(r->vrf, &r->prefix), rc;
	bool over_fpm = old >= 0 && fwd_origin_is_fpm((enum fwd_origin)old) &&
	                !fwd_origin_is_fpm((enum fwd_origin)r->origin);
	struct l3_route q = *r;

	q.replace = r->replace || over_fpm;
	rc = route_add(&q, err, errlen);
	if (rc >= 0)
		route_event(rc == 1 || old >= 0 ? "replace" : "add", r->vrf, &r->prefix, r,
		            r->origin);
	if (rc >= 0 && over_fpm && removed_hook != NULL)
		removed_hook(r->vrf, &r->prefix, (uint8_t)old);
	return rc;
}

int l3_family_check(struct fwd_rpc_call *call, uint32_t filter)
{
	if (filter == 0 || filter == 4 || filter == 6)
		return 0;
	return fwd_rpc_error(call, EINVAL, "bad address family: %u (0, 4 or 6)", filter);
}

int l3_route_type_parse(const char *word)
{
	for (unsigned t = L3_ROUTE_BLACKHOLE; t < RTE_DIM(special_words); t++)
		if (strcmp(word, special_words[t]) == 0)
			return (int)t;
	return -1;
}

int l3_iface_id(const char *name)
{
	int id = fwd_iface_id_by_name(name);

	return id >= 0 && !fwd_iface_is_loopback((unsigned)id) ? id : -1;
}

int l3_route_parse_words(char **tok, unsigned n, struct l3_route *r, char *err, size_t errlen)
{
	int t;

	memset(r, 0, sizeof(*r));
	if (n == 0 || fwd_prefix_parse(tok[0], &r->prefix, false) < 0)
		return ERR(EINVAL, "bad prefix: %s", n > 0 ? tok[0] : "");
	if (n == 2 && (t = l3_route_type_parse(tok[1])) >= 0) {
		r->type = (uint8_t)t;
		return 0;
	}
	if (n == 3 && strcmp(tok[1], "next_vrf") == 0) {
		if ((t = fwd_vrf_by_name(tok[2])) < 0)
			return ERR(ENOENT, "no such VRF: %s", tok[2]);
		r->type = L3_ROUTE_NEXT_VRF;
		r->next_vrf = (uint16_t)t;
		return 0;
	}
	r->type = L3_ROUTE_VIA;
	for (unsigned i = 1; i < n;) {
		struct l3_nh *h = &r->nh[r->n_nh];
		if (strcmp(tok[i], "via") == 0 && i + 1 < n) {
			if (r->n_nh == FWD_ECMP_MAX)
				return ERR(EINVAL, "more than %u gateways", FWD_ECMP_MAX);
			h->dev = -1;
			if (fwd_ip_parse(tok[i + 1], &h->via) < 0)
				return ERR(EINVAL, "bad gateway address: %s", tok[i + 1]);
			r->n_nh++;
			i += 2;
		} else if (strcmp(tok[i], "dev") == 0 && i + 1 < n) {
			/* "dev" names the interface of the gateway before it, or alone a link */
			if (r->n_nh == 0) {
				h->dev = -1;
				r->n_nh = 1;
			} else {
				h = &r->nh[r->n_nh - 1];
			}
			if (h->dev >= 0)
				return ERR(EINVAL, "dev given twice");
			if ((h->dev = l3_iface_id(tok[i + 1])) < 0)
				return ERR(ENODEV, "no such port or VLAN interface: %s",
				           tok[i + 1]);
			i += 2;
		} else {
			return ERR(EINVAL,
			           "expected \"PREFIX via ADDRESS [dev IFACE] [via ADDRESS [dev "
			           "IFACE]]...\", \"PREFIX dev IFACE\", \"PREFIX "
			           "blackhole|unreachable|prohibit\" or \"PREFIX next_vrf VRF\"");
		}
	}
	if (r->n_nh == 0)
		return ERR(EINVAL, "a route needs a gateway (via), an interface (dev) or a type");
	return 0;
}

int l3_route_parse_line(const char *line, struct l3_route *r, char *err, size_t errlen)
{
	char copy[1024], *tok[2 + 4 * FWD_ECMP_MAX], *save = NULL;
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
	return l3_route_parse_words(tok, n, r, err, errlen);
}

void l3_route_from_rib(struct l3_route *r, uint8_t type, uint8_t origin, uint16_t dev, uint32_t nh)
{
	static const uint8_t types[] = { [ROUTE4_CONNECTED] = L3_ROUTE_VIA,
		                         [ROUTE4_VIA] = L3_ROUTE_VIA,
		                         [ROUTE4_BLACKHOLE] = L3_ROUTE_BLACKHOLE,
		                         [ROUTE4_UNREACHABLE] = L3_ROUTE_UNREACHABLE,
		                         [ROUTE4_PROHIBIT] = L3_ROUTE_PROHIBIT,
		                         [ROUTE4_DEV] = L3_ROUTE_VIA,
		                         [ROUTE_NEXT_VRF] = L3_ROUTE_NEXT_VRF };
	uint32_t m[FWD_ECMP_MAX];
	unsigned n;

	r->type = type < RTE_DIM(types) ? types[type] : L3_ROUTE_BLACKHOLE;
	r->origin = origin;
	r->n_nh = 0;
	if (type == ROUTE_NEXT_VRF) {
		r->type = L3_ROUTE_NEXT_VRF;
		r->next_vrf = nh_table[nh].vrf;
		return;
	}
	if (type == ROUTE4_CONNECTED || type == ROUTE4_DEV) {
		r->nh[0] = (struct l3_nh){ .dev = dev };
		r->n_nh = 1;
		return;
	}
	if (type != ROUTE4_VIA)
		return;
	if ((n = nh_group_members(nh, m)) == 0) {
		r->nh[0] = (struct l3_nh){ *nh_addr(nh), dev == ROUTE4_DEV_ANY ? -1 : dev };
		r->n_nh = 1;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		r->nh[i] = (struct l3_nh){ *nh_addr(m[i]), nh_table[m[i]].iface };
	r->n_nh = n;
}

bool l3_route_same(const struct l3_route *r, uint8_t type, uint8_t origin, uint16_t dev,
                   uint32_t nh, int (*gateway_port)(uint16_t vrf, const struct fwd_ip *a, int dev))
{
	struct l3_route have;

	l3_route_from_rib(&have, type, origin, dev, nh);
	if (have.type != r->type || have.origin != r->origin || have.n_nh != r->n_nh ||
	    (r->type == L3_ROUTE_NEXT_VRF && dev != r->next_vrf))
		return false;
	if (r->type != L3_ROUTE_VIA)
		return true;
	if ((type == ROUTE4_DEV) != (r->nh[0].via.family == 0))
		return false;
	if (type == ROUTE4_DEV || r->n_nh == 1) {
		int port =
		        type == ROUTE4_DEV ? 0 : gateway_port(r->vrf, &r->nh[0].via, r->nh[0].dev);
		return have.nh[0].dev == r->nh[0].dev && port >= 0 &&
		       (type == ROUTE4_DEV || (fwd_ip_eq(&have.nh[0].via, &r->nh[0].via) &&
		                               nh_table[nh].iface == (unsigned)port));
	}
	/* a group: the same gateways, each on the port it would take now */
	for (unsigned i = 0; i < r->n_nh; i++) {
		int port = gateway_port(r->vrf, &r->nh[i].via, r->nh[i].dev);
		bool found = false;
		for (unsigned j = 0; j < have.n_nh && !found; j++)
			found = fwd_ip_eq(&have.nh[j].via, &r->nh[i].via) && have.nh[j].dev == port;
		if (!found)
			return false;
	}
	return true;
}

/* Check r's next hops against its family; the route type of the family. */
static int route_check(const struct l3_route *r, uint8_t *type, char *err, size_t errlen)
{
	_Static_assert((int)ROUTE4_BLACKHOLE == (int)ROUTE6_BLACKHOLE &&
	                       (int)ROUTE4_DEV == (int)ROUTE6_DEV &&
	                       (int)ROUTE4_UNREACHABLE == (int)ROUTE6_UNREACHABLE &&
	                       (int)ROUTE4_PROHIBIT == (int)ROUTE6_PROHIBIT &&
	                       (int)ROUTE4_VIA == (int)ROUTE6_VIA,
	               "route types");
	static const uint8_t types[] = { [L3_ROUTE_VIA] = ROUTE4_VIA,
		                         [L3_ROUTE_BLACKHOLE] = ROUTE4_BLACKHOLE,
		                         [L3_ROUTE_UNREACHABLE] = ROUTE4_UNREACHABLE,
		                         [L3_ROUTE_PROHIBIT] = ROUTE4_PROHIBIT,
		                         [L3_ROUTE_NEXT_VRF] = ROUTE_NEXT_VRF };
	char v = r->prefix.family == AF_INET ? '4' : '6';

	if (r->type >= RTE_DIM(types))
		return ERR(EINVAL, "bad route type %u", r->type);
	if (!fwd_vrf_used(r->vrf))
		return ERR(ENODEV, "no such VRF (id %u)", r->vrf);
	if (r->type == L3_ROUTE_NEXT_VRF &&
	    (r->n_nh != 0 || !fwd_vrf_used(r->next_vrf) || r->next_vrf == r->vrf))
		return ERR(EINVAL, "next_vrf: another VRF, and no gateway or interface");
	*type = types[r->type];
	if (r->type != L3_ROUTE_VIA)
		return 0;
	if (r->n_nh == 0 || r->n_nh > FWD_ECMP_MAX)
		return ERR(EINVAL, "a route has 1 to %u next hops", FWD_ECMP_MAX);
	if (r->n_nh == 1 && r->nh[0].via.family == 0) {
		*type = ROUTE4_DEV;
		return 0;
	}
	for (unsigned i = 0; i < r->n_nh; i++)
		if (r->nh[i].via.family != r->prefix.family)
			return ERR(EINVAL, "an IPv%c route needs IPv%c gateways", v, v);
	return 0;
}

static const struct route_family_ops *family_ops(int family)
{
	return family == AF_INET ? &route4_ops : &route6_ops;
}

static int route_add(const struct l3_route *r, char *err, size_t errlen)
{
	uint8_t type = 0;
	int rc = route_check(r, &type, err, errlen);
	struct route_req q = { .vrf = r->vrf,
		               .next_vrf = r->next_vrf,
		               .prefix = r->prefix,
		               .type = type,
		               .n_via = type == ROUTE_VIA ? r->n_nh : 0,
		               .origin = r->origin,
		               .replace = r->replace };

	if (rc < 0)
		return rc;
	q.dev[0] = r->n_nh > 0 ? r->nh[0].dev : -1;
	for (unsigned i = 0; i < q.n_via; i++) {
		q.via[i] = r->nh[i].via;
		q.dev[i] = r->nh[i].dev;
	}
	return route_core_add(family_ops(r->prefix.family), &q, err, errlen);
}

static int route_del(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen)
{
	if (!fwd_vrf_used(vrf))
		return ERR(ENODEV, "no such VRF (id %u)", vrf);
	return route_core_del(family_ops(p->family), vrf, p, err, errlen);
}

int l3_route_del(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen)
{
	int old = l3_route_origin(vrf, p), rc = route_del(vrf, p, err, errlen);

	if (rc == 0)
		route_event("del", vrf, p, NULL, old);

	if (rc == 0 && old >= 0 && removed_hook != NULL)
		removed_hook(vrf, p, (uint8_t)old);
	return rc;
}
