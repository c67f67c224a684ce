/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>
#include <rte_log.h>

#include "core/log.h"

int fwd_log_level = FWD_LOG_INFO;

static const char *const level_names[] = {
	[FWD_LOG_ERR] = "err",   [FWD_LOG_WARNING] = "warning", [FWD_LOG_NOTICE] = "notice",
	[FWD_LOG_INFO] = "info", [FWD_LOG_DEBUG] = "debug",
};

/*
 * systemd sets JOURNAL_STREAM=DEV:INO for the stream it connected to
 * stderr; the variable is inherited further, so only trust it while stderr
 * still is that stream (sd_journal_stream_fd(3), systemd.exec(5)).
 */
static bool stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (e == NULL || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return false;
	return fstat(STDERR_FILENO, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

static bool journal(void)
{
	static int cached = -1;

	if (cached < 0)
		cached = stderr_is_journal();
	return cached;
}

static int clamp_level(int level)
{
	return level < FWD_LOG_ERR ? FWD_LOG_ERR : level > FWD_LOG_DEBUG ? FWD_LOG_DEBUG : level;
}

void fwd_log(int level, const char *func, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	level = clamp_level(level);
	if (journal())
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

/* ------------------------------------------------- DPDK's and libevent's log */

/*
 * DPDK's default log stream writes each message to stderr and to syslog(3),
 * so under systemd every EAL/PMD line would reach the journal twice and
 * without its level. This stream writes it once, to stderr, formatted like
 * ours: "<N>" (RTE_LOG_ERR is 4, syslog's LOG_ERR 3) on every line.
 */
static bool dpdk_line_start = true;

static ssize_t dpdk_log_write(void *cookie, const char *buf, size_t size)
{
	int level = clamp_level((int)rte_log_cur_msg_loglevel() - 1);

	(void)cookie;
	for (size_t i = 0; i < size;) {
		size_t n = strcspn(buf + i, "\n");

		if (n > size - i)
			n = size - i;
		if (dpdk_line_start) {
			if (journal())
				fprintf(stderr, "<%d>", level);
			else
				fprintf(stderr, "fwd-daemon: %s: dpdk: ", level_names[level]);
		}
		fwrite(buf + i, 1, n, stderr);
		i += n;
		dpdk_line_start = i < size;
		if (i < size) {
			fputc('\n', stderr);
			i++;
		}
	}
	return (ssize_t)size;
}

/* libevent's warnings (a failed getaddrinfo, a bad fd) would otherwise be
 * bare "[warn] ..." lines on stderr. */
static void libevent_log(int severity, const char *msg)
{
	int level = severity >= EVENT_LOG_ERR    ? FWD_LOG_ERR
	            : severity == EVENT_LOG_WARN ? FWD_LOG_WARNING
	            : severity == EVENT_LOG_MSG  ? FWD_LOG_INFO
	                                         : FWD_LOG_DEBUG;

	if (level <= fwd_log_level)
		fwd_log(level, "libevent", "%s", msg);
}

void fwd_log_libraries_init(void)
{
	static const cookie_io_functions_t io = { .write = dpdk_log_write };
	static FILE *f;

	if (f != NULL)
		return;
	event_set_log_callback(libevent_log);
	f = fopencookie(NULL, "w", io);
	if (f != NULL)
		rte_openlog_stream(f);
}
