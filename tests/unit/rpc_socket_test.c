/* SPDX-License-Identifier: BSD-3-Clause */
/* The control socket file: mode, group, stale and foreign files, cleanup. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "core/log.h"
#include "core/rpc.h"

struct fx {
	char dir[64];
	char path[128];
	struct event_base *base;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/fwd-sock-test.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	/* a parent that does not exist yet */
	snprintf(f->path, sizeof(f->path), "%s/run/fwd/fwd.sock", f->dir);
	f->base = event_base_new();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char p[160];

	event_base_free(f->base);
	snprintf(p, sizeof(p), "%s/run/fwd", f->dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/run", f->dir);
	rmdir(p);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void test_created(void **state)
{
	struct fx *f = *state;
	struct fwd_rpc_server *srv;
	struct stat st;
	char parent[160];

	srv = fwd_rpc_server_start(f->base, f->path, "no-such-group-fwd-test");
	assert_non_null(srv);
	assert_int_equal(fwd_rpc_server_clients(srv), 0);
	assert_int_equal(stat(f->path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0660);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_gid, 0); /* the group does not exist: root's */
	snprintf(parent, sizeof(parent), "%s/run/fwd", f->dir);
	assert_int_equal(stat(parent, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);

	/* a live daemon's socket is not taken over */
	errno = 0;
	assert_null(fwd_rpc_server_start(f->base, f->path, NULL));
	assert_int_equal(errno, EADDRINUSE);
	assert_int_equal(access(f->path, F_OK), 0);

	fwd_rpc_server_stop(srv);
	assert_int_equal(access(f->path, F_OK), -1);
	fwd_rpc_server_stop(NULL);
}

static void test_stale_and_foreign(void **state)
{
	struct fx *f = *state;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct fwd_rpc_server *srv;
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/stale.sock", f->dir);
	assert_true(strlen(path) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd); /* a crash's leftover */
	srv = fwd_rpc_server_start(f->base, path, NULL);
	assert_non_null(srv);
	fwd_rpc_server_stop(srv);
	assert_int_equal(access(path, F_OK), -1);

	fd = open(path, O_CREAT | O_WRONLY, 0600); /* not a socket: left alone */
	assert_true(fd >= 0);
	close(fd);
	errno = 0;
	assert_null(fwd_rpc_server_start(f->base, path, NULL));
	assert_int_equal(errno, EEXIST);
	assert_int_equal(unlink(path), 0);

	memset(path, 'x', sizeof(path) - 1); /* longer than sun_path */
	path[sizeof(path) - 1] = '\0';
	errno = 0;
	assert_null(fwd_rpc_server_start(f->base, path, NULL));
	assert_int_equal(errno, ENAMETOOLONG);
}

/* stop leaves alone a socket that a successor has put in our place */
static void test_replaced(void **state)
{
	struct fx *f = *state;
	struct fwd_rpc_server *srv = fwd_rpc_server_start(f->base, f->path, NULL);

	assert_non_null(srv);
	assert_int_equal(unlink(f->path), 0);
	assert_int_equal(mknod(f->path, S_IFREG | 0600, 0), 0);
	fwd_rpc_server_stop(srv);
	assert_int_equal(access(f->path, F_OK), 0);
	assert_int_equal(unlink(f->path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_created, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_and_foreign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replaced, setup, teardown),
	};

	fwd_log_level = getenv("FWD_TEST_LOG") ? FWD_LOG_DEBUG : FWD_LOG_ERR - 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
