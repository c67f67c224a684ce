/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM listener (control.fpm: "A.B.C.D:PORT" or "[X::X]:PORT") and its
 * one zebra connection, on the control thread's event loop. A new
 * connection replaces the one before (zebra restarted; the old one may be
 * half-open). The stream is read in slices of at most SLICE_NS per turn of
 * the loop, checked message by message (a frame may hold hundreds), so that
 * a full table's replay never holds up the RPC.
 *
 * Only root and control.fpm_user may connect (fpm_peer.c finds the owner
 * of the peer's socket): anyone else is closed before a byte is read and
 * counted, and zebra's session goes on.
 *
 * The end of a replay: zebra sends its whole table when it connects, but
 * a bgpd that restarted with it sends its routes only once it has learned
 * them again. So the routes of the previous connection (stale since this
 * one came up) go when the stream has been quiet for FPM_QUIET_S seconds
 * and not before control.fpm_grace_s seconds after the connection came up.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "core/config_schema.h"
#include "core/control.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/vrf.h"
#include "core/module.h"
#include "core/reload.h"
#include "cp/fpm.h"
#include "cp/fpm_priv.h"

#define SLICE_NS       2000000 /* parsing per turn of the loop */
#define READ_HIGH_WM   (1u << 20)
#define TICK_US        250000
#define LISTEN_BACKLOG 4

struct fpm_session fpm_session;

static struct evconnlistener *listener;
static struct bufferevent *conn;
static struct event *more;  /* parse on: the input still holds frames */
static struct event *ticks; /* the sweep's clock */
static char closing[128];   /* zebra closed: the frames it sent first are parsed, then this */
static bool head_checked;   /* the frame at the head of the input is checked whole */
static size_t head_off;     /* and its messages before this offset applied */

/* "A.B.C.D:PORT" or "[X::X]:PORT" into sa: 0 or -EINVAL. */
static int addr_parse(const char *s, struct sockaddr_storage *sa, socklen_t *len)
{
	const char *colon = strrchr(s, ':'), *p;
	char host[64];
	unsigned long port = 0;
	size_t n;

	if (colon == NULL || (n = (size_t)(colon - s)) >= sizeof(host) || n == 0)
		return -EINVAL;
	for (p = colon + 1; *p >= '0' && *p <= '9' && port <= 65535; p++)
		port = port * 10 + (unsigned long)(*p - '0');
	if (*p != '\0' || p == colon + 1 || port == 0 || port > 65535)
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	if (s[0] == '[' && s[n - 1] == ']' && n > 2) {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)sa;
		memcpy(host, s + 1, n - 2);
		host[n - 2] = '\0';
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*a6);
		return inet_pton(AF_INET6, host, &a6->sin6_addr) == 1 ? 0 : -EINVAL;
	}
	struct sockaddr_in *a4 = (struct sockaddr_in *)sa;
	memcpy(host, s, n);
	host[n] = '\0';
	a4->sin_family = AF_INET;
	a4->sin_port = htons((uint16_t)port);
	*len = sizeof(*a4);
	return inet_pton(AF_INET, host, &a4->sin_addr) == 1 ? 0 : -EINVAL;
}

static void peer_fmt(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(a->sin6_port));
	} else {
		const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(a->sin_port));
	}
}

static void conn_close(const char *reason)
{
	if (conn == NULL)
		return;
	bufferevent_free(conn);
	conn = NULL;
	head_checked = false; /* the rest of a frame half applied is lost with it */
	fpm_session.connected = false;
	fpm_session.disconnected_at = time(NULL);
	snprintf(fpm_session.disconnect_reason, sizeof(fpm_session.disconnect_reason), "%s",
	         reason); /* reason may be closing */
	closing[0] = '\0';
	LOG(NOTICE, "FPM connection from %s closed: %s (its routes stay)", fpm_session.peer,
	    fpm_session.disconnect_reason);
}

