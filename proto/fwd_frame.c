/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "fwd_frame.h"

int fwd_frame_hdr_parse(const uint8_t hdr[FWD_FRAME_HDR], uint32_t *len)
{
	uint32_t n = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 |
	             (uint32_t)hdr[3];

	if (n == 0)
		return -EBADMSG;
	if (n > FWD_FRAME_MAX)
		return -EMSGSIZE;
	*len = n;
	return 0;
}

void fwd_frame_hdr_put(uint8_t hdr[FWD_FRAME_HDR], uint32_t len)
{
	hdr[0] = len >> 24;
	hdr[1] = len >> 16;
	hdr[2] = len >> 8;
	hdr[3] = len;
}

int fwd_frame_pack(const ProtobufCMessage *msg, uint8_t **buf, size_t *len)
{
	size_t n = protobuf_c_message_get_packed_size(msg);
	uint8_t *b;

	/* A zero-length frame is invalid on the wire, so an all-default message cannot be sent. */
	if (n == 0)
		return -EBADMSG;
	if (n > FWD_FRAME_MAX)
		return -EMSGSIZE;
	b = malloc(FWD_FRAME_HDR + n);
	if (b == NULL)
		return -ENOMEM;
	fwd_frame_hdr_put(b, n);
	protobuf_c_message_pack(msg, b + FWD_FRAME_HDR);
	*buf = b;
	*len = FWD_FRAME_HDR + n;
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for fd to become ready before deadline (-1: none); EINTR restarts with the time left. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int timeout, rc;

	for (;;) {
		timeout = -1;
		if (deadline >= 0) {
			int64_t left = deadline - now_ms();

			timeout = left > 0 ? (int)(left > INT32_MAX ? INT32_MAX : left) : 0;
		}
		rc = poll(&pfd, 1, timeout);
		if (rc > 0)
			return 0;
		if (rc == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* Sockets are used with MSG_DONTWAIT so blocking and non-blocking descriptors behave alike. */
static int send_all(int fd, const uint8_t *buf, size_t len, int64_t deadline)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		int rc;

		if (n > 0) {
			buf += n;
			len -= n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		rc = wait_fd(fd, POLLOUT, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Returns the bytes read (short only at EOF), or -errno. */
static ssize_t recv_all(int fd, uint8_t *buf, size_t len, int64_t deadline)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, MSG_DONTWAIT);
		int rc;

		if (n > 0) {
			got += n;
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		rc = wait_fd(fd, POLLIN, deadline);
		if (rc < 0)
			return rc;
	}
	return got;
}

int fwd_frame_write_timeout(int fd, const ProtobufCMessage *msg, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	uint8_t *buf;
	size_t len;
	int rc;

	rc = fwd_frame_pack(msg, &buf, &len);
	if (rc < 0)
		return rc;
	rc = send_all(fd, buf, len, deadline);
	free(buf);
	return rc;
}

int fwd_frame_write(int fd, const ProtobufCMessage *msg)
{
	return fwd_frame_write_timeout(fd, msg, -1);
}

int fwd_frame_read(int fd, uint8_t **payload, size_t *len, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	uint8_t hdr[FWD_FRAME_HDR], *buf;
	uint32_t n;
	ssize_t got;
	int rc;

	got = recv_all(fd, hdr, sizeof(hdr), deadline);
	if (got < 0)
		return got;
	if (got == 0)
		return -EPIPE;
	if (got < (ssize_t)sizeof(hdr))
		return -EIO;
	rc = fwd_frame_hdr_parse(hdr, &n);
	if (rc < 0)
		return rc;
	buf = malloc(n);
	if (buf == NULL)
		return -ENOMEM;
	got = recv_all(fd, buf, n, deadline);
	if (got != (ssize_t)n) {
		free(buf);
		return got < 0 ? got : -EIO;
	}
	*payload = buf;
	*len = n;
	return 0;
}
