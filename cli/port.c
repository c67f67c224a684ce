/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "table.h"

static const char *updown(protobuf_c_boolean up)
{
	return up ? "up" : "down";
}

/* Where an xconnect port sends, or which bridge a port is in. */
static const char *attachment(const Fwd__PortInfo *p)
{
	if (p->peer[0] != '\0')
		return p->peer;
	if (p->bridge[0] != '\0')
		return p->bridge;
	return "-";
}

/* Rows of every page go into one table, printed after the last page. */
static int list_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	static const char *const hdr[] = { "NAME",  "MODE", "DEVICE", "LINK",
		                           "ADMIN", "MAC",  ">MTU",   "PEER/BRIDGE" };
	struct fwd_table **t = arg;

	if (*t == NULL && (*t = fwd_table_new(8, hdr)) == NULL)
		return -ENOMEM;
	for (size_t i = 0;
	     r->body_case == FWD__RESPONSE__BODY_PORT_LIST && i < r->port_list->n_ports; i++) {
		const Fwd__PortInfo *p = r->port_list->ports[i];

		fwd_table_cell(*t, "%s", p->name);
		fwd_table_cell(*t, "%s", p->mode);
		fwd_table_cell(*t, "%s", p->device);
		fwd_table_cell(*t, "%s", updown(p->link_up));
		fwd_table_cell(*t, "%s", updown(p->admin_up));
		fwd_table_cell(*t, "%s", p->mac);
		fwd_table_cell(*t, "%" PRIu32, p->mtu);
		fwd_table_cell(*t, "%s", attachment(p));
	}
	if (!r->more)
		fwd_table_print(*t, cli->out);
	return 0;
}

static int port_list(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__PortListReq list = FWD__PORT_LIST_REQ__INIT;
	struct fwd_table *t = NULL;
	int rc;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "list takes no arguments");
	req.body_case = FWD__REQUEST__BODY_PORT_LIST;
	req.port_list = &list;
	rc = fwd_cli_call(cli, &req, list_print, &t);
	fwd_table_free(t);
	return rc;
}

static void show_link(struct fwd_table *t, const Fwd__PortInfo *p)
{
	char speed[FWD_FMT_LEN] = "";

	if (p->link_up && p->link_speed_mbps > 0)
		snprintf(
		        speed, sizeof(speed),
		        p->link_speed_mbps % 1000 ? ", %" PRIu32 " Mbit/s" : ", %" PRIu32 " Gbit/s",
		        p->link_speed_mbps % 1000 ? p->link_speed_mbps : p->link_speed_mbps / 1000);
	fwd_table_cell(t, "link:");
	fwd_table_cell(t, "%s%s%s (%" PRIu64 " change%s)", updown(p->link_up), speed,
	               p->link_up ? (p->link_full_duplex ? " full-duplex" : " half-duplex") : "",
	               p->link_changes, p->link_changes == 1 ? "" : "s");
}

/* "0→w0 (lcore 1), 1→w1 (lcore 2)" and "10.0.0.1/24, ..." */
static void show_lists(struct fwd_table *t, const Fwd__PortInfo *p)
{
	char buf[1024] = "-";
	size_t len = 0;

	for (size_t i = 0; i < p->n_rx_queue_workers && len < sizeof(buf); i++) {
		const Fwd__QueueMap *q = p->rx_queue_workers[i];

		len += snprintf(buf + len, sizeof(buf) - len,
		                "%s%" PRIu32 "→w%" PRIu32 " (lcore %" PRIu32 ")", i ? ", " : "",
		                q->queue, q->worker, q->lcore);
	}
	fwd_table_cell(t, "rx queue→worker:");
	fwd_table_cell(t, "%s", buf);
	strcpy(buf, "-");
	len = 0;
	for (size_t i = 0; i < p->n_addresses && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "",
		                p->addresses[i]);
	fwd_table_cell(t, "addresses:");
	fwd_table_cell(t, "%s", buf);
}

