/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl bridge list | fdb [BRIDGE] | flush [BRIDGE] */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "table.h"

static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "NAME",     ">FDB",  ">MAX",   ">AGING", ">LEARNED",
		                           ">FLOODED", ">FULL", ">MOVED", ">AGED",  "MEMBERS" };
	struct fwd_table *t;
	char members[1024];

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_BRIDGE_LIST || (t = fwd_table_new(10, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->bridge_list->n_bridges; i++) {
		const Fwd__BridgeInfo *b = r->bridge_list->bridges[i];
		size_t len = 0;

		strcpy(members, "-");
		for (size_t m = 0; m < b->n_members && len < sizeof(members); m++)
			len += snprintf(members + len, sizeof(members) - len, "%s%s", m ? " " : "",
			                b->members[m]);
		fwd_table_cell(t, "%s", b->name);
		fwd_table_cell(t, "%" PRIu64, b->fdb_size);
		fwd_table_cell(t, "%" PRIu64, b->fdb_max);
		fwd_table_cell(t, "%" PRIu32 "s", b->mac_aging_s);
		fwd_table_cell(t, "%" PRIu64, b->learned);
		fwd_table_cell(t, "%" PRIu64, b->flooded);
		fwd_table_cell(t, "%" PRIu64, b->fdb_full);
		fwd_table_cell(t, "%" PRIu64, b->moved);
		fwd_table_cell(t, "%" PRIu64, b->aged);
		fwd_table_cell(t, "%s", members);
	}
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

/* Rows of every page go into one table, printed after the last page. */
static int fdb_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "BRIDGE", "MAC", "PORT", ">AGE" };
	struct fwd_table **t = arg;
	char age[FWD_FMT_LEN];

	if (*t == NULL && (*t = fwd_table_new(4, hdr)) == NULL)
		return -ENOMEM;
	for (size_t i = 0;
	     r->body_case == FWD__RESPONSE__BODY_BRIDGE_FDB && i < r->bridge_fdb->n_entries; i++) {
		const Fwd__FdbEntry *e = r->bridge_fdb->entries[i];

		fwd_table_cell(*t, "%s", e->bridge);
		fwd_table_cell(*t, "%s", e->mac);
		fwd_table_cell(*t, "%s", e->port);
		fwd_table_cell(*t, "%s", e->is_static ? "static" : fwd_fmt_duration(age, e->age_s));
	}
	if (!r->more)
		fwd_table_print(*t, cli->out);
	return 0;
}

static int flush_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	(void)arg;
	if (r->body_case == FWD__RESPONSE__BODY_BRIDGE_FLUSH)
		fprintf(cli->out, "%" PRIu64 " entr%s flushed\n", r->bridge_flush->flushed,
		        r->bridge_flush->flushed == 1 ? "y" : "ies");
	return 0;
}

/* The optional BRIDGE of fdb and flush; NULL with *rc set on a usage error. */
static char *bridge_arg(struct fwd_cli *cli, int argc, char **argv, int *rc)
{
	*rc = 0;
	if (argc > 2) {
		*rc = fwd_cli_usage(cli, "too many arguments");
		return NULL;
	}
	if (argc < 2)
		return "";
	if (argv[1][0] == '\0' || strlen(argv[1]) > FWD_CLI_NAME_MAX) {
		*rc = fwd_cli_usage(cli, "bad bridge name: %.*s", FWD_CLI_NAME_MAX, argv[1]);
		return NULL;
	}
	return argv[1];
}

static int bridge_fdb(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__BridgeFdbReq fdb = FWD__BRIDGE_FDB_REQ__INIT;
	struct fwd_table *t = NULL;
	int rc;

	if ((fdb.bridge = bridge_arg(cli, argc, argv, &rc)) == NULL)
		return rc;
	req.body_case = FWD__REQUEST__BODY_BRIDGE_FDB;
	req.bridge_fdb = &fdb;
	rc = fwd_cli_call(cli, &req, fdb_print, &t);
	fwd_table_free(t);
	return rc;
}

static int bridge_flush(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__BridgeFlushReq flush = FWD__BRIDGE_FLUSH_REQ__INIT;
	int rc;

	if ((flush.bridge = bridge_arg(cli, argc, argv, &rc)) == NULL)
		return rc;
	req.body_case = FWD__REQUEST__BODY_BRIDGE_FLUSH;
	req.bridge_flush = &flush;
	return fwd_cli_call(cli, &req, flush_print, NULL);
}

static int bridge_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__BridgeListReq list = FWD__BRIDGE_LIST_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	req.body_case = FWD__REQUEST__BODY_BRIDGE_LIST;
	req.bridge_list = &list;
	return fwd_cli_call(cli, &req, list_print, NULL);
}

static int bridge_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", bridge_list },
		{ "fdb", bridge_fdb },
		{ "flush", bridge_flush },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object bridge_obj = {
	.name = "bridge",
	.usage = "bridge list\nbridge fdb [BRIDGE]\nbridge flush [BRIDGE]",
	.run = bridge_run,
};
FWD_CLI_OBJECT(bridge_obj);
