/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl capture: frame summaries from crafted (and truncated) frames, the
 * command line, and the streamed reply against a fake daemon: pcapng bytes
 * land in the file in order, records print one line each, refusals exit 1.
 * capture drops: the request it sends, reason names checked against the
 * daemon's table (unknown ones refused with the list), -l, drop lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "capture.h"
#include "cli.h"
#include "cli_fake.h"

static struct fake fake;
static char tmpdir[64];

/* Ethernet + IPv4 + ICMP echo request 10.0.1.2 > 10.0.2.2, id 7 seq 1. */
static const uint8_t icmp_frame[] = {
	0x02, 0, 0, 0,  0, 0x02, 0x02, 0, 0,  0, 0, 0x01, 0x08, 0x00,                    /* eth */
	0x45, 0, 0, 84, 0, 1,    0x40, 0, 64, 1, 0, 0,    10,   0,    1, 2, 10, 0, 2, 2, /* ip */
	8,    0, 0, 0,  0, 7,    0,    1,                                                /* icmp */
};

static const uint8_t arp_frame[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0,    0, 0,  0x01, 0x08, 0x06,
	0,    1,    0x08, 0x00, 6,    4,    0,    1, 0x02, 0, 0,  0,    0,    0x01,
	10,   0,    0,    2,    0,    0,    0,    0, 0,    0, 10, 0,    0,    1,
};

static const uint8_t tcp_frame[] = {
	0x02, 0,    0,    0,    0,    0x02, 0x02, 0,  0,    0,    0,    0x01, 0x81, 0x00,
	0x00, 0x64, 0x08, 0x00, 0x45, 0,    0,    40, 0,    1,    0x40, 0,    63,   6,
	0,    0,    192,  0,    2,    1,    198,  51, 100,  7,    0x9c, 0x40, 0x00, 0x50,
	0,    0,    0,    1,    0,    0,    0,    0,  0x50, 0x12, 0xff, 0xff,
};

static void describe(const uint8_t *f, size_t len, char *out)
{
	fwd_capture_describe(f, len, out, FWD_CAPTURE_DESCR_MAX);
}

static void test_describe(void **state)
{
	char s[FWD_CAPTURE_DESCR_MAX];

	(void)state;
	describe(icmp_frame, sizeof(icmp_frame), s);
	assert_string_equal(s, "10.0.1.2 > 10.0.2.2 ICMP echo request id 7 seq 1 ttl 64");
	describe(arp_frame, sizeof(arp_frame), s);
	assert_string_equal(s, "ARP who-has 10.0.0.1 tell 10.0.0.2");
	describe(tcp_frame, sizeof(tcp_frame), s);
	assert_string_equal(s, "vlan 100 192.0.2.1 > 198.51.100.7 TCP 40000 > 80 [S.] ttl 63");
	describe(icmp_frame, 10, s);
	assert_string_equal(s, "truncated frame");
	describe(icmp_frame, 30, s);
	assert_string_equal(s, "IPv4 (truncated or bad header)");
	describe(icmp_frame, 36, s);
	assert_string_equal(s, "10.0.1.2 > 10.0.2.2 ICMP (truncated) ttl 64");
}

/* Every prefix of every frame, and random bytes: never past len, always a string. */
static void test_describe_hostile(void **state)
{
	const uint8_t *frames[] = { icmp_frame, arp_frame, tcp_frame };
	const size_t lens[] = { sizeof(icmp_frame), sizeof(arp_frame), sizeof(tcp_frame) };
	char s[16];

	(void)state;
	for (unsigned f = 0; f < 3; f++) {
		for (size_t n = 0; n <= lens[f]; n++) {
			uint8_t *copy = malloc(n ? n : 1); /* ASan catches any overread */

			memcpy(copy, frames[f], n);
			fwd_capture_describe(copy, n, s, sizeof(s));
			assert_true(strlen(s) < sizeof(s));
			free(copy);
		}
	}
	srandom(1);
	for (unsigned i = 0; i < 20000; i++) {
		size_t n = (size_t)random() % 80;
		uint8_t *buf = malloc(n ? n : 1);

		for (size_t j = 0; j < n; j++)
			buf[j] = (uint8_t)random();
		if (n > 13 && (i & 1)) /* make half of them IPv4, ARP or VLAN */
			buf[12] = 0x08, buf[13] = (uint8_t)(i & 2 ? 0x00 : 0x06);
		fwd_capture_describe(buf, n, s, sizeof(s));
		assert_true(strlen(s) < sizeof(s));
		free(buf);
	}
}

/* --------------------------------------------------------------- streaming */

/*
 * Runs on the fake's thread, so it must not assert: a cmocka failure there
 * would unwind the main thread's test from the wrong stack. A client that
 * gave up (the unwritable -w path) hangs up mid-stream, and the pages left
 * are not sent.
 */
