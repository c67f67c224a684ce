/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli.h"
#include "client.h"
#include "json.h"
#include "table.h"

/* SIGINT while watching: set the flag and cut a pending call short (shutdown
 * is async-signal-safe), so Ctrl-C never waits for a slow daemon. */
static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t call_fd = -1;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
	if (call_fd >= 0)
		shutdown(call_fd, SHUT_RDWR);
}

void fwd_cli_catch_sigint(struct fwd_cli *cli)
{
	struct sigaction sa = { .sa_handler = on_sigint }; /* no SA_RESTART: sleeps end */

	(void)cli;
	interrupted = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

bool fwd_cli_interrupted(void)
{
	return interrupted;
}

void fwd_cli_disconnect(struct fwd_cli *cli)
{
	if (cli->client == NULL)
		return;
	fwd_client_close(cli->client);
	free(cli->client);
	cli->client = NULL;
}

static void prefix(struct fwd_cli *cli)
{
	fprintf(cli->err, "fwdctl: %s%s%s: ", cli->obj->name, cli->command ? " " : "",
	        cli->command ? cli->command : "");
}

/* The daemon's message as it wrote it: a config diagnostic is several lines
 * (file:line:col, the line, a caret under the column); one newline ends it. */
static void print_refusal(struct fwd_cli *cli, char *msg)
{
	size_t n = strlen(fwd_sanitize_text(msg));

	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	prefix(cli);
	fprintf(cli->err, "%s\n", msg);
}

static int connect_daemon(struct fwd_cli *cli)
{
	int rc;

	if (cli->client != NULL)
		return FWD_EXIT_OK;
	cli->client = malloc(sizeof(*cli->client));
	if (cli->client == NULL)
		rc = -ENOMEM;
	else
		rc = fwd_client_connect(cli->client, cli->socket, cli->timeout_ms);
	if (rc == 0)
		return FWD_EXIT_OK;
	free(cli->client);
	cli->client = NULL;
	fprintf(cli->err, "fwdctl: cannot connect to %s: %s%s\n", cli->socket, strerror(-rc),
	        rc == -EACCES                          ? " (is this user in the socket's group?)"
	        : rc == -ENOENT || rc == -ECONNREFUSED ? " (is fwd-daemon running?)"
	                                               : "");
	return FWD_EXIT_UNREACHABLE;
}

struct page_ctx {
	struct fwd_cli *cli;
	fwd_cli_print_fn print;
	fwd_cli_verdict_fn verdict;
	void *arg;
	struct fwd_json_merge *merge;
};

static int on_page(Fwd__Response *resp, void *arg)
{
	struct page_ctx *p = arg;
	int rc = 0;

	if (p->verdict != NULL)
		p->verdict(resp, p->arg);
	if (p->merge != NULL)
		return fwd_json_merge_page(p->merge, resp);
	if (p->print != NULL)
		rc = p->print(p->cli, resp, p->arg);
	fwd__response__free_unpacked(resp, NULL);
	return rc;
}

static int transport_error(struct fwd_cli *cli, int rc)
{
	fwd_cli_disconnect(cli);
	if (interrupted)
		return FWD_EXIT_OK;
	if (rc == -ECANCELED)
		return FWD_EXIT_REFUSED; /* the printer failed and said why */
	if (rc == -ETIMEDOUT)
		fprintf(cli->err, "fwdctl: %s: no reply within %d ms (FWD_TIMEOUT)\n", cli->socket,
		        cli->timeout_ms);
	else if (rc == -EBADMSG || rc == -EMSGSIZE)
		fprintf(cli->err, "fwdctl: %s: malformed reply from the daemon\n", cli->socket);
	else if (rc == -EPIPE || rc == -EIO || rc == -ECONNRESET)
		fprintf(cli->err, "fwdctl: %s: the daemon closed the connection\n", cli->socket);
	else
		fprintf(cli->err, "fwdctl: %s: %s\n", cli->socket, strerror(-rc));
	return FWD_EXIT_UNREACHABLE;
}

int fwd_cli_call(struct fwd_cli *cli, Fwd__Request *req, fwd_cli_print_fn print, void *arg)
{
	return fwd_cli_call_verdict(cli, req, print, NULL, arg);
}

int fwd_cli_call_verdict(struct fwd_cli *cli, Fwd__Request *req, fwd_cli_print_fn print,
                         fwd_cli_verdict_fn verdict, void *arg)
{
	struct page_ctx p = { .cli = cli, .print = print, .verdict = verdict, .arg = arg };
	int rc;

	rc = connect_daemon(cli);
	if (rc != FWD_EXIT_OK)
		return rc;
	if (cli->json && (p.merge = fwd_json_merge_new(cli->out)) == NULL)
		return transport_error(cli, -ENOMEM);
	call_fd = cli->client->fd;
	rc = fwd_client_call(cli->client, req, on_page, &p);
	call_fd = -1;
	/* a failure after some pages still closes the document: stdout stays valid JSON */
	fwd_json_merge_end(p.merge, rc == 0);
	fflush(cli->out);
	if (rc == 1) {
		print_refusal(cli, cli->client->error);
		return FWD_EXIT_REFUSED;
	}
	return rc < 0 ? transport_error(cli, rc) : FWD_EXIT_OK;
}
