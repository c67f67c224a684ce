/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint's HTTP server (stats/metrics.h). Every client is
 * hostile: a request line and headers of at most MAX_HEAD bytes, GET and
 * HEAD of /metrics only, one request per connection (Connection: close).
 *
 * Nobody may hold the daemon's file descriptors or its control thread:
 * at most MAX_CONNS connections at once, each closed DEADLINE_MS after it
 * was accepted whatever it still sends (a deadline for the whole
 * exchange, not a timeout of inactivity, which one byte every few seconds
 * defeats). A connection that comes while all places are taken closes
 * the oldest one still sending its request (slowloris clients are always
 * that), so a client that sends its request at once is served however
 * many slow ones wait. Accepting at most ACCEPT_BATCH per wake-up lets a
 * request accepted now be read before MAX_CONNS others can push it out.
 *
 * libevent's evhttp (2.1, Debian 12's) has neither a connection cap nor a
 * deadline, and no hook at accept to add them: this file does its own
 * accept and HTTP on bufferevents. Control thread only.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "core/counter.h"
#include "core/log.h"
#include "stats/metrics.h"

#define MAX_CONNS       64
#define DEADLINE_MS     5000
#define MAX_HEAD        8192
#define ACCEPT_BATCH    16
#define ACCEPT_PAUSE_MS 100 /* out of file descriptors: try again this much later */
#define CONTENT_TYPE    "application/openmetrics-text; version=1.0.0; charset=utf-8"

enum hstate { READING, WRITING, CLOSING };

struct hconn {
	struct bufferevent *bev;
	struct event *deadline;
	uint64_t seq; /* accept order: the lowest is the oldest */
	enum hstate state;
};

static struct {
	struct event_base *base;
	struct event *accept_ev, *accept_resume;
	int fd;
	struct hconn *conns[MAX_CONNS];
	unsigned n;
	uint64_t seq;
} srv = { .fd = -1 };

static FWD_COUNTER(evicted, "metrics_conns_evicted");
static FWD_COUNTER(expired, "metrics_deadline_closed");
static FWD_COUNTER(refused, "metrics_conns_refused");
static FWD_COUNTER(bad_requests, "metrics_bad_requests");

static void hconn_free(struct hconn *c)
{
	for (unsigned i = 0; i < srv.n; i++)
		if (srv.conns[i] == c) {
			srv.conns[i] = srv.conns[--srv.n];
			break;
		}
	event_free(c->deadline);
	bufferevent_free(c->bev);
	free(c);
}

static bool is_token(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < 'A' || s[i] > 'Z')
			return false;
	return true;
}

/* The path of an origin-form ("/p?q") or absolute-form ("http://h/p")
 * target, up to its query; false for anything else. */
static bool target_path(const char *t, size_t n, size_t *off, size_t *len)
{
	size_t i = 0, end;

	if (n > 7 && strncmp(t, "http://", 7) == 0) {
		i = 7;
		while (i < n && t[i] != '/')
			i++;
	}
	if (i >= n || t[i] != '/')
		return false;
	for (end = i; end < n && t[end] != '?' && t[end] != '#'; end++)
		;
	*off = i;
	*len = end - i;
	return true;
}

int metrics_http_status(const char *line, bool *head)
{
	const char *sp1 = strchr(line, ' '), *sp2;
	size_t off, len;

	*head = false;
	if (sp1 == NULL || (sp2 = strchr(sp1 + 1, ' ')) == NULL)
		return 400;
	if (!is_token(line, (size_t)(sp1 - line)) ||
	    (strcmp(sp2 + 1, "HTTP/1.1") != 0 && strcmp(sp2 + 1, "HTTP/1.0") != 0) ||
	    !target_path(sp1 + 1, (size_t)(sp2 - sp1 - 1), &off, &len))
		return 400;
	if (strncmp(line, "GET ", 4) != 0 && strncmp(line, "HEAD ", 5) != 0)
		return 405;
	if (len != strlen("/metrics") || strncmp(sp1 + 1 + off, "/metrics", len) != 0)
		return 404;
	*head = line[0] == 'H';
	return 200;
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 431:
		return "Request Header Fields Too Large";
	case 500:
		return "Internal Server Error";
	default:
		return "Bad Request";
	}
}

/* The output drained: close our side, then wait (until the deadline) for
 * the client's, so what it still sends does not turn our FIN into a reset
 * that could discard the reply before the client read it. */
static void on_discard(struct bufferevent *bev, void *arg)
{
	(void)arg;
	evbuffer_drain(bufferevent_get_input(bev), evbuffer_get_length(bufferevent_get_input(bev)));
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	(void)what; /* EOF or an error: either way the exchange is over */
	hconn_free(arg);
}

static void on_written(struct bufferevent *bev, void *arg)
{
	struct hconn *c = arg;

	c->state = CLOSING;
	shutdown(bufferevent_getfd(bev), SHUT_WR);
	bufferevent_setcb(bev, on_discard, NULL, on_event, c);
	bufferevent_enable(bev, EV_READ);
}

