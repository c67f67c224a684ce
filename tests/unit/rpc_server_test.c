/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control server on a real socket: the event loop runs in a thread and
 * the test plays clients with blocking sockets. Only the loop thread touches
 * libevent; it publishes the client count through an atomic.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <grp.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "core/log.h"
#include "core/rpc.h"
#include "fwd_frame.h"

#define PAGES           300
#define ROUTES_PER_PAGE 800

static atomic_uint n_clients;
static atomic_bool stop_loop;
static atomic_int pages_made, cursors_freed;

/* ------------------------------------------------------------ test handlers */

static int test_status(struct fwd_rpc_call *call)
{
	Fwd__StatusResp *st = fwd_rpc_alloc(call, sizeof(*st));

	fwd__status_resp__init(st);
	st->version = "test";
	st->uptime_s = call->req->id;
	call->resp->body_case = FWD__RESPONSE__BODY_STATUS_RESP;
	call->resp->status_resp = st;
	return 0;
}

static void route_page(struct fwd_rpc_call *call, int page)
{
	Fwd__RouteListResp *rl = fwd_rpc_alloc(call, sizeof(*rl));

	fwd__route_list_resp__init(rl);
	rl->total = (uint64_t)PAGES * ROUTES_PER_PAGE;
	rl->n_routes = ROUTES_PER_PAGE;
	rl->routes = (Fwd__RouteEntry **)fwd_rpc_ptr_array(call, ROUTES_PER_PAGE);
	for (int i = 0; i < ROUTES_PER_PAGE; i++) {
		Fwd__RouteEntry *e = fwd_rpc_alloc(call, sizeof(*e));
		int n = page * ROUTES_PER_PAGE + i;

		fwd__route_entry__init(e);
		e->prefix = fwd_rpc_printf(call, "10.%d.%d.0/24", n >> 8, n & 0xff);
		e->via = "192.0.2.1";
		rl->routes[i] = e;
	}
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_LIST;
	call->resp->route_list = rl;
	atomic_fetch_add(&pages_made, 1);
}

static void test_cursor_free(void *p)
{
	atomic_fetch_add(&cursors_freed, 1);
	free(p);
}

struct cursor {
	int page;
	int calls;
};

static int test_routes_next(struct fwd_rpc_call *call)
{
	struct cursor *c = call->cursor;

	/* now and then "not ready yet", to exercise the retry timer */
	if (++c->calls % 7 == 0)
		return -EAGAIN;
	route_page(call, ++c->page);
	return c->page < PAGES - 1 ? 1 : 0;
}

static int test_routes(struct fwd_rpc_call *call)
{
	struct cursor *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return -ENOMEM;
	route_page(call, 0);
	call->cursor = c;
	call->cursor_free = test_cursor_free;
	call->next = test_routes_next;
	return 0;
}

static const struct fwd_rpc_handler status_h = { FWD__REQUEST__BODY_STATUS, "test_status",
	                                         test_status, FWD_RPC_READ };
static const struct fwd_rpc_handler routes_h = { FWD__REQUEST__BODY_ROUTE_LIST, "test_routes",
	                                         test_routes, FWD_RPC_READ };

/* ------------------------------------------------------------------ fixture */

struct fx {
	char dir[64];
	char path[128];
	struct event_base *base;
	struct fwd_rpc_server *srv;
	struct event *tick;
	pthread_t thread;
};

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
	struct fx *f = arg;

	(void)fd;
	(void)what;
	atomic_store(&n_clients, fwd_rpc_server_clients(f->srv));
	if (atomic_load(&stop_loop))
		event_base_loopbreak(f->base);
}