static bool send_page(int fd, uint32_t id, bool more, Fwd__CapturePackets *cp)
{
	Fwd__Response r = FWD__RESPONSE__INIT;

	r.id = id;
	r.more = more;
	r.body_case = FWD__RESPONSE__BODY_CAPTURE;
	r.capture = cp;
	return fwd_frame_write_timeout(fd, &r.base, 2000) == 0;
}

/* What the last drop capture request asked (written by the fake's thread
 * before it replies, read by the test after the reply). */
static char drops_seen[256];

static void reply_drops(const Fwd__Request *req, int fd)
{
	const Fwd__CaptureStartReq *cs = req->capture_start;
	Fwd__CapturePackets cp = FWD__CAPTURE_PACKETS__INIT;
	Fwd__CapturedPacket p = FWD__CAPTURED_PACKET__INIT, *pp[] = { &p };
	size_t n = 0;

	n += (size_t)snprintf(drops_seen, sizeof(drops_seen),
	                      "port=%s dir=%s count=%u reasons=", cs->port, cs->direction,
	                      cs->count);
	for (size_t i = 0; i < cs->n_reasons && n < sizeof(drops_seen); i++)
		n += (size_t)snprintf(drops_seen + n, sizeof(drops_seen) - n, "%s%s", i ? "," : "",
		                      cs->reasons[i]);
	p.timestamp_ns = 1700000000123456789ull;
	p.port = "p1";
	p.orig_len = 98;
	p.drop_reason = "ttl_exceeded";
	p.data = (ProtobufCBinaryData){ sizeof(icmp_frame), (uint8_t *)icmp_frame };
	cp.n_packets = 1;
	cp.packets = pp;
	cp.captured = 1;
	send_page(fd, req->id, false, &cp);
}

static void reply_capture(const Fwd__Request *req, Fwd__Response *r, int fd)
{
	const Fwd__CaptureStartReq *cs = req->capture_start;
	Fwd__CapturePackets cp = FWD__CAPTURE_PACKETS__INIT;
	Fwd__CapturedPacket p = FWD__CAPTURED_PACKET__INIT, *pp[] = { &p, &p };

	if (cs->drops) {
		r->id = 0;
		reply_drops(req, fd);
		return;
	}
	if (strcmp(cs->port, "busy") == 0) {
		r->status = EBUSY;
		r->error = "a capture is already running on busy (pid 1)";
		return;
	}
	r->id = 0; /* our own pages */
	if (cs->pcapng) {
		cp.pcapng = (ProtobufCBinaryData){ 4, (uint8_t *)"HDR." };
		if (!send_page(fd, req->id, true, &cp))
			return;
		cp.pcapng = (ProtobufCBinaryData){ 0, NULL }; /* a keepalive */
		if (!send_page(fd, req->id, true, &cp))
			return;
		cp.pcapng = (ProtobufCBinaryData){ 4, (uint8_t *)"PKT." };
		cp.captured = cs->count;
		cp.dropped = 3;
		send_page(fd, req->id, false, &cp);
		return;
	}
	if (!send_page(fd, req->id, true, &cp))
		return;
	p.timestamp_ns = 1700000000123456789ull;
	p.port = "p0\033[2J"; /* a hostile name is sanitised */
	p.orig_len = 98;
	p.data = (ProtobufCBinaryData){ sizeof(icmp_frame), (uint8_t *)icmp_frame };
	cp.n_packets = 2;
	cp.packets = pp;
	cp.captured = 2;
	send_page(fd, req->id, false, &cp);
}

static void reply_all(const Fwd__Request *req, Fwd__Response *r, int fd)
{
	if (req->body_case == FWD__REQUEST__BODY_CAPTURE_START)
		reply_capture(req, r, fd);
	else
		reply(req, r, fd);
}

static void test_usage(void **state)
{
	static const char *const bad[] = {
		"capture",
		"capture -c 1",
		"capture p0 -c",
		"capture p0 -c 0",
		"capture p0 -c x",
		"capture p0 -c -1",
		"capture p0 -c 99999999999",
		"capture p0 -w",
		"capture p0 sideways",
		"capture p0 rx tx",
		"-j capture p0 -w -",
	};
	int before = atomic_load(&fake.requests);

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cli_run(bad[i]), FWD_EXIT_USAGE);
		assert_non_null(strstr(err_buf, "usage: fwdctl capture IFACE"));
	}
	assert_int_equal(atomic_load(&fake.requests), before);
}

