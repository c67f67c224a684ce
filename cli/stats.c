/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "table.h"

#define WRAP_WIDTH    100
#define WATCH_MIN_S   0.1
#define WATCH_MAX_S   3600.0
#define WATCH_DEFAULT 1.0

static void port_row(struct fwd_table *t, const Fwd__PortStats *p)
{
	char b[4][FWD_FMT_LEN];

	fwd_table_cell(t, "%s", p->name);
	fwd_table_cell(t, "%" PRIu64, p->rx_packets);
	fwd_table_cell(t, "%s", fwd_fmt_bytes(b[0], p->rx_bytes));
	fwd_table_cell(t, "%s", fwd_fmt_si(b[1], p->rx_pps, "pps"));
	fwd_table_cell(t, "%s", fwd_fmt_si(b[2], p->rx_bps, "bit/s"));
	fwd_table_cell(t, "%" PRIu64, p->tx_packets);
	fwd_table_cell(t, "%s", fwd_fmt_bytes(b[0], p->tx_bytes));
	fwd_table_cell(t, "%s", fwd_fmt_si(b[1], p->tx_pps, "pps"));
	fwd_table_cell(t, "%s", fwd_fmt_si(b[3], p->tx_bps, "bit/s"));
	fwd_table_cell(t, "%" PRIu64, p->drops);
}

/* "p0 drops: no_route=12 ttl_exceeded=3", non-zero counters only. */
static void counters(FILE *out, const char *label, Fwd__Counter *const *c, size_t n)
{
	struct fwd_wrap w;
	size_t shown = 0;

	for (size_t i = 0; i < n; i++) {
		if (c[i]->value == 0)
			continue;
		if (shown++ == 0)
			fwd_wrap_start(&w, out, label, WRAP_WIDTH);
		fwd_wrap_item(&w, "%s=%" PRIu64, c[i]->name, c[i]->value);
	}
	if (shown > 0)
		fwd_wrap_end(&w);
}

/* "p0 accounting: consumed=3 created=5": what the router used up and made. */
static void accounting(FILE *out, const Fwd__PortStats *p)
{
	if (p->consumed == 0 && p->created == 0)
		return;
	fprintf(out, "%.*s accounting: consumed=%" PRIu64 " created=%" PRIu64 "\n",
	        FWD_CLI_NAME_MAX, p->name, p->consumed, p->created);
}

static bool any_nonzero(Fwd__Counter *const *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i]->value != 0)
			return true;
	return false;
}

static bool rows_details(Fwd__PortStats *const *ps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (any_nonzero(ps[i]->drop_reasons, ps[i]->n_drop_reasons) ||
		    any_nonzero(ps[i]->xstats, ps[i]->n_xstats) || ps[i]->consumed != 0 ||
		    ps[i]->created != 0)
			return true;
	return false;
}

static bool any_details(const Fwd__StatsResp *s)
{
	return rows_details(s->ports, s->n_ports) || rows_details(s->interfaces, s->n_interfaces) ||
	       any_nonzero(s->global, s->n_global);
}

/* Drops, xstats and accounting of each row that has them. */
static void details(struct fwd_cli *cli, Fwd__PortStats *const *ps, size_t n)
{
	char label[FWD_CLI_NAME_MAX + 16];

	for (size_t i = 0; i < n; i++) {
		const Fwd__PortStats *p = ps[i];

		snprintf(label, sizeof(label), "%.*s drops", FWD_CLI_NAME_MAX, p->name);
		counters(cli->out, label, p->drop_reasons, p->n_drop_reasons);
		snprintf(label, sizeof(label), "%.*s xstats", FWD_CLI_NAME_MAX, p->name);
		counters(cli->out, label, p->xstats, p->n_xstats);
		accounting(cli->out, p);
	}
}

static int stats_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "PORT",      ">RX PKTS", ">RX BYTES", ">RX PPS",
		                           ">RX BIT/S", ">TX PKTS", ">TX BYTES", ">TX PPS",
		                           ">TX BIT/S", ">DROPS" };
	const Fwd__StatsResp *s = r->stats;
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_STATS || (t = fwd_table_new(10, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < s->n_ports; i++)
		port_row(t, s->ports[i]);
	for (size_t i = 0; i < s->n_interfaces; i++) /* VLANs and loopbacks, after the ports */
		port_row(t, s->interfaces[i]);
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	if (any_details(s))
		fputc('\n', cli->out);
	details(cli, s->ports, s->n_ports);
	details(cli, s->interfaces, s->n_interfaces);
	counters(cli->out, "global", s->global, s->n_global);
	return 0;
}

