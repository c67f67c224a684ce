/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture/capture_epb.c: the opt_comment a drop capture adds to a pcapng
 * Enhanced Packet Block, byte for byte: after the options rte_pcapng wrote
 * (DPDK 22.11 ends them with the block's length, later ones may end them
 * with opt_endofopt), both length fields updated, padding zeroed; refused
 * for a malformed block or too little room. And fwdctl's copy of the drop
 * reason names (fwd_drop_names.h, made from drop.h) is the daemon's table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "capture/capture_priv.h"
#include "core/drop.h"

static const char *const cli_names[] = {
#include "fwd_drop_names.h"
};

static size_t put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return 4;
}

static size_t opt(uint8_t *p, uint16_t code, uint16_t len, const void *val)
{
	memcpy(p, &code, 2);
	memcpy(p + 2, &len, 2);
	memset(p + 4, 0, (len + 3u) & ~3u);
	memcpy(p + 4, val, len);
	return 4 + ((len + 3u) & ~3u);
}

/* An EPB with 5 bytes of data, epb_flags and epb_queue (what rte_pcapng
 * 22.11 writes), and opt_endofopt when asked. Returns its length. */
static size_t make_epb(uint8_t *b, bool endofopt)
{
	const uint32_t flags = 1, queue = 0;
	size_t n = 0;

	n += put32(b + n, 6);
	n += put32(b + n, 0); /* length, below */
	n += put32(b + n, 1); /* interface */
	n += put32(b + n, 0x11111111);
	n += put32(b + n, 0x22222222);
	n += put32(b + n, 5); /* captured */
	n += put32(b + n, 9); /* on the wire */
	memcpy(b + n, "\x45\x00\x00\x1c\x01\x00\x00\x00", 8);
	n += 8;
	n += opt(b + n, 2, 4, &flags);
	n += opt(b + n, 6, 4, &queue);
	if (endofopt)
		n += opt(b + n, 0, 0, "");
	n += put32(b + n, 0);
	put32(b + 4, (uint32_t)n);
	put32(b + n - 4, (uint32_t)n);
	return n;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static void check_comment(bool endofopt)
{
	const char *text = "drop reason=no_route port=p0"; /* 28 bytes: no padding */
	const char *odd = "drop reason=mtu port=p10";      /* 24 */
	uint8_t b[256], orig[256];
	size_t len = make_epb(b, endofopt), at = 28 + 8 + 16;
	int n;

	memcpy(orig, b, len);
	n = capture_epb_comment(b, len, sizeof(b), text);
	assert_int_equal(n, (int)(len + 4 + 28));
	assert_int_equal(capture_epb_comment_size(text), 32);
	assert_memory_equal(b, orig, 4); /* type */
	assert_int_equal(get32(b + 4), (uint32_t)n);
	assert_int_equal(get32(b + n - 4), (uint32_t)n);
	assert_memory_equal(b + 8, orig + 8, at - 8); /* header, data, options */
	assert_int_equal(get16(b + at), 1);           /* opt_comment */
	assert_int_equal(get16(b + at + 2), 28);
	assert_memory_equal(b + at + 4, text, 28);
	if (endofopt)
		assert_int_equal(get32(b + at + 32), 0); /* opt_endofopt stays last */

	/* a length not a multiple of 4: zero padding, and a second comment
	 * goes after the first */
	len = (size_t)n;
	n = capture_epb_comment(b, len, sizeof(b), odd);
	assert_int_equal(n, (int)(len + 4 + 24));
	at += 32;
	assert_int_equal(get16(b + at), 1);
	assert_int_equal(get16(b + at + 2), 24);
	assert_memory_equal(b + at + 4, odd, 24);
	assert_int_equal(get32(b + n - 4), (uint32_t)n);

	len = make_epb(b, endofopt);
	n = capture_epb_comment(b, len, sizeof(b), "abcde");
	assert_int_equal(n, (int)(len + 12));
	assert_int_equal(get16(b + 52 + 2), 5);
	assert_memory_equal(b + 52 + 4, "abcde\0\0\0", 8);
}

static void test_comment(void **state)
{
	(void)state;
	check_comment(false);
	check_comment(true);
}

static void test_refused(void **state)
{
	char big[200];
	uint8_t b[256], orig[256];
	size_t len = make_epb(b, false);

	(void)state;
	memcpy(orig, b, len);
	assert_int_equal(capture_epb_comment(b, len, len + 8, "0123456789"), -ENOSPC);
	assert_memory_equal(b, orig, len); /* untouched */
	assert_int_equal(capture_epb_comment(b, len - 4, sizeof(b), "x"), -EINVAL);
	assert_int_equal(capture_epb_comment(b, 8, sizeof(b), "x"), -EINVAL);
	b[0] = 5; /* not an EPB */
	assert_int_equal(capture_epb_comment(b, len, sizeof(b), "x"), -EINVAL);
	memcpy(b, orig, len);
	put32(b + 20, 1000); /* captured length beyond the block */
	assert_int_equal(capture_epb_comment(b, len, sizeof(b), "x"), -EINVAL);
	memcpy(b, orig, len);
	b[36 + 2] = 200; /* an option running past the end */
	assert_int_equal(capture_epb_comment(b, len, sizeof(b), "x"), -EINVAL);
	/* a long text is cut to CAPTURE_COMMENT_MAX */
	memcpy(b, orig, len);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(capture_epb_comment(b, len, sizeof(b), big),
	                 (int)(len + 4 + CAPTURE_COMMENT_MAX));
	assert_int_equal(get16(b + 52 + 2), CAPTURE_COMMENT_MAX);
}

static void test_cli_names(void **state)
{
	(void)state;
	assert_int_equal(sizeof(cli_names) / sizeof(cli_names[0]), FWD_DROP_MAX);
	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		assert_string_equal(cli_names[r], fwd_drop_names[r]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cli_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
