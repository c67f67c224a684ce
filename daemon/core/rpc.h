/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RPC handlers. Each feature registers its handlers from a constructor:
 *
 *	static int port_list(struct fwd_rpc_call *call) { ... }
 *	FWD_RPC_HANDLER(FWD__REQUEST__BODY_PORT_LIST, port_list, FWD_RPC_READ);
 *
 * A handler runs on the control thread. It reads call->req, fills
 * call->resp's body with memory from fwd_rpc_alloc (released after the
 * response is sent) and returns 0, or returns fwd_rpc_error(call, errno,
 * fmt, ...) which sets the one-line message fwdctl prints.
 *
 * Paged replies: a handler that has more to send sets call->next (and
 * optionally call->cursor / call->cursor_free) before returning 0. The server
 * sends the page with more=true, and once the client has drained it calls
 * call->next with a fresh call->resp; next returns 0 when that page is the
 * last, 1 when there is more, -EAGAIN when it has nothing yet (the server
 * asks again shortly), or a negative errno. cursor_free runs when the
 * stream ends or the client goes away.
 *
 * Deferred replies: a handler whose work takes many turns of the control
 * loop (`route load`) sets call->next and call->deferred and returns 0.
 * The server sends nothing and reads nothing more from that client; on
 * each later turn, after the other clients and timers have run, it calls
 * next with a fresh call->resp: -EINPROGRESS means work is left and
 * nothing is to be sent, anything else is as for a page (0: call->resp is
 * the one reply; a negative errno: the error reply).
 */
#ifndef FWD_RPC_H
#define FWD_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <rte_common.h>

#include "core/arena.h"
#include "fwd.pb-c.h"

struct fwd_rpc_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
};

struct fwd_rpc_call {
	const Fwd__Request *req;
	Fwd__Response *resp;
	struct fwd_rpc_peer peer;
	struct fwd_arena *arena;

	/* paging, see above */
	int (*next)(struct fwd_rpc_call *call);
	void *cursor;
	void (*cursor_free)(void *cursor);
	bool deferred; /* next produces the reply, see above */

	char error[1024]; /* a config diagnostic is a few lines: see fwd_reload */
};

enum fwd_rpc_kind {
	FWD_RPC_READ,   /* reads state */
	FWD_RPC_CHANGE, /* changes state (or sees traffic): root or control.admin_group only,
	                 * logged with the peer's uid/pid */
};

typedef int (*fwd_rpc_handler_fn)(struct fwd_rpc_call *call);

struct fwd_rpc_handler {
	Fwd__Request__BodyCase body;
	const char *name;
	fwd_rpc_handler_fn fn;
	enum fwd_rpc_kind kind;
};

/* Handlers are indexed by the Request oneof field number, below this. */
#define FWD_RPC_MAX_BODY 128

/* Aborts on a body out of range or registered twice (a build bug). */
void fwd_rpc_register(const struct fwd_rpc_handler *h);
const struct fwd_rpc_handler *fwd_rpc_handler_get(Fwd__Request__BodyCase body);
/* Tests: install h (or NULL) for body whatever is registered; returns the old one. */
const struct fwd_rpc_handler *fwd_rpc_handler_swap(Fwd__Request__BodyCase body,
                                                   const struct fwd_rpc_handler *h);

#define FWD_RPC_HANDLER(body_case, fn_, kind_)                                  \
	static const struct fwd_rpc_handler fwd_rpc_h_##fn_ = {                 \
		.body = (body_case), .name = #fn_, .fn = (fn_), .kind = (kind_) \
	};                                                                      \
	RTE_INIT(fwd_rpc_reg_##fn_)                                             \
	{                                                                       \
		fwd_rpc_register(&fwd_rpc_h_##fn_);                             \
	}

/* Memory that lives until the current response has been packed; never NULL
 * (aborts on exhaustion like the rest of protobuf-c's allocator users). */
void *fwd_rpc_alloc(struct fwd_rpc_call *call, size_t size);
char *fwd_rpc_strdup(struct fwd_rpc_call *call, const char *s);
char *fwd_rpc_printf(struct fwd_rpc_call *call, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* An array of n pointers to zeroed, initialised-by-caller elements. */
void **fwd_rpc_ptr_array(struct fwd_rpc_call *call, size_t n);

/* Set the error message; returns -err for `return fwd_rpc_error(...)`. */
int fwd_rpc_error(struct fwd_rpc_call *call, int err, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/*
 * Run one request payload through unpack, version check and handler
 * (without sockets: the server and the fuzzer use it). *versioned tracks
 * whether the connection has passed the API version check. On return
 * call->resp holds the reply to send; returns 0 to keep the connection,
 * or -EPROTO when it must be closed after sending (a version mismatch) and
 * -EBADMSG when the payload did not unpack (closed without a reply).
 */
int fwd_rpc_dispatch(const uint8_t *payload, size_t len, bool *versioned,
                     struct fwd_rpc_call *call);

/*
 * Call lifecycle around fwd_rpc_dispatch (used by the server and tests):
 * init once with an arena, dispatch, send call->resp, then either end the
 * call or, while call->resp->more, produce pages with fwd_rpc_next_page.
 * A request with id 0 is refused (EINVAL): its reply could pack to nothing.
 *
 * fwd_rpc_next_page resets the arena and fills a fresh call->resp; returns
 * 1 (send it, more follow), 0 (send it, it is the last: the stream has ended,
 * with an error status if next failed), -EAGAIN (nothing to send yet) or
 * -EINPROGRESS (a deferred reply's work goes on: call again next turn).
 * After dispatch, call->deferred says the reply is not to be sent: it
 * comes from fwd_rpc_next_page.
 * fwd_rpc_call_end runs cursor_free, frees the request and resets the arena;
 * dispatch does it first, so ending is only needed to release memory early.
 */
void fwd_rpc_call_init(struct fwd_rpc_call *call, struct fwd_arena *arena);
int fwd_rpc_next_page(struct fwd_rpc_call *call);
void fwd_rpc_call_end(struct fwd_rpc_call *call);

/*
 * The libevent server on the control socket (proto/fwd.proto, proto/fwd_frame.h): creates
 * path's parent directory, replaces a stale socket (never another file or a
 * live daemon's socket), binds it 0660 root:group (root's group, with a
 * warning, when group does not exist). Returns NULL with errno set, having
 * logged why. stop closes every client and unlinks the socket. No local
 * user can lock the others out: each user but root holds at most
 * FWD_RPC_MAX_PER_USER connections, some places are kept for root, and an
 * idle client is closed after a minute.
 */
struct event_base;
struct fwd_rpc_server;

struct fwd_rpc_server *fwd_rpc_server_start(struct event_base *base, const char *path,
                                            const char *group);
void fwd_rpc_server_stop(struct fwd_rpc_server *srv);
unsigned fwd_rpc_server_clients(const struct fwd_rpc_server *srv);
/* Override the 30 s limits (tests): a frame must arrive whole within read_ms
 * of its first byte, and a client with pending output must take some of it
 * within write_ms. */
void fwd_rpc_server_set_timeouts(struct fwd_rpc_server *srv, unsigned read_ms, unsigned write_ms);
/* Override the 60 s idle limit (tests): a client that sends nothing for
 * idle_ms while nothing is owed to it is closed. */
void fwd_rpc_server_set_idle(struct fwd_rpc_server *srv, unsigned idle_ms);

/* Connections one user other than root may hold; root always gets in (the
 * last ROOT_RESERVE of the server's places are root's). */
#define FWD_RPC_MAX_PER_USER 32

#endif
