/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl capture` summary lines, tcpdump-like:
 *	12:00:01.123456 p0 rx 98 bytes 10.0.1.2 > 10.0.2.2 ICMP echo request id 7 seq 1
 */
#ifndef FWD_CLI_CAPTURE_H
#define FWD_CLI_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FWD_CAPTURE_DESCR_MAX 160

/* Describe an Ethernet frame's first len bytes (the frame may be longer:
 * captures are cut short). Never reads beyond len; out is always a string. */
void fwd_capture_describe(const uint8_t *frame, size_t len, char *out, size_t outlen);

/* Drop reason names (capture_drops.c): is name one, and all of them on f
 * separated by sep, ending with a newline. */
bool fwd_drop_reason_known(const char *name);
void fwd_drop_reasons_print(FILE *f, const char *sep);
/* `capture drops -l`: every reason with what it means, one a line. */
void fwd_drop_reasons_describe(FILE *f);

#endif
