/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl [-4|-6] [-V VRF] route list | get ADDRESS | add PREFIX via ADDRESS [dev IFACE]
 * [via ADDRESS [dev IFACE]]... | add PREFIX dev IFACE | add PREFIX
 * blackhole|unreachable|prohibit | add PREFIX next_vrf VRF | replace ... | del PREFIX |
 * load FILE (either family; -V: the VRF of each)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fwd_inet.h"
#include "table.h"

#define LOAD_CHUNK_LINES 4000 /* ~200 KiB per request: well under the frame cap */
#define LOAD_LINE_MAX    256

/* Rows are printed as pages arrive (a full table is a million lines), so the
 * columns have fixed widths: those of any IPv4 route with -4, else room for
 * usual IPv6 ones too. */
static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	bool *header = arg;
	int pw = cli->family == 4 ? 18 : 28, vw = cli->family == 4 ? 15 : 25;

	if (r->body_case != FWD__RESPONSE__BODY_ROUTE_LIST)
		return 0;
	if (!*header) {
		fprintf(cli->out, "%-*s  %-11s  %-*s  %-8s  %s\n", pw, "PREFIX", "TYPE", vw, "VIA",
		        "DEV", "ORIGIN");
		*header = true;
	}
	for (size_t i = 0; i < r->route_list->n_routes; i++) {
		const Fwd__RouteEntry *e = r->route_list->routes[i];
		char next[80];

		/* a next-vrf route's VIA is the VRF it looks in */
		snprintf(next, sizeof(next), "vrf %s", e->next_vrf);
		fprintf(cli->out, "%-*s  %-11s  %-*s  %-8s  %s\n", pw, fwd_sanitize(e->prefix),
		        fwd_sanitize(e->type), vw,
		        e->next_vrf[0] ? fwd_sanitize(next)
		        : e->via[0]    ? fwd_sanitize(e->via)
		                       : "-",
		        e->dev[0] ? fwd_sanitize(e->dev) : "-", fwd_sanitize(e->origin));
		/* an ECMP route's other next hops, one line each under the first */
		for (size_t k = 1; k < e->n_nexthops; k++)
			fprintf(cli->out, "%-*s  %-11s  %-*s  %s\n", pw, "", "", vw,
			        e->nexthops[k]->via[0] ? fwd_sanitize(e->nexthops[k]->via) : "-",
			        e->nexthops[k]->dev[0] ? fwd_sanitize(e->nexthops[k]->dev) : "-");
	}
	return 0;
}

static int get_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	const Fwd__RouteGetResp *g = r->route_get;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_ROUTE_GET)
		return 0;
	if (!g->found || g->route == NULL) {
		fprintf(cli->out, "no route (packets are dropped with an ICMP net unreachable)\n");
		return 0;
	}
	fprintf(cli->out, "%s %s", fwd_sanitize(g->route->prefix), fwd_sanitize(g->route->type));
	if (g->route->next_vrf[0])
		fprintf(cli->out, " vrf %s", fwd_sanitize(g->route->next_vrf));
	if (g->route->n_nexthops == 0 && g->route->via[0])
		fprintf(cli->out, " via %s", fwd_sanitize(g->route->via));
	if (g->route->n_nexthops == 0 && g->route->dev[0])
		fprintf(cli->out, " dev %s", fwd_sanitize(g->route->dev));
	for (size_t k = 0; k < g->route->n_nexthops; k++) {
		const Fwd__RouteNexthop *h = g->route->nexthops[k];
		if (h->via[0])
			fprintf(cli->out, " via %s", fwd_sanitize(h->via));
		if (h->dev[0])
			fprintf(cli->out, " dev %s", fwd_sanitize(h->dev));
	}
	if (g->neighbour_state[0])
		fprintf(cli->out, " neighbour %s %s",
		        g->neighbour_mac[0] ? fwd_sanitize(g->neighbour_mac) : "-",
		        fwd_sanitize(g->neighbour_state));
	fputc('\n', cli->out);
	return 0;
}

static int check_prefix(struct fwd_cli *cli, const char *s)
{
	struct fwd_prefix p;

	if (fwd_prefix_parse(s, &p, false) < 0 || strchr(s, '/') == NULL)
		return fwd_cli_usage(cli,
		                     "bad prefix: %.50s (expected A.B.C.D/N or X:X::X/N, no host "
		                     "bits)",
		                     s);
	return 0;
}

static int check_ip(struct fwd_cli *cli, const char *s)
{
	struct fwd_ip a;

	if (fwd_ip_parse(s, &a) < 0)
		return fwd_cli_usage(cli, "bad address: %.50s", s);
	return 0;
}

