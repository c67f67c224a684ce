/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl iface list | add | del | set (interfaces: ports, VLANs, loopbacks) */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "table.h"

static const char *updown(protobuf_c_boolean up)
{
	return up ? "up" : "down";
}

static void iface_row(struct fwd_table *t, const Fwd__IfaceInfo *f)
{
	char addrs[2048] = "-";
	size_t len = 0;

	for (size_t k = 0; k < f->n_addresses && len < sizeof(addrs); k++)
		len += snprintf(addrs + len, sizeof(addrs) - len, "%s%s", k ? " " : "",
		                f->addresses[k]);
	fwd_table_cell(t, "%s", f->name);
	fwd_table_cell(t, "%s", f->type);
	fwd_table_cell(t, "%s", f->parent[0] ? f->parent : "-");
	if (f->vlan)
		fwd_table_cell(t, "%" PRIu32, f->vlan);
	else
		fwd_table_cell(t, "-");
	fwd_table_cell(t, "%s", f->mode[0] ? f->mode : "-");
	fwd_table_cell(t, "%s", f->vrf[0] ? f->vrf : "default");
	fwd_table_cell(t, "%s", updown(f->admin_up));
	fwd_table_cell(t, "%s", updown(f->link_up));
	fwd_table_cell(t, "%" PRIu32, f->mtu);
	fwd_table_cell(t, "%s", f->mac[0] ? f->mac : "-");
	fwd_table_cell(t, "%s", addrs);
}

static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "NAME",  "TYPE", "PARENT", ">VLAN", "MODE",     "VRF",
		                           "ADMIN", "LINK", ">MTU",   "MAC",   "ADDRESSES" };
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_IFACE_LIST || (t = fwd_table_new(11, hdr)) == NULL)
		return 0;
	for (size_t i = 0; i < r->iface_list->n_ifaces; i++)
		iface_row(t, r->iface_list->ifaces[i]);
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static int iface_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__IfaceListReq list = FWD__IFACE_LIST_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	req.body_case = FWD__REQUEST__BODY_IFACE_LIST;
	req.iface_list = &list;
	return fwd_cli_call(cli, &req, list_print, NULL);
}

/* A decimal in lo..hi; else a usage message and false. */
static bool number(struct fwd_cli *cli, const char *what, const char *s, uint32_t lo, uint32_t hi,
                   uint32_t *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 || x < lo || x > hi) {
		fwd_cli_usage(cli, "bad %s: %.*s (expected %" PRIu32 "-%" PRIu32 ")", what,
		              FWD_CLI_NAME_MAX, s, lo, hi);
		return false;
	}
	*v = (uint32_t)x;
	return true;
}

/* add NAME port PORT vlan N [mtu M] */
static int add_vlan(struct fwd_cli *cli, int argc, char **argv, Fwd__IfaceAddReq *add)
{
	if (argc != 6 && argc != 8)
		return fwd_cli_usage(cli, "expected: add NAME port PORT vlan N [mtu M]");
	if (strcmp(argv[4], "vlan") != 0 || (argc == 8 && strcmp(argv[6], "mtu") != 0))
		return fwd_cli_usage(cli, "expected: add NAME port PORT vlan N [mtu M]");
	if (fwd_cli_check_arg(cli, "port name", argv[3]))
		return FWD_EXIT_USAGE;
	add->port = argv[3];
	if (!number(cli, "VLAN", argv[5], 1, 4094, &add->vlan) ||
	    (argc == 8 && !number(cli, "MTU", argv[7], 68, 9600, &add->mtu)))
		return FWD_EXIT_USAGE;
	return 0;
}

static int iface_add(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__IfaceAddReq add = FWD__IFACE_ADD_REQ__INIT;
	int rc;

	if (argc < 3)
		return fwd_cli_usage(cli, "add needs NAME and port PORT vlan N, or loopback");
	if (fwd_cli_check_arg(cli, "interface name", argv[1]))
		return FWD_EXIT_USAGE;
	add.name = argv[1];
	if (strcmp(argv[2], "loopback") == 0) {
		if (argc != 3)
			return fwd_cli_usage(cli, "too many arguments");
		add.loopback = true;
	} else if (strcmp(argv[2], "port") == 0) {
		if ((rc = add_vlan(cli, argc, argv, &add)) != 0)
			return rc;
	} else {
		return fwd_cli_usage(cli, "expected port or loopback, not: %.*s", FWD_CLI_NAME_MAX,
		                     argv[2]);
	}
	req.body_case = FWD__REQUEST__BODY_IFACE_ADD;
	req.iface_add = &add;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int iface_del(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__IfaceDelReq del = FWD__IFACE_DEL_REQ__INIT;

	if (argc != 2)
		return fwd_cli_usage(cli, argc < 2 ? "del needs NAME" : "too many arguments");
	if (fwd_cli_check_arg(cli, "interface name", argv[1]))
		return FWD_EXIT_USAGE;
	del.name = argv[1];
	req.body_case = FWD__REQUEST__BODY_IFACE_DEL;
	req.iface_del = &del;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

/* set NAME up|down|mtu N|vrf VRF */
static int iface_set(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__IfaceSetReq set = FWD__IFACE_SET_REQ__INIT;

	if (argc < 3)
		return fwd_cli_usage(cli, "set needs NAME and up, down, mtu N or vrf VRF");
	if (fwd_cli_check_arg(cli, "interface name", argv[1]))
		return FWD_EXIT_USAGE;
	set.name = argv[1];
	if (strcmp(argv[2], "mtu") == 0) {
		if (argc != 4)
			return fwd_cli_usage(cli, "expected: set NAME mtu N");
		if (!number(cli, "MTU", argv[3], 68, 9600, &set.mtu))
			return FWD_EXIT_USAGE;
	} else if (strcmp(argv[2], "vrf") == 0) {
		if (argc != 4)
			return fwd_cli_usage(cli, "expected: set NAME vrf VRF");
		if (fwd_cli_check_arg(cli, "VRF name", argv[3]))
			return FWD_EXIT_USAGE;
		set.vrf = argv[3];
	} else if (strcmp(argv[2], "up") == 0 || strcmp(argv[2], "down") == 0) {
		if (argc != 3)
			return fwd_cli_usage(cli, "too many arguments");
		set.set_admin = true;
		set.up = strcmp(argv[2], "up") == 0;
	} else {
		return fwd_cli_usage(cli, "expected up, down, mtu or vrf, not: %.*s",
		                     FWD_CLI_NAME_MAX, argv[2]);
	}
	req.body_case = FWD__REQUEST__BODY_IFACE_SET;
	req.iface_set = &set;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int iface_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", iface_list }, { "add", iface_add }, { "del", iface_del },
		{ "set", iface_set },   { NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object iface_obj = {
	.name = "iface",
	.usage = "iface list\n"
	         "iface add NAME port PORT vlan N [mtu M]\n"
	         "iface add NAME loopback\n"
	         "iface del NAME\n"
	         "iface set NAME up|down|mtu N|vrf VRF",
	.run = iface_run,
};
FWD_CLI_OBJECT(iface_obj);
