/* SPDX-License-Identifier: BSD-3-Clause */
/* The config object: defaults, lifetime, lookups, and loading a file. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config_priv.h"

struct fwd_config *fwd_config_new(void)
{
	struct fwd_config *cfg = calloc(1, sizeof(*cfg));

	if (cfg == NULL)
		return NULL;
	if (conf_sections_new(cfg) < 0) {
		fwd_config_free(cfg);
		return NULL;
	}
	conf_schema_defaults(cfg);
	return cfg;
}

void fwd_config_free(struct fwd_config *cfg)
{
	if (cfg == NULL)
		return;
	for (unsigned i = 0; i < cfg->dpdk.n_args; i++)
		free(cfg->dpdk.args[i]);
	free(cfg->routes);
	free(cfg->neighs);
	conf_sections_free(cfg);
	free(cfg);
}

/* Room for one more element of a heap list of *n, grown by doubling. */
static void *grow(void **arr, unsigned n, size_t size)
{
	if (n > 0 && (n & (n - 1)) != 0)
		return (char *)*arr + (size_t)n * size;
	void *v = realloc(*arr, (n ? 2 * (size_t)n : 16) * size);
	if (v == NULL)
		return NULL;
	*arr = v;
	return (char *)v + (size_t)n * size;
}

struct fwd_conf_route *fwd_config_add_route(struct fwd_config *cfg)
{
	struct fwd_conf_route *r = grow((void **)&cfg->routes, cfg->n_routes, sizeof(*r));

	if (r != NULL) {
		memset(r, 0, sizeof(*r));
		cfg->n_routes++;
	}
	return r;
}

struct fwd_conf_neigh *fwd_config_add_neigh(struct fwd_config *cfg)
{
	struct fwd_conf_neigh *n = grow((void **)&cfg->neighs, cfg->n_neighs, sizeof(*n));

	if (n != NULL) {
		memset(n, 0, sizeof(*n));
		cfg->n_neighs++;
	}
	return n;
}

