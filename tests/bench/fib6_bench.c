/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 RIB and FIB outside the daemon (no RCU readers), for figures
 * the issue asks for:
 *
 *   fib6_bench load TABLE [TBL8S]
 *       loads a `gen_routes.py -6` table (lines "PREFIX via GW") into
 *       rib6 + fib6 of TBL8S groups (default 262144), then removes it:
 *       wall time of each, groups used, fib6_memory and rib6_memory;
 *   fib6_bench lookup fwd|lpm6|none [ROUTES [LOOKUPS]]
 *       DPDK l3fwd's IPv6 routes, 2001:200:0:N::/64 for N < ROUTES
 *       (default 16), in fib6 or in rte_lpm6 as l3fwd sets it up, then
 *       LOOKUPS (default 1000000) lookups of random hosts in them, in
 *       lookup_fwd, lookup_lpm6 or lookup_none (the same loop without a
 *       lookup). Under valgrind --tool=callgrind --toggle-collect=lookup_*
 *       the instructions of the loop divided by LOOKUPS are the cost of a
 *       lookup (tests/bench/README.md, "IPv6 FIB").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lpm6.h>

#include "fwd_inet.h"
#include "ip6/rib6.h"
#include "nexthop/nexthop.h"

#define MAX_GWS 64

struct table {
	struct fwd_ip6_prefix *prefix;
	uint32_t *nh;
	size_t n;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int eal_init(unsigned mb)
{
	char mem[16], prefix[48];
	char *argv[] = { "fib6_bench", "--no-huge", "-m",
		         mem,          "--no-pci",  "--no-shconf",
		         "-l",         "0",         "--log-level=lib.*:error",
		         prefix,       NULL };

	snprintf(mem, sizeof(mem), "%u", mb);
	snprintf(prefix, sizeof(prefix), "--file-prefix=fib6_bench-%d", (int)getpid());
	return rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv);
}

/* The next-hop index of a gateway: one per distinct text, as neighbours are. */
static uint32_t gateway_nh(const char *gw)
{
	static char gws[MAX_GWS][128];
	static unsigned n_gws;

	for (unsigned i = 0; i < n_gws; i++)
		if (strcmp(gws[i], gw) == 0)
			return NH_FIRST_DYNAMIC + i;
	if (n_gws == MAX_GWS)
		return NH_FIRST_DYNAMIC;
	snprintf(gws[n_gws], sizeof(gws[0]), "%s", gw);
	return NH_FIRST_DYNAMIC + n_gws++;
}

static int table_read(const char *path, struct table *t)
{
	FILE *fp = fopen(path, "r");
	char line[256], pfx[128], gw[128];
	size_t cap = 0;

	if (fp == NULL)
		return -errno;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%127s via %127s", pfx, gw) != 2)
			continue;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 4096;
			t->prefix = realloc(t->prefix, cap * sizeof(*t->prefix));
			t->nh = realloc(t->nh, cap * sizeof(*t->nh));
			if (t->prefix == NULL || t->nh == NULL)
				abort();
		}
		if (fwd_ip6_prefix_parse(pfx, &t->prefix[t->n], false) < 0)
			continue;
		t->nh[t->n++] = gateway_nh(gw);
	}
	fclose(fp);
	return 0;
}

/* Set every route of t, or clear them: the wall time it took. */
static double apply(struct rib6 *rib, const struct table *t, bool set, size_t *failed)
{
	struct route6 old;
	double t0 = now();
	bool had;

	*failed = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct fwd_ip6_prefix *p = &t->prefix[i];
		struct route6 r = { .type = ROUTE6_VIA, .dev = ROUTE6_DEV_ANY, .nh = t->nh[i] };
		if (set)
			*failed += rib6_set_route(rib, p->addr, p->len, &r, &old, &had) < 0;
		else
			*failed += rib6_clear_route(rib, p->addr, p->len, &old) < 0;
	}
	return now() - t0;
}

static int cmd_load(const char *path, uint32_t tbl8s)
{
	struct table t = { 0 };
	struct rib6 rib;
	size_t failed, missing;

	if (table_read(path, &t) < 0 || t.n == 0) {
		fprintf(stderr, "fib6_bench: %s: no routes\n", path);
		return 1;
	}
	struct fib6 *f = eal_init(64 + tbl8s / 1024 + 64) < 0
	                         ? NULL
	                         : fib6_create(tbl8s, NULL, SOCKET_ID_ANY);
	if (f == NULL) {
		fprintf(stderr, "fib6_bench: no FIB of %" PRIu32 " groups\n", tbl8s);
		return 1;
	}
	rib6_init(&rib, f);
	uint32_t reserved = fib6_tbl8_used(f);
	double load = apply(&rib, &t, true, &failed);
	uint32_t used = fib6_tbl8_used(f) - reserved;
	/* what a FIB of just enough groups would take */
	size_t group = (fib6_memory(f) - (1u << 24) * sizeof(uint32_t)) / tbl8s;
	printf("{\"routes\": %zu, \"failed\": %zu, \"load_s\": %.3f, \"routes_per_s\": %.0f,\n"
	       " \"tbl8_groups\": %" PRIu32 ", \"tbl8_groups_reserved\": %" PRIu32
	       ", \"tbl8s\": %" PRIu32 ",\n"
	       " \"fib6_memory\": %zu, \"fib6_memory_fit\": %zu, \"rib6_memory\": %zu,\n"
	       " \"rib6_nodes\": %" PRIu64 ",\n",
	       t.n, failed, load, (double)t.n / load, used, reserved, tbl8s, fib6_memory(f),
	       fib6_memory(f) - group * (tbl8s - used - reserved), rib6_memory(&rib), rib.n_nodes);
	double remove = apply(&rib, &t, false, &missing);
	fib6_reclaim(f);
	printf(" \"remove_s\": %.3f, \"tbl8_groups_after_remove\": %" PRIu32 "}\n", remove,
	       fib6_tbl8_used(f) - reserved);
	rib6_clear(&rib);
	fib6_free(f);
	free(t.prefix);
	free(t.nh);
	return 0;
}

