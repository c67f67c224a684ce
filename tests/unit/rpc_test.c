/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/config.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/rpc.h"
#include "fwd_frame.h"

#define N_PAGES 5

/* Test handlers sit on body numbers no request uses and are swapped onto
 * real ones per test, so they never clash with the daemon's own handlers. */
#define TEST_BODY_FAIL  ((Fwd__Request__BodyCase)126)
#define TEST_BODY_PAGES ((Fwd__Request__BodyCase)127)

static int pages_freed;
static int again_once;

static int test_fail(struct fwd_rpc_call *call)
{
	const char *name = call->req->body_case == FWD__REQUEST__BODY_PORT_SET
	                           ? call->req->port_set->name
	                           : "";

	if (strcmp(name, "quiet") == 0)
		return -EBUSY;
	return fwd_rpc_error(call, ENODEV, "no such port: %s", name);
}
FWD_RPC_HANDLER(TEST_BODY_FAIL, test_fail, FWD_RPC_CHANGE);

struct cursor {
	int page;
	int fail_at;
};

static void cursor_free(void *p)
{
	pages_freed++;
	free(p);
}

/* One port per page, named after the page number. */
static void fill_page(struct fwd_rpc_call *call, int page)
{
	Fwd__PortListResp *pl = fwd_rpc_alloc(call, sizeof(*pl));
	Fwd__PortInfo *pi = fwd_rpc_alloc(call, sizeof(*pi));

	fwd__port_list_resp__init(pl);
	fwd__port_info__init(pi);
	pi->name = fwd_rpc_printf(call, "page%d", page);
	pl->n_ports = 1;
	pl->ports = (Fwd__PortInfo **)fwd_rpc_ptr_array(call, 1);
	pl->ports[0] = pi;
	call->resp->body_case = FWD__RESPONSE__BODY_PORT_LIST;
	call->resp->port_list = pl;
}

static int test_pages_next(struct fwd_rpc_call *call)
{
	struct cursor *c = call->cursor;

	if (again_once) {
		again_once = 0;
		return -EAGAIN;
	}
	c->page++;
	if (c->page == c->fail_at)
		return fwd_rpc_error(call, EIO, "table changed");
	fill_page(call, c->page);
	return c->page < N_PAGES - 1 ? 1 : 0;
}

static int test_pages(struct fwd_rpc_call *call)
{
	struct cursor *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return -ENOMEM;
	c->fail_at = call->req->body_case == FWD__REQUEST__BODY_PORT_SHOW
	                     ? atoi(call->req->port_show->name)
	                     : -1;
	fill_page(call, 0);
	call->cursor = c;
	call->cursor_free = cursor_free;
	call->next = test_pages_next;
	return 0;
}
FWD_RPC_HANDLER(TEST_BODY_PAGES, test_pages, FWD_RPC_READ);

static const struct fwd_rpc_handler *saved[3];
static struct fwd_rpc_handler fail_h, pages_h, pages_show_h;

static int group_setup(void **state)
{
	(void)state;
	fwd_log_level = FWD_LOG_ERR;
	fail_h = *fwd_rpc_handler_get(TEST_BODY_FAIL);
	pages_h = *fwd_rpc_handler_get(TEST_BODY_PAGES);
	pages_show_h = pages_h;
	saved[0] = fwd_rpc_handler_swap(FWD__REQUEST__BODY_PORT_SET, &fail_h);
	saved[1] = fwd_rpc_handler_swap(FWD__REQUEST__BODY_PORT_LIST, &pages_h);
	saved[2] = fwd_rpc_handler_swap(FWD__REQUEST__BODY_PORT_SHOW, &pages_show_h);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	fwd_rpc_handler_swap(FWD__REQUEST__BODY_PORT_SET, saved[0]);
	fwd_rpc_handler_swap(FWD__REQUEST__BODY_PORT_LIST, saved[1]);
	fwd_rpc_handler_swap(FWD__REQUEST__BODY_PORT_SHOW, saved[2]);
	return 0;
}

