/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl [-4|-6] [-V VRF] addr list [dev PORT] | add PREFIX dev PORT | del PREFIX dev PORT (either
 * family)
 */
#include <string.h>

#include "cli.h"
#include "fwd_inet.h"
#include "table.h"

static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "PORT", "ADDRESS", "STATE" };
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_ADDR_LIST || (t = fwd_table_new(3, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->addr_list->n_addresses; i++) {
		const Fwd__AddrEntry *e = r->addr_list->addresses[i];

		fwd_table_cell(t, "%s", e->port);
		fwd_table_cell(t, "%s", e->prefix);
		/* IPv6 addresses say their DAD state; IPv4 ones are simply in use */
		fwd_table_cell(t, "%s", e->state != NULL && e->state[0] ? e->state : "preferred");
	}
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static int addr_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__AddrListReq list = FWD__ADDR_LIST_REQ__INIT;

	if (argc == 3 && strcmp(argv[1], "dev") == 0)
		list.port = argv[2];
	else if (argc != 1)
		return fwd_cli_usage(cli, "expected: list [dev PORT]");
	list.family = cli->family;
	list.vrf = (char *)fwd_cli_vrf(cli);
	req.body_case = FWD__REQUEST__BODY_ADDR_LIST;
	req.addr_list = &list;
	return fwd_cli_call(cli, &req, list_print, NULL);
}

/* add|del PREFIX dev PORT */
static int addr_change(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__AddrAddReq add = FWD__ADDR_ADD_REQ__INIT;
	Fwd__AddrDelReq del = FWD__ADDR_DEL_REQ__INIT;
	struct fwd_prefix p;

	if (fwd_cli_no_vrf(cli))
		return FWD_EXIT_USAGE;
	if (argc != 4 || strcmp(argv[2], "dev") != 0)
		return fwd_cli_usage(cli, "expected: %s PREFIX dev PORT", argv[0]);
	if (fwd_prefix_parse(argv[1], &p, true) < 0 || strchr(argv[1], '/') == NULL)
		return fwd_cli_usage(cli, "bad address: %.50s (expected A.B.C.D/N or X:X::X/N)",
		                     argv[1]);
	if (strcmp(argv[0], "add") == 0) {
		add.prefix = argv[1];
		add.port = argv[3];
		req.body_case = FWD__REQUEST__BODY_ADDR_ADD;
		req.addr_add = &add;
	} else {
		del.prefix = argv[1];
		del.port = argv[3];
		req.body_case = FWD__REQUEST__BODY_ADDR_DEL;
		req.addr_del = &del;
	}
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int addr_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", addr_list },
		{ "add", addr_change },
		{ "del", addr_change },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object addr_obj = {
	.name = "addr",
	.usage = "[-4|-6] [-V VRF] addr list [dev PORT]\naddr add A.B.C.D/N|X:X::X/N dev PORT\n"
	         "addr del A.B.C.D/N|X:X::X/N dev PORT",
	.run = addr_run,
	.takes_vrf = true,
};
FWD_CLI_OBJECT(addr_obj);
