/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control plane's error return: write a message for the operator into
 * the caller's buffer and give back a negative errno, in one expression.
 * The function using it has `char *err, size_t errlen` in scope; err may be
 * NULL when the caller wants only the code.
 *
 *	if (len > 32)
 *		return ERR(EINVAL, "prefix length %u out of range", len);
 */
#ifndef FWD_ERR_H
#define FWD_ERR_H

#include <stdio.h>

#define ERR(code, ...) ((err) != NULL ? snprintf(err, errlen, __VA_ARGS__) : 0, -(code))

#endif
