/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl bond list | show NAME (bonds[] in fwd.yaml(5)): members, their
 * link, who carries traffic, and both sides' LACP state. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "table.h"

static void bond_row(struct fwd_table *t, const Fwd__BondInfo *b)
{
	char members[512] = "";
	size_t len = 0;

	for (size_t k = 0; k < b->n_members && len < sizeof(members); k++)
		len += snprintf(members + len, sizeof(members) - len, "%s%s%s", k ? " " : "",
		                b->members[k]->name, b->members[k]->distributing ? "*" : "");
	fwd_table_cell(t, "%s", b->name);
	fwd_table_cell(t, "%s", b->mode);
	fwd_table_cell(t, "%s", b->hash);
	fwd_table_cell(t, "%s", b->up ? "up" : "down");
	fwd_table_cell(t, "%" PRIu32 "/%zu", b->distributing, b->n_members);
	fwd_table_cell(t, "%s", b->active[0] ? b->active : "-");
	fwd_table_cell(t, "%" PRIu64, b->failovers);
	fwd_table_cell(t, "%s", members);
}

static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "NAME",       "MODE",
		                           "HASH",       "STATE",
		                           ">DIST",      "ACTIVE",
		                           ">FAILOVERS", "MEMBERS (*: distributing)" };
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_BOND_LIST || (t = fwd_table_new(8, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->bond_list->n_bonds; i++)
		bond_row(t, r->bond_list->bonds[i]);
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static void lacp_side(FILE *out, const char *who, const Fwd__LacpPortInfo *p)
{
	fprintf(out,
	        "    %-7s system %" PRIu32 ",%s key %" PRIu32 " port %" PRIu32 " prio %" PRIu32
	        " state",
	        who, p->system_priority, p->system, p->key, p->port, p->port_priority);
	for (size_t i = 0; i < p->n_state; i++)
		fprintf(out, "%s%s", i ? "," : " ", p->state[i]);
	fputs(p->n_state ? "\n" : " -\n", out);
}

static void member_print(FILE *out, const Fwd__BondMember *m)
{
	fprintf(out, "  member %s: link %s%s%s%s", m->name, m->link_up ? "up" : "down",
	        m->collecting ? ", collecting" : "", m->distributing ? ", distributing" : "",
	        m->active ? ", active" : "");
	if (m->selected[0] != '\0')
		fprintf(out, ", %s, mux %s, rx %s", m->selected, m->mux, m->rx);
	fprintf(out, "; %" PRIu64 " link changes\n", m->link_changes);
	if (m->actor != NULL)
		lacp_side(out, "actor", m->actor);
	if (m->partner != NULL)
		lacp_side(out, "partner", m->partner);
	if (m->actor != NULL)
		fprintf(out,
		        "    LACPDUs rx %" PRIu64 " tx %" PRIu64 ", markers %" PRIu64
		        ", refused %" PRIu64 "\n",
		        m->lacpdu_rx, m->lacpdu_tx, m->marker_rx, m->lacp_bad);
}

static int show_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_BOND_LIST)
		return 0;
	for (size_t i = 0; i < r->bond_list->n_bonds; i++) {
		const Fwd__BondInfo *b = r->bond_list->bonds[i];

		fprintf(cli->out, "bond %s: %s", b->name, b->mode);
		if (strcmp(b->mode, "lacp") == 0)
			fprintf(cli->out, ", rate %s", b->lacp_rate);
		fprintf(cli->out,
		        ", hash %s, min_links %" PRIu32 ", %s, %" PRIu32
		        " distributing, mac %s, %" PRIu64 " failovers\n",
		        b->hash, b->min_links, b->up ? "up" : "down", b->distributing, b->mac,
		        b->failovers);
		for (size_t k = 0; k < b->n_members; k++)
			member_print(cli->out, b->members[k]);
	}
	return 0;
}

static int bond_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__BondListReq list = FWD__BOND_LIST_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	req.body_case = FWD__REQUEST__BODY_BOND_LIST;
	req.bond_list = &list;
	return fwd_cli_call(cli, &req, list_print, NULL);
}

static int bond_show(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__BondShowReq show = FWD__BOND_SHOW_REQ__INIT;

	if (argc != 2)
		return fwd_cli_usage(cli, "show needs a bond's NAME");
	if (fwd_cli_check_arg(cli, "bond name", argv[1]))
		return FWD_EXIT_USAGE;
	show.name = argv[1];
	req.body_case = FWD__REQUEST__BODY_BOND_SHOW;
	req.bond_show = &show;
	return fwd_cli_call(cli, &req, show_print, NULL);
}

static int bond_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", bond_list },
		{ "show", bond_show },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object bond_obj = {
	.name = "bond",
	.usage = "bond list\n"
	         "bond show NAME",
	.run = bond_run,
};
FWD_CLI_OBJECT(bond_obj);