static void *loop_thread(void *arg)
{
	struct fx *f = arg;

	event_base_dispatch(f->base);
	return NULL;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct timeval tv = { 0, 2000 };

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/fwd-rpc-test.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/run/fwd.sock", f->dir);
	f->base = event_base_new();
	f->srv = fwd_rpc_server_start(f->base, f->path, "no-such-group-fwd-test");
	assert_non_null(f->srv);
	fwd_rpc_server_set_timeouts(f->srv, 300, 1000);
	f->tick = event_new(f->base, -1, EV_PERSIST, on_tick, f);
	event_add(f->tick, &tv);
	atomic_store(&stop_loop, false);
	atomic_store(&n_clients, 0);
	atomic_store(&pages_made, 0);
	atomic_store(&cursors_freed, 0);
	assert_int_equal(pthread_create(&f->thread, NULL, loop_thread, f), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	struct stat st;
	char run[160];

	atomic_store(&stop_loop, true);
	pthread_join(f->thread, NULL);
	fwd_rpc_server_stop(f->srv);
	assert_int_equal(stat(f->path, &st), -1); /* stop unlinks the socket */
	event_free(f->tick);
	event_base_free(f->base);
	snprintf(run, sizeof(run), "%s/run", f->dir);
	rmdir(run);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* ------------------------------------------------------------------ clients */

static int client(const struct fx *f)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	assert_true(strlen(f->path) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, f->path, strlen(f->path) + 1);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

static void send_req(int fd, uint32_t id, Fwd__Request__BodyCase body)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__StatusReq st = FWD__STATUS_REQ__INIT;

	req.id = id;
	req.api_version = FWD_API_VERSION;
	req.body_case = body;
	req.status = &st; /* every request body here is an empty message */
	assert_int_equal(fwd_frame_write_timeout(fd, &req.base, 5000), 0);
}

static Fwd__Response *recv_resp(int fd)
{
	Fwd__Response *r;
	uint8_t *buf;
	size_t len;

	assert_int_equal(fwd_frame_read(fd, &buf, &len, 5000), 0);
	r = fwd__response__unpack(NULL, len, buf);
	free(buf);
	assert_non_null(r);
	return r;
}

static void expect_status(int fd, uint32_t id)
{
	Fwd__Response *r;

	send_req(fd, id, FWD__REQUEST__BODY_STATUS);
	r = recv_resp(fd);
	assert_int_equal(r->id, id);
	assert_int_equal(r->status, 0);
	assert_int_equal(r->body_case, FWD__RESPONSE__BODY_STATUS_RESP);
	assert_int_equal(r->status_resp->uptime_s, id);
	fwd__response__free_unpacked(r, NULL);
}

/* The server hangs up on this client: reads end in EOF. */
static void expect_closed(int fd)
{
	uint8_t *buf = NULL;
	size_t len;

	assert_int_equal(fwd_frame_read(fd, &buf, &len, 5000), -EPIPE);
	close(fd);
}

static void wait_clients(unsigned n)
{
	for (int i = 0; i < 2000 && atomic_load(&n_clients) != n; i++)
		usleep(1000);
	assert_int_equal(atomic_load(&n_clients), n);
}

static void put(int fd, const void *p, size_t n)
{
	assert_int_equal(write(fd, p, n), (ssize_t)n);
}

/* -------------------------------------------------------------------- tests */

static void test_basic(void **state)
{
	struct fx *f = *state;
	int fd = client(f);

	for (uint32_t id = 1; id <= 3; id++)
		expect_status(fd, id);
	wait_clients(1);
	close(fd);
	wait_clients(0);
}

static void test_garbage_closes_only_that_client(void **state)
{
	struct fx *f = *state;
	int good = client(f), bad;

	expect_status(good, 1);
	bad = client(f);
	put(bad, "\0\0\0\x05\xff\xff\xff\xff\xff", 9);
	expect_closed(bad);
	expect_status(good, 2);

	bad = client(f); /* over the cap */
	put(bad, "\0\x20\0\0", 4);
	expect_closed(bad);
	bad = client(f); /* zero */
	put(bad, "\0\0\0\0", 4);
	expect_closed(bad);
	bad = client(f); /* absurd */
	put(bad, "\xff\xff\xff\xff", 4);
	expect_closed(bad);
	expect_status(good, 3);
	close(good);
	wait_clients(0);
}

static void test_length_then_disconnect(void **state)
{
	struct fx *f = *state;
	int good = client(f), bad = client(f);

	put(bad, "\0\0\0\x64", 4);
	wait_clients(2);
	close(bad);
	put(good, "\0\0", 2); /* a request arriving in pieces is fine */
	usleep(20000);
	close(good);
	wait_clients(0);
}

static void test_stalled_frame(void **state)
{
	struct fx *f = *state;
	int good = client(f), slow = client(f);
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	put(slow,
	    "\0\0\0\x10"
	    "abc",
	    7);
	expect_status(good, 1);
	expect_closed(slow); /* after the 300 ms frame timeout */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 3);
	expect_status(good, 2);
	/* an idle client, with no frame started, is not timed out */
	usleep(500000);
	expect_status(good, 3);
	close(good);
	wait_clients(0);
}

