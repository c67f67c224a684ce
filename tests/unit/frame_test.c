/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "fwd_frame.h"

static void test_hdr_parse(void **state)
{
	static const struct {
		uint8_t hdr[FWD_FRAME_HDR];
		int rc;
		uint32_t len;
	} cases[] = {
		{ { 0, 0, 0, 0 }, -EBADMSG, 0 },
		{ { 0, 0, 0, 1 }, 0, 1 },
		{ { 0, 0x10, 0, 0 }, 0, FWD_FRAME_MAX },
		{ { 0, 0x10, 0, 1 }, -EMSGSIZE, 0 },
		{ { 0xff, 0xff, 0xff, 0xff }, -EMSGSIZE, 0 },
		{ { 0x80, 0, 0, 0 }, -EMSGSIZE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t len = 12345;

		assert_int_equal(fwd_frame_hdr_parse(cases[i].hdr, &len), cases[i].rc);
		assert_int_equal(len, cases[i].rc == 0 ? cases[i].len : 12345);
	}
}

static void test_hdr_put(void **state)
{
	uint8_t hdr[FWD_FRAME_HDR];
	uint32_t len = 0;

	(void)state;
	fwd_frame_hdr_put(hdr, 0x000a0b0c);
	assert_memory_equal(hdr, "\x00\x0a\x0b\x0c", 4);
	assert_int_equal(fwd_frame_hdr_parse(hdr, &len), 0);
	assert_int_equal(len, 0x000a0b0c);
}

static void test_pack_roundtrip(void **state)
{
	Fwd__Response r = FWD__RESPONSE__INIT, *u;
	Fwd__StatusResp st = FWD__STATUS_RESP__INIT;
	uint8_t *buf;
	size_t len;
	uint32_t n;

	(void)state;
	r.id = 7;
	r.status = 2;
	r.error = "no such port: p9";
	r.body_case = FWD__RESPONSE__BODY_STATUS_RESP;
	r.status_resp = &st;
	st.version = "1.2.3";
	st.uptime_s = UINT64_MAX;
	assert_int_equal(fwd_frame_pack(&r.base, &buf, &len), 0);
	assert_int_equal(fwd_frame_hdr_parse(buf, &n), 0);
	assert_int_equal(n + FWD_FRAME_HDR, len);
	u = fwd__response__unpack(NULL, n, buf + FWD_FRAME_HDR);
	assert_non_null(u);
	assert_int_equal(u->id, 7);
	assert_int_equal(u->status, 2);
	assert_string_equal(u->error, "no such port: p9");
	assert_int_equal(u->body_case, FWD__RESPONSE__BODY_STATUS_RESP);
	assert_string_equal(u->status_resp->version, "1.2.3");
	assert_true(u->status_resp->uptime_s == UINT64_MAX);
	fwd__response__free_unpacked(u, NULL);
	free(buf);
}

static void test_pack_limits(void **state)
{
	Fwd__Response r = FWD__RESPONSE__INIT;
	Fwd__CapturePackets cap = FWD__CAPTURE_PACKETS__INIT;
	Fwd__CapturedPacket pkt = FWD__CAPTURED_PACKET__INIT, *pkts[] = { &pkt };
	uint8_t *buf = NULL;
	size_t len = 0;

	(void)state;
	/* all defaults: would be a zero-length frame */
	assert_int_equal(fwd_frame_pack(&r.base, &buf, &len), -EBADMSG);
	r.id = 1;
	r.body_case = FWD__RESPONSE__BODY_CAPTURE;
	r.capture = &cap;
	cap.n_packets = 1;
	cap.packets = pkts;
	pkt.data.len = FWD_FRAME_MAX;
	pkt.data.data = calloc(1, pkt.data.len);
	assert_non_null(pkt.data.data);
	assert_int_equal(fwd_frame_pack(&r.base, &buf, &len), -EMSGSIZE);
	assert_null(buf);
	free(pkt.data.data);
}

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
}

static void put(int fd, const void *p, size_t n)
{
	assert_int_equal(write(fd, p, n), (ssize_t)n);
}

static int read_one(int fd, int timeout_ms, size_t *len)
{
	uint8_t *payload = NULL;
	int rc = fwd_frame_read(fd, &payload, len, timeout_ms);

	if (rc == 0)
		assert_non_null(payload);
	else
		assert_null(payload);
	free(payload);
	return rc;
}

static void test_read_errors(void **state)
{
	int sv[2];
	size_t len;

	(void)state;
	pair(sv); /* clean EOF */
	close(sv[1]);
	assert_int_equal(read_one(sv[0], 1000, &len), -EPIPE);
	close(sv[0]);

	pair(sv); /* EOF inside the header */
	put(sv[1], "\0\0", 2);
	close(sv[1]);
	assert_int_equal(read_one(sv[0], 1000, &len), -EIO);
	close(sv[0]);

	pair(sv); /* truncated body */
	put(sv[1],
	    "\0\0\0\x64"
	    "0123456789",
	    14);
	close(sv[1]);
	assert_int_equal(read_one(sv[0], 1000, &len), -EIO);
	close(sv[0]);

	pair(sv); /* zero, oversized and absurd lengths: refused before any allocation */
	put(sv[1], "\0\0\0\0", 4);
	assert_int_equal(read_one(sv[0], 1000, &len), -EBADMSG);
	put(sv[1], "\0\x10\0\x01", 4);
	assert_int_equal(read_one(sv[0], 1000, &len), -EMSGSIZE);
	put(sv[1], "\xff\xff\xff\xff", 4);
	assert_int_equal(read_one(sv[0], 1000, &len), -EMSGSIZE);

	/* nothing arrives: timeout, also when the frame stops half-way */
	assert_int_equal(read_one(sv[0], 50, &len), -ETIMEDOUT);
	put(sv[1],
	    "\0\0\0\x08"
	    "0123",
	    8);
	assert_int_equal(read_one(sv[0], 50, &len), -ETIMEDOUT);
	close(sv[0]);
	close(sv[1]);
}

