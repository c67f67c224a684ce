/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/err.h"
#include "core/event.h"
#include "core/log.h"
#include "core/module.h"
#include "core/reload.h"
#include "core/sdnotify.h"

static void log_add(struct fwd_reload_log *log, const char *fmt, va_list ap)
{
	char *line;

	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 16;
		char **l = realloc(log->lines, cap * sizeof(*l));
		if (l == NULL)
			return;
		log->lines = l;
		log->cap = cap;
	}
	if (vasprintf(&line, fmt, ap) >= 0)
		log->lines[log->n++] = line;
}

void fwd_reload_note(struct fwd_reload_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_add(log, fmt, ap);
	va_end(ap);
}

void fwd_reload_fail(struct fwd_reload_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_add(log, fmt, ap);
	va_end(ap);
	log->errors++;
	log->last_error = log->n - 1;
}

void fwd_reload_log_free(struct fwd_reload_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->lines[i]);
	free(log->lines);
	memset(log, 0, sizeof(*log));
}

static bool args_equal(const struct fwd_config *a, const struct fwd_config *b)
{
	if (a->dpdk.n_args != b->dpdk.n_args)
		return false;
	for (unsigned i = 0; i < a->dpdk.n_args; i++)
		if (strcmp(a->dpdk.args[i], b->dpdk.args[i]) != 0)
			return false;
	return true;
}

/* The ports of the file; bonds' ports come after them (bond/ checks those). */
static unsigned file_ports(const struct fwd_config *c)
{
	unsigned n = 0;

	while (n < c->n_ports && !c->ports[n].bond)
		n++;
	return n;
}

/* The settings the dataplane was built from: any change needs a restart. */
static int check_global(const struct fwd_config *c, const struct fwd_config *n, char *err,
                        size_t errlen)
{
	const char *what = NULL;

	if (strcmp(c->dpdk.lcores, n->dpdk.lcores) != 0 || c->dpdk.hugepages != n->dpdk.hugepages ||
	    c->dpdk.memory_mb != n->dpdk.memory_mb ||
	    strcmp(c->dpdk.file_prefix, n->dpdk.file_prefix) != 0 || !args_equal(c, n))
		what = "the dpdk section";
	else if (c->dataplane.burst != n->dataplane.burst ||
	         c->dataplane.mbufs != n->dataplane.mbufs ||
	         c->dataplane.idle_sleep_us != n->dataplane.idle_sleep_us)
		what = "dataplane.burst, mbufs or idle_sleep_us";
	else if (c->dataplane.fib_tbl8s != n->dataplane.fib_tbl8s ||
	         c->dataplane.nexthops != n->dataplane.nexthops)
		what = "dataplane.fib_tbl8s or dataplane.nexthops";
	else if (strcmp(c->control.socket, n->control.socket) != 0 ||
	         strcmp(c->control.socket_group, n->control.socket_group) != 0 ||
	         strcmp(c->control.metrics, n->control.metrics) != 0)
		what = "the control section";
	else if (file_ports(c) != file_ports(n))
		what = "the number of ports";
	return what == NULL ? 0 : ERR(EBUSY, "changing %s needs a restart", what);
}

static int check_port(const struct fwd_conf_port *c, const struct fwd_conf_port *n, char *err,
                      size_t errlen)
{
	const char *what = NULL;

	if (strcmp(c->name, n->name) != 0)
		return ERR(EBUSY, "port %s: renaming or reordering ports (to %s) needs a restart",
		           c->name, n->name);
	if (strcmp(c->device, n->device) != 0)
		what = "device";
	else if (c->mode != n->mode)
		what = "mode";
	else if (strcmp(c->peer, n->peer) != 0)
		what = "peer";
	else if (c->rx_queues != n->rx_queues || c->rxd != n->rxd || c->txd != n->txd)
		what = "queues";
	else if (c->mtu != n->mtu)
		what = "mtu";
	return what == NULL ? 0 : ERR(EBUSY, "port %s: changing %s needs a restart", c->name, what);
}

int fwd_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                     size_t errlen)
{
	int rc = check_global(cur, next, err, errlen);

	for (unsigned i = 0; rc == 0 && i < file_ports(cur); i++)
		rc = check_port(&cur->ports[i], &next->ports[i], err, errlen);
	if (rc == 0)
		rc = fwd_modules_reload_check(cur, next, err, errlen);
	return rc;
}

/* Load path; on failure the loader's messages (file:line:col ...) go to err. */
static struct fwd_config *load(const char *path, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct fwd_config *cfg;

	if (f == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	cfg = fwd_config_load(path, f);
	fclose(f);
	if (cfg == NULL) {
		/* drop the final newline: the message is printed as one block */
		while (len > 0 && text[len - 1] == '\n')
			text[--len] = '\0';
		snprintf(err, errlen, "%s", len > 0 ? text : "invalid configuration");
	}
	free(text);
	return cfg;
}

static int reload(const char *path, struct fwd_reload_log *log, char *err, size_t errlen)
{
	struct fwd_config *next, *cur = fwd.cfg;
	int rc;

	next = load(path, err, errlen);
	if (next == NULL) {
		LOG(ERR, "config reload refused: %s is invalid", path);
		return -EINVAL;
	}
	rc = fwd_reload_check(cur, next, err, errlen);
	if (rc < 0) {
		LOG(ERR, "config reload refused: %s", err);
		fwd_config_free(next);
		return rc;
	}
	rc = fwd_modules_reload_apply(cur, next, log);
	if (rc < 0) {
		/* the modules restored what they had changed: the last line says why */
		snprintf(err, errlen, "%s; nothing was changed",
		         log->errors > 0 ? log->lines[log->last_error] : strerror(-rc));
		LOG(ERR, "config reload of %s refused: %s", path, err);
		fwd_reload_log_free(log);
		fwd_config_free(next);
		return rc;
	}
	fwd.cfg = next;
	fwd_config_free(cur);
	LOG(NOTICE, "config reload of %s: %zu changes applied", path, log->n);
	for (size_t i = 0; i < log->n; i++)
		LOG(INFO, "reload: %s", log->lines[i]);
	return 0;
}

/* `fwdctl monitor config`: the outcome of a reload. */
static void reload_event(int rc, const struct fwd_reload_log *log, const char *err)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_CONFIG, rc < 0 ? "refused" : "ok");

	if (e == NULL)
		return;
	if (rc < 0)
		snprintf(e->text, sizeof(e->text), "%s", err);
	else
		e->count = log->n;
}

int fwd_reload(const char *path, struct fwd_reload_log *log, char *err, size_t errlen)
{
	char file[sizeof(fwd.cfg->path)];
	int rc;

	/* a copy: the running config, which holds the running path, is replaced */
	snprintf(file, sizeof(file), "%s", path != NULL ? path : fwd.cfg->path);
	fwd_sd_notify_reloading();
	rc = reload(file, log, err, errlen);
	reload_event(rc, log, err);
	fwd_sd_notify("READY=1");
	return rc;
}

static void reload_on_sighup(void)
{
	struct fwd_reload_log log = { 0 };
	char err[4096];

	LOG(NOTICE, "SIGHUP: reloading %s", fwd.cfg->path);
	fwd_reload(NULL, &log, err, sizeof(err));
	fwd_reload_log_free(&log);
}

RTE_INIT(reload_register)
{
	fwd_control_set_reload(reload_on_sighup);
}
