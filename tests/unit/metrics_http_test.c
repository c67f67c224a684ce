/* SPDX-License-Identifier: BSD-3-Clause */
/* The metrics endpoint's request line (stats/metrics_http.c): what it
 * answers to each, hostile ones included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/metrics.h"

static void expect(const char *line, int status, bool head)
{
	bool h = !head;

	assert_int_equal(metrics_http_status(line, &h), status);
	assert_int_equal(h, head);
}

static void test_served(void **state)
{
	(void)state;
	expect("GET /metrics HTTP/1.1", 200, false);
	expect("GET /metrics HTTP/1.0", 200, false);
	expect("HEAD /metrics HTTP/1.1", 200, true);
	expect("GET /metrics?name[]=x HTTP/1.1", 200, false);
	expect("GET http://127.0.0.1:9110/metrics HTTP/1.1", 200, false);
}

static void test_refused(void **state)
{
	(void)state;
	expect("GET / HTTP/1.1", 404, false);
	expect("GET /metrics/x HTTP/1.1", 404, false);
	expect("GET /metricsx HTTP/1.1", 404, false);
	expect("GET /metric HTTP/1.1", 404, false);
	expect("POST /metrics HTTP/1.1", 405, false);
	expect("DELETE /metrics HTTP/1.1", 405, false);
	expect("GARBAGE \x01\x02", 400, false);
	expect("", 400, false);
	expect("GET", 400, false);
	expect("GET /metrics", 400, false);
	expect("GET /metrics HTTP/2", 400, false);
	expect("GET /metrics HTTP/1.1 extra", 400, false);
	expect("GET  /metrics HTTP/1.1", 400, false);
	expect("get /metrics HTTP/1.1", 400, false);
	expect("GET metrics HTTP/1.1", 400, false);
	expect("GET http://host HTTP/1.1", 400, false);
	expect("G\x80T /metrics HTTP/1.1", 400, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_served),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
