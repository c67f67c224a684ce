/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl monitor [OBJECT...]: what changes in the daemon as it happens, one
 * line per event (like `ip monitor`), with -j one JSON object per line
 * (proto/fwd.proto's Event; a lost notice is an Event of object "monitor",
 * action "lost"). Runs until Ctrl-C (exit 0) or the daemon goes (exit 3).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "json.h"
#include "monitor.h"
#include "table.h"

#define MONITOR_OBJECTS "port addr route neigh fdb config drops iface vrf"

static void sanitize_event(Fwd__Event *e)
{
	char *const fields[] = { e->object, e->action,    e->port,   e->prefix,
		                 e->via,    e->origin,    e->lladdr, e->state,
		                 e->bridge, e->from_port, e->reason, e->vrf };

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		fwd_sanitize(fields[i]);
}

static void fdb_line(FILE *out, const Fwd__Event *e)
{
	fprintf(out, "fdb %s %s bridge %s port %s", e->action, e->lladdr, e->bridge, e->port);
	if (e->from_port[0] != '\0')
		fprintf(out, " from %s", e->from_port);
}

static void route_line(FILE *out, const Fwd__Event *e)
{
	bool type = strchr(e->via, '.') == NULL && strchr(e->via, ':') == NULL;

	fprintf(out, "route %s %s", e->action, e->prefix);
	if (e->via[0] != '\0')
		fprintf(out, type ? " %s" : " via %s", e->via);
	if (e->port[0] != '\0')
		fprintf(out, " dev %s", e->port);
	if (e->origin[0] != '\0')
		fprintf(out, " origin %s", e->origin);
}

static void neigh_line(FILE *out, const Fwd__Event *e)
{
	fprintf(out, "neigh %s%s dev %s", strcmp(e->action, "del") == 0 ? "del " : "", e->prefix,
	        e->port);
	if (e->lladdr[0] != '\0')
		fprintf(out, " lladdr %s", e->lladdr);
	fprintf(out, " %s", e->state);
}

void fwd_monitor_line(FILE *out, const Fwd__Event *e)
{
	char n[FWD_FMT_LEN];

	if (strcmp(e->object, "port") == 0 && strncmp(e->action, "admin-", 6) == 0)
		fprintf(out, "link %s admin %s", e->port, e->action + 6);
	else if (strcmp(e->object, "port") == 0)
		fprintf(out, "link %s %s", e->port, e->action);
	else if (strcmp(e->object, "addr") == 0)
		fprintf(out, "addr %s %s dev %s origin %s", e->action, e->prefix, e->port,
		        e->origin);
	else if (strcmp(e->object, "route") == 0)
		route_line(out, e);
	else if (strcmp(e->object, "neigh") == 0)
		neigh_line(out, e);
	else if (strcmp(e->object, "fdb") == 0)
		fdb_line(out, e);
	else if (strcmp(e->object, "config") == 0 && strcmp(e->action, "ok") == 0)
		fprintf(out, "config reload ok: %s changes", fwd_fmt_count(n, e->count));
	else if (strcmp(e->object, "config") == 0 && strcmp(e->action, "acl") == 0)
		fprintf(out, "config %s", e->reason); /* an ACL a reload changed */
	else if (strcmp(e->object, "config") == 0)
		fprintf(out, "config reload %s: %s", e->action, e->reason);
	else if (strcmp(e->object, "drops") == 0)
		fprintf(out, "drops %s: %s %s in the last second", e->port,
		        fwd_fmt_count(n, e->count), e->reason);
	else if (strcmp(e->object, "iface") == 0)
		fprintf(out, "iface %s %s%s%s", e->action, e->port, e->reason[0] ? " " : "",
		        e->reason);
	else if (strcmp(e->object, "vrf") == 0 && strcmp(e->action, "moved") == 0)
		fprintf(out, "vrf %s now holds %s", e->vrf, e->port);
	else if (strcmp(e->object, "vrf") == 0)
		fprintf(out, "vrf %s %s %s", e->action, e->vrf, e->reason);
	else if (strcmp(e->object, "monitor") == 0)
		fprintf(out, "monitor: %s events lost (client too slow)",
		        fwd_fmt_count(n, e->count));
	else
		fprintf(out, "%s %s", e->object, e->action);
	if (e->vrf[0] != '\0' && strcmp(e->object, "vrf") != 0)
		fprintf(out, " vrf %s", e->vrf);
}

static void print_event(struct fwd_cli *cli, bool json, Fwd__Event *e)
{
	char when[16] = "";
	time_t secs = (time_t)(e->time_ns / 1000000000u);
	struct tm tm;

	if (json) {
		fwd_json_message(cli->out, &e->base);
		fputc('\n', cli->out);
		return;
	}
	if (localtime_r(&secs, &tm) != NULL)
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	sanitize_event(e);
	fprintf(cli->out, "%s.%03u ", when, (unsigned)(e->time_ns % 1000000000u / 1000000u));
	fwd_monitor_line(cli->out, e);
	fputc('\n', cli->out);
}

static void print_lost(struct fwd_cli *cli, bool json, uint64_t lost)
{
	Fwd__Event e = FWD__EVENT__INIT;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	e.time_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	e.object = "monitor";
	e.action = "lost";
	e.count = lost;
	print_event(cli, json, &e);
}

static int monitor_page(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	const bool *json = arg;
	const Fwd__MonitorEvents *p = r->events;

	if (r->body_case != FWD__RESPONSE__BODY_EVENTS)
		return 0;
	if (p->lost > 0)
		print_lost(cli, *json, p->lost);
	for (size_t i = 0; i < p->n_events; i++)
		print_event(cli, *json, p->events[i]);
	if (fflush(cli->out) != 0) {
		fprintf(cli->err, "fwdctl: monitor: cannot write the output\n");
		return -ECANCELED;
	}
	return 0;
}

static bool known_object(const char *s)
{
	char word[FWD_CLI_NAME_MAX + 3];

	if (s[0] == '\0' || strlen(s) > FWD_CLI_NAME_MAX || strchr(s, ' ') != NULL)
		return false;
	snprintf(word, sizeof(word), " %s ", s);
	return strstr(" " MONITOR_OBJECTS " ", word) != NULL;
}

static int monitor_run(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__MonitorReq m = FWD__MONITOR_REQ__INIT;
	bool json = cli->json;
	int rc;

	for (int i = 0; i < argc; i++)
		if (!known_object(argv[i]))
			return fwd_cli_usage(cli, "unknown object: %.*s (%s)", FWD_CLI_NAME_MAX,
			                     argv[i], MONITOR_OBJECTS);
	m.objects = argv;
	m.n_objects = (size_t)argc;
	req.body_case = FWD__REQUEST__BODY_MONITOR;
	req.monitor = &m;
	fwd_cli_catch_sigint(cli);
	cli->json = false; /* one document per event, not one for the stream */
	rc = fwd_cli_call(cli, &req, monitor_page, &json);
	cli->json = json;
	return rc;
}

static struct fwd_cli_object monitor_obj = {
	.name = "monitor",
	.usage = "monitor [port|addr|route|neigh|fdb|config|drops|iface]...",
	.run = monitor_run,
};
FWD_CLI_OBJECT(monitor_obj);
