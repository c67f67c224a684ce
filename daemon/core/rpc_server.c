/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket: one bufferevent per client, each reading frames
 * (header, then body) and answering them in order. A client only ever
 * costs its own buffers: a bad frame closes it, a stalled frame times out,
 * a slow reader stops being read (and paged replies stop being produced)
 * until its output drains.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "core/log.h"
#include "core/rpc.h"
#include "core/rpc_socket.h"
#include "fwd_frame.h"

#define MAX_CLIENTS     1024
#define ROOT_RESERVE    32 /* places only root may take */
#define IDLE_TIMEOUT    60000
#define OUT_HIGH        (1u << 20)   /* stop taking requests above this much unsent output */
#define OUT_LOW         (256u << 10) /* resume (and produce the next page) below this */
#define RETRY_MS        20           /* a paged handler said -EAGAIN */
#define BATCH           32           /* requests or pages per turn before yielding */
#define DEFAULT_TIMEOUT 30000
#define ACCEPT_PAUSE_MS 100

struct conn {
	struct conn *prev, *next; /* in srv->conns */
	struct fwd_rpc_server *srv;
	struct bufferevent *bev;
	struct event *frame_timer; /* a started frame must complete before it fires */
	struct event *wake;        /* -EAGAIN retry, and yielding after BATCH */
	struct event *idle;        /* nothing sent by the client, nothing owed to it */
	struct fwd_rpc_call call;
	uint32_t body_len; /* 0: waiting for a header */
	bool versioned;
	bool paging;  /* call->next has more pages for this client */
	bool eof;     /* the client shut its side: finish what is buffered */
	bool closing; /* close once the output has drained */
};

struct fwd_rpc_server {
	struct event_base *base;
	struct evconnlistener *lev;
	struct event *accept_resume;
	struct fwd_arena *arena; /* shared: every reply is packed before the next runs */
	struct fwd_rpc_socket sock;
	struct conn *conns;
	unsigned n_conns;
	struct timeval read_tv, write_tv, idle_tv;
	time_t refused_at;
	unsigned refused;
};

static void conn_pump(struct conn *c);

static struct timeval ms_tv(unsigned ms)
{
	return (struct timeval){ .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };
}

static struct evbuffer *conn_out(const struct conn *c)
{
	return bufferevent_get_output(c->bev);
}

static void conn_free(struct conn *c)
{
	struct fwd_rpc_server *srv = c->srv;

	fwd_rpc_call_end(&c->call);
	if (c->frame_timer != NULL)
		event_free(c->frame_timer);
	if (c->wake != NULL)
		event_free(c->wake);
	if (c->idle != NULL)
		event_free(c->idle);
	if (c->bev != NULL)
		bufferevent_free(c->bev);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		srv->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	srv->n_conns--;
	free(c);
}

/* Queue call->resp; a reply over the frame cap (a handler bug) becomes an error. */
static int conn_send(struct conn *c)
{
	Fwd__Response err = FWD__RESPONSE__INIT, *r = c->call.resp;
	size_t n = fwd__response__get_packed_size(r);
	struct evbuffer_iovec v;
	uint8_t hdr[FWD_FRAME_HDR];

	if (n > FWD_FRAME_MAX || n == 0) {
		LOG(ERR, "reply to request %u packs to %zu bytes, sending an error", r->id, n);
		err.id = r->id;
		err.status = n ? EMSGSIZE : EIO;
		err.error = n ? "reply too large" : "empty reply";
		r = &err;
		n = fwd__response__get_packed_size(r);
		c->paging = false;
	}
	fwd_frame_hdr_put(hdr, n);
	if (evbuffer_add(conn_out(c), hdr, sizeof(hdr)) < 0 ||
	    evbuffer_reserve_space(conn_out(c), n, &v, 1) != 1)
		return -ENOMEM;
	v.iov_len = fwd__response__pack(r, v.iov_base);
	return evbuffer_commit_space(conn_out(c), &v, 1) < 0 ? -ENOMEM : 0;
}

static void conn_reply_done(struct conn *c)
{
	c->paging = c->paging && c->call.resp->more;
	if (!c->paging)
		fwd_rpc_call_end(&c->call);
}

