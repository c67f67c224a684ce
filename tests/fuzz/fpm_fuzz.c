/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM listener on arbitrary bytes, as one zebra connection would send
 * them: FPM headers cut the stream into frames (a bad header ends the
 * connection, as in fpm_conn.c), each frame is checked whole and applied to
 * zebra's table and the real FIB of an in-process daemon. After each input
 * the next connection's sweep removes everything it installed. Messages are
 * applied one at a time with a batch of queued work between them, as a
 * daemon whose slice is always over would. Invariants:
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

/* As the daemon's loop when its slice is over at each message: one
 * message, then one batch of the work it queued (group changes half done
 * while routes come and go). */
static bool one_by_one(const struct fpm_msg *m, void *arg)
{
	(void)arg;
	fpm_table_apply(m, NULL);
	fpm_table_work(0);
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum fpm_err e;
	char why[200];

	for (size_t off = 0; off + FPM_HDR_LEN <= size;) {
		int len = fpm_frame_len(data + off, &e);
		if (len < 0 || off + (size_t)len > size)
			break;
		const uint8_t *p = data + off + FPM_HDR_LEN;
		size_t n = (size_t)len - FPM_HDR_LEN, at = 0;
		if (fpm_frame_parse(p, n, NULL, NULL, &e, why, sizeof(why)) < 0)
			break; /* the connection closes; what came before stays */
		while (!fpm_frame_apply(p, n, &at, one_by_one, NULL))
			;
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