/* l3fwd's routes (its main.c, ipv6_l3fwd_route_array) and hosts in them. */
static void l3fwd_route(unsigned n, uint8_t a[16])
{
	static const uint8_t base[16] = { 0x20, 0x01, 0x02, 0x00 };

	memcpy(a, base, 16);
	a[6] = (uint8_t)(n >> 8);
	a[7] = (uint8_t)n;
}

static uint8_t (*hosts(unsigned routes, unsigned n))[16]
{
	uint8_t(*ips)[16] = malloc((size_t)n * 16);
	uint64_t x = 88172645463325252ull;

	if (ips == NULL)
		abort();
	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		l3fwd_route((unsigned)(x % routes), ips[i]);
		memcpy(&ips[i][8], &x, 8);
	}
	return ips;
}

__attribute__((noinline)) static uint64_t lookup_fwd(const struct fib6 *f, uint8_t (*ips)[16],
                                                     unsigned n)
{
	struct fib6_view v = fib6_view(f);
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += fib6_lookup_view(v, ips[i]);
	return sum;
}

__attribute__((noinline)) static uint64_t lookup_lpm6(const struct rte_lpm6 *l, uint8_t (*ips)[16],
                                                      unsigned n)
{
	uint64_t sum = 0;
	uint32_t nh;

	for (unsigned i = 0; i < n; i++)
		if (rte_lpm6_lookup(l, ips[i], &nh) == 0)
			sum += nh;
	return sum;
}

__attribute__((noinline)) static uint64_t lookup_none(uint8_t (*ips)[16], unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += ips[i][7];
	return sum;
}

static struct fib6 *fwd_table(unsigned routes)
{
	struct fib6 *f = fib6_create(1 << 16, NULL, SOCKET_ID_ANY);
	uint8_t a[16];

	for (unsigned i = 0; f != NULL && i < routes; i++) {
		l3fwd_route(i, a);
		if (fib6_add(f, a, 64, NH_FIRST_DYNAMIC + i % 4) < 0)
			return NULL;
	}
	return f;
}

/* As l3fwd's setup_lpm (l3fwd_lpm.c) makes it. */
static struct rte_lpm6 *lpm6_table(unsigned routes)
{
	struct rte_lpm6_config cfg = { .max_rules = routes < 1024 ? 1024 : routes,
		                       .number_tbl8s = 1 << 16 };
	struct rte_lpm6 *l = rte_lpm6_create("fib6_bench", SOCKET_ID_ANY, &cfg);
	uint8_t a[16];

	for (unsigned i = 0; l != NULL && i < routes; i++) {
		l3fwd_route(i, a);
		if (rte_lpm6_add(l, a, 64, NH_FIRST_DYNAMIC + i % 4) < 0)
			return NULL;
	}
	return l;
}

static int cmd_lookup(const char *which, unsigned routes, unsigned n)
{
	uint8_t(*ips)[16] = hosts(routes, n);
	uint64_t sum;
	double t0;

	if (eal_init(256) < 0)
		return 1;
	if (strcmp(which, "fwd") == 0) {
		struct fib6 *f = fwd_table(routes);
		if (f == NULL)
			return 1;
		t0 = now();
		sum = lookup_fwd(f, ips, n);
	} else if (strcmp(which, "lpm6") == 0) {
		struct rte_lpm6 *l = lpm6_table(routes);
		if (l == NULL)
			return 1;
		t0 = now();
		sum = lookup_lpm6(l, ips, n);
	} else {
		t0 = now();
		sum = lookup_none(ips, n);
	}
	printf("{\"table\": \"%s\", \"routes\": %u, \"lookups\": %u, \"ns_per_lookup\": %.2f, "
	       "\"checksum\": %" PRIu64 "}\n",
	       which, routes, n, (now() - t0) * 1e9 / n, sum);
	free(ips);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "load") == 0)
		return cmd_load(argv[2], argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 1u << 18);
	if (argc >= 3 && strcmp(argv[1], "lookup") == 0)
		return cmd_lookup(argv[2], argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 16,
		                  argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 1000000);
	fprintf(stderr, "usage: fib6_bench load TABLE [TBL8S]\n"
	                "       fib6_bench lookup fwd|lpm6|none [ROUTES [LOOKUPS]]\n");
	return 2;
}
