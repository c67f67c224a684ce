/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Semantic checks of a decoded config: single values (called by the walker
 * while decoding) and cross references (after decoding). Every problem is
 * reported at the node it comes from, and checking goes on so that one run
 * shows them all.
 */
#include <errno.h>
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

const char *conf_valid_name(const char *s)
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

	return conf_lcores_parse(s, NULL, 0, &why) < 0 ? why : NULL;
}

const char *conf_valid_metrics(const char *s)
{
	const char *colon = strrchr(s, ':'), *p;
	char host[FWD_IP4_STRLEN];
	unsigned long port = 0;
	uint32_t addr;

	if (s[0] == '\0')
		return NULL; /* off */
	if (colon == NULL || (size_t)(colon - s) >= sizeof(host))
		return "expected A.B.C.D:PORT";
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	for (p = colon + 1; *p >= '0' && *p <= '9' && port <= 65535; p++)
		port = port * 10 + (unsigned long)(*p - '0');
	if (fwd_ip4_parse(host, &addr) < 0 || *p || p == colon + 1 || colon[1] == '0' ||
	    port > 65535)
		return "expected A.B.C.D:PORT with PORT 1..65535";
	return NULL;
}

/* ----------------------------------------------------------- cross checks */

static struct fwd_conf_pos at(const struct conf_ctx *c, const void *field, struct fwd_conf_pos def)
{
	return conf_pos_get(&c->pm, field, def);
}

/* Was this optional field written in the file? (Only written values have a position.) */
static bool given(const struct conf_ctx *c, const void *field)
{
	return conf_pos_get(&c->pm, field, (struct fwd_conf_pos){ 0, 0 }).line != 0;
}

