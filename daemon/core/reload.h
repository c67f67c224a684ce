/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration reload (`fwdctl config reload`, SIGHUP). The new file is
 * loaded and validated whole; then every module's reload_check must accept
 * it (a change that needs a restart is refused with a message) before any
 * reload_apply runs. Modules apply the difference between the running and
 * the new config for what they own and note one line per change.
 */
#ifndef FWD_RELOAD_H
#define FWD_RELOAD_H

#include <stddef.h>

#include "core/config.h"

struct fwd_reload_log {
	char **lines;
	size_t n, cap;
	unsigned errors; /* changes that failed to apply */
};

/* Note one applied change ("route 10.0.0.0/8 via 192.0.2.1 added"). */
void fwd_reload_note(struct fwd_reload_log *log, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* Note a change that could not be applied; the reload reports failure. */
void fwd_reload_fail(struct fwd_reload_log *log, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
void fwd_reload_log_free(struct fwd_reload_log *log);

/* Would moving from cur to next need a restart? 0, or -EBUSY with a message. */
int fwd_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                     size_t errlen);

/*
 * Reload from path (NULL: the running config's path). Returns 0 with log
 * filled, or -errno with a message in err (nothing changed when the file is
 * bad or a restart would be needed).
 */
int fwd_reload(const char *path, struct fwd_reload_log *log, char *err, size_t errlen);

#endif
