/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A minimal EAL for unit tests that need mbufs: no hugepages, no PCI, no
 * shared config, one lcore, a per-process file prefix so parallel runs
 * never meet. Include in one test file only (it defines functions).
 * The lcore may run on any CPU the process may use: EAL would pin it to
 * CPU 0, and tests that tests/run.sh runs side by side would all queue there.
 */
#ifndef FWD_TEST_EAL_H
#define FWD_TEST_EAL_H

#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_mbuf.h>

/* "--lcores=0@(0,1,...)": lcore 0 on the CPUs the process may use */
static inline void test_eal_lcores(char *buf, size_t len)
{
	cpu_set_t set;
	size_t n = (size_t)snprintf(buf, len, "--lcores=0@(");

	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		snprintf(buf, len, "--lcores=0@0");
		return;
	}
	for (int c = 0; c < CPU_SETSIZE && n + 12 < len; c++)
		if (CPU_ISSET(c, &set))
			n += (size_t)snprintf(buf + n, len - n, "%d,", c);
	buf[n - 1] = ')'; /* the last comma, or the "(" of an empty set: EAL refuses it */
}

static inline int test_eal_init(const char *name)
{
	char prefix[64], lcores[512];
	char *argv[] = {
		(char *)name, "--no-huge",   "-m",   "256",
		"--no-pci",   "--no-shconf", lcores, "--log-level=lib.*:error",
		prefix,       NULL,
	};

	test_eal_lcores(lcores, sizeof(lcores));

	snprintf(prefix, sizeof(prefix), "--file-prefix=fwdut-%s-%d", name, (int)getpid());
	return rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv);
}

/* A pool of n mbufs of room data bytes (plus headroom), no per-lcore cache
 * so rte_mempool_avail_count is exact and leak checks can use it. */
static inline struct rte_mempool *test_pool(const char *name, unsigned n, uint16_t room)
{
	return rte_pktmbuf_pool_create(name, n, 0, 0, (uint16_t)(room + RTE_PKTMBUF_HEADROOM),
	                               SOCKET_ID_ANY);
}

#endif