const struct fwd_conf_port *fwd_config_port(const struct fwd_config *cfg, const char *name)
{
	for (unsigned i = 0; i < cfg->n_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return &cfg->ports[i];
	return NULL;
}

const struct fwd_conf_bridge *fwd_config_bridge(const struct fwd_config *cfg, const char *name)
{
	for (unsigned i = 0; i < cfg->n_bridges; i++)
		if (strcmp(cfg->bridges[i].name, name) == 0)
			return &cfg->bridges[i];
	return NULL;
}

const char *fwd_port_mode_name(enum fwd_port_mode mode)
{
	if ((unsigned)mode > FWD_MODE_BRIDGE)
		return "?";
	return fwd_conf_mode_names[mode];
}

const char *fwd_origin_name(enum fwd_origin o)
{
	static const char *const names[] = {
		[FWD_ORIGIN_ADDRESS] = "address", [FWD_ORIGIN_CONFIG] = "config",
		[FWD_ORIGIN_RPC] = "rpc",         [FWD_ORIGIN_LOAD] = "load",
		[FWD_ORIGIN_KERNEL] = "kernel",   [FWD_ORIGIN_ZEBRA] = "zebra",
		[FWD_ORIGIN_STATIC] = "static",   [FWD_ORIGIN_BGP] = "bgp",
		[FWD_ORIGIN_OSPF] = "ospf",       [FWD_ORIGIN_ISIS] = "isis",
		[FWD_ORIGIN_RIP] = "rip",         [FWD_ORIGIN_EIGRP] = "eigrp",
		[FWD_ORIGIN_BABEL] = "babel",     [FWD_ORIGIN_OPENFABRIC] = "openfabric",
		[FWD_ORIGIN_OTHER] = "fpm"
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == FWD_ORIGIN_MAX, "origin names");

	return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "?";
}

/* A decimal lcore id without leading zeros; false when there is none. */
static bool lcore_num(const char **p, unsigned *v)
{
	const char *s = *p;
	unsigned x = 0;

	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
		if (x < FWD_MAX_LCORES)
			x = x * 10 + (unsigned)(*s - '0');
	*v = x;
	*p = s;
	return true;
}

#define LCORES_SYNTAX                                                                        \
	"expected lcore ids and ranges such as \"0-1\", \"0,2-3\" or \"1,3\", or lcores on " \
	"CPUs such as \"0@0,1@1,2@1\""
#define FWD_MAX_CPUS 1024 /* CPU_SETSIZE */
#define XSTR(x)      #x
#define STR(x)       XSTR(x)

/* One "N", "N-M" or "N@CPU" at *p (*cpu: the CPU, or -1: the lcore's own
 * id); NULL, or why it is wrong. */
static const char *lcore_item(const char **p, unsigned *lo, unsigned *hi, int *cpu)
{
	*cpu = -1;
	if (!lcore_num(p, lo))
		return LCORES_SYNTAX;
	*hi = *lo;
	if (**p == '@') {
		const char *s = ++*p;
		unsigned c = 0;
		for (; *s >= '0' && *s <= '9' && s - *p < 5; s++)
			c = c * 10 + (unsigned)(*s - '0');
		if (s == *p || (**p == '0' && s - *p > 1) || (*s >= '0' && *s <= '9'))
			return LCORES_SYNTAX;
		if (c >= FWD_MAX_CPUS)
			return "CPU ids must be below " STR(FWD_MAX_CPUS);
		*cpu = (int)c;
		*p = s;
	} else if (**p == '-') {
		(*p)++;
		if (!lcore_num(p, hi))
			return LCORES_SYNTAX;
		if (*hi < *lo)
			return "a range must go upwards (\"2-3\", not \"3-2\")";
	}
	if (*hi >= FWD_MAX_LCORES)
		return "lcore ids must be below " STR(FWD_MAX_LCORES);
	return NULL;
}

int conf_lcores_parse(const char *s, unsigned *ids, int *cpus, unsigned max, const char **why)
{
	uint64_t seen[FWD_MAX_LCORES / 64] = { 0 };
	const char *p = s, *err = NULL;
	unsigned n = 0, lo = 0, hi = 0;
	int cpu = -1;

	while (err == NULL) {
		err = lcore_item(&p, &lo, &hi, &cpu);
		for (unsigned id = lo; err == NULL && id <= hi; id++) {
			if (seen[id / 64] >> (id % 64) & 1)
				err = "an lcore is listed twice";
			seen[id / 64] |= UINT64_C(1) << (id % 64);
			if (n < max)
				ids[n] = id;
			if (n < max && cpus != NULL)
				cpus[n] = cpu < 0 ? (int)id : cpu;
			n++;
		}
		if (err || *p == '\0')
			break;
		if (*p++ != ',')
			err = LCORES_SYNTAX;
	}
	if (err == NULL && n < 2)
		err = "at least 2 lcores are needed: 1 control and 1 or more workers";
	if (why)
		*why = err;
	if (err)
		return -EINVAL;
	return ids && n > max ? -ENOSPC : (int)n;
}

int fwd_config_lcores(const struct fwd_config *cfg, unsigned *ids, unsigned max)
{
	return conf_lcores_parse(cfg->dpdk.lcores, ids, NULL, ids ? max : 0, NULL);
}

int fwd_config_lcore_cpus(const struct fwd_config *cfg, unsigned *ids, int *cpus, unsigned max)
{
	return conf_lcores_parse(cfg->dpdk.lcores, ids, cpus, max, NULL);
}

int fwd_config_check_cpus(const struct fwd_config *cfg, char *err, size_t errlen)
{
	unsigned ids[FWD_MAX_LCORES];
	int cpus[FWD_MAX_LCORES];
	int n = fwd_config_lcore_cpus(cfg, ids, cpus, FWD_MAX_LCORES);
	cpu_set_t set;
	char have[128] = "";
	size_t len = 0;

	if (n < 0)
		return snprintf(err, errlen, "dpdk.lcores: %s", strerror(-n)), -EINVAL;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno)), -errno;
	/* the CPUs this process may run on, as ranges */
	for (int c = 0; c < CPU_SETSIZE && len < sizeof(have) - 16; c++) {
		if (!CPU_ISSET(c, &set) || (c > 0 && CPU_ISSET(c - 1, &set)))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
			e++;
		len += (size_t)snprintf(have + len, sizeof(have) - len, e > c ? "%s%d-%d" : "%s%d",
		                        len ? "," : "", c, e);
	}
	for (int i = 0; i < n; i++)
		if (cpus[i] >= CPU_SETSIZE || !CPU_ISSET(cpus[i], &set))
			return snprintf(err, errlen,
			                "dpdk.lcores: lcore %u would run on CPU %d, which this "
			                "machine "
			                "does not give fwd-daemon (CPUs %s)",
			                ids[i], cpus[i], have),
			       -EINVAL;
	return 0;
}