static void test_read_garbage(void **state)
{
	int sv[2];
	uint8_t *payload;
	size_t len;

	(void)state;
	pair(sv);
	put(sv[1], "\0\0\0\x05\xff\xff\xff\xff\xff", 9);
	assert_int_equal(fwd_frame_read(sv[0], &payload, &len, 1000), 0);
	assert_int_equal(len, 5);
	/* framing is fine; the payload itself must fail to unpack */
	assert_null(fwd__request__unpack(NULL, len, payload));
	free(payload);
	close(sv[0]);
	close(sv[1]);
}

struct dribble {
	int fd;
	const uint8_t *buf;
	size_t len;
};

/* Writes one byte at a time, so the reader sees every possible short read. */
static void *dribble_thread(void *arg)
{
	struct dribble *d = arg;

	for (size_t i = 0; i < d->len; i++) {
		if (write(d->fd, d->buf + i, 1) != 1)
			break;
		usleep(200);
	}
	return NULL;
}

static void test_read_short(void **state)
{
	Fwd__Request req = FWD__REQUEST__INIT, *u;
	Fwd__PortShowReq show = FWD__PORT_SHOW_REQ__INIT;
	struct dribble d;
	pthread_t t;
	uint8_t *frame, *payload;
	size_t flen, len;
	int sv[2];

	(void)state;
	req.id = 3;
	req.api_version = FWD_API_VERSION;
	req.body_case = FWD__REQUEST__BODY_PORT_SHOW;
	req.port_show = &show;
	show.name = "p0";
	assert_int_equal(fwd_frame_pack(&req.base, &frame, &flen), 0);
	pair(sv);
	d = (struct dribble){ .fd = sv[1], .buf = frame, .len = flen };
	assert_int_equal(pthread_create(&t, NULL, dribble_thread, &d), 0);
	assert_int_equal(fwd_frame_read(sv[0], &payload, &len, 5000), 0);
	pthread_join(t, NULL);
	u = fwd__request__unpack(NULL, len, payload);
	assert_non_null(u);
	assert_int_equal(u->id, 3);
	assert_string_equal(u->port_show->name, "p0");
	fwd__request__free_unpacked(u, NULL);
	free(payload);
	free(frame);
	close(sv[0]);
	close(sv[1]);
}

struct big_reader {
	int fd;
	int rc;
	size_t len;
};

static void *big_reader_thread(void *arg)
{
	struct big_reader *b = arg;
	uint8_t *payload = NULL;

	b->rc = fwd_frame_read(b->fd, &payload, &b->len, 10000);
	free(payload);
	return NULL;
}

static void test_write_big(void **state)
{
	Fwd__Response r = FWD__RESPONSE__INIT;
	Fwd__ConfigCheckResp cs = FWD__CONFIG_CHECK_RESP__INIT;
	struct big_reader b = { .rc = 1 };
	char *yaml = malloc(900000);
	pthread_t t;
	int sv[2];

	(void)state;
	assert_non_null(yaml);
	memset(yaml, 'y', 899999);
	yaml[899999] = '\0';
	r.id = 9;
	r.body_case = FWD__RESPONSE__BODY_CONFIG_CHECK;
	r.config_check = &cs;
	cs.errors = yaml;

	/* nobody reads: the write gives up at its deadline */
	pair(sv);
	assert_int_equal(fwd_frame_write_timeout(sv[0], &r.base, 50), -ETIMEDOUT);
	close(sv[0]);
	close(sv[1]);

	/* a reader: the whole frame goes through short writes */
	pair(sv);
	b.fd = sv[1];
	assert_int_equal(pthread_create(&t, NULL, big_reader_thread, &b), 0);
	assert_int_equal(fwd_frame_write(sv[0], &r.base), 0);
	pthread_join(t, NULL);
	assert_int_equal(b.rc, 0);
	assert_int_equal(b.len, fwd__response__get_packed_size(&r));

	/* the peer is gone: an error, not SIGPIPE */
	close(sv[1]);
	assert_int_equal(fwd_frame_write(sv[0], &r.base), -EPIPE);
	close(sv[0]);
	free(yaml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_parse),      cmocka_unit_test(test_hdr_put),
		cmocka_unit_test(test_pack_roundtrip), cmocka_unit_test(test_pack_limits),
		cmocka_unit_test(test_read_errors),    cmocka_unit_test(test_read_garbage),
		cmocka_unit_test(test_read_short),     cmocka_unit_test(test_write_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
