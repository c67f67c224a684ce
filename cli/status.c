/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "table.h"

static void kv(struct fwd_table *t, const char *key)
{
	fwd_table_cell(t, "%s:", key);
}

static void print_lcores(struct fwd_table *t, const Fwd__StatusResp *s)
{
	char workers[256] = "";
	size_t len = 0;

	for (size_t i = 0; i < s->n_worker_lcores && len < sizeof(workers); i++)
		len += snprintf(workers + len, sizeof(workers) - len, "%s%" PRIu32, i ? "," : "",
		                s->worker_lcores[i]);
	kv(t, "lcores");
	fwd_table_cell(t, "%s (control %" PRIu32 ", worker%s %s)", s->lcores[0] ? s->lcores : "-",
	               s->control_lcore, s->n_worker_lcores == 1 ? "" : "s",
	               s->n_worker_lcores ? workers : "none");
}

static void print_mempool(struct fwd_table *t, const Fwd__MempoolInfo *m)
{
	kv(t, "mempool");
	if (m == NULL || m->size == 0) {
		fwd_table_cell(t, "-");
		return;
	}
	fwd_table_cell(t, "%s: %" PRIu32 " of %" PRIu32 " mbufs in use (%.1f%%)", m->name,
	               m->in_use, m->size, 100.0 * m->in_use / m->size);
}

static int status_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	const Fwd__StatusResp *s = r->status_resp;
	struct fwd_table *t;
	char up[FWD_FMT_LEN];

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_STATUS_RESP || (t = fwd_table_new(2, NULL)) == NULL)
		return 0;
	kv(t, "version");
	fwd_table_cell(t, "%s (API %" PRIu32 ")", s->version, s->api_version);
	kv(t, "pid");
	fwd_table_cell(t, "%" PRIu32, s->pid);
	kv(t, "uptime");
	fwd_table_cell(t, "%s", fwd_fmt_duration(up, s->uptime_s));
	kv(t, "config");
	fwd_table_cell(t, "%s", s->config_path[0] ? s->config_path : "-");
	print_lcores(t, s);
	kv(t, "ports");
	fwd_table_cell(t, "%" PRIu32 " up / %" PRIu32, s->n_ports_up, s->n_ports);
	print_mempool(t, s->mempool);
	kv(t, "routes");
	fwd_table_cell(t, "%" PRIu64 " (IPv4 %" PRIu64 ", IPv6 %" PRIu64 ")", s->routes,
	               s->routes - s->routes_ip6, s->routes_ip6);
	kv(t, "neighbours");
	fwd_table_cell(t, "%" PRIu64, s->neighbours);
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static int status_run(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__StatusReq st = FWD__STATUS_REQ__INIT;

	if (argc > 0)
		return fwd_cli_usage(cli, "unexpected argument: %s", argv[0]);
	req.body_case = FWD__REQUEST__BODY_STATUS;
	req.status = &st;
	return fwd_cli_call(cli, &req, status_print, NULL);
}

static struct fwd_cli_object status_obj = {
	.name = "status",
	.usage = "status",
	.run = status_run,
};
FWD_CLI_OBJECT(status_obj);