static void test_version_mismatch(void **state)
{
	struct fx *f = *state;
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__Response *r;
	int fd = client(f);

	req.id = 1;
	req.api_version = FWD_API_VERSION + 1;
	assert_int_equal(fwd_frame_write(fd, &req.base), 0);
	r = recv_resp(fd);
	assert_int_equal(r->status, EPROTO);
	assert_non_null(strstr(r->error, "API version mismatch"));
	fwd__response__free_unpacked(r, NULL);
	expect_closed(fd);
	wait_clients(0);
}

static void test_many_clients(void **state)
{
	struct fx *f = *state;
	int fds[50];

	for (int i = 0; i < 50; i++)
		fds[i] = client(f);
	for (int i = 0; i < 50; i++)
		send_req(fds[i], 100 + i, FWD__REQUEST__BODY_STATUS);
	wait_clients(50);
	for (int i = 49; i >= 0; i--) {
		Fwd__Response *r = recv_resp(fds[i]);

		assert_int_equal(r->id, 100 + i);
		fwd__response__free_unpacked(r, NULL);
	}
	for (int i = 0; i < 50; i++)
		expect_status(fds[i], 200 + i);
	for (int i = 0; i < 50; i++)
		close(fds[i]);
	wait_clients(0);
}

static void test_pipelined(void **state)
{
	struct fx *f = *state;
	int fd = client(f);

	for (uint32_t id = 1; id <= 200; id++)
		send_req(fd, id, FWD__REQUEST__BODY_STATUS);
	for (uint32_t id = 1; id <= 200; id++) {
		Fwd__Response *r = recv_resp(fd);

		assert_int_equal(r->id, id);
		fwd__response__free_unpacked(r, NULL);
	}
	close(fd);
	wait_clients(0);
}

/* A slow reader gets every page in order, and the server runs only a
 * bounded number of pages ahead of it (backpressure). */
static void test_paged_slow_reader(void **state)
{
	struct fx *f = *state;
	int fd = client(f), other = client(f), got = 0, ahead = 0;
	Fwd__Response *r8;
	bool more = true;

	send_req(fd, 7, FWD__REQUEST__BODY_ROUTE_LIST);
	send_req(fd, 8, FWD__REQUEST__BODY_STATUS); /* pipelined: answered after the stream */
	while (more) {
		Fwd__Response *r = recv_resp(fd);

		assert_int_equal(r->id, 7);
		assert_int_equal(r->status, 0);
		assert_int_equal(r->body_case, FWD__RESPONSE__BODY_ROUTE_LIST);
		assert_int_equal(r->route_list->n_routes, ROUTES_PER_PAGE);
		for (size_t i = 0; i < r->route_list->n_routes; i++) {
			int n = got * ROUTES_PER_PAGE + (int)i;
			char want[32];

			snprintf(want, sizeof(want), "10.%d.%d.0/24", n >> 8, n & 0xff);
			assert_string_equal(r->route_list->routes[i]->prefix, want);
		}
		got++;
		more = r->more;
		fwd__response__free_unpacked(r, NULL);
		if (got % 50 == 0)
			expect_status(other, got); /* others are served meanwhile */
		if (got < 100)
			usleep(3000);
		if (atomic_load(&pages_made) - got > ahead)
			ahead = atomic_load(&pages_made) - got;
	}
	assert_int_equal(got, PAGES);
	if (getenv("FWD_TEST_LOG"))
		fprintf(stderr, "server ran at most %d pages ahead\n", ahead);
	assert_true(ahead < 40);
	assert_int_equal(atomic_load(&cursors_freed), 1);
	r8 = recv_resp(fd);
	assert_int_equal(r8->id, 8);
	assert_int_equal(r8->body_case, FWD__RESPONSE__BODY_STATUS_RESP);
	fwd__response__free_unpacked(r8, NULL);
	expect_status(fd, 9); /* the connection is usable after the stream */
	close(fd);
	close(other);
	wait_clients(0);
}

