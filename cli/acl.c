/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl acl list | show NAME */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "table.h"

/* "p0 p1" or "-": the ports of an attachment. */
static const char *ports_str(char *buf, size_t len, char **names, size_t n)
{
	size_t at = 0;

	strcpy(buf, "-");
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", names[i]);
	return buf;
}

static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "NAME",   "DEFAULT", ">RULES", ">PACKETS",
		                           ">BYTES", "IN",      "OUT",    "LOCAL" };
	char in[512], out[512];
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_ACL_LIST || (t = fwd_table_new(8, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->acl_list->n_acls; i++) {
		const Fwd__AclInfo *a = r->acl_list->acls[i];

		fwd_table_cell(t, "%s", a->name);
		fwd_table_cell(t, "%s", a->default_action);
		fwd_table_cell(t, "%" PRIu32, a->rule_count);
		fwd_table_cell(t, "%" PRIu64, a->packets);
		fwd_table_cell(t, "%" PRIu64, a->bytes);
		fwd_table_cell(t, "%s", ports_str(in, sizeof(in), a->acl_in, a->n_acl_in));
		fwd_table_cell(t, "%s", ports_str(out, sizeof(out), a->acl_out, a->n_acl_out));
		fwd_table_cell(t, "%s", a->local ? "yes" : "-");
	}
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static const char *or_any(const char *s)
{
	return s != NULL && s[0] != '\0' ? s : "*";
}

/* One row: the match keys, as written; "*" for any. */
static void rule_row(struct fwd_table *t, const Fwd__AclRule *m)
{
	char extra[64] = "";

	if (m->index == 0)
		fwd_table_cell(t, "default");
	else
		fwd_table_cell(t, "%" PRIu32, m->index);
	fwd_table_cell(t, "%s", m->action);
	fwd_table_cell(t, "%s", m->index ? or_any(m->src) : "");
	fwd_table_cell(t, "%s", m->index ? or_any(m->dst) : "");
	fwd_table_cell(t, "%s", m->index ? or_any(m->proto) : "");
	fwd_table_cell(t, "%s", m->index ? or_any(m->sport) : "");
	fwd_table_cell(t, "%s", m->index ? or_any(m->dport) : "");
	snprintf(extra, sizeof(extra), "%s%s%s%s%s%s%s", m->icmp_type[0] ? "type " : "",
	         m->icmp_type, m->icmp_code[0] ? " code " : "", m->icmp_code,
	         m->dscp[0] ? " dscp " : "", m->dscp, m->fragment ? " fragment" : "");
	fwd_table_cell(t, "%s", extra[0] == ' ' ? extra + 1 : extra);
	fwd_table_cell(t, "%" PRIu64, m->packets);
	fwd_table_cell(t, "%" PRIu64, m->bytes);
}

/* Rows of every page go into one table, printed after the last page. */
static int show_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { ">#",    "ACTION", "SRC",   "DST",      "PROTO",
		                           "SPORT", "DPORT",  "OTHER", ">PACKETS", ">BYTES" };
	struct fwd_table **t = arg;

	if (r->body_case != FWD__RESPONSE__BODY_ACL)
		return 0;
	if (*t == NULL) {
		fprintf(cli->out, "acl %s: %" PRIu32 " rules, default %s\n", r->acl->name,
		        r->acl->rule_count, r->acl->default_action);
		if ((*t = fwd_table_new(10, hdr)) == NULL)
			return -ENOMEM;
	}
	for (size_t i = 0; i < r->acl->n_rules; i++)
		rule_row(*t, r->acl->rules[i]);
	if (!r->more)
		fwd_table_print(*t, cli->out);
	return 0;
}

static int acl_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__AclListReq list = FWD__ACL_LIST_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	req.body_case = FWD__REQUEST__BODY_ACL_LIST;
	req.acl_list = &list;
	return fwd_cli_call(cli, &req, list_print, NULL);
}

static int acl_show(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__AclShowReq show = FWD__ACL_SHOW_REQ__INIT;
	struct fwd_table *t = NULL;
	int rc;

	if (argc != 2)
		return fwd_cli_usage(cli, "usage: acl show NAME");
	if (argv[1][0] == '\0' || strlen(argv[1]) > FWD_CLI_NAME_MAX)
		return fwd_cli_usage(cli, "bad acl name: %.*s", FWD_CLI_NAME_MAX, argv[1]);
	show.name = argv[1];
	req.body_case = FWD__REQUEST__BODY_ACL_SHOW;
	req.acl_show = &show;
	rc = fwd_cli_call(cli, &req, show_print, &t);
	fwd_table_free(t);
	return rc;
}

static int acl_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", acl_list },
		{ "show", acl_show },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object acl_obj = {
	.name = "acl",
	.usage = "acl list\nacl show NAME",
	.run = acl_run,
};
FWD_CLI_OBJECT(acl_obj);