/* add|replace PREFIX via ADDRESS [dev IFACE] [via ADDRESS [dev IFACE]]... |
 * PREFIX dev IFACE | PREFIX blackhole|unreachable|prohibit */
static int route_add(struct fwd_cli *cli, int argc, char **argv, bool replace)
{
	static const char *const kinds[] = { "blackhole", "unreachable", "prohibit" };
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__RouteAddReq add = FWD__ROUTE_ADD_REQ__INIT;
	unsigned n_via = 0;
	bool kind = false;

	if (argc < 3)
		return fwd_cli_usage(cli, "%s needs PREFIX and via ADDRESS, dev IFACE or blackhole",
		                     argv[0]);
	if (check_prefix(cli, argv[1]))
		return FWD_EXIT_USAGE;
	add.prefix = argv[1];
	add.replace = replace;
	add.vrf = (char *)fwd_cli_vrf(cli);
	if (argc == 4 && strcmp(argv[2], "next_vrf") == 0) {
		if (fwd_cli_check_arg(cli, "VRF name", argv[3]))
			return FWD_EXIT_USAGE;
		add.next_vrf = argv[3];
		req.body_case = FWD__REQUEST__BODY_ROUTE_ADD;
		req.route_add = &add;
		return fwd_cli_call(cli, &req, NULL, NULL);
	}
	for (unsigned k = 0; argc == 3 && k < sizeof(kinds) / sizeof(kinds[0]); k++)
		kind |= strcmp(argv[2], kinds[k]) == 0;
	for (int i = 2; !kind && i < argc; i += 2) {
		bool via = strcmp(argv[i], "via") == 0;
		if ((!via && strcmp(argv[i], "dev") != 0) || i + 1 == argc)
			return fwd_cli_usage(
			        cli,
			        "expected: %s PREFIX via ADDRESS [dev IFACE] [via ADDRESS "
			        "[dev IFACE]]... | %s PREFIX dev IFACE | %s PREFIX "
			        "blackhole|unreachable|prohibit",
			        argv[0], argv[0], argv[0]);
		if (via && check_ip(cli, argv[i + 1]))
			return FWD_EXIT_USAGE;
		if (via && ++n_via > 16)
			return fwd_cli_usage(cli, "at most 16 next hops");
	}
	if (argc == 3 && strcmp(argv[2], "blackhole") == 0) {
		add.blackhole = true; /* the form every daemon version knows */
	} else if ((argc == 4 || argc == 6) && n_via == 1 && strcmp(argv[2], "via") == 0) {
		add.via = argv[3];
		if (argc == 6)
			add.dev = argv[5];
	} else {
		add.n_words = (size_t)argc - 2;
		add.words = argv + 2;
	}
	req.body_case = FWD__REQUEST__BODY_ROUTE_ADD;
	req.route_add = &add;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

struct load_state {
	Fwd__RouteLoadReq q;
	char *lines[LOAD_CHUNK_LINES];
	struct timespec t0;
};

static int load_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	const struct load_state *s = arg;
	const Fwd__RouteLoadResp *l = r->route_load;
	char mem[FWD_FMT_LEN];
	struct timespec t1;

	if (r->body_case != FWD__RESPONSE__BODY_ROUTE_LOAD)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t1); /* the last chunk is applied: the wall time ends */
	fprintf(cli->out,
	        "loaded %" PRIu64 " routes (%" PRIu64 " added, %" PRIu64 " replaced) in %.2f s "
	        "(%.2f s in the daemon); %" PRIu64 " routes in the table, FIB+RIB %s\n",
	        l->added + l->replaced, l->added, l->replaced,
	        (t1.tv_sec - s->t0.tv_sec) + (t1.tv_nsec - s->t0.tv_nsec) / 1e9, l->seconds,
	        l->routes, fwd_fmt_bytes(mem, l->memory_bytes));
	return 0;
}

static void load_reset(struct load_state *s)
{
	for (size_t i = 0; i < s->q.n_lines; i++)
		free(s->lines[i]);
	s->q.n_lines = 0;
}

/* Send the chunk in s; the last one prints the totals (or the JSON document). */
static int load_send(struct fwd_cli *cli, struct load_state *s, bool last)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	bool json = cli->json;
	int rc;

	s->q.last = last;
	s->q.lines = s->lines;
	req.body_case = FWD__REQUEST__BODY_ROUTE_LOAD;
	req.route_load = &s->q;
	cli->json = json && last; /* one document for the whole load */
	rc = fwd_cli_call(cli, &req, last ? load_print : NULL, s);
	cli->json = json;
	s->q.first_line += (uint32_t)s->q.n_lines;
	load_reset(s);
	return rc;
}

