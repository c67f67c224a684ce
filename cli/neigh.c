/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl [-4|-6] neigh list [dev IFACE] | add ADDRESS lladdr MAC dev IFACE
 *             | del ADDRESS dev IFACE | flush [dev IFACE]   (either family)
 * The daemon checks addresses and MACs (one place, one message); the CLI
 * checks the grammar.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fwd_inet.h"
#include "table.h"

#define FIELD_MAX 64 /* a field of a row as shown, longer ones cut */

struct neigh_row {
	struct fwd_ip ip; /* for sorting; family 0 when the daemon sent something odd */
	char addr[FIELD_MAX], mac[FIELD_MAX], port[FIELD_MAX], state[FIELD_MAX];
	uint64_t age_s;
	uint32_t held;
};

struct neigh_rows {
	struct neigh_row *v;
	size_t n, cap;
};

static void copy(char dst[FIELD_MAX], const char *s)
{
	snprintf(dst, FIELD_MAX, "%s", s != NULL && s[0] != '\0' ? s : "-");
	fwd_sanitize(dst);
}

static int add_rows(struct neigh_rows *rows, const Fwd__NeighListResp *r)
{
	for (size_t i = 0; i < r->n_neighbours; i++) {
		const Fwd__NeighEntry *e = r->neighbours[i];
		struct neigh_row *row;

		if (rows->n == rows->cap) {
			size_t cap = rows->cap ? rows->cap * 2 : 64;
			struct neigh_row *v = realloc(rows->v, cap * sizeof(*v));
			if (v == NULL)
				return -ENOMEM;
			rows->v = v;
			rows->cap = cap;
		}
		row = &rows->v[rows->n++];
		copy(row->addr, e->address);
		copy(row->mac, e->mac);
		copy(row->port, e->port);
		copy(row->state, e->state);
		row->age_s = e->age_s;
		row->held = e->held;
		if (fwd_ip_parse(row->addr, &row->ip) < 0)
			memset(&row->ip, 0, sizeof(row->ip));
	}
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct neigh_row *x = a, *y = b;
	int c = strcmp(x->port, y->port);

	if (c != 0)
		return c;
	/* IPv4 before IPv6, each in address order */
	if (x->ip.family != y->ip.family)
		return x->ip.family < y->ip.family ? -1 : 1;
	if (x->ip.family == AF_INET6)
		return memcmp(x->ip.v6, y->ip.v6, 16);
	return x->ip.v4 < y->ip.v4 ? -1 : x->ip.v4 > y->ip.v4;
}

static void print_rows(struct neigh_rows *rows, FILE *out)
{
	static const char *const hdr[] = { "ADDRESS", "MAC", "PORT", "STATE", ">AGE", ">HELD" };
	struct fwd_table *t = fwd_table_new(6, hdr);
	char age[FWD_FMT_LEN];

	if (t == NULL)
		return;
	if (rows->n > 1) /* qsort of nothing may not take NULL */
		qsort(rows->v, rows->n, sizeof(*rows->v), row_cmp);
	for (size_t i = 0; i < rows->n; i++) {
		const struct neigh_row *r = &rows->v[i];

		fwd_table_cell(t, "%s", r->addr);
		fwd_table_cell(t, "%s", r->mac);
		fwd_table_cell(t, "%s", r->port);
		fwd_table_cell(t, "%s", r->state);
		fwd_table_cell(t, "%s", fwd_fmt_duration(age, r->age_s));
		fwd_table_cell(t, "%" PRIu32, r->held);
	}
	fwd_table_print(t, out);
	fwd_table_free(t);
}

/* Rows of every page are sorted and printed after the last one. */
static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	struct neigh_rows *rows = arg;

	if (r->body_case == FWD__RESPONSE__BODY_NEIGH_LIST && add_rows(rows, r->neigh_list) < 0)
		return -ENOMEM;
	if (!r->more)
		print_rows(rows, cli->out);
	return 0;
}