static int port_index(const struct fwd_config *cfg, const char *name)
{
	for (unsigned i = 0; i < cfg->n_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void check_xconnect(struct conf_ctx *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_port *p = &cfg->ports[i], *q;
	struct fwd_conf_pos pos = at(c, p->peer, p->pos);
	int j;

	if (p->mode != FWD_MODE_XCONNECT) {
		if (p->peer[0])
			conf_err(&c->diag, pos,
			         "ports[%u].peer: only xconnect ports have a peer "
			         "(this port's mode is %s)",
			         i, fwd_port_mode_name(p->mode));
		return;
	}
	if (p->peer[0] == '\0') {
		conf_err(&c->diag, p->pos, "ports[%u]: an xconnect port needs a 'peer'", i);
		return;
	}
	j = port_index(cfg, p->peer);
	q = j < 0 ? NULL : &cfg->ports[j];
	if (q == NULL)
		conf_err(&c->diag, pos, "ports[%u].peer: no such port '%s'", i, p->peer);
	else if (q == p)
		conf_err(&c->diag, pos, "ports[%u].peer: a port cannot be its own peer", i);
	else if (q->mode != FWD_MODE_XCONNECT)
		conf_err(&c->diag, pos, "ports[%u].peer: port '%s' is not an xconnect port", i,
		         q->name);
	else if (strcmp(q->peer, p->name) != 0)
		conf_err(&c->diag, pos,
		         "ports[%u].peer: cross-connects must be mutual, but the peer of '%s' is "
		         "'%s'",
		         i, q->name, q->peer[0] ? q->peer : "(none)");
}

static void check_bridge_member(struct conf_ctx *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_port *p = &cfg->ports[i];
	struct fwd_conf_pos pos = at(c, p->bridge, p->pos);

	if (p->mode != FWD_MODE_BRIDGE) {
		if (p->bridge[0])
			conf_err(&c->diag, pos,
			         "ports[%u].bridge: only bridge ports join a bridge "
			         "(this port's mode is %s)",
			         i, fwd_port_mode_name(p->mode));
		return;
	}
	if (p->bridge[0] == '\0')
		conf_err(&c->diag, p->pos, "ports[%u]: a bridge port needs a 'bridge'", i);
	else if (fwd_config_bridge(cfg, p->bridge) == NULL)
		conf_err(&c->diag, pos, "ports[%u].bridge: no such bridge '%s'", i, p->bridge);
}

static const char *addr_problem(const struct fwd_ip4_prefix *a)
{
	uint32_t host = a->addr & ~fwd_ip4_mask(a->len);

	if (a->len == 0)
		return "a /0 address is not usable on an interface";
	if ((a->addr >> 24) == 0 || (a->addr >> 24) == 127 || a->addr >= 0xe0000000)
		return "is not a unicast host address";
	if (a->len <= 30 && host == 0)
		return "is the network address of its subnet";
	if (a->len <= 30 && host == ~fwd_ip4_mask(a->len))
		return "is the broadcast address of its subnet";
	return NULL;
}

/* The port (and index) owning address addr, searching ports before (pi, ai). */
static bool addr_owner(const struct fwd_config *cfg, uint32_t addr, unsigned pi, unsigned ai,
                       unsigned *opi)
{
	for (unsigned i = 0; i <= pi && i < cfg->n_ports; i++)
		for (unsigned k = 0; k < cfg->ports[i].n_addresses; k++) {
			if (i == pi && k == ai)
				return false;
			if (cfg->ports[i].addresses[k].addr == addr) {
				*opi = i;
				return true;
			}
		}
	return false;
}

static void check_addresses(struct conf_ctx *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_port *p = &cfg->ports[i];
	char buf[FWD_PREFIX4_STRLEN];

	if (p->n_addresses && p->mode != FWD_MODE_L3) {
		conf_err(&c->diag, at(c, &p->addresses[0], p->pos),
		         "ports[%u].addresses: only l3 ports have addresses (this port's mode is "
		         "%s)",
		         i, fwd_port_mode_name(p->mode));
		return;
	}
	for (unsigned k = 0; k < p->n_addresses; k++) {
		const struct fwd_ip4_prefix *a = &p->addresses[k];
		struct fwd_conf_pos pos = at(c, a, p->pos);
		const char *why = addr_problem(a);
		unsigned o;

		if (why)
			conf_err(&c->diag, pos, "ports[%u].addresses[%u]: %s %s", i, k,
			         fwd_ip4_prefix_fmt(a, buf), why);
		else if (addr_owner(cfg, a->addr, i, k, &o))
			conf_err(
			        &c->diag, pos,
			        "ports[%u].addresses[%u]: duplicate address %s (also on port '%s')",
			        i, k, fwd_ip4_fmt(a->addr, buf), cfg->ports[o].name);
	}
}

static void check_ports(struct conf_ctx *c, const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];

		for (unsigned j = 0; j < i; j++) {
			if (strcmp(cfg->ports[j].name, p->name) == 0)
				conf_err(&c->diag, at(c, p->name, p->pos),
				         "ports[%u].name: duplicate port name '%s' (first at line "
				         "%u)",
				         i, p->name, cfg->ports[j].pos.line);
			if (strcmp(cfg->ports[j].device, p->device) == 0)
				conf_err(&c->diag, at(c, p->device, p->pos),
				         "ports[%u].device: device '%s' is already used by port "
				         "'%s'",
				         i, p->device, cfg->ports[j].name);
		}
		check_xconnect(c, cfg, i);
		check_bridge_member(c, cfg, i);
		check_addresses(c, cfg, i);
	}
	for (unsigned i = 0; i < cfg->n_bridges; i++)
		for (unsigned j = 0; j < i; j++)
			if (strcmp(cfg->bridges[j].name, cfg->bridges[i].name) == 0)
				conf_err(&c->diag, at(c, cfg->bridges[i].name, cfg->bridges[i].pos),
				         "bridges[%u].name: duplicate bridge name '%s' (first at "
				         "line "
				         "%u)",
				         i, cfg->bridges[i].name, cfg->bridges[j].pos.line);
}

