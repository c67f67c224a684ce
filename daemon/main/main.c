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
#include <rte_lcore.h>

#include "core/control.h"
#include "core/daemon.h"
#include "main/eal.h"
#include "main/lifecycle.h"
#include "core/log.h"
#include "core/sdnotify.h"
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

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	fwd_config_machine_checks = true; /* the devices too: port/port_check.c */
	fwd.cfg = fwd_config_load(o.config, stderr);
	if (fwd.cfg == NULL)
		return 1;
	/* what the file asks of this machine: before EAL, which would print its usage */
	char why[256];
	if (fwd_config_check_cpus(fwd.cfg, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: %s\n", o.config, why);
		fwd_config_free(fwd.cfg);
		return 1;
	}
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
	rc = fwd_dataplane_up(true);
	if (rc == 0) {
		LOG(NOTICE, "ready: %u ports, %u workers, control socket %s", fwd_n_ports,
		    fwd.n_workers, fwd.cfg->control.socket);
		fwd_sd_notifyf("READY=1\nSTATUS=%u ports, %u workers", fwd_n_ports, fwd.n_workers);
		fwd_control_run();
		fwd_sd_notify("STOPPING=1");
	} else {
		LOG(ERR, "start-up failed: %s", strerror(-rc));
		fwd_sd_notifyf("STATUS=start-up failed: %s\nERRNO=%d", strerror(-rc), -rc);
	}
	fwd_dataplane_down();
	fwd_eal_cleanup();
	fwd_config_free(fwd.cfg);
	LOG(NOTICE, "stopped");
	return rc == 0 ? 0 : 1;
}
