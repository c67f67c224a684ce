/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who is at the other end of an FPM connection (daemon/cp/fpm_peer.c):
 * real TCP connections over the loopback, made by this process (root) and
 * by a child that became nobody before it made its socket; the owner the
 * kernel's socket diag gives must be theirs, for IPv4, IPv6 and an IPv4
 * client of an IPv6 listener.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cp/fpm_priv.h"

#define NOBODY 65534

/* A listener on the loopback of family (port chosen by the kernel); an
 * IPv6 one for IPv4 clients (cfamily) on ::ffff:127.0.0.1. */
static int listen_on(int family, int cfamily, struct sockaddr_storage *sa, socklen_t *len)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	memset(sa, 0, sizeof(*sa));
	sa->ss_family = (sa_family_t)family;
	if (family == AF_INET)
		((struct sockaddr_in *)sa)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else
		inet_pton(AF_INET6, cfamily == AF_INET ? "::ffff:127.0.0.1" : "::1",
		          &((struct sockaddr_in6 *)sa)->sin6_addr);
	*len = family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	if (bind(fd, (struct sockaddr *)sa, *len) < 0 || listen(fd, 4) < 0) {
		close(fd);
		return -1;
	}
	assert_int_equal(getsockname(fd, (struct sockaddr *)sa, len), 0);
	return fd;
}

/* Connect to port on the loopback of family, as uid (0: as we are), and
 * return the accepted end; the client holds on until the pipe closes. */
static int accept_from(int lfd, int family, const struct sockaddr_storage *at, uid_t uid,
                       pid_t *child, int *hold)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	*child = fork();
	assert_true(*child >= 0);
	if (*child == 0) {
		struct sockaddr_storage to = *at;
		char c;
		if (uid != 0 && (setgid(NOBODY) < 0 || setuid(uid) < 0))
			_exit(2);
		int fd = socket(family, SOCK_STREAM, 0);
		if (family == AF_INET6)
			((struct sockaddr_in6 *)&to)->sin6_addr = in6addr_loopback;
		else
			((struct sockaddr_in *)&to)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		to.ss_family = (sa_family_t)family;
		if (family == AF_INET && at->ss_family == AF_INET6) { /* to the mapped one */
			struct sockaddr_in *a = (struct sockaddr_in *)&to;
			a->sin_port = ((const struct sockaddr_in6 *)at)->sin6_port;
		}
		socklen_t len = family == AF_INET ? sizeof(struct sockaddr_in)
		                                  : sizeof(struct sockaddr_in6);
		if (fd < 0 || connect(fd, (struct sockaddr *)&to, len) < 0)
			_exit(3);
		close(p[1]);
		(void)!read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	*hold = p[1];
	int fd = accept(lfd, NULL, NULL);
	assert_true(fd >= 0);
	return fd;
}

static void release(pid_t child, int hold, int fd)
{
	int st;

	close(fd);
	close(hold);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void check_owner(int lfamily, int cfamily, uid_t as)
{
	struct sockaddr_storage sa;
	socklen_t len;
	pid_t child;
	int hold;
	uid_t uid = 12345;
	int lfd = listen_on(lfamily, cfamily, &sa, &len);

	if (lfd < 0) {
		printf("# no %s loopback here: skipped\n", lfamily == AF_INET ? "IPv4" : "IPv6");
		return;
	}
	int fd = accept_from(lfd, cfamily, &sa, as, &child, &hold);
	assert_int_equal(fpm_peer_uid(fd, &uid), 0);
	assert_int_equal(uid, as);
	release(child, hold, fd);
	close(lfd);
}

static void test_owner_root_and_nobody(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		printf("# not root: cannot become nobody; skipped\n");
		return;
	}
	check_owner(AF_INET, AF_INET, 0);
	check_owner(AF_INET, AF_INET, NOBODY);
	check_owner(AF_INET6, AF_INET6, NOBODY);
	check_owner(AF_INET6, AF_INET, NOBODY); /* ::ffff:127.0.0.1 */
	check_owner(AF_INET6, AF_INET6, 0);
}

/* A socket that is not TCP, or not connected: no owner. */
static void test_owner_unknown(void **state)
{
	uid_t uid;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int u = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)state;
	assert_int_equal(fpm_peer_uid(fd, &uid), -ENOTCONN);
	assert_true(fpm_peer_uid(u, &uid) < 0);
	assert_true(fpm_peer_uid(-1, &uid) < 0);
	close(fd);
	close(u);
}

static void test_user_uid(void **state)
{
	uid_t uid = 1;

	(void)state;
	assert_int_equal(fpm_user_uid("root", &uid), 0);
	assert_int_equal(uid, 0);
	assert_int_equal(fpm_user_uid("no-such-user-fwd", &uid), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_root_and_nobody),
		cmocka_unit_test(test_owner_unknown),
		cmocka_unit_test(test_user_uid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
