/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"

int fwd_log_level = FWD_LOG_INFO;

static const char *const level_names[] = {
	[FWD_LOG_ERR] = "err",   [FWD_LOG_WARNING] = "warning", [FWD_LOG_NOTICE] = "notice",
	[FWD_LOG_INFO] = "info", [FWD_LOG_DEBUG] = "debug",
};

void fwd_log(int level, const char *func, const char *fmt, ...)
{
	static int journal = -1;
	char msg[1024];
	va_list ap;

	if (journal < 0)
		journal = getenv("JOURNAL_STREAM") != NULL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (level < FWD_LOG_ERR)
		level = FWD_LOG_ERR;
	if (level > FWD_LOG_DEBUG)
		level = FWD_LOG_DEBUG;
	if (journal)
		fprintf(stderr, "<%d>%s: %s\n", level, func, msg);
	else
		fprintf(stderr, "fwd-daemon: %s: %s: %s\n", level_names[level], func, msg);
}

int fwd_log_level_parse(const char *s)
{
	for (int l = FWD_LOG_ERR; l <= FWD_LOG_DEBUG; l++)
		if (strcasecmp(s, level_names[l]) == 0 || (s[0] == '0' + l && s[1] == '\0'))
			return l;
	if (strcasecmp(s, "warn") == 0)
		return FWD_LOG_WARNING;
	return -EINVAL;
}
