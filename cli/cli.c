/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl [-s SOCKET] [-j|--json] [-4|-6] [-V VRF] OBJECT COMMAND [ARGS]: global
 * options,
 * then the object's own parser. Objects register from constructors.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "client.h"
#include "fwd_frame.h"
#include "fwd_suggest.h"

#ifndef FWD_VERSION
#define FWD_VERSION "unknown"
#endif

static struct fwd_cli_object *objects; /* sorted by name */

void fwd_cli_register(struct fwd_cli_object *obj)
{
	struct fwd_cli_object **p = &objects;

	while (*p != NULL && strcmp((*p)->name, obj->name) < 0)
		p = &(*p)->next;
	obj->next = *p;
	*p = obj;
}

const struct fwd_cli_object *fwd_cli_objects(void)
{
	return objects;
}

static const struct fwd_cli_object *find_object(const char *name)
{
	for (const struct fwd_cli_object *o = objects; o != NULL; o = o->next)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/* Each line of an object's usage: the first after first, the others after rest. */
static void print_object_usage(FILE *f, const struct fwd_cli_object *o, const char *first,
                               const char *rest)
{
	const char *u = o->usage;
	const char *prefix = first;

	while (*u != '\0') {
		size_t n = strcspn(u, "\n");

		if (u[0] == ' ') /* goes on from the line before */
			fprintf(f, "%s       %.*s\n", rest, (int)n, u);
		else
			fprintf(f, "%sfwdctl %.*s\n", prefix, (int)n, u);
		prefix = rest;
		u += n + (u[n] == '\n');
	}
}

static void print_help(FILE *f)
{
	fputs("usage: fwdctl [-s SOCKET] [-j|--json] [-4|-6] [-V VRF] OBJECT COMMAND [ARGS]\n"
	      "       fwdctl help [OBJECT] | -h|--help | --version\n\n"
	      "options:\n"
	      "  -s, --socket PATH  control socket (default: $FWD_SOCKET, "
	      "else " FWD_CLI_SOCKET_DEFAULT ")\n"
	      "  -j, --json         print the reply as one JSON document\n"
	      "  -4, -6             list one address family (route, addr, neigh list)\n"
	      "  -V, --vrf VRF      the VRF of route, addr list, neigh list (default: default)\n\n"
	      "commands:\n",
	      f);
	for (const struct fwd_cli_object *o = objects; o != NULL; o = o->next)
		print_object_usage(f, o, "  ", "  ");
	fputs("\nexit status: 0 ok, 1 refused by the daemon, 2 usage error, 3 daemon unreachable\n"
	      "environment: FWD_SOCKET, FWD_TIMEOUT (seconds to wait for a reply, default 30)\n",
	      f);
}

/* After a usage error: the grammar and the objects, not the whole help. */
static void print_short_usage(FILE *f)
{
	fputs("usage: fwdctl [-s SOCKET] [-j|--json] [-4|-6] [-V VRF] OBJECT COMMAND [ARGS]\n"
	      "objects:",
	      f);
	for (const struct fwd_cli_object *o = objects; o != NULL; o = o->next)
		fprintf(f, " %s", o->name);
	fputs("\n'fwdctl help [OBJECT]' lists the commands\n", f);
}

/* The usage line that names cmd after the object's name ("[-4|-6] route
 * list", "route add ..."), and the indented lines that go on from it. */
static bool usage_line_is(const char *line, size_t n, const char *obj, const char *cmd)
{
	size_t lo = strlen(obj), lc = strlen(cmd);

	if (n > 8 && strncmp(line, "[-4|-6] ", 8) == 0)
		line += 8, n -= 8;
	if (n > 9 && strncmp(line, "[-V VRF] ", 9) == 0)
		line += 9, n -= 9;
	return n > lo + lc && strncmp(line, obj, lo) == 0 && line[lo] == ' ' &&
	       strncmp(line + lo + 1, cmd, lc) == 0 &&
	       (line[lo + 1 + lc] == ' ' || n == lo + 1 + lc);
}

static unsigned usage_lines(const struct fwd_cli_object *o)
{
	unsigned n = 1;

	for (const char *u = o->usage; *u != '\0'; u++)
		n += *u == '\n';
	return n;
}

/* After a mistake in a known command: that command's forms only. */
static void print_command_usage(FILE *f, const struct fwd_cli_object *o, const char *cmd)
{
	const char *u = o->usage, *prefix = "usage: ";
	bool in = false;

	while (*u != '\0') {
		size_t n = strcspn(u, "\n");

		if (u[0] != ' ')
			in = usage_line_is(u, n, o->name, cmd);
		if (in) {
			fprintf(f, "%s%s%.*s\n", prefix, u[0] == ' ' ? "       " : "fwdctl ",
			        (int)n, u);
			prefix = "       ";
		}
		u += n + (u[n] == '\n');
	}
	if (prefix[0] == 'u') /* no line of its own: the object's */
		print_object_usage(f, o, "usage: ", "       ");
}

int fwd_cli_usage(struct fwd_cli *cli, const char *fmt, ...)
{
	va_list ap;

	fprintf(cli->err, "fwdctl: %s%s%s: ", cli->obj->name, cli->command ? " " : "",
	        cli->command ? cli->command : "");
	va_start(ap, fmt);
	vfprintf(cli->err, fmt, ap);
	va_end(ap);
	fputc('\n', cli->err);
	if (cli->command != NULL)
		print_command_usage(cli->err, cli->obj, cli->command);
	else if (usage_lines(cli->obj) <= 4)
		print_object_usage(cli->err, cli->obj, "usage: ", "       ");
	else /* route's ten lines would hide the message */
		fprintf(cli->err, "usage: fwdctl %s COMMAND ... ('fwdctl help %s' lists them)\n",
		        cli->obj->name, cli->obj->name);
	return FWD_EXIT_USAGE;
}

int fwd_cli_check_arg(struct fwd_cli *cli, const char *what, const char *s)
{
	if (s[0] == '\0' || strlen(s) > FWD_CLI_NAME_MAX)
		return fwd_cli_usage(cli, "bad %s: %.*s", what, FWD_CLI_NAME_MAX, s);
	return 0;
}

static int parse_timeout(struct fwd_cli *cli)
{
	const char *s = getenv("FWD_TIMEOUT");
	char *end;
	double v;

	cli->timeout_ms = FWD_CLI_TIMEOUT_MS;
	if (s == NULL || s[0] == '\0')
		return 0;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v) || v <= 0 || v > 86400) {
		fprintf(cli->err,
		        "fwdctl: FWD_TIMEOUT: not a number of seconds in (0, 86400]: %s\n", s);
		return -EINVAL;
	}
	cli->timeout_ms = (int)ceil(v * 1000);
	return 0;
}