struct ctx {
	struct fwd_rpc_call call;
	bool versioned;
	uint8_t buf[4096];
};

static int setup(void **state)
{
	struct ctx *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	fwd_rpc_call_init(&x->call, fwd_arena_new());
	pages_freed = 0;
	again_once = 0;
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *x = *state;

	fwd_rpc_call_end(&x->call);
	fwd_arena_free(x->call.arena);
	free(x);
	return 0;
}

static int run(struct ctx *x, const Fwd__Request *req)
{
	size_t n = fwd__request__pack(req, x->buf);

	return fwd_rpc_dispatch(x->buf, n, &x->versioned, &x->call);
}

static Fwd__Request request(uint32_t id, uint32_t version)
{
	Fwd__Request req = FWD__REQUEST__INIT;

	req.id = id;
	req.api_version = version;
	return req;
}

static void test_garbage(void **state)
{
	struct ctx *x = *state;
	static const uint8_t junk[][6] = { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		                           { 0x08, 0x80, 0x80, 0x80, 0x80, 0x80 },
		                           { 0x52, 0x7f, 0x00, 0x00, 0x00, 0x00 } };

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		assert_int_equal(
		        fwd_rpc_dispatch(junk[i], sizeof(junk[i]), &x->versioned, &x->call),
		        -EBADMSG);
		assert_null(x->call.req);
		assert_false(x->versioned);
	}
}

static void test_no_version(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(5, 0);
	Fwd__StatusReq st = FWD__STATUS_REQ__INIT;

	req.body_case = FWD__REQUEST__BODY_STATUS;
	req.status = &st;
	assert_int_equal(run(x, &req), -EPROTO);
	assert_false(x->versioned);
	assert_int_equal(x->call.resp->id, 5);
	assert_int_equal(x->call.resp->status, EPROTO);
	assert_non_null(strstr(x->call.resp->error, "API version missing"));
	/* an empty payload is an empty Request: refused the same way */
	assert_int_equal(fwd_rpc_dispatch(x->buf, 0, &x->versioned, &x->call), -EPROTO);
}

static void test_wrong_version(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(6, FWD_API_VERSION + 1);

	assert_int_equal(run(x, &req), -EPROTO);
	assert_int_equal(x->call.resp->status, EPROTO);
	assert_string_equal(x->call.resp->error,
	                    "API version mismatch: client speaks 2, daemon speaks 1; "
	                    "upgrade fwdctl/fwd-daemon together");
	/* once versioned, a later request may omit it but not contradict it */
	req = request(7, FWD_API_VERSION);
	assert_int_equal(run(x, &req), 0);
	assert_true(x->versioned);
	req = request(8, 0);
	assert_int_equal(run(x, &req), 0);
	req = request(9, 99);
	assert_int_equal(run(x, &req), -EPROTO);
}

static void test_unknown_body(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(10, FWD_API_VERSION);
	Fwd__CaptureStopReq stop = FWD__CAPTURE_STOP_REQ__INIT;
	const struct fwd_rpc_handler *old;

	assert_int_equal(run(x, &req), 0);
	assert_int_equal(x->call.resp->id, 10);
	assert_int_equal(x->call.resp->status, EOPNOTSUPP);
	assert_string_equal(x->call.resp->error, "unknown request");
	assert_int_equal(x->call.resp->body_case, FWD__RESPONSE__BODY__NOT_SET);

	old = fwd_rpc_handler_swap(FWD__REQUEST__BODY_CAPTURE_STOP, NULL);
	req.body_case = FWD__REQUEST__BODY_CAPTURE_STOP;
	req.capture_stop = &stop;
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(x->call.resp->status, EOPNOTSUPP);
	fwd_rpc_handler_swap(FWD__REQUEST__BODY_CAPTURE_STOP, old);

	/* a field number past anything known is skipped by unpack: no body */
	static const uint8_t future[] = { 0x08, 0x01, 0x10, 0x01, 0xfa, 0x3f, 0x00 };
	assert_int_equal(fwd_rpc_dispatch(future, sizeof(future), &x->versioned, &x->call), 0);
	assert_int_equal(x->call.resp->status, EOPNOTSUPP);
}

