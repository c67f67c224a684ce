/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl monitor's output: one text line per kind of event, and the JSON
 * field names (stable: scripts read them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"
#include "monitor.h"
#include "table.h"

static void check_line(const Fwd__Event *e, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fwd_monitor_line(f, e);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

static Fwd__Event ev(char *object, char *action)
{
	Fwd__Event e = FWD__EVENT__INIT;

	e.object = object;
	e.action = action;
	return e;
}

static void test_lines(void **state)
{
	Fwd__Event e;

	(void)state;
	e = ev("port", "down"), e.port = "p0";
	check_line(&e, "link p0 down");
	e.action = "admin-up";
	check_line(&e, "link p0 admin up");
	e = ev("addr", "add"), e.port = "p1", e.prefix = "10.5.0.1/24", e.origin = "rpc";
	check_line(&e, "addr add 10.5.0.1/24 dev p1 origin rpc");
	e = ev("route", "add"), e.prefix = "10.9.0.0/16", e.via = "10.0.0.2", e.port = "p0";
	e.origin = "static";
	check_line(&e, "route add 10.9.0.0/16 via 10.0.0.2 dev p0 origin static");
	e.via = "blackhole", e.port = "";
	check_line(&e, "route add 10.9.0.0/16 blackhole origin static");
	e = ev("neigh", "state"), e.prefix = "10.0.0.2", e.port = "p0";
	e.lladdr = "02:00:00:00:00:02", e.state = "reachable";
	check_line(&e, "neigh 10.0.0.2 dev p0 lladdr 02:00:00:00:00:02 reachable");
	e.action = "del", e.lladdr = "", e.state = "failed";
	check_line(&e, "neigh del 10.0.0.2 dev p0 failed");
	e = ev("fdb", "move"), e.lladdr = "02:00:00:00:00:03", e.bridge = "br0";
	e.port = "p3", e.from_port = "p2";
	check_line(&e, "fdb move 02:00:00:00:00:03 bridge br0 port p3 from p2");
	e = ev("config", "ok"), e.count = 3;
	check_line(&e, "config reload ok: 3 changes");
	e = ev("config", "refused"), e.reason = "fwd.yaml:3:1: unknown key";
	check_line(&e, "config reload refused: fwd.yaml:3:1: unknown key");
	e = ev("drops", "burst"), e.port = "p0", e.reason = "ttl_exceeded", e.count = 12034;
	check_line(&e, "drops p0: 12,034 ttl_exceeded in the last second");
	e = ev("monitor", "lost"), e.count = 1234;
	check_line(&e, "monitor: 1,234 events lost (client too slow)");
	/* VRFs: their own events, and the VRF of a route, addr or neigh event */
	e = ev("vrf", "add"), e.vrf = "blue", e.reason = "table 10";
	check_line(&e, "vrf add blue table 10");
	e = ev("vrf", "moved"), e.vrf = "blue", e.port = "p1";
	check_line(&e, "vrf blue now holds p1");
	e = ev("route", "del"), e.prefix = "10.9.0.0/16", e.vrf = "red";
	check_line(&e, "route del 10.9.0.0/16 vrf red");
	e = ev("addr", "add"), e.port = "p1", e.prefix = "10.5.0.1/24", e.origin = "config";
	e.vrf = "blue";
	check_line(&e, "addr add 10.5.0.1/24 dev p1 origin config vrf blue");
}

static void test_count(void **state)
{
	char b[FWD_FMT_LEN];

	(void)state;
	assert_string_equal(fwd_fmt_count(b, 0), "0");
	assert_string_equal(fwd_fmt_count(b, 999), "999");
	assert_string_equal(fwd_fmt_count(b, 1000), "1,000");
	assert_string_equal(fwd_fmt_count(b, UINT64_MAX), "18,446,744,073,709,551,615");
}

static void test_json_names(void **state)
{
	Fwd__Event e = ev("drops", "burst");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	e.time_ns = 1, e.port = "p0", e.reason = "ttl_exceeded", e.count = 5;
	fwd_json_message(f, &e.base);
	fclose(f);
	assert_string_equal(buf, "{\"time_ns\":1,\"object\":\"drops\",\"action\":\"burst\","
	                         "\"port\":\"p0\",\"prefix\":\"\",\"via\":\"\",\"origin\":\"\","
	                         "\"lladdr\":\"\",\"state\":\"\",\"bridge\":\"\","
	                         "\"from_port\":\"\",\"reason\":\"ttl_exceeded\",\"count\":5,"
	                         "\"vrf\":\"\"}");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_json_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
