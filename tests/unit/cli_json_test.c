/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"

/* Capture what a writer prints. */
struct cap {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct cap *c)
{
	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

static void cap_check(struct cap *c, const char *want)
{
	fclose(c->f);
	assert_string_equal(c->buf, want);
	free(c->buf);
}

static void check_string(const char *in, size_t len, const char *want)
{
	struct cap c;

	fwd_json_string(cap_open(&c), in, len);
	cap_check(&c, want);
}

static void check_message(const ProtobufCMessage *m, const char *want)
{
	struct cap c;

	fwd_json_message(cap_open(&c), m);
	cap_check(&c, want);
}

static void test_escaping(void **state)
{
	(void)state;
	check_string("plain", 5, "\"plain\"");
	check_string("", 0, "\"\"");
	check_string("q\"b\\s/", 6, "\"q\\\"b\\\\s/\"");
	check_string("\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"");
	check_string("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
	check_string("nul\0in", 6, "\"nul\\u0000in\"");
	/* valid UTF-8 passes through: é, €, 😀 */
	check_string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9,
	             "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	/* invalid: stray continuation, bad lead, overlong, surrogate, past U+10FFFF, truncated */
	check_string("\x80", 1, "\"\\ufffd\"");
	check_string("\xff"
	             "a",
	             2, "\"\\ufffda\"");
	check_string("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");
	check_string("\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\"");
	check_string("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");
	check_string("\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	check_string("x\xe2\x82", 3, "\"x\\ufffd\\ufffd\"");
}

static void test_numbers(void **state)
{
	Fwd__PortStats ps = FWD__PORT_STATS__INIT;
	Fwd__Response r = FWD__RESPONSE__INIT;
	struct {
		double v;
		const char *want;
	} d[] = {
		{ 0.1, "0.1" },
		{ 1.5, "1.5" },
		{ 0, "0" },
		{ -0.0, "-0" },
		{ 1e300, "1e+300" },
		{ 9.87e9, "9870000000" },
		{ 1e-5, "1e-05" },
		{ 123456789.25, "123456789.25" },
		{ NAN, "null" },
		{ INFINITY, "null" },
		{ -INFINITY, "null" },
		{ 5e-324, "5e-324" },
		{ 0.30000000000000004, "0.30000000000000004" },
	};
	char want[512];

	(void)state;
	r.id = UINT32_MAX;
	r.status = -5;
	r.more = 1;
	check_message(&r.base, "{\"id\":4294967295,\"status\":-5,\"error\":\"\",\"more\":true}");

	ps.name = "p0";
	ps.rx_packets = UINT64_MAX;
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		ps.rx_pps = d[i].v;
		snprintf(want, sizeof(want),
		         "{\"name\":\"p0\",\"rx_packets\":18446744073709551615,\"rx_bytes\":0,"
		         "\"tx_packets\":0,\"tx_bytes\":0,\"rx_pps\":%s,\"rx_bps\":0,\"tx_pps\":0,"
		         "\"tx_bps\":0,\"drops\":0,\"drop_reasons\":[],\"xstats\":[],"
		         "\"link_up\":false,\"admin_up\":false,\"consumed\":0,\"created\":0}",
		         d[i].want);
		check_message(&ps.base, want);
	}
}

static void test_nested(void **state)
{
	Fwd__PortInfo pi = FWD__PORT_INFO__INIT;
	Fwd__QueueMap q0 = FWD__QUEUE_MAP__INIT, q1 = FWD__QUEUE_MAP__INIT, *qs[] = { &q0, &q1 };
	char *addrs[] = { "10.0.0.1/24", "10.0.1.1/24" };
	Fwd__StatusResp st = FWD__STATUS_RESP__INIT;
	uint32_t workers[] = { 1, 2 };

	(void)state;
	pi.name = "p0";
	pi.n_addresses = 2;
	pi.addresses = addrs;
	q1.queue = 1;
	q1.worker = 1;
	q1.lcore = 2;
	pi.n_rx_queue_workers = 2;
	pi.rx_queue_workers = qs;
	check_message(
	        &pi.base,
	        "{\"name\":\"p0\",\"port_id\":0,\"device\":\"\",\"driver\":\"\",\"mode\":\"\","
	        "\"peer\":\"\",\"bridge\":\"\",\"mac\":\"\",\"mtu\":0,\"admin_up\":false,"
	        "\"link_up\":false,\"link_speed_mbps\":0,\"link_full_duplex\":false,"
	        "\"rx_queues\":0,\"tx_queues\":0,\"rxd\":0,\"txd\":0,\"promiscuous\":false,"
	        "\"addresses\":[\"10.0.0.1/24\",\"10.0.1.1/24\"],\"rx_queue_workers\":["
	        "{\"queue\":0,\"worker\":0,\"lcore\":0},{\"queue\":1,\"worker\":1,\"lcore\":2}],"
	        "\"link_changes\":0,\"tap\":{\"name\":\"\",\"ifindex\":0,\"up\":0,\"down\":0,"
	        "\"up_dropped\":0,\"down_dropped\":0},\"rpf\":\"\"}");

	/* an unset sub-message prints as its default object; repeated scalars as arrays */
	st.n_worker_lcores = 2;
	st.worker_lcores = workers;
	check_message(&st.base,
	              "{\"version\":\"\",\"uptime_s\":0,\"api_version\":0,\"config_path\":\"\","
	              "\"lcores\":\"\",\"control_lcore\":0,\"worker_lcores\":[1,2],\"n_ports\":0,"
	              "\"n_ports_up\":0,\"mempool\":{\"name\":\"\",\"size\":0,\"in_use\":0,"
	              "\"available\":0},\"pid\":0,\"routes\":0,\"neighbours\":0,\"routes_ip6\":0,"
	              "\"fpm\":{\"listen\":\"\",\"listening\":false,\"listen_error\":\"\","
	              "\"connected\":false,\"peer\":\"\",\"connected_since\":0,"
	              "\"disconnected_at\":0,\"disconnect_reason\":\"\",\"connections\":0,"
	              "\"frames\":0,\"messages\":0,\"bytes\":0,\"routes\":0,\"installed\":0,"
	              "\"installed_by_origin\":[],\"groups\":0,\"stale\":0,\"sweep_at\":0,"
	              "\"shadowed\":0,\"counters\":[],\"errors\":[],\"last_error\":\"\","
	              "\"last_install_error\":\"\",\"grace_s\":0,\"user\":\"\",\"user_uid\":0,"
	              "\"peer_uid\":0,\"refused\":0,\"last_refused\":\"\",\"last_refused_at\":0,"
	              "\"max_routes\":0},\"reasm_datagrams\":0,\"reasm_fragments\":0}");
}

static void test_bytes_and_oneof(void **state)
{
	Fwd__CapturedPacket p = FWD__CAPTURED_PACKET__INIT;
	Fwd__Response r = FWD__RESPONSE__INIT;
	Fwd__ConfigCheckResp cs = FWD__CONFIG_CHECK_RESP__INIT;
	static const struct {
		const char *in, *out;
	} b64[] = { { "", "" },
		    { "a", "YQ==" },
		    { "ab", "YWI=" },
		    { "abc", "YWJj" },
		    { "\xff\xfe\xfd\x00", "//79AA==" } };
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(b64) / sizeof(b64[0]); i++) {
		p.data.data = (uint8_t *)b64[i].in;
		p.data.len = i == 4 ? 4 : strlen(b64[i].in);
		snprintf(want, sizeof(want),
		         "{\"timestamp_ns\":0,\"port\":\"\",\"tx\":false,\"orig_len\":0,"
		         "\"data\":\"%s\",\"drop_reason\":\"\"}",
		         b64[i].out);
		check_message(&p.base, want);
	}
	/* only the set member of a oneof appears */
	r.id = 1;
	r.body_case = FWD__RESPONSE__BODY_CONFIG_CHECK;
	r.config_check = &cs;
	cs.errors = "a: 1\n";
	check_message(&r.base, "{\"id\":1,\"status\":0,\"error\":\"\",\"more\":false,"
	                       "\"config_check\":{\"ok\":false,\"errors\":\"a: 1\\n\"}}");
	assert_ptr_equal(fwd_json_body(&r), &cs.base);
	r.body_case = FWD__RESPONSE__BODY__NOT_SET;
	assert_null(fwd_json_body(&r));
}

/* A heap copy, as the client hands pages over. */
static Fwd__Response *page_copy(const Fwd__Response *r)
{
	uint8_t buf[4096];
	size_t n = fwd__response__pack(r, buf);
	Fwd__Response *u = fwd__response__unpack(NULL, n, buf);

	assert_non_null(u);
	return u;
}

static Fwd__Response *route_page(const char *const *prefixes, size_t n, uint64_t total, int more)
{
	Fwd__Response r = FWD__RESPONSE__INIT;
	Fwd__RouteListResp rl = FWD__ROUTE_LIST_RESP__INIT;
	Fwd__RouteEntry e[4], *ep[4];

	for (size_t i = 0; i < n; i++) {
		fwd__route_entry__init(&e[i]);
		e[i].prefix = (char *)prefixes[i];
		e[i].type = "static";
		ep[i] = &e[i];
	}
	rl.n_routes = n;
	rl.routes = ep;
	rl.total = total;
	r.id = 1;
	r.more = more;
	r.body_case = FWD__RESPONSE__BODY_ROUTE_LIST;
	r.route_list = &rl;
	return page_copy(&r);
}

#define ROUTE(p)                                                                               \
	"{\"prefix\":\"" p "\",\"type\":\"static\",\"via\":\"\",\"dev\":\"\",\"origin\":\"\"," \
	"\"nexthops\":[],\"vrf\":\"\",\"next_"                                                 \
	"vrf\":\"\"}"

static void test_merge_stream(void **state)
{
	static const char *const p1[] = { "10.0.0.0/8", "10.1.0.0/16" }, *const p3[] = {
		"0.0.0.0/0"
	};
	struct fwd_json_merge *m;
	struct cap c;

	(void)state;
	m = fwd_json_merge_new(cap_open(&c));
	assert_int_equal(fwd_json_merge_page(m, route_page(p1, 2, 3, 1)), 0);
	assert_int_equal(fwd_json_merge_page(m, route_page(NULL, 0, 0, 1)), 0); /* empty page */
	assert_int_equal(fwd_json_merge_page(m, route_page(p3, 1, 0, 0)), 0);
	fwd_json_merge_end(m, true);
	cap_check(&c, "{\"routes\":[" ROUTE("10.0.0.0/8") "," ROUTE("10.1.0.0/16") "," ROUTE(
	                      "0.0.0.0/0") "],\"total\":3}\n");

	/* a page of another kind is refused */
	m = fwd_json_merge_new(cap_open(&c));
	assert_int_equal(fwd_json_merge_page(m, route_page(p1, 1, 1, 1)), 0);
	{
		Fwd__Response r = FWD__RESPONSE__INIT;
		Fwd__ConfigShowResp cs = FWD__CONFIG_SHOW_RESP__INIT;

		r.id = 1;
		r.body_case = FWD__RESPONSE__BODY_CONFIG_SHOW;
		r.config_show = &cs;
		assert_int_equal(fwd_json_merge_page(m, page_copy(&r)), -EBADMSG);
	}
	fwd_json_merge_end(m, false);
	cap_check(&c, "{\"routes\":[" ROUTE("10.0.0.0/8") "],\"total\":1}\n");
}

static Fwd__Response *stats_page(const char *port, const char *global, double interval)
{
	Fwd__Response r = FWD__RESPONSE__INIT;
	Fwd__StatsResp s = FWD__STATS_RESP__INIT;
	Fwd__PortStats ps = FWD__PORT_STATS__INIT, *pp[] = { &ps };
	Fwd__Counter g = FWD__COUNTER__INIT, *gp[] = { &g };

	ps.name = (char *)port;
	g.name = (char *)global;
	g.value = 7;
	s.n_ports = 1;
	s.ports = pp;
	s.n_global = global ? 1 : 0;
	s.global = gp;
	s.interval_s = interval;
	r.id = 2;
	r.body_case = FWD__RESPONSE__BODY_STATS;
	r.stats = &s;
	return page_copy(&r);
}

#define PSTATS(n)                                                                              \
	"{\"name\":\"" n "\",\"rx_packets\":0,\"rx_bytes\":0,\"tx_packets\":0,\"tx_bytes\":0," \
	"\"rx_pps\":0,\"rx_bps\":0,\"tx_pps\":0,\"tx_bps\":0,\"drops\":0,\"drop_reasons\":[]," \
	"\"xstats\":[],\"link_up\":false,\"admin_up\":false,\"consumed\":0,\"created\":0}"

static void test_merge_two_repeated(void **state)
{
	struct fwd_json_merge *m;
	struct cap c;

	(void)state;
	m = fwd_json_merge_new(cap_open(&c));
	assert_int_equal(fwd_json_merge_page(m, stats_page("p0", "g0", 1.5)), 0);
	assert_int_equal(fwd_json_merge_page(m, stats_page("p1", NULL, 9)), 0);
	assert_int_equal(fwd_json_merge_page(m, stats_page("p2", "g2", 9)), 0);
	fwd_json_merge_end(m, true);
	/* the first page's scalars win; both arrays are concatenated */
	cap_check(&c, "{\"ports\":[" PSTATS("p0") "," PSTATS("p1") "," PSTATS(
	                      "p2") "],\"global\":[{\"name\":\"g0\",\"value\":7},"
	                            "{\"name\":\"g2\",\"value\":7}],\"interval_s\":1.5,"
	                            "\"timestamp_ms\":0,\"interfaces\":[]}\n");
}

static void test_merge_empty(void **state)
{
	Fwd__Response r = FWD__RESPONSE__INIT;
	struct fwd_json_merge *m;
	struct cap c;

	(void)state;
	r.id = 3;
	m = fwd_json_merge_new(cap_open(&c));
	assert_int_equal(fwd_json_merge_page(m, page_copy(&r)), 0);
	fwd_json_merge_end(m, true);
	cap_check(&c, "{}\n");

	m = fwd_json_merge_new(cap_open(&c)); /* failed before any body: nothing */
	fwd_json_merge_end(m, false);
	cap_check(&c, "");
	fwd_json_merge_end(NULL, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),     cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_nested),       cmocka_unit_test(test_bytes_and_oneof),
		cmocka_unit_test(test_merge_stream), cmocka_unit_test(test_merge_two_repeated),
		cmocka_unit_test(test_merge_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