static int workers_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { ">WORKER",    ">LCORE",      ">BUSY",    ">PACKETS",
		                           ">AVG BURST", ">CYCLES/PKT", "RX QUEUES" };
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_WORKERS || (t = fwd_table_new(7, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->workers->n_workers; i++) {
		const Fwd__WorkerStats *w = r->workers->workers[i];
		char q[512] = "-";
		size_t len = 0;

		for (size_t j = 0; j < w->n_rx_queues && len < sizeof(q); j++)
			len += snprintf(q + len, sizeof(q) - len, "%s%s", j ? " " : "",
			                w->rx_queues[j]);
		fwd_table_cell(t, "%" PRIu32, w->index);
		fwd_table_cell(t, "%" PRIu32, w->lcore);
		fwd_table_cell(t, "%.1f%%", isfinite(w->busy_pct) ? w->busy_pct : 0.0);
		fwd_table_cell(t, "%" PRIu64, w->packets);
		fwd_table_cell(t, "%.1f", isfinite(w->avg_burst) ? w->avg_burst : 0.0);
		fwd_table_cell(t, "%.0f",
		               isfinite(w->cycles_per_packet) ? w->cycles_per_packet : 0.0);
		fwd_table_cell(t, "%s", q);
	}
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static void watch_header(struct fwd_cli *cli, double interval, unsigned n)
{
	time_t now = time(NULL);
	struct tm tm;
	char when[16] = "";

	if (isatty(fileno(cli->out)))
		fputs("\033[H\033[2J", cli->out);
	else if (n > 0)
		fputc('\n', cli->out);
	if (localtime_r(&now, &tm) != NULL)
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fprintf(cli->out, "fwd stats every %gs at %s (Ctrl-C to quit)\n\n", interval, when);
}

/* Sleep until *next (advanced by interval), so the period does not drift. */
static void watch_sleep(struct timespec *next, double interval)
{
	long ns = (long)((interval - floor(interval)) * 1e9);

	next->tv_sec += (time_t)interval + (next->tv_nsec + ns) / 1000000000;
	next->tv_nsec = (next->tv_nsec + ns) % 1000000000;
	while (!fwd_cli_interrupted() &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

static int watch(struct fwd_cli *cli, Fwd__Request *req, double interval)
{
	struct timespec next;
	int rc;

	fwd_cli_catch_sigint(cli);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (unsigned n = 0;; n++) {
		if (!cli->json)
			watch_header(cli, interval, n);
		rc = fwd_cli_call(cli, req, stats_print, NULL);
		if (fwd_cli_interrupted())
			return FWD_EXIT_OK;
		if (rc != FWD_EXIT_OK)
			return rc;
		watch_sleep(&next, interval);
		if (fwd_cli_interrupted())
			return FWD_EXIT_OK;
	}
}

static int parse_interval(struct fwd_cli *cli, const char *s, double *interval)
{
	char *end;

	errno = 0;
	*interval = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(*interval) ||
	    *interval < WATCH_MIN_S || *interval > WATCH_MAX_S)
		return fwd_cli_usage(cli, "--watch: SECONDS must be a number from %g to %g",
		                     WATCH_MIN_S, WATCH_MAX_S);
	return 0;
}

/* Is s a number (an optional SECONDS after --watch)? */
static bool numeric(const char *s)
{
	return s != NULL && ((s[0] >= '0' && s[0] <= '9') || (s[0] == '.' && s[1] != '\0'));
}

static int stats_show(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__StatsReq sr = FWD__STATS_REQ__INIT;
	double interval = 0;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--watch") == 0) {
			interval = WATCH_DEFAULT;
			if (numeric(argv[i + 1]) && parse_interval(cli, argv[++i], &interval))
				return FWD_EXIT_USAGE;
		} else if (strncmp(argv[i], "--watch=", 8) == 0) {
			if (parse_interval(cli, argv[i] + 8, &interval))
				return FWD_EXIT_USAGE;
		} else if (argv[i][0] == '-' || sr.port[0] != '\0') {
			return fwd_cli_usage(cli, "unexpected argument: %.*s", FWD_CLI_NAME_MAX,
			                     argv[i]);
		} else if (strlen(argv[i]) > FWD_CLI_NAME_MAX) {
			return fwd_cli_usage(cli, "bad interface name: %.*s", FWD_CLI_NAME_MAX,
			                     argv[i]);
		} else {
			sr.port = argv[i];
		}
	}
	req.body_case = FWD__REQUEST__BODY_STATS;
	req.stats = &sr;
	if (interval > 0)
		return watch(cli, &req, interval);
	return fwd_cli_call(cli, &req, stats_print, NULL);
}

static int stats_run(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__StatsClearReq clear = FWD__STATS_CLEAR_REQ__INIT;
	Fwd__StatsWorkersReq workers = FWD__STATS_WORKERS_REQ__INIT;

	if (argc > 0 && strcmp(argv[0], "clear") == 0) {
		cli->command = "clear";
		if (argc != 1)
			return fwd_cli_usage(cli, "clear takes no arguments");
		req.body_case = FWD__REQUEST__BODY_STATS_CLEAR;
		req.stats_clear = &clear;
		return fwd_cli_call(cli, &req, NULL, NULL);
	}
	if (argc > 0 && strcmp(argv[0], "workers") == 0) {
		cli->command = "workers";
		if (argc != 1)
			return fwd_cli_usage(cli, "workers takes no arguments");
		req.body_case = FWD__REQUEST__BODY_STATS_WORKERS;
		req.stats_workers = &workers;
		return fwd_cli_call(cli, &req, workers_print, NULL);
	}
	return stats_show(cli, argc, argv);
}

static struct fwd_cli_object stats_obj = {
	.name = "stats",
	.usage = "stats [IFACE] [--watch [SECONDS]]\nstats clear\nstats workers",
	.run = stats_run,
};
FWD_CLI_OBJECT(stats_obj);
