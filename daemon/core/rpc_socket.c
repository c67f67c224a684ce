/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/log.h"
#include "core/rpc_socket.h"

#define BACKLOG 128

static int mkdir_parents(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (p == NULL || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = c;
		if (c == '\0')
			return 0;
	}
}

/* A socket nobody listens on is a crash's leftover; anything else stays. */
static int remove_stale(const struct sockaddr_un *sa)
{
	struct stat st;
	int fd, rc;

	if (lstat(sa->sun_path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	if (rc == 0 || errno == EAGAIN) {
		close(fd);
		return -EADDRINUSE;
	}
	close(fd);
	if (unlink(sa->sun_path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static gid_t group_id(const char *group)
{
	struct group gr, *res = NULL;
	char buf[16384];

	if (group == NULL || group[0] == '\0')
		return 0;
	if (getgrnam_r(group, &gr, buf, sizeof(buf), &res) == 0 && res != NULL)
		return res->gr_gid;
	LOG(WARNING, "group %s does not exist: control socket group is root's", group);
	return 0;
}

static int bind_listen(int fd, const struct sockaddr_un *sa, const char *group)
{
	mode_t old = umask(0177); /* no window where the socket is wider than 0600 */
	int rc = bind(fd, (const struct sockaddr *)sa, sizeof(*sa));

	umask(old);
	if (rc < 0)
		return -errno;
	if (chown(sa->sun_path, 0, group_id(group)) < 0)
		LOG(WARNING, "chown %s: %s", sa->sun_path, strerror(errno));
	if (chmod(sa->sun_path, 0660) < 0 || listen(fd, BACKLOG) < 0)
		return -errno;
	return 0;
}

int fwd_rpc_socket_open(struct fwd_rpc_socket *s, const char *path, const char *group)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, rc;

	memset(s, 0, sizeof(*s));
	if (path == NULL || path[0] == '\0' || strlen(path) >= sizeof(sa.sun_path)) {
		LOG(ERR, "bad control socket path: %s", path ? path : "(null)");
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	rc = mkdir_parents(path);
	if (rc == 0)
		rc = remove_stale(&sa);
	if (rc < 0) {
		LOG(ERR, "%s: %s", path,
		    rc == -EEXIST       ? "exists and is not a socket; not removing it"
		    : rc == -EADDRINUSE ? "another daemon is listening on it"
		                        : strerror(-rc));
		return rc;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		LOG(ERR, "socket: %s", strerror(-rc));
		return rc;
	}
	rc = bind_listen(fd, &sa, group);
	if (rc == 0 && stat(path, &st) < 0)
		rc = -errno;
	if (rc < 0) {
		LOG(ERR, "%s: %s", path, strerror(-rc));
		close(fd);
		return rc;
	}
	memcpy(s->path, sa.sun_path, sizeof(s->path));
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->bound = true;
	return fd;
}

void fwd_rpc_socket_unlink(struct fwd_rpc_socket *s)
{
	struct stat st;

	if (!s->bound)
		return;
	s->bound = false;
	if (stat(s->path, &st) == 0 && st.st_dev == s->dev && st.st_ino == s->ino)
		unlink(s->path);
}
