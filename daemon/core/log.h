/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Logging for the control thread (never the fast path). Lines go to stderr;
 * under systemd (JOURNAL_STREAM set) they carry "<N>" syslog priority
 * prefixes so journald keeps levels, otherwise a level word.
 *
 *	LOG(ERR, "port %s: %s", name, strerror(-rc));
 */
#ifndef FWD_LOG_H
#define FWD_LOG_H

enum fwd_log_level {
	FWD_LOG_ERR = 3,
	FWD_LOG_WARNING = 4,
	FWD_LOG_NOTICE = 5,
	FWD_LOG_INFO = 6,
	FWD_LOG_DEBUG = 7,
};

extern int fwd_log_level;

void fwd_log(int level, const char *func, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* Route DPDK's (EAL, PMDs) and libevent's own log lines through the same
 * format, once. */
void fwd_log_libraries_init(void);

/* "err", "warning", "notice", "info", "debug" (or 3-7); -EINVAL if unknown. */
int fwd_log_level_parse(const char *s);

#define LOG(level, fmt, ...)                                                    \
	do {                                                                    \
		if (FWD_LOG_##level <= fwd_log_level)                           \
			fwd_log(FWD_LOG_##level, __func__, fmt, ##__VA_ARGS__); \
	} while (0)

#endif
