/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM listener on arbitrary bytes, as one zebra connection would send
 * them: FPM headers cut the stream into frames (a bad header ends the
 * connection, as in fpm_conn.c), each frame is checked whole and applied to
 * zebra's table and the real FIB of an in-process daemon. After each input
 * the next connection's sweep removes everything it installed. Invariants:
 * no crash, leak or hang; the table's gauges agree with its contents.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cp/fpm_priv.h"
#include "fuzz_env.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_env_up();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum fpm_err e;
	char why[200];

	for (size_t off = 0; off + FPM_HDR_LEN <= size;) {
		int len = fpm_frame_len(data + off, &e);
		if (len < 0 || off + (size_t)len > size)
			break;
		if (fpm_frame_parse(data + off + FPM_HDR_LEN, (size_t)len - FPM_HDR_LEN,
		                    fpm_table_apply, NULL, &e, why, sizeof(why)) < 0)
			break; /* the connection closes; what came before stays */
		off += (size_t)len;
	}
	fpm_table_work(UINT64_MAX);
	if (fpm_stats.installed > fpm_stats.routes || fpm_stats.shadowed > fpm_stats.routes)
		abort();
	fpm_table_mark_stale();
	fpm_table_sweep();
	if (fpm_stats.routes != 0 || fpm_stats.installed != 0 || fpm_stats.groups != 0)
		abort();
	return 0;
}