#define FRAME_DEFERRED 2 /* the handler answers on later turns (conn_page) */

/* Returns 1 when a request was answered, 0 when more input is needed,
 * FRAME_DEFERRED, -errno to close. */
static int conn_read_frame(struct conn *c)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);
	uint8_t hdr[FWD_FRAME_HDR];
	const uint8_t *payload;
	int rc;

	if (c->body_len == 0) {
		if (evbuffer_get_length(in) < FWD_FRAME_HDR)
			return 0;
		evbuffer_remove(in, hdr, sizeof(hdr));
		rc = fwd_frame_hdr_parse(hdr, &c->body_len);
		if (rc < 0) {
			LOG(WARNING, "client pid %d: bad frame length: %s", (int)c->call.peer.pid,
			    strerror(-rc));
			return rc;
		}
	}
	if (evbuffer_get_length(in) < c->body_len)
		return 0;
	payload = evbuffer_pullup(in, c->body_len);
	if (payload == NULL)
		return -ENOMEM;
	rc = fwd_rpc_dispatch(payload, c->body_len, &c->versioned, &c->call);
	evbuffer_drain(in, c->body_len);
	c->body_len = 0;
	evtimer_del(c->frame_timer);
	if (rc == -EBADMSG) {
		LOG(WARNING, "client pid %d: request does not unpack", (int)c->call.peer.pid);
		return rc;
	}
	if (rc == -EPROTO) {
		LOG(WARNING, "client pid %d: %s", (int)c->call.peer.pid, c->call.error);
		c->closing = true;
	}
	c->paging = true;
	if (c->call.deferred) {
		struct timeval now = { 0, 0 };
		evtimer_add(c->wake, &now);
		return FRAME_DEFERRED;
	}
	rc = conn_send(c);
	conn_reply_done(c);
	return rc < 0 ? rc : 1;
}

/* Returns 1 when a page was queued, 0 when waiting, -errno to close. */
static int conn_page(struct conn *c)
{
	struct timeval tv = ms_tv(RETRY_MS);
	int rc;

	if (evbuffer_get_length(conn_out(c)) >= OUT_LOW)
		return 0; /* the write callback brings us back */
	rc = fwd_rpc_next_page(&c->call);
	if (rc == -EAGAIN || rc == -EINPROGRESS) {
		/* a deferred reply's next slice runs on the next turn of the loop */
		if (rc == -EINPROGRESS)
			tv = ms_tv(0);
		evtimer_add(c->wake, &tv);
		return 0;
	}
	if (rc < 0)
		return rc;
	rc = conn_send(c);
	conn_reply_done(c);
	return rc < 0 ? rc : 1;
}

/* Nothing to answer: wait for input, or close a client that has left. */
static int conn_idle(struct conn *c)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);
	bool partial = c->body_len > 0 || evbuffer_get_length(in) > 0;

	if (c->eof) {
		if (partial)
			return -EIO;
		c->closing = true;
		return 1;
	}
	if (partial && !evtimer_pending(c->frame_timer, NULL))
		evtimer_add(c->frame_timer, &c->srv->read_tv);
	bufferevent_enable(c->bev, EV_READ);
	return 0;
}

/* One step of work for a client; 1 to continue, 0 to wait, -errno to close. */
static int conn_step(struct conn *c)
{
	int rc;

	if (c->paging)
		return conn_page(c);
	if (c->closing) {
		bufferevent_disable(c->bev, EV_READ);
		return evbuffer_get_length(conn_out(c)) == 0 ? -ECONNRESET : 0;
	}
	if (evbuffer_get_length(conn_out(c)) >= OUT_HIGH) {
		bufferevent_disable(c->bev, EV_READ);
		return 0;
	}
	rc = conn_read_frame(c);
	if (rc == FRAME_DEFERRED)
		return 0;
	return rc == 0 ? conn_idle(c) : rc;
}

static void conn_pump(struct conn *c)
{
	struct timeval now = { 0, 0 };
	int rc = 1;

	for (unsigned i = 0; i < BATCH && rc > 0; i++)
		rc = conn_step(c);
	if (rc < 0) {
		conn_free(c);
		return;
	}
	/* Let other clients run before answering more of this one's pipeline. */
	if (rc > 0)
		evtimer_add(c->wake, &now);
}