bool fwd_config_lcores_share_cpu(const struct fwd_config *cfg)
{
	unsigned ids[FWD_MAX_LCORES];
	int cpus[FWD_MAX_LCORES];
	int n = fwd_config_lcore_cpus(cfg, ids, cpus, FWD_MAX_LCORES);

	for (int i = 1; i < n; i++)
		for (int j = 0; j < i; j++)
			if (cpus[i] == cpus[j])
				return true;
	return false;
}

bool fwd_config_lcores_mapped(const struct fwd_config *cfg)
{
	return strchr(cfg->dpdk.lcores, '@') != NULL;
}

int fwd_config_n_workers(const struct fwd_config *cfg)
{
	int n = fwd_config_lcores(cfg, NULL, 0);

	return n < 0 ? n : n - 1;
}

/* ---------------------------------------------------------------- loading */

/* Parse, decode and check c's source into cfg; errors collected in c->diag. */
static int load(struct conf_ctx *c, struct fwd_config *cfg)
{
	int rc;

	if (c->diag.len > CONF_MAX_BYTES) {
		conf_err(&c->diag, (struct fwd_conf_pos){ 0, 0 }, "too large (more than %u MiB)",
		         CONF_MAX_BYTES >> 20);
		return -EINVAL;
	}
	rc = conf_tree_build(c);
	if (rc == 0)
		rc = conf_schema_decode(c, cfg);
	if (rc < 0)
		return rc;
	conf_derive(c, cfg);
	conf_check(c, cfg);
	if (c->nomem)
		return -ENOMEM;
	return c->diag.n ? -EINVAL : 0;
}

struct fwd_config *fwd_config_load_buf(const char *name, const char *buf, size_t len, FILE *err)
{
	struct fwd_config *cfg = fwd_config_new();
	struct conf_ctx *c = calloc(1, sizeof(*c));
	int rc = -ENOMEM;

	if (c != NULL && (c->arena = fwd_arena_new()) == NULL) {
		free(c);
		c = NULL;
	}

	if (name == NULL)
		name = "<buffer>";
	if (buf && len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
		buf += 3; /* a UTF-8 BOM: editors do not count it as a column */
		len -= 3;
	}
	if (cfg && c) {
		c->diag = (struct conf_diag){ .name = name, .buf = buf ? buf : "", .len = len };
		snprintf(cfg->path, sizeof(cfg->path), "%s", name);
		rc = load(c, cfg);
		conf_diag_flush(&c->diag, err);
	}
	if (rc == -ENOMEM && err)
		fprintf(err, "%s: out of memory\n", name);
	if (c) {
		fwd_arena_free(c->arena);
		free(c);
	}
	if (rc == 0)
		return cfg;
	fwd_config_free(cfg);
	errno = -rc;
	return NULL;
}

/* Whole file into a new buffer; stops early on sizes the loader refuses anyway. */
static int read_file(int fd, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int rc;

	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb =
			        cap > CONF_MAX_BYTES ? NULL : realloc(buf, cap ? cap * 2 : 65536);

			rc = cap > CONF_MAX_BYTES ? -EFBIG : -ENOMEM;
			if (nb == NULL)
				break;
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		rc = -errno;
		if (r < 0)
			break;
		if (r == 0) {
			*out = buf;
			*len = n;
			return 0;
		}
		n += (size_t)r;
	}
	free(buf);
	return rc;
}

struct fwd_config *fwd_config_load(const char *path, FILE *err)
{
	struct fwd_config *cfg;
	char *buf = NULL;
	size_t len = 0;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = errno;
		if (err)
			fprintf(err, "%s: cannot open: %s\n", path, strerror(rc));
		errno = rc;
		return NULL;
	}
	rc = read_file(fd, &buf, &len);
	close(fd);
	if (rc < 0) {
		if (err && rc == -EFBIG)
			fprintf(err, "%s: too large (more than %u MiB)\n", path,
			        CONF_MAX_BYTES >> 20);
		else if (err)
			fprintf(err, "%s: cannot read: %s\n", path, strerror(-rc));
		errno = -rc;
		return NULL;
	}
	cfg = fwd_config_load_buf(path, buf, len, err);
	rc = errno;
	free(buf);
	errno = rc;
	return cfg;
}
