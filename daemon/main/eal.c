/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "main/eal.h"
#include "core/log.h"
#include "port/port_check.h"

#define EAL_ARGV_MAX (32 + 2 * FWD_MAX_PORTS + FWD_MAX_EAL_ARGS)

struct eal_argv {
	int argc;
	char *argv[EAL_ARGV_MAX + 1];
};

static int push(struct eal_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int push(struct eal_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->argc >= EAL_ARGV_MAX)
		return -E2BIG;
	va_start(ap, fmt);
	int rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	a->argv[a->argc++] = s;
	return 0;
}

static void eal_argv_free(struct eal_argv *a)
{
	for (int i = 0; i < a->argc; i++)
		free(a->argv[i]);
	a->argc = 0;
}

static int build_argv(const struct fwd_config *cfg, const char *prog, struct eal_argv *a)
{
	unsigned lcores[RTE_MAX_LCORE];
	int cpus[RTE_MAX_LCORE];
	int n = fwd_config_lcore_cpus(cfg, lcores, cpus, RTE_DIM(lcores));
	bool pci = false;
	int rc = 0;

	if (n < 2)
		return -EINVAL;
	rc |= push(a, "%s", prog);
	if (fwd_config_lcores_mapped(cfg)) {
		/* dpdk.lcores, fwd.yaml(5): "0@0,1@1,2@1", each lcore written out for EAL */
		char map[FWD_LCORES_STR_MAX * 2] = "";
		size_t len = 0;
		for (int i = 0; i < n && len < sizeof(map); i++)
			len += (size_t)snprintf(map + len, sizeof(map) - len, "%s%u@%d",
			                        i ? "," : "", lcores[i], cpus[i]);
		if (len >= sizeof(map))
			return -E2BIG;
		rc |= push(a, "--lcores=%s", map);
		if (fwd_config_lcores_share_cpu(cfg))
			LOG(WARNING,
			    "dpdk.lcores %s: lcores share a CPU (for tests: a worker "
			    "sharing a CPU forwards at a fraction of its rate)",
			    cfg->dpdk.lcores);
	} else {
		rc |= push(a, "-l%s", cfg->dpdk.lcores);
	}
	rc |= push(a, "--main-lcore=%u", lcores[0]);
	rc |= push(a, "--file-prefix=%s", cfg->dpdk.file_prefix);
	/* No runtime files (hugepage maps, mp socket) left behind, even after a crash.
	 * --no-huge implies legacy memory, which --in-memory refuses. */
	if (cfg->dpdk.hugepages)
		rc |= push(a, "--in-memory");
	else
		rc |= push(a, "--no-huge") | push(a, "--no-shconf");
	rc |= push(a, "-m%u", cfg->dpdk.memory_mb);
	rc |= push(a, "--log-level=lib.eal:notice");
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		bool is_pci = fwd_device_is_pci(cfg->ports[i].device);
		pci |= is_pci;
		rc |= push(a, "%s%s", is_pci ? "-a" : "--vdev=", cfg->ports[i].device);
	}
	if (!pci)
		rc |= push(a, "--no-pci");
	for (unsigned i = 0; i < cfg->dpdk.n_args; i++)
		rc |= push(a, "%s", cfg->dpdk.args[i]);
	return rc < 0 ? -E2BIG : 0;
}

/* EAL may keep pointers into its arguments: they live until fwd_eal_cleanup. */
static struct eal_argv eal_args;

int fwd_eal_init(const struct fwd_config *cfg, const char *prog)
{
	struct eal_argv *a = &eal_args;
	char line[2048] = "";
	int rc = build_argv(cfg, prog, a);

	if (rc < 0) {
		eal_argv_free(a);
		return rc;
	}
	for (int i = 1; i < a->argc; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s", a->argv[i]);
	LOG(INFO, "EAL arguments:%s", line);
	fwd_log_libraries_init();
	/* rte_eal_init permutes argv: hand it a copy of the pointer array */
	static char *argv[EAL_ARGV_MAX + 1];
	memcpy(argv, a->argv, sizeof(argv));
	rc = rte_eal_init(a->argc, argv);
	if (rc < 0) {
		LOG(ERR, "EAL initialisation failed: %s", rte_strerror(rte_errno));
		return rte_errno != 0 ? -rte_errno : -EINVAL;
	}
	return 0;
}

void fwd_eal_cleanup(void)
{
	rte_eal_cleanup();
	eal_argv_free(&eal_args);
}
