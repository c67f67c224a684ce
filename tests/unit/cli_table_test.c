/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "table.h"

static void test_units(void **state)
{
	static const struct {
		double v;
		const char *unit, *want;
	} si[] = {
		{ 0, "pps", "0 pps" },
		{ 950, "pps", "950 pps" },
		{ 5.5, "pps", "5.50 pps" },
		{ 999.4, "pps", "999 pps" },
		{ 999.5, "pps", "1.00 kpps" },
		{ 1234567, "pps", "1.23 Mpps" },
		{ 14880952, "pps", "14.9 Mpps" },
		{ 9.87e9, "bit/s", "9.87 Gbit/s" },
		{ 100e9, "bit/s", "100 Gbit/s" },
		{ 999.96e6, "bit/s", "1.00 Gbit/s" },
		{ NAN, "pps", "0 pps" },
		{ -5, "pps", "0 pps" },
		{ 1e30, "pps", "1000000000000 Epps" },
	};
	static const struct {
		uint64_t v;
		const char *want;
	} bytes[] = {
		{ 0, "0 B" },
		{ 999, "999 B" },
		{ 1000, "0.98 KiB" },
		{ 1024, "1.00 KiB" },
		{ 1536, "1.50 KiB" },
		{ 98765432100ull, "92.0 GiB" },
		{ UINT64_MAX, "16.0 EiB" },
	};
	static const struct {
		uint64_t s;
		const char *want;
	} dur[] = {
		{ 0, "0s" },       { 59, "59s" },       { 60, "1m00s" },    { 3599, "59m59s" },
		{ 7380, "2h03m" }, { 86399, "23h59m" }, { 86400, "1d00h" }, { 400000, "4d15h" }
	};
	char buf[FWD_FMT_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++)
		assert_string_equal(fwd_fmt_si(buf, si[i].v, si[i].unit), si[i].want);
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++)
		assert_string_equal(fwd_fmt_bytes(buf, bytes[i].v), bytes[i].want);
	for (size_t i = 0; i < sizeof(dur) / sizeof(dur[0]); i++)
		assert_string_equal(fwd_fmt_duration(buf, dur[i].s), dur[i].want);
}

static char *render(struct fwd_table *t)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fwd_table_print(t, f);
	fclose(f);
	fwd_table_free(t);
	return buf;
}

static void test_table(void **state)
{
	static const char *const hdr[] = { "NAME", ">COUNT", "NOTE" };
	struct fwd_table *t = fwd_table_new(3, hdr);
	char *s;

	(void)state;
	fwd_table_cell(t, "p0");
	fwd_table_cell(t, "%d", 5);
	fwd_table_cell(t, "0→w0");
	fwd_table_cell(t, "longer");
	fwd_table_cell(t, "%d", 123456);
	fwd_table_cell(t, "x\x1b[2Jy"); /* a daemon string with a terminal escape */
	assert_int_equal(fwd_table_rows(t), 2);
	s = render(t);
	assert_string_equal(s, "NAME     COUNT  NOTE\n"
	                       "p0           5  0→w0\n"
	                       "longer  123456  x?[2Jy\n");
	free(s);

	t = fwd_table_new(2, NULL);
	fwd_table_cell(t, "key:");
	fwd_table_cell(t, "value");
	fwd_table_cell(t, "longer key:");
	fwd_table_cell(t, "v");
	s = render(t);
	assert_string_equal(s, "key:         value\nlonger key:  v\n");
	free(s);
	fwd_table_free(NULL);
	assert_null(fwd_table_new(0, NULL));
}

static void test_wrap(void **state)
{
	struct fwd_wrap w;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	fwd_wrap_start(&w, f, "p0 drops", 31);
	for (int i = 0; i < 4; i++)
		fwd_wrap_item(&w, "reason%d=%d", i, i * 100);
	fwd_wrap_end(&w);
	fclose(f);
	assert_string_equal(buf, "p0 drops: reason0=0 reason1=100\n"
	                         "          reason2=200\n"
	                         "          reason3=300\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