/*
 * Where addr lives from this router's view: 1 on a connected subnet of an
 * l3 port (only port `only` when >= 0), 2 when it is one of our own
 * addresses, 0 elsewhere. *pi names the port.
 */
static int locate(const struct fwd_config *cfg, uint32_t addr, int only, unsigned *pi)
{
	int found = 0;

	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];

		if (p->mode != FWD_MODE_L3 || (only >= 0 && (unsigned)only != i))
			continue;
		for (unsigned k = 0; k < p->n_addresses; k++) {
			if (p->addresses[k].addr == addr) {
				*pi = i;
				return 2;
			}
			if (!found && fwd_ip4_in_prefix(addr, &p->addresses[k])) {
				*pi = i;
				found = 1;
			}
		}
	}
	return found;
}

/* The l3 port named by name for field path, or -1 once reported. */
static int l3_port(struct conf_ctx *c, const struct fwd_config *cfg, const char *name,
                   struct fwd_conf_pos pos, const char *path)
{
	int i = port_index(cfg, name);

	if (i < 0)
		conf_err(&c->diag, pos, "%s: no such port '%s'", path, name);
	else if (cfg->ports[i].mode != FWD_MODE_L3)
		conf_err(&c->diag, pos, "%s: port '%s' is not an l3 port (its mode is %s)", path,
		         name, fwd_port_mode_name(cfg->ports[i].mode));
	else
		return i;
	return -1;
}

/* An address (next hop, neighbour) that must be on a connected subnet. */
static void check_onlink(struct conf_ctx *c, const struct fwd_config *cfg, uint32_t addr, int dev,
                         struct fwd_conf_pos pos, const char *path)
{
	char buf[FWD_IP4_STRLEN];
	unsigned pi = 0;
	int where = locate(cfg, addr, dev, &pi);

	if (where == 2)
		conf_err(&c->diag, pos, "%s: %s is this router's own address (on port '%s')", path,
		         fwd_ip4_fmt(addr, buf), cfg->ports[pi].name);
	else if (where == 0 && dev >= 0)
		conf_err(&c->diag, pos, "%s: %s is not inside a connected subnet of port '%s'",
		         path, fwd_ip4_fmt(addr, buf), cfg->ports[dev].name);
	else if (where == 0)
		conf_err(&c->diag, pos, "%s: %s is not inside a connected subnet of any l3 port",
		         path, fwd_ip4_fmt(addr, buf));
}

static void check_route(struct conf_ctx *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_route *r = &cfg->routes[i];
	char path[48];
	int dev = -1;

	if (r->blackhole) {
		if (given(c, &r->via))
			conf_err(&c->diag, at(c, &r->via, r->pos),
			         "routes[%u].via: a blackhole route has no next hop", i);
		if (r->dev[0])
			conf_err(&c->diag, at(c, r->dev, r->pos),
			         "routes[%u].dev: a blackhole route has no egress port", i);
		return;
	}
	if (!given(c, &r->via)) {
		conf_err(&c->diag, r->pos, "routes[%u]: missing 'via' (or 'blackhole: true')", i);
		return;
	}
	snprintf(path, sizeof(path), "routes[%u].dev", i);
	if (r->dev[0]) {
		dev = l3_port(c, cfg, r->dev, at(c, r->dev, r->pos), path);
		if (dev < 0)
			return;
	}
	snprintf(path, sizeof(path), "routes[%u].via", i);
	check_onlink(c, cfg, r->via, dev, at(c, &r->via, r->pos), path);
}

static int route_cmp(const void *a, const void *b)
{
	const struct fwd_conf_route *x = *(const struct fwd_conf_route *const *)a;
	const struct fwd_conf_route *y = *(const struct fwd_conf_route *const *)b;

	if (x->prefix.addr != y->prefix.addr)
		return x->prefix.addr < y->prefix.addr ? -1 : 1;
	if (x->prefix.len != y->prefix.len)
		return x->prefix.len < y->prefix.len ? -1 : 1;
	return x < y ? -1 : x > y; /* stable: the first written sorts first */
}

