/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration reload (`fwdctl config reload`, SIGHUP). The new file is
 * loaded and validated whole; then every module's reload_check must accept
 * it (a change that needs a restart is refused with a message) before any
 * reload_apply runs. Modules reconcile what they own with the new file,
 * noting one line per change; if one fails, every module is back where it
 * was and the reload is refused.
 */
#ifndef FWD_RELOAD_H
#define FWD_RELOAD_H

#include <stddef.h>

#include "core/config.h"

struct fwd_reload_log {
	char **lines;
	size_t n, cap;
	unsigned errors;   /* changes that could not be applied */
	size_t last_error; /* the line of the last one */
};

/* Note one applied change ("route 10.0.0.0/8 via 192.0.2.1 added"). */
void fwd_reload_note(struct fwd_reload_log *log, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* Note why a change could not be applied (the module then fails the reload). */
void fwd_reload_fail(struct fwd_reload_log *log, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
void fwd_reload_log_free(struct fwd_reload_log *log);

/* Would moving from cur to next need a restart? 0, or -EBUSY with a message. */
int fwd_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                     size_t errlen);

/*
 * Reload from path (NULL: the running config's path). Returns 0 with log
 * filled, or -errno with a message in err and nothing changed.
 */
int fwd_reload(const char *path, struct fwd_reload_log *log, char *err, size_t errlen);

#endif