static int flush_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	(void)arg;
	if (r->body_case == FWD__RESPONSE__BODY_NEIGH_FLUSH)
		fprintf(cli->out, "%" PRIu64 " neighbour%s flushed\n", r->neigh_flush->flushed,
		        r->neigh_flush->flushed == 1 ? "" : "s");
	return 0;
}

/* "[dev IFACE]" at argv[1]: *port stays NULL without it. */
static int optional_dev(struct fwd_cli *cli, int argc, char **argv, char **port)
{
	*port = NULL;
	if (argc == 1)
		return 0;
	if (argc != 3 || strcmp(argv[1], "dev") != 0)
		return fwd_cli_usage(cli, "expected: %s [dev IFACE]", argv[0]);
	*port = argv[2];
	return fwd_cli_check_arg(cli, "interface name", *port);
}

static int neigh_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighListReq list = FWD__NEIGH_LIST_REQ__INIT;
	struct neigh_rows rows = { 0 };
	char *port;
	int rc;

	if (optional_dev(cli, argc, argv, &port))
		return FWD_EXIT_USAGE;
	list.port = port != NULL ? port : "";
	list.family = cli->family;
	list.vrf = (char *)fwd_cli_vrf(cli);
	req.body_case = FWD__REQUEST__BODY_NEIGH_LIST;
	req.neigh_list = &list;
	rc = fwd_cli_call(cli, &req, list_print, &rows);
	free(rows.v);
	return rc;
}

static int neigh_flush(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighFlushReq flush = FWD__NEIGH_FLUSH_REQ__INIT;
	char *port;

	if (fwd_cli_no_vrf(cli) || optional_dev(cli, argc, argv, &port))
		return FWD_EXIT_USAGE;
	flush.port = port != NULL ? port : "";
	req.body_case = FWD__REQUEST__BODY_NEIGH_FLUSH;
	req.neigh_flush = &flush;
	return fwd_cli_call(cli, &req, flush_print, NULL);
}

static int neigh_add(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighAddReq add = FWD__NEIGH_ADD_REQ__INIT;

	if (fwd_cli_no_vrf(cli))
		return FWD_EXIT_USAGE;
	if (argc != 6 || strcmp(argv[2], "lladdr") != 0 || strcmp(argv[4], "dev") != 0)
		return fwd_cli_usage(cli, "expected: add ADDRESS lladdr MAC dev IFACE");
	if (fwd_cli_check_arg(cli, "address", argv[1]) ||
	    fwd_cli_check_arg(cli, "MAC address", argv[3]) ||
	    fwd_cli_check_arg(cli, "interface name", argv[5]))
		return FWD_EXIT_USAGE;
	add.address = argv[1];
	add.mac = argv[3];
	add.port = argv[5];
	req.body_case = FWD__REQUEST__BODY_NEIGH_ADD;
	req.neigh_add = &add;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int neigh_del(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__NeighDelReq del = FWD__NEIGH_DEL_REQ__INIT;

	if (fwd_cli_no_vrf(cli))
		return FWD_EXIT_USAGE;
	if (argc != 4 || strcmp(argv[2], "dev") != 0)
		return fwd_cli_usage(cli, "expected: del ADDRESS dev IFACE");
	if (fwd_cli_check_arg(cli, "address", argv[1]) ||
	    fwd_cli_check_arg(cli, "interface name", argv[3]))
		return FWD_EXIT_USAGE;
	del.address = argv[1];
	del.port = argv[3];
	req.body_case = FWD__REQUEST__BODY_NEIGH_DEL;
	req.neigh_del = &del;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int neigh_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", neigh_list },   { "add", neigh_add }, { "del", neigh_del },
		{ "flush", neigh_flush }, { NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object neigh_obj = {
	.name = "neigh",
	.usage = "[-4|-6] [-V VRF] neigh list [dev IFACE]\n"
	         "neigh add ADDRESS lladdr MAC dev IFACE\n"
	         "neigh del ADDRESS dev IFACE\n"
	         "neigh flush [dev IFACE]",
	.run = neigh_run,
	.takes_vrf = true,
};
FWD_CLI_OBJECT(neigh_obj);