/* Duplicates by sorting: a config may carry tens of thousands of routes. */
static int check_route_dups(struct conf_ctx *c, const struct fwd_config *cfg)
{
	const struct fwd_conf_route **v = calloc(cfg->n_routes ? cfg->n_routes : 1, sizeof(*v));
	char buf[FWD_PREFIX4_STRLEN];

	if (v == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i < cfg->n_routes; i++)
		v[i] = &cfg->routes[i];
	qsort(v, cfg->n_routes, sizeof(*v), route_cmp);
	for (unsigned i = 1, first = 0; i < cfg->n_routes && !conf_diag_full(&c->diag); i++) {
		const struct fwd_conf_route *r = v[i], *f = v[first];

		if (r->prefix.addr != f->prefix.addr || r->prefix.len != f->prefix.len) {
			first = i;
			continue;
		}
		conf_err(&c->diag, at(c, &r->prefix, r->pos),
		         "routes[%u].prefix: duplicate route for %s (first at line %u)",
		         (unsigned)(r - cfg->routes), fwd_ip4_prefix_fmt(&r->prefix, buf),
		         f->pos.line);
	}
	free(v);
	return 0;
}

static void check_neigh(struct conf_ctx *c, const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_neigh *n = &cfg->neighs[i];
	char path[48], buf[FWD_MAC_STRLEN];
	int pi;

	snprintf(path, sizeof(path), "neighbors[%u].port", i);
	pi = l3_port(c, cfg, n->port, at(c, n->port, n->pos), path);
	snprintf(path, sizeof(path), "neighbors[%u].address", i);
	if (pi >= 0)
		check_onlink(c, cfg, n->address, pi, at(c, &n->address, n->pos), path);
	if ((n->mac[0] & 1) || memcmp(n->mac, "\0\0\0\0\0\0", 6) == 0)
		conf_err(&c->diag, at(c, n->mac, n->pos),
		         "neighbors[%u].mac: %s is not a unicast MAC address", i,
		         fwd_mac_fmt(n->mac, buf));
	for (unsigned j = 0; j < i; j++)
		if (cfg->neighs[j].address == n->address &&
		    strcmp(cfg->neighs[j].port, n->port) == 0)
			conf_err(
			        &c->diag, at(c, &n->address, n->pos),
			        "neighbors[%u]: duplicate neighbour %s on port '%s' (first at line "
			        "%u)",
			        i, fwd_ip4_fmt(n->address, buf), n->port, cfg->neighs[j].pos.line);
}

void conf_derive(struct conf_ctx *c, struct fwd_config *cfg)
{
	uint32_t half = cfg->dataplane.nexthops / 2;

	/* the default leaves half the next hops at least to routes' gateways */
	if (!given(c, &cfg->dataplane.neigh_max) && cfg->dataplane.neigh_max > half)
		cfg->dataplane.neigh_max = half;
}

static void check_dataplane(struct conf_ctx *c, const struct fwd_config *cfg)
{
	const uint32_t *max = &cfg->dataplane.neigh_max;

	if (*max >= cfg->dataplane.nexthops)
		conf_err(&c->diag, at(c, max, (struct fwd_conf_pos){ 0, 0 }),
		         "dataplane.neigh_max: %u must be below dataplane.nexthops (%u), so that "
		         "routes always find room for their gateways",
		         *max, cfg->dataplane.nexthops);
}

void conf_check(struct conf_ctx *c, const struct fwd_config *cfg)
{
	check_dataplane(c, cfg);
	check_ports(c, cfg);
	for (unsigned i = 0; i < cfg->n_routes && !conf_diag_full(&c->diag); i++)
		check_route(c, cfg, i);
	if (check_route_dups(c, cfg) < 0)
		c->nomem = true;
	for (unsigned i = 0; i < cfg->n_neighs && !conf_diag_full(&c->diag); i++)
		check_neigh(c, cfg, i);
}
