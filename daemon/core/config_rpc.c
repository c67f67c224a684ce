/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl config show | reload | check FILE */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/daemon.h"
#include "core/reload.h"
#include "core/rpc.h"
#include "core/running.h"

#define SHOW_PAGE_LINES 4000

struct show_cursor {
	char *text; /* the whole YAML, split in place into lines */
	size_t len, pos;
};

static void show_free(void *p)
{
	struct show_cursor *c = p;

	free(c->text);
	free(c);
}

static int show_page(struct fwd_rpc_call *call)
{
	struct show_cursor *c = call->cursor;
	Fwd__ConfigShowResp *r = fwd_rpc_alloc(call, sizeof(*r));

	fwd__config_show_resp__init(r);
	r->lines = (char **)fwd_rpc_ptr_array(call, SHOW_PAGE_LINES);
	while (c->pos < c->len && r->n_lines < SHOW_PAGE_LINES) {
		char *line = c->text + c->pos, *nl = memchr(line, '\n', c->len - c->pos);
		size_t n = nl != NULL ? (size_t)(nl - line) : c->len - c->pos;
		line[n] = '\0';
		r->lines[r->n_lines++] = line;
		c->pos += n + 1;
	}
	call->resp->body_case = FWD__RESPONSE__BODY_CONFIG_SHOW;
	call->resp->config_show = r;
	return c->pos < c->len;
}

static int config_show(struct fwd_rpc_call *call)
{
	struct show_cursor *c = calloc(1, sizeof(*c));
	uint64_t omitted = 0;
	struct fwd_config *run = fwd_running_config(&omitted);
	FILE *f;

	if (c == NULL || run == NULL || (f = open_memstream(&c->text, &c->len)) == NULL) {
		free(c);
		fwd_config_free(run);
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	}
	fprintf(f, "# running configuration of fwd-daemon (%s)\n", fwd.cfg->path);
	if (omitted > 0)
		fprintf(f, "# %" PRIu64 " routes from `fwdctl route load` are not shown\n",
		        omitted);
	fwd_config_emit(run, f);
	fclose(f);
	fwd_config_free(run);
	call->cursor = c;
	call->cursor_free = show_free;
	if (show_page(call) == 1)
		call->next = show_page;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_CONFIG_SHOW, config_show, FWD_RPC_READ);

static int config_reload(struct fwd_rpc_call *call)
{
	struct fwd_reload_log log = { 0 };
	Fwd__ConfigReloadResp *r = fwd_rpc_alloc(call, sizeof(*r));
	int rc = fwd_reload(NULL, &log, call->error, sizeof(call->error));

	fwd__config_reload_resp__init(r);
	r->changes = (char **)fwd_rpc_ptr_array(call, log.n);
	for (size_t i = 0; i < log.n; i++)
		r->changes[r->n_changes++] = fwd_rpc_strdup(call, log.lines[i]);
	fwd_reload_log_free(&log);
	if (rc < 0)
		return rc;
	call->resp->body_case = FWD__RESPONSE__BODY_CONFIG_RELOAD;
	call->resp->config_reload = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_CONFIG_RELOAD, config_reload, FWD_RPC_CHANGE);

/* Validate a file's text; also tell whether a reload to it would need a restart. */
static int config_check(struct fwd_rpc_call *call)
{
	const Fwd__ConfigCheckReq *q = call->req->config_check;
	const char *name = q->path != NULL && q->path[0] != '\0' ? q->path : "-";
	Fwd__ConfigCheckResp *r = fwd_rpc_alloc(call, sizeof(*r));
	char *text = NULL, err[1024];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct fwd_config *cfg;

	if (f == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	cfg = fwd_config_load_buf(name, (const char *)q->content.data, q->content.len, f);
	if (cfg != NULL && fwd_reload_check(fwd.cfg, cfg, err, sizeof(err)) < 0)
		fprintf(f, "%s: valid, but reloading it here is refused: %s\n", name, err);
	fclose(f);
	fwd__config_check_resp__init(r);
	r->ok = cfg != NULL; /* a note about a needed restart is not an error */
	r->errors = fwd_rpc_strdup(call, text != NULL ? text : "");
	free(text);
	fwd_config_free(cfg);
	call->resp->body_case = FWD__RESPONSE__BODY_CONFIG_CHECK;
	call->resp->config_check = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_CONFIG_CHECK, config_check, FWD_RPC_READ);