static void refuse(enum fpm_err e, const char *why)
{
	char reason[sizeof(fpm_stats.last_error) + 32];

	fpm_stats.err[e]++;
	snprintf(fpm_stats.last_error, sizeof(fpm_stats.last_error), "frame %" PRIu64 ": %s: %s",
	         fpm_stats.ctr[FPM_C_FRAMES] + 1, fpm_err_names[e], why);
	snprintf(reason, sizeof(reason), "malformed frame (%s)", fpm_stats.last_error);
	conn_close(reason);
}

/* One message of the head frame; false when the slice is over. */
static bool step(const struct fpm_msg *m, void *deadline)
{
	fpm_table_apply(m, NULL);
	return fpm_now_ns() < *(const uint64_t *)deadline;
}

enum { FRAME_DONE, FRAME_MORE, FRAME_CLOSED };

/* The whole frame of len bytes at the head of in, checked whole the first
 * time, then applied message by message until deadline. */
static int frame(struct evbuffer *in, size_t len, uint64_t deadline)
{
	const uint8_t *p = evbuffer_pullup(in, (ssize_t)len);
	enum fpm_err e = FPM_ERR_MAX;
	char why[200];

	if (p == NULL) {
		conn_close("out of memory");
		return FRAME_CLOSED;
	}
	if (!head_checked) {
		if (fpm_frame_parse(p + FPM_HDR_LEN, len - FPM_HDR_LEN, NULL, NULL, &e, why,
		                    sizeof(why)) < 0) {
			refuse(e, why);
			return FRAME_CLOSED;
		}
		head_checked = true;
		head_off = 0;
	}
	if (!fpm_frame_apply(p + FPM_HDR_LEN, len - FPM_HDR_LEN, &head_off, step, &deadline))
		return FRAME_MORE;
	head_checked = false;
	fpm_stats.ctr[FPM_C_FRAMES]++;
	fpm_session.bytes += len;
	evbuffer_drain(in, len);
	return FRAME_DONE;
}

/* Whole frames that have arrived, until deadline (at least one message):
 * true when it stopped with a frame left for the next turn. */
static bool parse_frames(uint64_t deadline)
{
	enum fpm_err e = FPM_ERR_MAX;
	uint8_t hdr[FPM_HDR_LEN];
	struct evbuffer *in;
	int len, rc, n = 0;

	while (conn != NULL) { /* a bad frame closes it */
		in = bufferevent_get_input(conn);
		if (evbuffer_get_length(in) < FPM_HDR_LEN)
			break;
		evbuffer_copyout(in, hdr, sizeof(hdr));
		if ((len = fpm_frame_len(hdr, &e)) < 0) {
			refuse(e, "bad FPM header");
			return false;
		}
		if (evbuffer_get_length(in) < (size_t)len)
			break;
		if (n++ > 0 && fpm_now_ns() >= deadline)
			return true;
		fpm_session.last_frame_ns = fpm_now_ns();
		if ((rc = frame(in, (size_t)len, deadline)) == FRAME_CLOSED)
			return false;
		if (rc == FRAME_MORE)
			return true;
	}
	if (conn != NULL && closing[0] != '\0')
		conn_close(closing); /* what it sent before it closed is in */
	return false;
}

/* One slice of the loop's time: queued work (routes of a changed group, a
 * sweep) for half of it, then frames; each gets at least a batch or a
 * message, and what is left goes on at the next turn. Messages do not wait
 * for the work they queue, so that the updates of one group that a frame
 * or a burst of frames brings cost one pass over its routes, not one each. */
static void work_some(void)
{
	uint64_t now = fpm_now_ns();
	bool left = fpm_table_work(now + SLICE_NS / 2);

	left = parse_frames(now + SLICE_NS) || left || fpm_table_pending();
	if (left)
		event_active(more, 0, 0);
}

static void on_read(struct bufferevent *bev, void *arg)
{
	(void)bev;
	(void)arg;
	work_some();
}