/* -V's name: sent as is, the daemon says whether the VRF exists. */
static int check_vrf(struct fwd_cli *cli, const char *s)
{
	if (s[0] != '\0' && strlen(s) <= FWD_CLI_NAME_MAX)
		return 0;
	fprintf(cli->err, "fwdctl: bad VRF name: %.*s\n", FWD_CLI_NAME_MAX, s);
	print_short_usage(cli->err);
	return -1;
}

const char *fwd_cli_vrf(const struct fwd_cli *cli)
{
	return cli->vrf != NULL ? cli->vrf : "";
}

bool fwd_cli_no_vrf(struct fwd_cli *cli)
{
	if (cli->vrf == NULL)
		return false;
	fwd_cli_usage(cli, "-V does not apply to %s", cli->command ? cli->command : "it");
	return true;
}

/* Returns the index of OBJECT in argv, or -(exit status + 1) when done already. */
static int parse_options(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' }, { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },         { "version", no_argument, NULL, 'v' },
		{ "vrf", required_argument, NULL, 'V' },    { NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0; /* full getopt reset: tests call us repeatedly */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+s:jh46V:", longopts, NULL)) != -1) {
		switch (c) {
		case '4':
		case '6':
			cli->family = (unsigned)(c - '0');
			break;
		case 's':
			cli->socket = optarg;
			break;
		case 'j':
			cli->json = true;
			break;
		case 'h':
			print_help(cli->out);
			return -(FWD_EXIT_OK + 1);
		case 'V':
			if (check_vrf(cli, optarg))
				return -(FWD_EXIT_USAGE + 1);
			cli->vrf = optarg;
			break;
		case 'v':
			fprintf(cli->out, "fwdctl %s (API %u)\n", FWD_VERSION, FWD_API_VERSION);
			return -(FWD_EXIT_OK + 1);
		default:
			if (optopt == 's')
				fprintf(cli->err, "fwdctl: option -s needs a socket path\n");
			else if (optopt == 'V')
				fprintf(cli->err, "fwdctl: option -V needs a VRF name\n");
			else if (optopt != 0)
				fprintf(cli->err, "fwdctl: unknown option -%c\n", optopt);
			else
				fprintf(cli->err, "fwdctl: unknown option %s\n", argv[optind - 1]);
			print_short_usage(cli->err);
			return -(FWD_EXIT_USAGE + 1);
		}
	}
	return optind;
}

/* -j/--json (and -4/-6) are also accepted after OBJECT ("fwdctl stats -j" is a
 * common slip). */
