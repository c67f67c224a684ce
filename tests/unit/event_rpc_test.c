/* SPDX-License-Identifier: BSD-3-Clause */
/* `fwdctl monitor`'s places (core/event_rpc.c): two users of the socket
 * group who start as many monitors as they can still leave root room, and
 * each other too; a place freed is taken again. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/event.h"
#include "core/log.h"
#include "core/rpc.h"
#include "fwd_frame.h"

#define TRIES 32 /* one user's RPC connections (FWD_RPC_MAX_PER_USER), each a monitor */

struct client {
	struct fwd_rpc_call call;
	bool versioned;
};

static struct client clients[3 * TRIES + 2];
static unsigned n_clients;

/* A Monitor request from uid on a connection of its own: its status. */
static int monitor(uid_t uid)
{
	struct client *c = &clients[n_clients++];
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__MonitorReq m = FWD__MONITOR_REQ__INIT;
	uint8_t buf[64];
	size_t n;

	fwd_rpc_call_init(&c->call, fwd_arena_new());
	c->call.peer = (struct fwd_rpc_peer){ .pid = 100 + (pid_t)n_clients, .uid = uid };
	req.id = n_clients;
	req.api_version = FWD_API_VERSION;
	req.body_case = FWD__REQUEST__BODY_MONITOR;
	req.monitor = &m;
	n = fwd__request__pack(&req, buf);
	assert_int_equal(fwd_rpc_dispatch(buf, n, &c->versioned, &c->call), 0);
	return (int)c->call.resp->status;
}

/* How many of tries monitors of uid were started. */
static unsigned monitors(uid_t uid, unsigned tries)
{
	unsigned ok = 0;

	for (unsigned i = 0; i < tries; i++)
		ok += monitor(uid) == 0;
	return ok;
}

static void end(struct client *c)
{
	if (c->call.arena == NULL)
		return;
	fwd_rpc_call_end(&c->call);
	fwd_arena_free(c->call.arena);
	c->call.arena = NULL;
}

static void end_all(void)
{
	for (unsigned i = 0; i < n_clients; i++)
		end(&clients[i]);
	n_clients = 0;
}

static void test_no_lockout(void **state)
{
	(void)state;
	assert_int_equal(monitors(1000, TRIES), FWD_MONITOR_PER_USER);
	assert_int_equal(monitor(1000), EBUSY);
	assert_int_equal(monitors(1001, TRIES), FWD_MONITOR_PER_USER);
	assert_int_equal(monitor(0), 0);    /* root gets in */
	assert_int_equal(monitor(1002), 0); /* and a third user */
	end(&clients[0]);                   /* user 1000 stops one: it may start one again */
	assert_int_equal(monitor(1000), 0);
	end_all();
}

/* Users fill every place but root's: root still starts monitors there. */
static void test_root_reserve(void **state)
{
	unsigned users = (FWD_EVENT_SUBS - FWD_MONITOR_ROOT_RESERVE) / FWD_MONITOR_PER_USER;
	unsigned got = 0;

	(void)state;
	for (unsigned u = 0; u <= users; u++)
		got += monitors(2000 + u, FWD_MONITOR_PER_USER);
	assert_int_equal(got, FWD_EVENT_SUBS - FWD_MONITOR_ROOT_RESERVE);
	assert_int_equal(monitors(0, FWD_MONITOR_ROOT_RESERVE + 1), FWD_MONITOR_ROOT_RESERVE);
	end_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_lockout),
		cmocka_unit_test(test_root_reserve),
	};

	fwd_log_level = FWD_LOG_ERR;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
