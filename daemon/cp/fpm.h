/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Routes from FRR's zebra over FPM (control.fpm, fwd.yaml(5)): zebra's
 * dplane_fpm_nl connects and streams netlink route and next-hop messages;
 * they become routes whose origin is the protocol that chose them. The
 * module (fpm_conn.c) starts itself; main only asks for its status.
 * Control thread only.
 */
#ifndef FWD_CP_FPM_H
#define FWD_CP_FPM_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct fwd_rpc_call;
typedef struct Fwd__FpmStatus Fwd__FpmStatus;

/* The session as `fwdctl status` shows it. */
struct fpm_session {
	char listen[64];       /* control.fpm, "" = off */
	char listen_error[96]; /* why it does not listen */
	bool listening, connected;
	bool sweep_pending; /* stale routes wait for the end of the replay */
	char peer[64];
	time_t connected_since, disconnected_at;
	char disconnect_reason[320];
	uint64_t connections, bytes;
	uint64_t up_ns, last_frame_ns; /* CLOCK_MONOTONIC */
	uint32_t grace_s;              /* control.fpm_grace_s */
	uint32_t peer_uid;             /* the owner of the connected peer's socket */
	/* who may connect: root and control.fpm_user (uid -1: no such user) */
	char user[32];
	int64_t user_uid;
	uint64_t refused;       /* connections closed unread: not root nor user */
	char last_refused[160]; /* the last of them: who and why */
	time_t last_refused_at;
};

extern struct fpm_session fpm_session;

/* When the stale routes go (CLOCK_MONOTONIC ns), if sweep_pending. */
uint64_t fpm_sweep_due_ns(void);

/* The status message, allocated in call. */
Fwd__FpmStatus *fpm_status(struct fwd_rpc_call *call);

#endif