static void test_paged_disconnect(void **state)
{
	struct fx *f = *state;
	int fd = client(f);
	Fwd__Response *r;

	send_req(fd, 9, FWD__REQUEST__BODY_ROUTE_LIST);
	r = recv_resp(fd);
	assert_true(r->more);
	fwd__response__free_unpacked(r, NULL);
	wait_clients(1);
	close(fd);
	wait_clients(0);
	assert_int_equal(atomic_load(&cursors_freed), 1);
	assert_true(atomic_load(&pages_made) < PAGES);
}

/* A client that asks for a lot and never reads is dropped by the write timeout. */
static void test_reader_stalls(void **state)
{
	struct fx *f = *state;
	int fd = client(f), other = client(f);

	send_req(fd, 1, FWD__REQUEST__BODY_ROUTE_LIST);
	expect_status(other, 1);
	wait_clients(2);
	for (int i = 0; i < 3000 && atomic_load(&n_clients) != 1; i++)
		usleep(1000);
	assert_int_equal(atomic_load(&n_clients), 1);
	assert_int_equal(atomic_load(&cursors_freed), 1);
	expect_status(other, 2);
	close(fd);
	close(other);
	wait_clients(0);
}

static void test_stop_with_clients(void **state)
{
	struct fx *f = *state;
	int a = client(f), b = client(f);

	send_req(b, 1, FWD__REQUEST__BODY_ROUTE_LIST);
	expect_status(a, 1);
	wait_clients(2);
	atomic_store(&stop_loop, true);
	pthread_join(f->thread, NULL);
	fwd_rpc_server_stop(f->srv); /* frees both clients and the paged call */
	assert_int_equal(atomic_load(&cursors_freed), 1);
	f->srv = fwd_rpc_server_start(f->base, f->path, NULL);
	assert_non_null(f->srv);
	atomic_store(&stop_loop, false);
	assert_int_equal(pthread_create(&f->thread, NULL, loop_thread, f), 0);
	close(a);
	close(b);
}

static void loop_pause(struct fx *f)
{
	atomic_store(&stop_loop, true);
	pthread_join(f->thread, NULL);
}

static void loop_resume(struct fx *f)
{
	atomic_store(&stop_loop, false);
	assert_int_equal(pthread_create(&f->thread, NULL, loop_thread, f), 0);
}

/* A client that sends nothing while nothing is owed to it is closed after
 * the idle limit; one that keeps asking is not. */
static void test_idle_closed(void **state)
{
	struct fx *f = *state;
	int quiet, busy;

	loop_pause(f);
	fwd_rpc_server_set_idle(f->srv, 400);
	loop_resume(f);
	quiet = client(f);
	busy = client(f);
	for (uint32_t i = 1; i <= 8; i++) {
		expect_status(busy, i);
		usleep(100000);
	}
	expect_closed(quiet);
	expect_status(busy, 9);
	close(busy);
	wait_clients(0);
}

/* `fwdctl monitor` (core/event_rpc.c, the real handler) sends nothing for
 * long stretches and is never idle-closed: its stream is owed to it, and an
 * empty page comes every second. */
static void test_monitor_not_idle(void **state)
{
	struct fx *f = *state;
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__MonitorReq m = FWD__MONITOR_REQ__INIT;
	Fwd__Response *r;
	int mon, quiet;

	loop_pause(f);
	fwd_rpc_server_set_idle(f->srv, 300);
	loop_resume(f);
	mon = client(f);
	quiet = client(f);
	req.id = 1;
	req.api_version = FWD_API_VERSION;
	req.body_case = FWD__REQUEST__BODY_MONITOR;
	req.monitor = &m;
	assert_int_equal(fwd_frame_write_timeout(mon, &req.base, 5000), 0);
	for (int page = 0; page < 3; page++) { /* the first at once, then one a second */
		r = recv_resp(mon);
		assert_int_equal(r->status, 0);
		assert_true(r->more);
		assert_int_equal(r->body_case, FWD__RESPONSE__BODY_EVENTS);
		fwd__response__free_unpacked(r, NULL);
	}
	expect_closed(quiet);
	close(mon);
	wait_clients(0);
}