static void test_file(void **state)
{
	char path[128], cmd[256], buf[64] = "";
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/c.pcapng", tmpdir);
	snprintf(cmd, sizeof(cmd), "capture p0 rx -c5 -w %s", path);
	assert_int_equal(cli_run(cmd), 0);
	assert_non_null(strstr(err_buf, "5 packets captured, 3 dropped"));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), 8);
	fclose(f);
	assert_string_equal(buf, "HDR.PKT.");
	snprintf(cmd, sizeof(cmd), "-j capture p0 -w %s", path);
	assert_int_equal(cli_run(cmd), 0);
	assert_string_equal(out_buf, "{\"captured\":0,\"dropped\":3}\n");
	/* refused: exit 1 and no file left behind */
	snprintf(cmd, sizeof(cmd), "capture busy -w %s/none", tmpdir);
	assert_int_equal(cli_run(cmd), FWD_EXIT_REFUSED);
	assert_non_null(strstr(err_buf, "fwdctl: capture: a capture is already running"));
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	assert_int_equal(access(path, F_OK), -1);
	/* a path we cannot write: exit 1 naming it */
	snprintf(cmd, sizeof(cmd), "capture p0 -w %s/no/such/dir", tmpdir);
	assert_int_equal(cli_run(cmd), FWD_EXIT_REFUSED);
	assert_non_null(strstr(err_buf, "/no/such/dir: No such file or directory"));
}

static void test_summary(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	assert_int_equal(cli_run("capture p0"), 0);
	assert_string_equal(out_buf, "22:13:20.123456 p0?[2J rx 98 bytes 10.0.1.2 > 10.0.2.2 ICMP "
	                             "echo request id 7 seq 1 ttl 64\n"
	                             "22:13:20.123456 p0?[2J rx 98 bytes 10.0.1.2 > 10.0.2.2 ICMP "
	                             "echo request id 7 seq 1 ttl 64\n");
	assert_string_equal(err_buf, "2 packets captured, 0 dropped\n");
	assert_int_equal(cli_run("-j capture p0 both"), 0);
	assert_non_null(strstr(out_buf, "\"packets\":[{\"timestamp_ns\":1700000000123456789"));
}

static void test_drops(void **state)
{
	int before;

	(void)state;
	setenv("TZ", "UTC", 1);
	assert_int_equal(cli_run("capture drops ttl_exceeded bad_checksum -c 3"), 0);
	assert_string_equal(drops_seen, "port= dir= count=3 reasons=ttl_exceeded,bad_checksum");
	assert_string_equal(out_buf, "22:13:20.123456 p1 drop ttl_exceeded 98 bytes 10.0.1.2 > "
	                             "10.0.2.2 ICMP echo request id 7 seq 1 ttl 64\n");
	assert_string_equal(err_buf, "1 packets captured, 0 dropped\n");
	assert_int_equal(cli_run("capture drops"), 0);
	assert_string_equal(drops_seen, "port= dir= count=0 reasons=");

	before = atomic_load(&fake.requests);
	/* unknown names: exit 2, the name and every valid one, nothing sent */
	assert_int_equal(cli_run("capture drops no_route ttl_exceded"), FWD_EXIT_USAGE);
	assert_non_null(strstr(err_buf, "unknown drop reason: ttl_exceded\n"));
	assert_non_null(strstr(err_buf, "valid reasons: tx_full port_down "));
	assert_non_null(strstr(err_buf, " no_route "));
	assert_non_null(strstr(err_buf, " bad_checksum "));
	assert_non_null(strstr(err_buf, " policed_arp "));
	assert_int_equal(cli_run("capture drops rx"), FWD_EXIT_USAGE);
	assert_int_equal(cli_run("capture drops -c 0"), FWD_EXIT_USAGE);
	assert_int_equal(cli_run("capture drops -c"), FWD_EXIT_USAGE);
	/* -l: the names, one a line, each with what it means (drop.h's comments) */
	assert_int_equal(cli_run("capture drops -l"), 0);
	assert_true(strncmp(out_buf, "tx_full              egress queue full\nport_down ", 48) ==
	            0);
	assert_non_null(strstr(out_buf, "\nttl_exceeded         TTL <= 1 on a packet to forward\n"
	                                "no_route             no FIB entry\n"));
	assert_non_null(
	        strstr(out_buf, "\npoliced_ttl          punted ttl packets over their rate"));
	for (const char *l = out_buf; *l != '\0'; l = strchr(l, '\n') + 1)
		assert_true(strcspn(l, "\n") > 22); /* no reason without its meaning */
	assert_int_equal(atomic_load(&fake.requests), before);
}

static int group_setup(void **state)
{
	(void)state;
	init_ports();
	fake_reply = reply_all;
	fake_start(&fake);
	setenv("FWD_SOCKET", fake.path, 1);
	unsetenv("FWD_TIMEOUT");
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/fwdctl-capture.XXXXXX");
	return mkdtemp(tmpdir) == NULL;
}

static int group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	fake_stop(&fake);
	free(out_buf);
	free(err_buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) != 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe), cmocka_unit_test(test_describe_hostile),
		cmocka_unit_test(test_usage),    cmocka_unit_test(test_file),
		cmocka_unit_test(test_summary),  cmocka_unit_test(test_drops),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