static void test_zero_id(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(0, FWD_API_VERSION);

	assert_int_equal(run(x, &req), 0);
	assert_int_equal(x->call.resp->status, EINVAL);
	assert_true(fwd__response__get_packed_size(x->call.resp) > 0);
}

static void test_handler_error(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(11, FWD_API_VERSION);
	Fwd__PortSetReq set = FWD__PORT_SET_REQ__INIT;

	req.body_case = FWD__REQUEST__BODY_PORT_SET;
	req.port_set = &set;
	set.name = "p9";
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(x->call.resp->id, 11);
	assert_int_equal(x->call.resp->status, ENODEV);
	assert_string_equal(x->call.resp->error, "no such port: p9");
	assert_false(x->call.resp->more);

	set.name = "quiet"; /* no message: strerror */
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(x->call.resp->status, EBUSY);
	assert_string_equal(x->call.resp->error, strerror(EBUSY));
}

/* Changes need uid 0 or control.admin_group; reads are the socket group's. */
static void test_permissions(void **state)
{
	struct ctx *x = *state;
	Fwd__Request change = request(21, FWD_API_VERSION), read = request(22, FWD_API_VERSION);
	Fwd__PortSetReq set = FWD__PORT_SET_REQ__INIT;
	Fwd__PortListReq list = FWD__PORT_LIST_REQ__INIT;
	struct fwd_config *cfg = fwd_config_new();
	const struct group *g = getgrnam("nogroup");

	assert_non_null(cfg);
	assert_non_null(g);
	change.body_case = FWD__REQUEST__BODY_PORT_SET; /* test_fail, a change */
	change.port_set = &set;
	set.name = "p9";
	read.body_case = FWD__REQUEST__BODY_PORT_LIST; /* test_pages, a read */
	read.port_list = &list;
	fwd.cfg = cfg; /* admin_group "": root only */
	x->call.peer = (struct fwd_rpc_peer){ .pid = 1, .uid = 65534, .gid = g->gr_gid };
	assert_int_equal(run(x, &change), 0);
	assert_int_equal(x->call.resp->status, EPERM);
	assert_string_equal(x->call.resp->error, "permission denied");
	assert_int_equal(run(x, &read), 0);
	assert_int_equal(x->call.resp->status, 0);

	snprintf(cfg->control.admin_group, sizeof(cfg->control.admin_group), "nogroup");
	assert_int_equal(run(x, &change), 0);
	assert_int_equal(x->call.resp->status, ENODEV); /* the handler ran */
	snprintf(cfg->control.admin_group, sizeof(cfg->control.admin_group), "root");
	assert_int_equal(run(x, &change), 0);
	assert_int_equal(x->call.resp->status, EPERM);
	x->call.peer.uid = 0; /* root always may */
	assert_int_equal(run(x, &change), 0);
	assert_int_equal(x->call.resp->status, ENODEV);
	fwd_rpc_call_end(&x->call);
	fwd.cfg = NULL;
	fwd_config_free(cfg);
}

static const char *page_name(const struct fwd_rpc_call *call)
{
	assert_int_equal(call->resp->body_case, FWD__RESPONSE__BODY_PORT_LIST);
	assert_int_equal(call->resp->port_list->n_ports, 1);
	return call->resp->port_list->ports[0]->name;
}

