/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket file: created 0660 root:GROUP, replacing a stale socket
 * left by a crash but never another file or a live daemon's socket.
 */
#ifndef FWD_RPC_SOCKET_H
#define FWD_RPC_SOCKET_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/un.h>

struct fwd_rpc_socket {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev; /* the file we bound, so unlink leaves a successor's alone */
	ino_t ino;
	bool bound;
};

/* Returns a listening, non-blocking descriptor, or -errno (logged). */
int fwd_rpc_socket_open(struct fwd_rpc_socket *s, const char *path, const char *group);

/* Removes the socket file if it is still the one we bound. */
void fwd_rpc_socket_unlink(struct fwd_rpc_socket *s);

#endif