static int show_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	const Fwd__PortInfo *p = r->port;
	struct fwd_table *t;

	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_PORT || (t = fwd_table_new(2, NULL)) == NULL)
		return 0;
	fwd_table_cell(t, "name:");
	fwd_table_cell(t, "%s (port %" PRIu32 ")", p->name, p->port_id);
	fwd_table_cell(t, "device:");
	fwd_table_cell(t, "%s (%s)", p->device, p->driver[0] ? p->driver : "?");
	fwd_table_cell(t, "mode:");
	fwd_table_cell(t, "%s%s%s", p->mode,
	               p->peer[0]     ? ", peer "
	               : p->bridge[0] ? ", bridge "
	                              : "",
	               p->peer[0] ? p->peer : p->bridge);
	fwd_table_cell(t, "mac:");
	fwd_table_cell(t, "%s", p->mac);
	fwd_table_cell(t, "mtu:");
	fwd_table_cell(t, "%" PRIu32, p->mtu);
	fwd_table_cell(t, "admin:");
	fwd_table_cell(t, "%s", updown(p->admin_up));
	show_link(t, p);
	fwd_table_cell(t, "promiscuous:");
	fwd_table_cell(t, "%s", p->promiscuous ? "yes" : "no");
	if (p->rpf[0]) {
		fwd_table_cell(t, "rpf:");
		fwd_table_cell(t, "%s", p->rpf);
	}
	fwd_table_cell(t, "queues:");
	fwd_table_cell(t, "rx %" PRIu32 " x %" PRIu32 " desc, tx %" PRIu32 " x %" PRIu32 " desc",
	               p->rx_queues, p->rxd, p->tx_queues, p->txd);
	show_lists(t, p);
	if (p->tap != NULL) {
		fwd_table_cell(t, "kernel interface:");
		fwd_table_cell(t,
		               "%s (ifindex %" PRIu32 "), up %" PRIu64 " (%" PRIu64
		               " dropped), down %" PRIu64 " (%" PRIu64 " dropped)",
		               p->tap->name, p->tap->ifindex, p->tap->up, p->tap->up_dropped,
		               p->tap->down, p->tap->down_dropped);
	}
	fwd_table_print(t, cli->out);
	fwd_table_free(t);
	return 0;
}

static int port_set(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__PortSetReq set = FWD__PORT_SET_REQ__INIT;

	if (argc != 3)
		return fwd_cli_usage(cli, argc < 3 ? "set needs NAME and up|down"
		                                   : "too many arguments");
	if (fwd_cli_check_arg(cli, "port name", argv[1]))
		return FWD_EXIT_USAGE;
	if (strcmp(argv[2], "up") != 0 && strcmp(argv[2], "down") != 0)
		return fwd_cli_usage(cli, "expected up or down, not: %.*s", FWD_CLI_NAME_MAX,
		                     argv[2]);
	set.name = argv[1];
	set.up = strcmp(argv[2], "up") == 0;
	req.body_case = FWD__REQUEST__BODY_PORT_SET;
	req.port_set = &set;
	return fwd_cli_call(cli, &req, NULL, NULL);
}

static int port_show(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__PortShowReq show = FWD__PORT_SHOW_REQ__INIT;

	if (argc != 2)
		return fwd_cli_usage(cli,
		                     argc < 2 ? "show needs a port NAME" : "too many arguments");
	if (fwd_cli_check_arg(cli, "port name", argv[1]))
		return FWD_EXIT_USAGE;
	show.name = argv[1];
	req.body_case = FWD__REQUEST__BODY_PORT_SHOW;
	req.port_show = &show;
	return fwd_cli_call(cli, &req, show_print, NULL);
}

static int port_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "list", port_list },
		{ "show", port_show },
		{ "set", port_set },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object port_obj = {
	.name = "port",
	.usage = "port list\nport show NAME\nport set NAME up|down",
	.run = port_run,
};
FWD_CLI_OBJECT(port_obj);
