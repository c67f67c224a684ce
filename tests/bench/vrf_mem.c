/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What VRFs cost in DPDK memory (doc/performance.md, "VRFs"): in an EAL
 * of -m MB (dpdk.memory_mb), the default VRF's tables as the daemon makes
 * them (DIR-24-8 with dataplane.fib_tbl8s, the IPv6 FIB with fib6_tbl8s
 * and fib6_neigh_tbl8s, defaults) holding N4 IPv4 /24s, then V VRFs in
 * the small layout (ip4/fib.h, route/fib6.h) with R IPv4 and R IPv6
 * routes each, as the VRF hooks make them (64 groups, doubling). Prints
 * the memory each part takes and whether everything fitted.
 *
 *   vrf_mem [MB [N4 [V [R]]]]     defaults: 1024 1000000 64 1000
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_malloc.h>

#include "ip4/fib.h"
#include "route/fib6.h"

static int eal_init(unsigned mb)
{
	char mem[16], prefix[48];
	char *argv[] = { "vrf_mem", "--no-huge", "-m",  mem, "--no-pci", "--no-shconf",
		         "-l",      "0",         prefix, NULL };

	snprintf(mem, sizeof(mem), "%u", mb);
	snprintf(prefix, sizeof(prefix), "--file-prefix=vrf_mem-%d", (int)getpid());
	return rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv);
}

static double mib(size_t b)
{
	return (double)b / (1 << 20);
}

/* 1,000 prefixes like a VRF's: IPv4 /24s (/16 to /32 now and then), IPv6
 * /48s (/32 to /64), random addresses: few paths shared (the worst case). */
static int vrf_fill(struct fib4 *f4, struct fib6 *f6, unsigned r)
{
	for (unsigned i = 0; i < r; i++) {
		uint32_t ip = (uint32_t)random() << 1 ^ (uint32_t)random();
		uint8_t len4 = (uint8_t)(i % 5 == 0 ? 16 + random() % 17 : 24);
		uint8_t a[16] = { 0x20, 0x01 }, len6 = (uint8_t)(i % 5 == 0 ? 32 + random() % 33 : 48);

		for (unsigned k = 2; k < 8; k++)
			a[k] = (uint8_t)random();
		fwd_ip6_mask(a, len6);
		if (fib4_add(f4, ip, len4, 1 + i) < 0 || fib6_add(f6, a, len6, 1 + i) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned mb = argc > 1 ? (unsigned)atoi(argv[1]) : 1024;
	unsigned n4 = argc > 2 ? (unsigned)atoi(argv[2]) : 1000000;
	unsigned nv = argc > 3 ? (unsigned)atoi(argv[3]) : 64;
	unsigned r = argc > 4 ? (unsigned)atoi(argv[4]) : 1000;
	struct fib4 *d4, *v4;
	struct fib6 *d6, *v6;
	size_t def = 0, vrfs = 0, v4b = 0, v6b = 0;

	if (eal_init(mb) < 0)
		return 1;
	d4 = fib4_create(32768, NULL, SOCKET_ID_ANY);
	d6 = fib6_create_pools(65536, 16384, NULL, SOCKET_ID_ANY);
	if (d4 == NULL || d6 == NULL) {
		printf("default VRF: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < n4; i++)
		if (fib4_add(d4, (0x01000000u + i) << 8, 24, 1 + i % 1000) < 0)
			return printf("default VRF: FIB full at %u\n", i), 1;
	def = fib4_memory(d4) + fib6_memory(d6);
	printf("default VRF: %u IPv4 /24s: %.1f MiB (IPv4 %.1f, IPv6 %.1f)\n", n4, mib(def),
	       mib(fib4_memory(d4)), mib(fib6_memory(d6)));
	srandom(1);
	for (unsigned v = 0; v < nv; v++) {
		v4 = fib4_create_small(64, 65536, NULL, SOCKET_ID_ANY);
		v6 = fib6_create_small(64, 65536, NULL, SOCKET_ID_ANY);
		if (v4 == NULL || v6 == NULL || vrf_fill(v4, v6, r) < 0) {
			printf("VRF %u of %u: out of memory (%.1f MiB taken by VRFs)\n", v + 1, nv,
			       mib(vrfs));
			return 1;
		}
		v4b += fib4_memory(v4);
		v6b += fib6_memory(v6);
		vrfs = v4b + v6b; /* kept: the tables of every VRF stay */
	}
	printf("%u VRFs x %u routes x 2 families: %.1f MiB (%.2f MiB a VRF: IPv4 %.2f, IPv6 %.2f)\n",
	       nv, r, mib(vrfs), nv ? mib(vrfs) / nv : 0, nv ? mib(v4b) / nv : 0,
	       nv ? mib(v6b) / nv : 0);
	printf("all FIBs: %.1f MiB of -m %u: fits\n", mib(def + vrfs), mb);
	return 0;
}