static int run_object(struct fwd_cli *cli, int argc, char **argv)
{
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	int n = 0, rc;

	if (args == NULL) {
		fprintf(cli->err, "fwdctl: %s\n", strerror(ENOMEM));
		return FWD_EXIT_UNREACHABLE;
	}
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-j") == 0 || strcmp(argv[i], "--json") == 0)
			cli->json = true;
		else if (strcmp(argv[i], "-4") == 0 || strcmp(argv[i], "-6") == 0)
			cli->family = (unsigned)(argv[i][1] - '0');
		else
			args[n++] = argv[i];
	}
	if (cli->vrf != NULL && !cli->obj->takes_vrf)
		rc = fwd_cli_usage(cli, "-V does not apply to %s", cli->obj->name);
	else
		rc = cli->obj->run(cli, n, args);
	free(args);
	return rc;
}

static int unknown_object(FILE *err, const char *name)
{
	const char *best = NULL;
	unsigned best_d = ~0u;

	for (const struct fwd_cli_object *o = objects; o != NULL; o = o->next)
		if (fwd_suggest_better(name, strlen(name), o->name, &best_d))
			best = o->name;
	fprintf(err, "fwdctl: unknown object: %.*s", FWD_CLI_NAME_MAX, name);
	if (best != NULL)
		fprintf(err, " (did you mean '%s'?)", best);
	fputc('\n', err);
	print_short_usage(err);
	return FWD_EXIT_USAGE;
}

/* fwdctl help: the whole help; fwdctl help OBJECT: that object's forms. */
static int help(struct fwd_cli *cli, int argc, char **argv)
{
	const struct fwd_cli_object *o;

	if (argc == 0) {
		print_help(cli->out);
		return FWD_EXIT_OK;
	}
	if (argc > 1) {
		fputs("fwdctl: help takes one OBJECT\n", cli->err);
		print_short_usage(cli->err);
		return FWD_EXIT_USAGE;
	}
	o = find_object(argv[0]);
	if (o == NULL)
		return unknown_object(cli->err, argv[0]);
	print_object_usage(cli->out, o, "usage: ", "       ");
	return FWD_EXIT_OK;
}

int fwd_cli_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct fwd_cli cli = { .out = out, .err = err };
	int i, rc;

	i = parse_options(&cli, argc, argv);
	if (i < 0)
		return -i - 1;
	if (cli.socket == NULL)
		cli.socket = getenv("FWD_SOCKET");
	if (cli.socket == NULL || cli.socket[0] == '\0')
		cli.socket = FWD_CLI_SOCKET_DEFAULT;
	if (parse_timeout(&cli) < 0)
		return FWD_EXIT_USAGE;
	if (i >= argc) {
		fputs("fwdctl: missing OBJECT\n", err);
		print_short_usage(err);
		return FWD_EXIT_USAGE;
	}
	if (strcmp(argv[i], "help") == 0)
		return help(&cli, argc - i - 1, argv + i + 1);
	cli.obj = find_object(argv[i]);
	if (cli.obj == NULL)
		return unknown_object(err, argv[i]);
	if (i + 1 < argc && (!strcmp(argv[i + 1], "help") || !strcmp(argv[i + 1], "-h") ||
	                     !strcmp(argv[i + 1], "--help"))) {
		print_object_usage(out, cli.obj, "usage: ", "       ");
		return FWD_EXIT_OK;
	}
	rc = run_object(&cli, argc - i - 1, argv + i + 1);
	fwd_cli_disconnect(&cli);
	fflush(out);
	return rc;
}

/* The words of ip(8) and other tools that fwdctl spells differently. */
static bool synonym(const char *typed, const char *cmd)
{
	static const char *const pairs[][2] = {
		{ "show", "list" }, { "ls", "list" },    { "delete", "del" },
		{ "rm", "del" },    { "remove", "del" }, { "lookup", "get" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (strcmp(typed, pairs[i][0]) == 0 && strcmp(cmd, pairs[i][1]) == 0)
			return true;
	return false;
}

int fwd_cli_dispatch(struct fwd_cli *cli, const struct fwd_cli_cmd *cmds, int argc, char **argv)
{
	const char *best = NULL;
	unsigned best_d = ~0u;

	if (argc == 0)
		return fwd_cli_usage(cli, "missing command");
	for (const struct fwd_cli_cmd *c = cmds; c->name != NULL; c++) {
		if (strcmp(argv[0], c->name) == 0) {
			cli->command = c->name;
			return c->run(cli, argc, argv);
		}
	}
	for (const struct fwd_cli_cmd *c = cmds; c->name != NULL; c++)
		if (fwd_suggest_better(argv[0], strlen(argv[0]), c->name, &best_d) ||
		    synonym(argv[0], c->name))
			best = c->name, best_d = 0;
	if (best != NULL)
		return fwd_cli_usage(cli, "unknown command: %.*s (did you mean '%s'?)",
		                     FWD_CLI_NAME_MAX, argv[0], best);
	return fwd_cli_usage(cli, "unknown command: %.*s", FWD_CLI_NAME_MAX, argv[0]);
}