static void test_paging(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(12, FWD_API_VERSION);
	Fwd__PortListReq pl = FWD__PORT_LIST_REQ__INIT;
	char want[16];
	int rc, page = 0;

	req.body_case = FWD__REQUEST__BODY_PORT_LIST;
	req.port_list = &pl;
	assert_int_equal(run(x, &req), 0);
	assert_true(x->call.resp->more);
	assert_string_equal(page_name(&x->call), "page0");
	again_once = 1;
	assert_int_equal(fwd_rpc_next_page(&x->call), -EAGAIN);
	do {
		rc = fwd_rpc_next_page(&x->call);
		assert_true(rc == 0 || rc == 1);
		snprintf(want, sizeof(want), "page%d", ++page);
		assert_string_equal(page_name(&x->call), want);
		assert_int_equal(x->call.resp->id, 12);
		assert_int_equal(x->call.resp->more, rc == 1);
	} while (rc == 1);
	assert_int_equal(page, N_PAGES - 1);
	assert_int_equal(pages_freed, 1);
	assert_int_equal(fwd_rpc_next_page(&x->call), -EINVAL);
}

static void test_paging_abandoned(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(13, FWD_API_VERSION);
	Fwd__PortListReq pl = FWD__PORT_LIST_REQ__INIT;

	req.body_case = FWD__REQUEST__BODY_PORT_LIST;
	req.port_list = &pl;
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(fwd_rpc_next_page(&x->call), 1);
	fwd_rpc_call_end(&x->call); /* the client went away */
	assert_int_equal(pages_freed, 1);
	/* a new request on a call mid-stream also ends the old stream */
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(pages_freed, 2);
}

static void test_paging_error(void **state)
{
	struct ctx *x = *state;
	Fwd__Request req = request(14, FWD_API_VERSION);
	Fwd__PortShowReq show = FWD__PORT_SHOW_REQ__INIT;

	req.body_case = FWD__REQUEST__BODY_PORT_SHOW;
	req.port_show = &show;
	show.name = "2"; /* fail on page 2 */
	assert_int_equal(run(x, &req), 0);
	assert_int_equal(fwd_rpc_next_page(&x->call), 1);
	assert_int_equal(fwd_rpc_next_page(&x->call), 0);
	assert_int_equal(x->call.resp->status, EIO);
	assert_string_equal(x->call.resp->error, "table changed");
	assert_false(x->call.resp->more);
	assert_int_equal(x->call.resp->body_case, FWD__RESPONSE__BODY__NOT_SET);
	assert_int_equal(pages_freed, 1);
}

static void test_arena(void **state)
{
	struct ctx *x = *state;
	struct fwd_rpc_call *call = &x->call;
	void **ptrs;
	char *s;

	for (size_t sz = 0; sz < 300000; sz = sz * 2 + 1) {
		unsigned char *p = fwd_rpc_alloc(call, sz);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
		for (size_t i = 0; i < sz; i++)
			assert_int_equal(p[i], 0);
		memset(p, 0xa5, sz);
	}
	for (int i = 0; i < 10000; i++)
		assert_non_null(fwd_rpc_alloc(call, 24));
	s = fwd_rpc_printf(call, "%s-%d", "port", 42);
	assert_string_equal(s, "port-42");
	assert_string_equal(fwd_rpc_strdup(call, "x"), "x");
	ptrs = fwd_rpc_ptr_array(call, 1000);
	for (int i = 0; i < 1000; i++)
		assert_null(ptrs[i]);
	fwd_arena_reset(call->arena);
	assert_non_null(fwd_rpc_alloc(call, 10));
	fwd_arena_reset(NULL);
	fwd_arena_free(NULL);
}

static void test_register_twice(void **state)
{
	static const struct fwd_rpc_handler dup = { .body = TEST_BODY_FAIL, .name = "dup" };
	static const struct fwd_rpc_handler bad = { .body = (Fwd__Request__BodyCase)500,
		                                    .name = "bad" };
	const struct fwd_rpc_handler *hs[] = { &dup, &bad };
	int status;

	(void)state;
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			fclose(stderr);
			fwd_rpc_register(hs[i]);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	}
	assert_null(fwd_rpc_handler_get((Fwd__Request__BodyCase)500));
	assert_null(fwd_rpc_handler_get((Fwd__Request__BodyCase)-1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_body, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zero_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handler_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_permissions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paging, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paging_abandoned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paging_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arena, setup, teardown),
		cmocka_unit_test(test_register_twice),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
