/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd-daemon: load the config, bring up EAL, ports and workers, serve the
 * control socket until SIGTERM, then tear everything down in reverse.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/eal.h"
#include "core/log.h"
#include "core/module.h"
#include "core/rpc.h"
#include "core/worker.h"
#include "port/port.h"

struct options {
	const char *config;
	bool check;
};

static void usage(FILE *out)
{
	fprintf(out, "usage: fwd-daemon [-c FILE] [--check] [--log-level LEVEL]\n"
	             "  -c, --config FILE    configuration (default " FWD_CONFIG_DEFAULT_PATH ")\n"
	             "  -n, --check          validate the configuration and exit (0 ok, 1 bad)\n"
	             "  -l, --log-level L    err, warning, notice, info (default), debug\n"
	             "  -V, --version        print the version and exit\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'n' },
		{ "log-level", required_argument, NULL, 'l' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, level;

	o->config = FWD_CONFIG_DEFAULT_PATH;
	while ((c = getopt_long(argc, argv, "c:nl:Vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'n':
			o->check = true;
			break;
		case 'l':
			level = fwd_log_level_parse(optarg);
			if (level < 0) {
				fprintf(stderr, "fwd-daemon: unknown log level: %s\n", optarg);
				return 2;
			}
			fwd_log_level = level;
			break;
		case 'V':
			printf("fwd-daemon %s\n", FWD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "fwd-daemon: unexpected argument: %s\n", argv[optind]);
		return 2;
	}
	return -1;
}

static int pool_create(const struct fwd_config *cfg)
{
	unsigned max_mtu = RTE_ETHER_MTU;
	unsigned cache = RTE_MIN(256u, cfg->dataplane.mbufs / 2);

	for (unsigned i = 0; i < cfg->n_ports; i++)
		max_mtu = RTE_MAX(max_mtu, cfg->ports[i].mtu);
	/* frame = mtu + ethernet header + a VLAN tag + CRC */
	unsigned room = RTE_MAX((unsigned)RTE_MBUF_DEFAULT_BUF_SIZE,
	                        RTE_PKTMBUF_HEADROOM + max_mtu + RTE_ETHER_HDR_LEN + 4 + 4);
	fwd.pool = rte_pktmbuf_pool_create("fwd_pool", cfg->dataplane.mbufs, cache, 0, room,
	                                   (int)rte_socket_id());
	if (fwd.pool == NULL) {
		LOG(ERR,
		    "mbuf pool of %u mbufs: %s (raise dpdk.memory_mb or lower dataplane.mbufs)",
		    cfg->dataplane.mbufs, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

static int rcu_create(unsigned n_workers)
{
	size_t sz = rte_rcu_qsbr_get_memsize(n_workers);

	fwd.rcu = rte_zmalloc("fwd_rcu", sz, RTE_CACHE_LINE_SIZE);
	if (fwd.rcu == NULL || rte_rcu_qsbr_init(fwd.rcu, n_workers) < 0)
		return -ENOMEM;
	for (unsigned i = 0; i < n_workers; i++)
		rte_rcu_qsbr_thread_register(fwd.rcu, i);
	return 0;
}

static int dataplane_up(void)
{
	int n = fwd_config_n_workers(fwd.cfg);
	int rc;

	if (n < 1)
		return -EINVAL;
	if ((rc = pool_create(fwd.cfg)) < 0 || (rc = rcu_create(n)) < 0 ||
	    (rc = fwd_control_init()) < 0 || (rc = fwd_ports_init(fwd.cfg, n)) < 0 ||
	    (rc = fwd_workers_create(fwd.cfg)) < 0 || (rc = fwd_modules_init(fwd.cfg)) < 0)
		return rc;
	if ((rc = fwd_ports_start()) < 0 || (rc = fwd_workers_launch()) < 0)
		return rc;
	fwd.rpc = fwd_rpc_server_start(fwd.evbase, fwd.cfg->control.socket,
	                               fwd.cfg->control.socket_group);
	return fwd.rpc == NULL ? -EIO : 0;
}

static void dataplane_down(void)
{
	if (fwd.rpc != NULL)
		fwd_rpc_server_stop(fwd.rpc);
	fwd.rpc = NULL;
	fwd_workers_stop();
	fwd_modules_fini();
	fwd_ports_stop();
	fwd_workers_free();
	fwd_ports_close();
	rte_free(fwd.rcu);
	fwd.rcu = NULL;
	rte_mempool_free(fwd.pool);
	fwd.pool = NULL;
	fwd_control_fini();
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	fwd.cfg = fwd_config_load(o.config, stderr);
	if (fwd.cfg == NULL)
		return 1;
	if (o.check) {
		printf("%s: configuration ok\n", o.config);
		fwd_config_free(fwd.cfg);
		return 0;
	}
	if (fwd_eal_init(fwd.cfg, argv[0]) < 0) {
		fwd_config_free(fwd.cfg);
		return 1;
	}
	fwd.start_time = time(NULL);
	fwd.start_tsc = rte_rdtsc();
	fwd.control_lcore = rte_lcore_id();
	rc = dataplane_up();
	if (rc == 0) {
		LOG(NOTICE, "ready: %u ports, %u workers, control socket %s", fwd_n_ports,
		    fwd.n_workers, fwd.cfg->control.socket);
		fwd_control_run();
	} else {
		LOG(ERR, "start-up failed: %s", strerror(-rc));
	}
	dataplane_down();
	fwd_eal_cleanup();
	fwd_config_free(fwd.cfg);
	LOG(NOTICE, "stopped");
	return rc == 0 ? 0 : 1;
}
