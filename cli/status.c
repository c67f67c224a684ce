/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <string.h>
#include <time.h>

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

static const char *ago(char buf[FWD_FMT_LEN], uint64_t t)
{
	time_t now = time(NULL);

	return fwd_fmt_duration(buf, now > (time_t)t ? (uint64_t)(now - (time_t)t) : 0);
}

static void print_counts(struct fwd_table *t, const char *key, Fwd__FpmCount *const *c, size_t n)
{
	char line[1024] = "";
	size_t len = 0;

	for (size_t i = 0; i < n && len < sizeof(line); i++)
		if (c[i]->value != 0)
			len += snprintf(line + len, sizeof(line) - len, "%s%s %" PRIu64,
			                len ? ", " : "", fwd_sanitize(c[i]->name), c[i]->value);
	kv(t, key);
	fwd_table_cell(t, "%s", len ? line : "none");
}

static void print_fpm_session(struct fwd_table *t, const Fwd__FpmStatus *f)
{
	char a[FWD_FMT_LEN], b[FWD_FMT_LEN];

	kv(t, "fpm");
	if (!f->listening)
		fwd_table_cell(t, "%s%s%s", f->listen[0] ? fwd_sanitize(f->listen) : "off",
		               f->listen_error[0] ? ": " : "", fwd_sanitize(f->listen_error));
	else if (f->connected)
		fwd_table_cell(t, "%s: connected from %s (uid %" PRIu32 ") for %s",
		               fwd_sanitize(f->listen), fwd_sanitize(f->peer), f->peer_uid,
		               ago(a, f->connected_since));
	else
		fwd_table_cell(t, "%s: listening, not connected", fwd_sanitize(f->listen));
	if (f->disconnected_at != 0) {
		kv(t, "fpm last down");
		fwd_table_cell(t, "%s ago: %s", ago(b, f->disconnected_at),
		               fwd_sanitize(f->disconnect_reason));
	}
	kv(t, "fpm peers");
	if (f->user_uid >= 0)
		fwd_table_cell(t, "root and %s (uid %" PRId64 "); %" PRIu64 " refused",
		               fwd_sanitize(f->user), f->user_uid, f->refused);
	else
		fwd_table_cell(t, "root only (no user %s); %" PRIu64 " refused",
		               fwd_sanitize(f->user), f->refused);
	if (f->last_refused_at != 0) {
		kv(t, "fpm last refused peer");
		fwd_table_cell(t, "%s ago: %s", ago(b, f->last_refused_at),
		               fwd_sanitize(f->last_refused));
	}
}

/* The FPM session (control.fpm) and zebra's routes; nothing when it is off and unused. */
static void print_fpm(struct fwd_table *t, const Fwd__FpmStatus *f)
{
	char a[FWD_FMT_LEN];

	if (f == NULL || (f->listen[0] == '\0' && f->connections == 0 && f->routes == 0))
		return;
	print_fpm_session(t, f);
	kv(t, "fpm received");
	fwd_table_cell(t,
	               "%" PRIu64 " frames, %" PRIu64 " messages, %" PRIu64 " bytes in %" PRIu64
	               " connections",
	               f->frames, f->messages, f->bytes, f->connections);
	kv(t, "fpm routes");
	fwd_table_cell(t,
	               "%" PRIu64 " from zebra (at most %" PRIu64 "), %" PRIu64
	               " installed, %" PRIu64 " shadowed by fwd's routes, %" PRIu64
	               " next-hop groups",
	               f->routes, f->max_routes, f->installed, f->shadowed, f->groups);
	print_counts(t, "fpm by origin", f->installed_by_origin, f->n_installed_by_origin);
	kv(t, "fpm stale");
	if (f->sweep_at != 0)
		fwd_table_cell(t,
		               "%" PRIu64 " (removed in %s at the earliest; grace %" PRIu32 " s)",
		               f->stale,
		               fwd_fmt_duration(a, f->sweep_at > (uint64_t)time(NULL)
		                                           ? f->sweep_at - (uint64_t)time(NULL)
		                                           : 0),
		               f->grace_s);
	else
		fwd_table_cell(t, "%" PRIu64 " (grace %" PRIu32 " s)", f->stale, f->grace_s);
	print_counts(t, "fpm counters", f->counters, f->n_counters);
	print_counts(t, "fpm errors", f->errors, f->n_errors);
	if (f->last_error[0]) {
		kv(t, "fpm last error");
		fwd_table_cell(t, "%s", fwd_sanitize(f->last_error));
	}
	if (f->last_install_error[0]) {
		kv(t, "fpm last refused");
		fwd_table_cell(t, "%s", fwd_sanitize(f->last_install_error));
	}
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
	kv(t, "reassembly");
	fwd_table_cell(t, "%" PRIu32 " datagrams, %" PRIu32 " fragments held", s->reasm_datagrams,
	               s->reasm_fragments);
	print_fpm(t, s->fpm);
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