static void on_read(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	(void)bev;
	evtimer_add(c->idle, &c->srv->idle_tv); /* it spoke: the idle clock restarts */
	conn_pump(c);
}

static void on_idle(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	(void)fd;
	(void)what;
	if (c->paging || evbuffer_get_length(conn_out(c)) > 0) {
		evtimer_add(c->idle, &c->srv->idle_tv); /* still being served */
		return;
	}
	LOG(INFO, "client pid %d: idle for %ld s, closing", (int)c->call.peer.pid,
	    (long)c->srv->idle_tv.tv_sec);
	conn_free(c);
}

static void on_write(struct bufferevent *bev, void *arg)
{
	(void)bev;
	conn_pump(arg);
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
	struct conn *c = arg;

	(void)bev;
	if (what & BEV_EVENT_EOF) {
		c->eof = true;
		conn_pump(c);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT)
		LOG(INFO, "client pid %d: not reading its replies, closing", (int)c->call.peer.pid);
	conn_free(c);
}

static void on_wake(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	conn_pump(arg);
}

static void on_frame_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	(void)fd;
	(void)what;
	LOG(INFO, "client pid %d: request incomplete after %ld ms, closing", (int)c->call.peer.pid,
	    (long)(c->srv->read_tv.tv_sec * 1000 + c->srv->read_tv.tv_usec / 1000));
	conn_free(c);
}

static void refuse(struct fwd_rpc_server *srv, evutil_socket_t fd, uid_t uid)
{
	time_t now = time(NULL);

	close(fd);
	srv->refused++;
	if (now != srv->refused_at) {
		LOG(WARNING, "%u client(s) refused (the last of uid %d): %u connected, %u per user",
		    srv->refused, (int)uid, srv->n_conns, FWD_RPC_MAX_PER_USER);
		srv->refused_at = now;
		srv->refused = 0;
	}
}

static int conn_setup(struct conn *c, evutil_socket_t fd, const struct ucred *cred)
{
	struct fwd_rpc_server *srv = c->srv;

	fwd_rpc_call_init(&c->call, srv->arena);
	c->call.peer =
	        (struct fwd_rpc_peer){ .pid = cred->pid, .uid = cred->uid, .gid = cred->gid };
	c->bev = bufferevent_socket_new(srv->base, fd, BEV_OPT_CLOSE_ON_FREE);
	c->frame_timer = evtimer_new(srv->base, on_frame_timeout, c);
	c->wake = evtimer_new(srv->base, on_wake, c);
	c->idle = evtimer_new(srv->base, on_idle, c);
	if (c->bev == NULL || c->frame_timer == NULL || c->wake == NULL || c->idle == NULL ||
	    evtimer_add(c->idle, &srv->idle_tv) < 0)
		return -ENOMEM;
	bufferevent_setcb(c->bev, on_read, on_write, on_event, c);
	bufferevent_setwatermark(c->bev, EV_READ, 0, FWD_FRAME_HDR + FWD_FRAME_MAX);
	bufferevent_setwatermark(c->bev, EV_WRITE, OUT_LOW, 0);
	bufferevent_set_timeouts(c->bev, NULL, &srv->write_tv);
	return bufferevent_enable(c->bev, EV_READ | EV_WRITE) < 0 ? -EIO : 0;
}

/* May a client of uid take a place now? Root always while there is one. */
static bool admit(const struct fwd_rpc_server *srv, uid_t uid)
{
	unsigned mine = 0;

	if (uid == 0)
		return srv->n_conns < MAX_CLIENTS;
	if (srv->n_conns >= MAX_CLIENTS - ROOT_RESERVE)
		return false;
	for (const struct conn *c = srv->conns; c != NULL; c = c->next)
		mine += c->call.peer.uid == uid;
	return mine < FWD_RPC_MAX_PER_USER;
}