static int load_file(struct fwd_cli *cli, FILE *f, const char *name)
{
	struct load_state *s = calloc(1, sizeof(*s));
	char line[LOAD_LINE_MAX + 2];
	int rc = FWD_EXIT_OK;

	if (s == NULL)
		return fwd_cli_usage(cli, "out of memory");
	fwd__route_load_req__init(&s->q);
	s->q.name = (char *)name;
	s->q.vrf = (char *)fwd_cli_vrf(cli);
	s->q.first_line = 1;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	while (rc == FWD_EXIT_OK && fgets(line, sizeof(line), f) != NULL) {
		if (strlen(line) > LOAD_LINE_MAX) {
			rc = fwd_cli_usage(cli, "%s:%u: line too long", name,
			                   s->q.first_line + (unsigned)s->q.n_lines);
			break;
		}
		if ((s->lines[s->q.n_lines++] = strdup(line)) == NULL)
			rc = fwd_cli_usage(cli, "out of memory");
		else if (s->q.n_lines == LOAD_CHUNK_LINES)
			rc = load_send(cli, s, false);
	}
	if (rc == FWD_EXIT_OK)
		rc = load_send(cli, s, true);
	load_reset(s);
	free(s);
	return rc;
}

static int route_load(struct fwd_cli *cli, int argc, char **argv)
{
	FILE *f;
	int rc;

	if (argc != 2)
		return fwd_cli_usage(cli, "load needs one FILE (- for standard input)");
	f = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r");
	if (f == NULL) {
		fprintf(cli->err, "fwdctl: route load: %s: %s\n", argv[1], strerror(errno));
		return FWD_EXIT_USAGE;
	}
	rc = load_file(cli, f, argv[1]);
	if (f != stdin)
		fclose(f);
	return rc;
}

static int route_one_arg(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__RouteGetReq get = FWD__ROUTE_GET_REQ__INIT;
	Fwd__RouteDelReq del = FWD__ROUTE_DEL_REQ__INIT;
	bool is_get = strcmp(argv[0], "get") == 0;

	if (argc != 2)
		return fwd_cli_usage(cli, "%s needs one %s", argv[0],
		                     is_get ? "ADDRESS" : "PREFIX");
	if (is_get) {
		if (check_ip(cli, argv[1]))
			return FWD_EXIT_USAGE;
		get.address = argv[1];
		get.vrf = (char *)fwd_cli_vrf(cli);
		req.body_case = FWD__REQUEST__BODY_ROUTE_GET;
		req.route_get = &get;
		return fwd_cli_call(cli, &req, get_print, NULL);
	}
	if (check_prefix(cli, argv[1]))
		return FWD_EXIT_USAGE;
	del.prefix = argv[1];
	del.vrf = (char *)fwd_cli_vrf(cli);
	req.body_case = FWD__REQUEST__BODY_ROUTE_DEL;
	req.route_del = &del;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int route_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__RouteListReq list = FWD__ROUTE_LIST_REQ__INIT;
	bool header = false;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	list.family = cli->family;
	list.vrf = (char *)fwd_cli_vrf(cli);
	req.body_case = FWD__REQUEST__BODY_ROUTE_LIST;
	req.route_list = &list;
	return fwd_cli_call(cli, &req, list_print, &header);
}

static int route_add_cmd(struct fwd_cli *cli, int argc, char **argv)
{
	return route_add(cli, argc, argv, false);
}

static int route_replace_cmd(struct fwd_cli *cli, int argc, char **argv)
{
	return route_add(cli, argc, argv, true);
}

static int route_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", route_list },   { "get", route_one_arg },
		{ "add", route_add_cmd }, { "replace", route_replace_cmd },
		{ "del", route_one_arg }, { "load", route_load },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object route_obj = {
	.name = "route",
	.usage = "[-4|-6] [-V VRF] route list\n"
	         "[-V VRF] route get ADDRESS\n"
	         "route add PREFIX via ADDRESS [dev IFACE] [via ADDRESS [dev IFACE]]...\n"
	         "          (up to 16 next hops: ECMP; dev is needed for a link-local via)\n"
	         "route add PREFIX dev IFACE | add PREFIX blackhole|unreachable|prohibit\n"
	         "route add PREFIX next_vrf VRF   (look the destination up again in VRF)\n"
	         "route replace PREFIX ...   (the forms of add)\n"
	         "route del PREFIX\n"
	         "route load FILE      (one route per line in the forms of add, either family;\n"
	         "                     - reads stdin; -V VRF before route: every command's VRF)",
	.run = route_run,
	.takes_vrf = true,
};
FWD_CLI_OBJECT(route_obj);