/* The child of test_per_user_cap, as uid 65534 in root's group (which owns
 * the socket): FWD_RPC_MAX_PER_USER connections are served, one more is
 * closed at once. Returns its exit status; no cmocka in a child. */
static int capped_user(const struct fx *f)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fds[FWD_RPC_MAX_PER_USER + 1];
	uint8_t *buf = NULL;
	size_t len;

	memcpy(sa.sun_path, f->path, strlen(f->path) + 1);
	if (setgroups(0, NULL) < 0 || setgid(0) < 0 || setuid(65534) < 0)
		return 10;
	for (unsigned i = 0; i <= FWD_RPC_MAX_PER_USER; i++)
		if ((fds[i] = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
		    connect(fds[i], (struct sockaddr *)&sa, sizeof(sa)) < 0)
			return 11;
	if (fwd_frame_read(fds[FWD_RPC_MAX_PER_USER], &buf, &len, 5000) != -EPIPE)
		return 12;
	for (unsigned i = 0; i < FWD_RPC_MAX_PER_USER; i++) {
		Fwd__Request req = FWD__REQUEST__INIT;
		Fwd__StatusReq st = FWD__STATUS_REQ__INIT;
		Fwd__Response *r;

		req.id = i + 1;
		req.api_version = FWD_API_VERSION;
		req.body_case = FWD__REQUEST__BODY_STATUS;
		req.status = &st;
		if (fwd_frame_write_timeout(fds[i], &req.base, 5000) < 0 ||
		    fwd_frame_read(fds[i], &buf, &len, 5000) < 0)
			return 13;
		r = fwd__response__unpack(NULL, len, buf);
		free(buf);
		if (r == NULL || r->status != 0)
			return 14;
		fwd__response__free_unpacked(r, NULL);
	}
	return 0;
}

/* One user but root holds at most FWD_RPC_MAX_PER_USER connections, so no
 * local user can lock the others out; root is not capped. */
static void test_per_user_cap(void **state)
{
	struct fx *f = *state;
	int fds[FWD_RPC_MAX_PER_USER + 8], status;
	char run[160];
	pid_t pid;

	snprintf(run, sizeof(run), "%s/run", f->dir);
	assert_int_equal(chmod(f->dir, 0711), 0); /* let the child reach the socket */
	assert_int_equal(chmod(run, 0711), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(capped_user(f));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	wait_clients(0);
	for (unsigned i = 0; i < RTE_DIM(fds); i++)
		fds[i] = client(f);
	for (unsigned i = 0; i < RTE_DIM(fds); i++)
		expect_status(fds[i], i + 1);
	for (unsigned i = 0; i < RTE_DIM(fds); i++)
		close(fds[i]);
	wait_clients(0);
}

static const struct fwd_rpc_handler *saved[2];

static int group_setup(void **state)
{
	(void)state;
	fwd_log_level = getenv("FWD_TEST_LOG") ? FWD_LOG_DEBUG : FWD_LOG_ERR;
	saved[0] = fwd_rpc_handler_swap(FWD__REQUEST__BODY_STATUS, &status_h);
	saved[1] = fwd_rpc_handler_swap(FWD__REQUEST__BODY_ROUTE_LIST, &routes_h);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	fwd_rpc_handler_swap(FWD__REQUEST__BODY_STATUS, saved[0]);
	fwd_rpc_handler_swap(FWD__REQUEST__BODY_ROUTE_LIST, saved[1]);
	return 0;
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_basic),
		T(test_garbage_closes_only_that_client),
		T(test_length_then_disconnect),
		T(test_stalled_frame),
		T(test_version_mismatch),
		T(test_many_clients),
		T(test_pipelined),
		T(test_paged_slow_reader),
		T(test_paged_disconnect),
		T(test_reader_stalls),
		T(test_stop_with_clients),
		T(test_idle_closed),
		T(test_monitor_not_idle),
		T(test_per_user_cap),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