static void on_accept(struct evconnlistener *lev, evutil_socket_t fd, struct sockaddr *sa,
                      int salen, void *arg)
{
	struct fwd_rpc_server *srv = arg;
	struct ucred cred = { .pid = -1, .uid = (uid_t)-1, .gid = (gid_t)-1 };
	socklen_t len = sizeof(cred);
	struct conn *c;

	(void)lev;
	(void)sa;
	(void)salen;
	/* unknown credentials are nobody's: never root's by default */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		cred = (struct ucred){ .pid = -1, .uid = (uid_t)-1, .gid = (gid_t)-1 };
	if (!admit(srv, cred.uid)) {
		refuse(srv, fd, cred.uid);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		return;
	}
	c->srv = srv;
	c->next = srv->conns;
	if (c->next != NULL)
		c->next->prev = c;
	srv->conns = c;
	srv->n_conns++;
	if (conn_setup(c, fd, &cred) < 0) {
		LOG(ERR, "client pid %d: out of memory", (int)c->call.peer.pid);
		if (c->bev == NULL)
			close(fd);
		conn_free(c);
	}
}

static void on_accept_resume(evutil_socket_t fd, short what, void *arg)
{
	struct fwd_rpc_server *srv = arg;

	(void)fd;
	(void)what;
	evconnlistener_enable(srv->lev);
}

/* Out of descriptors: pausing beats a busy loop on a listener that stays readable. */
static void on_accept_error(struct evconnlistener *lev, void *arg)
{
	struct fwd_rpc_server *srv = arg;
	struct timeval tv = ms_tv(ACCEPT_PAUSE_MS);
	int err = EVUTIL_SOCKET_ERROR();

	LOG(ERR, "accept on %s: %s", srv->sock.path, strerror(err));
	evconnlistener_disable(lev);
	evtimer_add(srv->accept_resume, &tv);
}

struct fwd_rpc_server *fwd_rpc_server_start(struct event_base *base, const char *path,
                                            const char *group)
{
	struct fwd_rpc_server *srv = calloc(1, sizeof(*srv));
	int fd;

	if (srv == NULL)
		return NULL;
	/* A client vanishing mid-reply must not kill the daemon. */
	signal(SIGPIPE, SIG_IGN);
	srv->base = base;
	srv->read_tv = srv->write_tv = ms_tv(DEFAULT_TIMEOUT);
	srv->idle_tv = ms_tv(IDLE_TIMEOUT);
	srv->arena = fwd_arena_new();
	srv->accept_resume = evtimer_new(base, on_accept_resume, srv);
	fd = fwd_rpc_socket_open(&srv->sock, path, group);
	if (fd >= 0)
		srv->lev = evconnlistener_new(base, on_accept, srv,
		                              LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (fd < 0 || srv->arena == NULL || srv->accept_resume == NULL || srv->lev == NULL) {
		if (fd >= 0 && srv->lev == NULL)
			close(fd);
		fwd_rpc_server_stop(srv);
		errno = fd < 0 ? -fd : ENOMEM;
		return NULL;
	}
	evconnlistener_set_error_cb(srv->lev, on_accept_error);
	LOG(INFO, "listening on %s", path);
	return srv;
}

void fwd_rpc_server_stop(struct fwd_rpc_server *srv)
{
	if (srv == NULL)
		return;
	while (srv->conns != NULL)
		conn_free(srv->conns);
	if (srv->lev != NULL)
		evconnlistener_free(srv->lev);
	if (srv->accept_resume != NULL)
		event_free(srv->accept_resume);
	fwd_rpc_socket_unlink(&srv->sock);
	fwd_arena_free(srv->arena);
	free(srv);
}

unsigned fwd_rpc_server_clients(const struct fwd_rpc_server *srv)
{
	return srv->n_conns;
}

void fwd_rpc_server_set_idle(struct fwd_rpc_server *srv, unsigned idle_ms)
{
	srv->idle_tv = ms_tv(idle_ms);
	for (struct conn *c = srv->conns; c != NULL; c = c->next)
		evtimer_add(c->idle, &srv->idle_tv);
}

void fwd_rpc_server_set_timeouts(struct fwd_rpc_server *srv, unsigned read_ms, unsigned write_ms)
{
	struct conn *c;

	srv->read_tv = ms_tv(read_ms);
	srv->write_tv = ms_tv(write_ms);
	for (c = srv->conns; c != NULL; c = c->next)
		bufferevent_set_timeouts(c->bev, NULL, &srv->write_tv);
}
