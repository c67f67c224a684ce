/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "fwd_frame.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A daemon whose backlog is full makes a non-blocking AF_UNIX connect fail
 * with EAGAIN: retry until the deadline instead of hanging. */
static int connect_deadline(int fd, const struct sockaddr_un *sa, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct timespec pause = { 0, 10 * 1000 * 1000 };

	for (;;) {
		if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -errno;
		if (timeout_ms >= 0 && now_ms() >= deadline)
			return -ETIMEDOUT;
		nanosleep(&pause, NULL);
	}
}

int fwd_client_connect(struct fwd_client *c, const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(path);
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->timeout_ms = timeout_ms;
	if (len == 0 || len >= sizeof(sa.sun_path))
		return len ? -ENAMETOOLONG : -ENOENT;
	memcpy(sa.sun_path, path, len + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	rc = connect_deadline(c->fd, &sa, timeout_ms);
	if (rc < 0)
		fwd_client_close(c);
	return rc;
}

void fwd_client_close(struct fwd_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static int recv_page(struct fwd_client *c, uint32_t id, Fwd__Response **out)
{
	Fwd__Response *r;
	uint8_t *buf;
	size_t len;
	int rc;

	rc = fwd_frame_read(c->fd, &buf, &len, c->timeout_ms);
	if (rc < 0)
		return rc;
	r = fwd__response__unpack(NULL, len, buf);
	free(buf);
	if (r == NULL)
		return -EBADMSG;
	if (r->id != id) {
		fwd__response__free_unpacked(r, NULL);
		return -EBADMSG;
	}
	*out = r;
	return 0;
}

static int refused(struct fwd_client *c, Fwd__Response *r)
{
	c->status = r->status;
	snprintf(c->error, sizeof(c->error), "%s",
	         r->error && r->error[0] ? r->error : strerror(r->status > 0 ? r->status : EIO));
	fwd__response__free_unpacked(r, NULL);
	return 1;
}

int fwd_client_call(struct fwd_client *c, Fwd__Request *req, fwd_client_page_fn fn, void *arg)
{
	Fwd__Response *r;
	bool more = true;
	int rc;

	if (c->fd < 0)
		return -ENOTCONN;
	if (++c->last_id == 0) /* 0 is not a valid id */
		c->last_id = 1;
	req->id = c->last_id;
	req->api_version = FWD_API_VERSION;
	rc = fwd_frame_write_timeout(c->fd, &req->base, c->timeout_ms);
	while (rc == 0 && more) {
		rc = recv_page(c, req->id, &r);
		if (rc < 0)
			break;
		if (r->status != 0) {
			/* more pages after a refusal would desynchronise the stream */
			if (r->more)
				fwd_client_close(c);
			return refused(c, r);
		}
		more = r->more;
		rc = fn(r, arg);
	}
	if (rc < 0)
		fwd_client_close(c);
	return rc;
}
