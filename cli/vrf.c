/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl vrf list: each VRF (vrfs[] in fwd.yaml(5)), its table, interfaces and routes */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "table.h"

static void vrf_row(struct fwd_table *t, const Fwd__VrfInfo *v)
{
	char ifaces[1024] = "-";
	size_t len = 0;

	for (size_t k = 0; k < v->n_interfaces && len < sizeof(ifaces); k++)
		len += (size_t)snprintf(ifaces + len, sizeof(ifaces) - len, "%s%s", k ? " " : "",
		                        v->interfaces[k]);
	fwd_table_cell(t, "%s", v->name);
	fwd_table_cell(t, "%" PRIu32, v->table);
	fwd_table_cell(t, "%" PRIu64, v->routes_ip4);
	fwd_table_cell(t, "%" PRIu64, v->routes_ip6);
	fwd_table_cell(t, "%s", ifaces);
}

static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "NAME", ">TABLE", ">ROUTES4", ">ROUTES6", "INTERFACES" };
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_VRF_LIST || (t = fwd_table_new(5, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->vrf_list->n_vrfs; i++)
		vrf_row(t, r->vrf_list->vrfs[i]);
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static int vrf_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__VrfListReq list = FWD__VRF_LIST_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	req.body_case = FWD__REQUEST__BODY_VRF_LIST;
	req.vrf_list = &list;
	return fwd_cli_call(cli, &req, list_print, NULL);
}

static int vrf_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", vrf_list },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object vrf_obj = {
	.name = "vrf",
	.usage = "vrf list             (VRFs, their tables, route counts and interfaces)",
	.run = vrf_run,
};
FWD_CLI_OBJECT(vrf_obj);