static void on_more(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	work_some();
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	(void)arg;
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	snprintf(closing, sizeof(closing), "%s",
	         what & BEV_EVENT_EOF ? "zebra closed the connection"
	                              : evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	bufferevent_disable(conn, EV_READ);
	work_some();
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen,
                      void *arg)
{
	char peer[sizeof(fpm_session.peer)];
	uid_t uid = (uid_t)-1;
	int one = 1;

	(void)l;
	(void)salen;
	(void)arg;
	peer_fmt(sa, peer, sizeof(peer));
	if (!fpm_peer_vetted(fd, peer, &uid))
		return; /* before a byte is read, and zebra's session goes on */
	if (conn != NULL)
		conn_close("replaced by a new connection");
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	conn = bufferevent_socket_new(fwd.evbase, fd, BEV_OPT_CLOSE_ON_FREE);
	if (conn == NULL) {
		close(fd);
		return;
	}
	bufferevent_setcb(conn, on_read, NULL, on_event, NULL);
	bufferevent_setwatermark(conn, EV_READ, 0, READ_HIGH_WM);
	bufferevent_enable(conn, EV_READ);
	snprintf(fpm_session.peer, sizeof(fpm_session.peer), "%s", peer);
	fpm_session.peer_uid = (uint32_t)uid;
	fpm_session.connected = true;
	fpm_session.connections++;
	fpm_session.connected_since = time(NULL);
	fpm_session.up_ns = fpm_session.last_frame_ns = fpm_now_ns();
	fpm_table_mark_stale();
	fpm_session.sweep_pending = fpm_stats.stale > 0 || fpm_stats.groups > 0;
	LOG(NOTICE, "FPM connection from %s (uid %u); %" PRIu64 " routes of the last one are stale",
	    fpm_session.peer, (unsigned)uid, fpm_stats.stale);
}

uint64_t fpm_sweep_due_ns(void)
{
	uint64_t grace = fpm_session.up_ns + (uint64_t)fpm_session.grace_s * 1000000000u;
	uint64_t quiet = fpm_session.last_frame_ns + (uint64_t)FPM_QUIET_S * 1000000000u;

	return grace > quiet ? grace : quiet;
}

static void on_tick(void *arg)
{
	(void)arg;
	if (!fpm_session.connected || !fpm_session.sweep_pending ||
	    fpm_now_ns() < fpm_sweep_due_ns())
		return;
	fpm_session.sweep_pending = false;
	LOG(NOTICE, "FPM replay from %s over: removing %" PRIu64 " stale routes", fpm_session.peer,
	    fpm_stats.stale);
	fpm_table_sweep_start();
	work_some();
}

static void listener_close(void)
{
	conn_close("the FPM listener was closed");
	if (listener != NULL)
		evconnlistener_free(listener);
	listener = NULL;
	fpm_session.listening = false;
}

static int listen_fd(const char *addr)
{
	struct sockaddr_storage sa;
	socklen_t salen;
	int fd, one = 1, rc;

	if (addr_parse(addr, &sa, &salen) < 0)
		return -EINVAL;
	fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, salen) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

/* Listen on addr ("" = off); a failure is logged and shown by status. */
static void listener_open(const char *addr)
{
	int fd;

	snprintf(fpm_session.listen, sizeof(fpm_session.listen), "%s", addr);
	fpm_session.listen_error[0] = '\0';
	if (addr[0] == '\0')
		return;
	fd = listen_fd(addr);
	if (fd >= 0) {
		listener =
		        evconnlistener_new(fwd.evbase, on_accept, NULL,
		                           LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
		if (listener == NULL)
			close(fd);
	}
	if (listener == NULL) {
		snprintf(fpm_session.listen_error, sizeof(fpm_session.listen_error),
		         "cannot listen: %s", strerror(fd < 0 ? -fd : ENOMEM));
		LOG(ERR, "FPM listener %s: %s; continuing without it", addr,
		    fpm_session.listen_error);
		return;
	}
	fpm_session.listening = true;
	LOG(INFO, "FPM listener on %s", addr);
}

static void removed_hook(uint16_t vrf, const struct fwd_prefix *p, uint8_t origin)
{
	fpm_table_removed(vrf, p, origin);
}

/* After a reload (every module has its new state, cascades included) or
 * fwdctl's address change: place again what that may have changed for
 * zebra's routes. */
static void fpm_commit(void)
{
	fpm_table_recheck();
	work_some();
}

static int fpm_init(const struct fwd_config *cfg)
{
	more = event_new(fwd.evbase, -1, 0, on_more, NULL);
	ticks = fwd_timer_every(TICK_US, on_tick, NULL);
	if (more == NULL || ticks == NULL)
		return -ENOMEM;
	fpm_session.grace_s = cfg->control.fpm_grace_s;
	fpm_peer_user_set(cfg->control.fpm_user, NULL);
	fpm_table_set_max(cfg->control.fpm_max_routes);
	fpm_table_set_netns(cfg->control.vrf_backend == FWD_VRF_BACKEND_NETNS);
	l3_route_set_removed_hook(removed_hook);
	l3_addr_set_changed_hook(fpm_commit);
	listener_open(cfg->control.fpm);
	return 0;
}

static void fpm_fini(void)
{
	l3_route_set_removed_hook(NULL);
	l3_addr_set_changed_hook(NULL);
	listener_close();
	fwd_timer_free(&ticks);
	if (more != NULL)
		event_free(more);
	more = NULL;
	fpm_table_clear();
	memset(&fpm_session, 0, sizeof(fpm_session));
}

static int fpm_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	(void)cur;
	fpm_session.grace_s = next->control.fpm_grace_s;
	fpm_peer_user_set(next->control.fpm_user, log);
	fpm_table_set_max(next->control.fpm_max_routes);
	fpm_table_set_netns(next->control.vrf_backend == FWD_VRF_BACKEND_NETNS);
	if (strcmp(fpm_session.listen, next->control.fpm) == 0 &&
	    (next->control.fpm[0] == '\0' || fpm_session.listening))
		return 0;
	listener_close();
	listener_open(next->control.fpm);
	if (fpm_session.listen_error[0] != '\0')
		fwd_reload_note(log, "control.fpm %s: %s", next->control.fpm,
		                fpm_session.listen_error);
	else
		fwd_reload_note(log, "control.fpm %s", next->control.fpm[0] ? "listening" : "off");
	return 0;
}

/* control.fpm: "A.B.C.D:PORT", "[X::X]:PORT", or empty (off). */
static const char *valid_fpm(const char *s)
{
	struct sockaddr_storage sa;
	socklen_t len;

	if (s[0] == '\0' || addr_parse(s, &sa, &len) == 0)
		return NULL;
	return "expected A.B.C.D:PORT or [X::X]:PORT with PORT 1..65535";
}

static const struct conf_field fpm_rows[] = {
	CONF_F("fpm", CONF_STR, struct fwd_config, control.fpm, .min = 0, .def_str = "",
	       .valid = valid_fpm),
	CONF_F("fpm_grace_s", CONF_UINT, struct fwd_config, control.fpm_grace_s, .min = 0,
	       .max = 86400, .def = FPM_GRACE_DEFAULT),
	CONF_F("fpm_user", CONF_STR, struct fwd_config, control.fpm_user, .min = 1,
	       .def_str = "frr", .valid = fwd_conf_valid_name),
	CONF_F("fpm_max_routes", CONF_UINT, struct fwd_config, control.fpm_max_routes, .min = 1,
	       .max = 100000000, .def = FPM_MAX_ROUTES_DEFAULT),
};

RTE_INIT(fpm_schema_register)
{
	for (unsigned i = 0; i < RTE_DIM(fpm_rows); i++)
		fwd_config_schema_add("control", &fpm_rows[i]);
}

static struct fwd_module fpm_module = {
	.name = "fpm",
	.depends_on = "l3-config",
	.init = fpm_init,
	.fini = fpm_fini,
	.reload_apply = fpm_reload_apply,
	.commit = fpm_commit,
};
FWD_MODULE(fpm_module);
