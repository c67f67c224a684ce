/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A minimal EAL for unit tests that need mbufs: no hugepages, no PCI, no
 * shared config, one lcore, a per-process file prefix so parallel runs
 * never meet. Include in one test file only (it defines functions).
 */
#ifndef FWD_TEST_EAL_H
#define FWD_TEST_EAL_H

#include <stdio.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_mbuf.h>

static inline int test_eal_init(const char *name)
{
	char prefix[64];
	char *argv[] = {
		(char *)name, "--no-huge", "-m",
		"256",        "--no-pci",  "--no-shconf",
		"-l",         "0",         "--log-level=lib.*:error",
		prefix,       NULL,
	};

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
