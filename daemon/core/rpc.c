/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/daemon.h"
#include "core/log.h"
#include "core/rpc.h"
#include "fwd_frame.h"

/* ----------------------------------------------------------------- registry */

static const struct fwd_rpc_handler *handlers[FWD_RPC_MAX_BODY];

static bool body_valid(Fwd__Request__BodyCase body)
{
	return (int)body > 0 && (int)body < FWD_RPC_MAX_BODY;
}

void fwd_rpc_register(const struct fwd_rpc_handler *h)
{
	/* Runs from constructors: a bad or duplicate registration is a build bug. */
	if (!body_valid(h->body) || handlers[h->body] != NULL) {
		fprintf(stderr, "fwd_rpc_register: %s: body %d %s\n", h->name, (int)h->body,
		        body_valid(h->body) ? "registered twice" : "out of range");
		abort();
	}
	handlers[h->body] = h;
}

const struct fwd_rpc_handler *fwd_rpc_handler_get(Fwd__Request__BodyCase body)
{
	return body_valid(body) ? handlers[body] : NULL;
}

const struct fwd_rpc_handler *fwd_rpc_handler_swap(Fwd__Request__BodyCase body,
                                                   const struct fwd_rpc_handler *h)
{
	const struct fwd_rpc_handler *old;

	if (!body_valid(body))
		return NULL;
	old = handlers[body];
	handlers[body] = h;
	return old;
}

void *fwd_rpc_alloc(struct fwd_rpc_call *call, size_t size)
{
	void *p = fwd_arena_alloc(call->arena, size);

	if (p == NULL) {
		LOG(ERR, "out of memory (%zu bytes)", size);
		abort();
	}
	memset(p, 0, size);
	return p;
}

char *fwd_rpc_strdup(struct fwd_rpc_call *call, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(fwd_rpc_alloc(call, n), s, n);
}

