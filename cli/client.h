/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwdctl's side of the control socket: connect with a deadline, send a
 * request, and read its reply pages. Every wait is bounded by timeout_ms.
 */
#ifndef FWD_CLI_CLIENT_H
#define FWD_CLI_CLIENT_H

#include <stdint.h>

#include "fwd.pb-c.h"

struct fwd_client {
	int fd;
	int timeout_ms;
	uint32_t last_id;
	int status;       /* the refusing page's status (errno) */
	char error[1024]; /* and its message (a config diagnostic: several lines) */
};

/* Returns 0, or -errno (-ENAMETOOLONG, -ENOENT, -ECONNREFUSED, -ETIMEDOUT, ...). */
int fwd_client_connect(struct fwd_client *c, const char *path, int timeout_ms);
void fwd_client_close(struct fwd_client *c);

/*
 * Called for each page of a reply; it owns resp (free it with
 * fwd__response__free_unpacked). A negative return stops the call.
 */
typedef int (*fwd_client_page_fn)(Fwd__Response *resp, void *arg);

/*
 * Send req (its id and api_version are set here) and hand each reply page
 * to fn until the last. Returns 0, 1 when the daemon refused (c->status,
 * c->error; fn does not see that page), fn's negative return, or -errno
 * for the connection: -EPIPE/-EIO (closed), -ETIMEDOUT, -EBADMSG (garbage
 * or a reply to another request). After a negative return the connection
 * is closed.
 */
int fwd_client_call(struct fwd_client *c, Fwd__Request *req, fwd_client_page_fn fn, void *arg);

#endif
