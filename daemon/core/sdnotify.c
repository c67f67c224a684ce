/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/sdnotify.h"

/* Fill sa from $NOTIFY_SOCKET; returns the address length, 0 when unset,
 * -EINVAL when it is not something we can send to. */
static int notify_addr(struct sockaddr_un *sa)
{
	const char *path = getenv("NOTIFY_SOCKET");
	size_t len;

	if (path == NULL || path[0] == '\0')
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa->sun_path))
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, len);
	if (path[0] == '@')
		sa->sun_path[0] = '\0'; /* abstract: the length, not a NUL, ends the name */
	return (int)(offsetof(struct sockaddr_un, sun_path) + len);
}

int fwd_sd_notify(const char *state)
{
	struct sockaddr_un sa;
	int salen = notify_addr(&sa);
	int fd, rc = 0;

	if (salen <= 0) {
		if (salen < 0)
			LOG(WARNING,
			    "NOTIFY_SOCKET is not a socket address: not notifying systemd");
		return salen;
	}
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* MSG_NOSIGNAL: a vanished manager must not kill us with SIGPIPE */
	if (sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa,
	           (socklen_t)salen) < 0) {
		rc = -errno;
		LOG(WARNING, "notifying systemd (%s): %s", getenv("NOTIFY_SOCKET"), strerror(-rc));
	}
	close(fd);
	return rc;
}

int fwd_sd_notifyf(const char *fmt, ...)
{
	char state[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(state, sizeof(state), fmt, ap);
	va_end(ap);
	return fwd_sd_notify(state);
}

int fwd_sd_notify_reloading(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return fwd_sd_notifyf("RELOADING=1\nMONOTONIC_USEC=%llu",
	                      (unsigned long long)ts.tv_sec * 1000000ull +
	                              (unsigned long long)ts.tv_nsec / 1000);
}