char *fwd_rpc_printf(struct fwd_rpc_call *call, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	s = fwd_rpc_alloc(call, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void **fwd_rpc_ptr_array(struct fwd_rpc_call *call, size_t n)
{
	if (n > SIZE_MAX / sizeof(void *)) {
		LOG(ERR, "pointer array of %zu entries", n);
		abort();
	}
	return fwd_rpc_alloc(call, n * sizeof(void *));
}

/* ----------------------------------------------------------------- dispatch */

int fwd_rpc_error(struct fwd_rpc_call *call, int err, const char *fmt, ...)
{
	va_list ap;

	if (err < 0)
		err = -err;
	va_start(ap, fmt);
	vsnprintf(call->error, sizeof(call->error), fmt, ap);
	va_end(ap);
	return -err;
}

void fwd_rpc_call_init(struct fwd_rpc_call *call, struct fwd_arena *arena)
{
	memset(call, 0, sizeof(*call));
	call->arena = arena;
}

static void stream_end(struct fwd_rpc_call *call)
{
	if (call->cursor_free != NULL && call->cursor != NULL)
		call->cursor_free(call->cursor);
	call->cursor = NULL;
	call->cursor_free = NULL;
	call->next = NULL;
	call->deferred = false;
}

void fwd_rpc_call_end(struct fwd_rpc_call *call)
{
	stream_end(call);
	if (call->req != NULL)
		protobuf_c_message_free_unpacked((ProtobufCMessage *)call->req, NULL);
	call->req = NULL;
	call->resp = NULL;
	call->error[0] = '\0';
	fwd_arena_reset(call->arena);
}

static void new_resp(struct fwd_rpc_call *call)
{
	call->resp = fwd_rpc_alloc(call, sizeof(*call->resp));
	fwd__response__init(call->resp);
	call->resp->id = call->req->id;
	call->error[0] = '\0';
}

/* Turn a handler's result into the response's status; ends any stream on error. */
static void finish(struct fwd_rpc_call *call, int rc)
{
	Fwd__Response *r = call->resp;

	if (rc >= 0) {
		r->more = call->next != NULL;
		return;
	}
	stream_end(call);
	r->more = false;
	r->status = -rc;
	r->body_case = FWD__RESPONSE__BODY__NOT_SET;
	r->error = fwd_rpc_strdup(call, call->error[0] ? call->error : strerror(-rc));
}

static int check_version(struct fwd_rpc_call *call, bool *versioned)
{
	uint32_t v = call->req->api_version;

	if (v == FWD_API_VERSION || (v == 0 && *versioned)) {
		*versioned = true;
		return 0;
	}
	if (v == 0)
		return fwd_rpc_error(call, EPROTO,
		                     "API version missing: client speaks none, daemon speaks %u; "
		                     "upgrade fwdctl/fwd-daemon together",
		                     FWD_API_VERSION);
	return fwd_rpc_error(call, EPROTO,
	                     "API version mismatch: client speaks %u, daemon speaks %u; "
	                     "upgrade fwdctl/fwd-daemon together",
	                     v, FWD_API_VERSION);
}

/*
 * May the peer change state? uid 0 always; else a member of
 * control.admin_group (its primary group, or the user's groups as
 * /etc/group lists them); nobody else when that is "" (the default).
 */
static bool peer_is_admin(const struct fwd_rpc_peer *p)
{
	const char *admin = fwd.cfg != NULL ? fwd.cfg->control.admin_group : "";
	struct group gr, *g = NULL;
	struct passwd pw, *u = NULL;
	char buf[4096];
	gid_t groups[256];
	int n = (int)RTE_DIM(groups);

	if (p->uid == 0)
		return true;
	if (admin[0] == '\0' || getgrnam_r(admin, &gr, buf, sizeof(buf), &g) != 0 || g == NULL)
		return false;
	gid_t want = g->gr_gid;
	if (p->gid == want)
		return true;
	if (getpwuid_r(p->uid, &pw, buf, sizeof(buf), &u) != 0 || u == NULL ||
	    getgrouplist(u->pw_name, u->pw_gid, groups, &n) < 0)
		return false;
	for (int i = 0; i < n; i++)
		if (groups[i] == want)
			return true;
	return false;
}

static int run_handler(struct fwd_rpc_call *call)
{
	const struct fwd_rpc_handler *h = fwd_rpc_handler_get(call->req->body_case);
	int rc;

	if (call->req->id == 0)
		return fwd_rpc_error(call, EINVAL, "request id must be non-zero");
	if (h == NULL)
		return fwd_rpc_error(call, EOPNOTSUPP, "unknown request");
	if (h->kind == FWD_RPC_CHANGE && !peer_is_admin(&call->peer)) {
		LOG(NOTICE, "%s by uid %u pid %d: permission denied", h->name,
		    (unsigned)call->peer.uid, (int)call->peer.pid);
		return fwd_rpc_error(call, EPERM, "permission denied");
	}
	rc = h->fn(call);
	if (h->kind == FWD_RPC_CHANGE)
		LOG(NOTICE, "%s by uid %u pid %d: %s", h->name, (unsigned)call->peer.uid,
		    (int)call->peer.pid,
		    rc >= 0 ? "ok" : (call->error[0] ? call->error : strerror(-rc)));
	return rc > 0 ? 0 : rc;
}

int fwd_rpc_dispatch(const uint8_t *payload, size_t len, bool *versioned, struct fwd_rpc_call *call)
{
	int rc;

	fwd_rpc_call_end(call);
	call->req = fwd__request__unpack(NULL, len, payload);
	if (call->req == NULL)
		return -EBADMSG;
	new_resp(call);
	rc = check_version(call, versioned);
	if (rc < 0) {
		finish(call, rc);
		return -EPROTO;
	}
	finish(call, run_handler(call));
	return 0;
}

int fwd_rpc_next_page(struct fwd_rpc_call *call)
{
	int rc;

	if (call->req == NULL || call->next == NULL)
		return -EINVAL;
	fwd_arena_reset(call->arena);
	new_resp(call);
	rc = call->next(call);
	if (rc == -EAGAIN)
		return rc;
	if (rc == -EINPROGRESS && call->deferred) {
		call->resp->more = true; /* nothing to send, more to come */
		return rc;
	}
	call->deferred = false;
	if (rc == 0 && call->next != NULL)
		stream_end(call);
	finish(call, rc);
	return call->resp->more ? 1 : 0;
}
