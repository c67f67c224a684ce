/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl config show | reload | check FILE */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "table.h"

#define CHECK_MAX (900u * 1024) /* the file travels in one request under the frame cap */

static int show_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_CONFIG_SHOW)
		return 0;
	for (size_t i = 0; i < r->config_show->n_lines; i++)
		fprintf(cli->out, "%s\n", fwd_sanitize(r->config_show->lines[i]));
	return 0;
}

static int reload_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	(void)arg;
	if (r->body_case != FWD__RESPONSE__BODY_CONFIG_RELOAD)
		return 0;
	if (r->config_reload->n_changes == 0)
		fprintf(cli->out, "no changes\n");
	for (size_t i = 0; i < r->config_reload->n_changes; i++)
		fprintf(cli->out, "%s\n", fwd_sanitize(r->config_reload->changes[i]));
	return 0;
}

struct check_result {
	bool ok;
};

static void check_verdict(const Fwd__Response *r, void *arg)
{
	struct check_result *res = arg;

	if (r->body_case == FWD__RESPONSE__BODY_CONFIG_CHECK)
		res->ok = r->config_check->ok;
}

static int check_print(struct fwd_cli *cli, const Fwd__Response *r, void *arg)
{
	const struct check_result *res = arg;

	if (r->body_case != FWD__RESPONSE__BODY_CONFIG_CHECK)
		return 0;
	fputs(fwd_sanitize_text(r->config_check->errors), cli->err);
	if (res->ok)
		fprintf(cli->out, "configuration ok\n");
	return 0;
}

static int read_file(struct fwd_cli *cli, const char *path, ProtobufCBinaryData *out)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL) {
		fprintf(cli->err, "fwdctl: config check: %s: %s\n", path, strerror(errno));
		return FWD_EXIT_USAGE;
	}
	out->data = malloc(CHECK_MAX + 1);
	n = out->data != NULL ? fread(out->data, 1, CHECK_MAX + 1, f) : 0;
	fclose(f);
	if (out->data == NULL || n > CHECK_MAX) {
		fprintf(cli->err,
		        "fwdctl: config check: %s: larger than %u KiB (use fwd-daemon --check -c "
		        "FILE)\n",
		        path, CHECK_MAX / 1024);
		return FWD_EXIT_USAGE;
	}
	out->len = n;
	return FWD_EXIT_OK;
}

static int config_check(struct fwd_cli *cli, const char *path)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__ConfigCheckReq check = FWD__CONFIG_CHECK_REQ__INIT;
	struct check_result res = { false };
	int rc = read_file(cli, path, &check.content);

	if (rc == FWD_EXIT_OK) {
		check.path = (char *)path;
		req.body_case = FWD__REQUEST__BODY_CONFIG_CHECK;
		req.config_check = &check;
		rc = fwd_cli_call_verdict(cli, &req, check_print, check_verdict, &res);
		/* with -j the document says ok:false and the exit status says it too:
		 * a script that tests $? must not take a refused file */
		if (rc == FWD_EXIT_OK && !res.ok)
			rc = FWD_EXIT_REFUSED;
	}
	free(check.content.data);
	return rc;
}

static int config_check_cmd(struct fwd_cli *cli, int argc, char **argv)
{
	return argc == 2 ? config_check(cli, argv[1]) : fwd_cli_usage(cli, "check needs one FILE");
}

static int config_show(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__ConfigShowReq show = FWD__CONFIG_SHOW_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "show takes no arguments");
	req.body_case = FWD__REQUEST__BODY_CONFIG_SHOW;
	req.config_show = &show;
	return fwd_cli_call(cli, &req, show_print, NULL);
}

static int config_reload(struct fwd_cli *cli, int argc, char **argv)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__ConfigReloadReq reload = FWD__CONFIG_RELOAD_REQ__INIT;

	(void)argv;
	if (argc != 1)
		return fwd_cli_usage(cli, "reload takes no arguments");
	req.body_case = FWD__REQUEST__BODY_CONFIG_RELOAD;
	req.config_reload = &reload;
	return fwd_cli_call(cli, &req, reload_print, NULL);
}

static int config_run(struct fwd_cli *cli, int argc, char **argv)
{
	static const struct fwd_cli_cmd cmds[] = {
		{ "show", config_show },
		{ "reload", config_reload },
		{ "check", config_check_cmd },
		{ NULL, NULL },
	};

	return fwd_cli_dispatch(cli, cmds, argc, argv);
}

static struct fwd_cli_object config_obj = {
	.name = "config",
	.usage = "config show\nconfig reload\nconfig check FILE",
	.run = config_run,
};
FWD_CLI_OBJECT(config_obj);