static void reply(struct hconn *c, int status, bool head)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	const char *body = NULL;
	size_t len = 0;

	if (status == 200 && (body = metrics_body(&len)) == NULL)
		status = 500;
	if (status != 200) {
		bad_requests.value += status != 500;
		body = reason(status);
		len = strlen(body);
	}
	c->state = WRITING;
	bufferevent_disable(c->bev, EV_READ);
	evbuffer_add_printf(out,
	                    "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	                    "%sConnection: close\r\n\r\n",
	                    status, reason(status),
	                    status == 200 ? CONTENT_TYPE : "text/plain; charset=utf-8", len,
	                    status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (!head)
		evbuffer_add(out, body, len);
	bufferevent_setcb(c->bev, NULL, on_written, on_event, c);
	bufferevent_enable(c->bev, EV_WRITE);
}

/* Wait for the blank line that ends the headers, then answer. */
static void on_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev);
	struct evbuffer_ptr end = evbuffer_search(in, "\r\n\r\n", 4, NULL);
	char *line;
	bool head;
	int status;

	if (end.pos < 0)
		end = evbuffer_search(in, "\n\n", 2, NULL);
	if (end.pos < 0 || end.pos > MAX_HEAD) {
		if (evbuffer_get_length(in) > MAX_HEAD)
			reply(arg, 431, false);
		return;
	}
	line = evbuffer_readln(in, NULL, EVBUFFER_EOL_CRLF);
	if (line == NULL) {
		reply(arg, 400, false);
		return;
	}
	status = metrics_http_status(line, &head); /* before head is read */
	free(line);
	reply(arg, status, head);
}

static void on_deadline(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	expired.value++;
	hconn_free(arg);
}

/* Make room for one more: close the oldest connection still sending its
 * request or closing. False when every place is writing a reply. */
static bool evict_oldest(void)
{
	struct hconn *old = NULL;

	for (unsigned i = 0; i < srv.n; i++)
		if (srv.conns[i]->state != WRITING && (old == NULL || srv.conns[i]->seq < old->seq))
			old = srv.conns[i];
	if (old == NULL)
		return false;
	evicted.value++;
	hconn_free(old);
	return true;
}

static int hconn_new(int fd)
{
	const struct timeval tv = { DEADLINE_MS / 1000, (DEADLINE_MS % 1000) * 1000 };
	struct hconn *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return -ENOMEM;
	c->bev = bufferevent_socket_new(srv.base, fd, BEV_OPT_CLOSE_ON_FREE);
	c->deadline = evtimer_new(srv.base, on_deadline, c);
	if (c->bev == NULL || c->deadline == NULL || evtimer_add(c->deadline, &tv) < 0) {
		if (c->bev != NULL)
			bufferevent_free(c->bev);
		else
			close(fd);
		if (c->deadline != NULL)
			event_free(c->deadline);
		free(c);
		return -ENOMEM;
	}
	c->seq = srv.seq++;
	bufferevent_setwatermark(c->bev, EV_READ, 0, MAX_HEAD + 1);
	bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
	bufferevent_enable(c->bev, EV_READ);
	srv.conns[srv.n++] = c;
	return 0;
}

static void on_accept_resume(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	event_add(srv.accept_ev, NULL);
}

static void on_accept(evutil_socket_t lfd, short what, void *arg)
{
	const struct timeval pause = { 0, ACCEPT_PAUSE_MS * 1000 };

	(void)what;
	(void)arg;
	for (unsigned i = 0; i < ACCEPT_BATCH; i++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				event_del(srv.accept_ev); /* the backlog waits */
				evtimer_add(srv.accept_resume, &pause);
			}
			return;
		}
		if (srv.n == MAX_CONNS && !evict_oldest()) {
			refused.value++;
			close(fd);
			continue;
		}
		hconn_new(fd); /* closes fd on failure */
	}
}

int metrics_http_start(struct event_base *base, int listen_fd)
{
	srv.base = base;
	srv.fd = listen_fd;
	srv.accept_ev = event_new(base, listen_fd, EV_READ | EV_PERSIST, on_accept, NULL);
	srv.accept_resume = evtimer_new(base, on_accept_resume, NULL);
	if (srv.accept_ev == NULL || srv.accept_resume == NULL ||
	    event_add(srv.accept_ev, NULL) < 0) {
		metrics_http_stop();
		return -ENOMEM;
	}
	return 0;
}

void metrics_http_stop(void)
{
	while (srv.n > 0)
		hconn_free(srv.conns[0]);
	if (srv.accept_ev != NULL)
		event_free(srv.accept_ev);
	if (srv.accept_resume != NULL)
		event_free(srv.accept_resume);
	if (srv.fd >= 0)
		close(srv.fd);
	srv = (typeof(srv)){ .fd = -1 };
}
