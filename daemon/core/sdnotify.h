/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * systemd readiness notification (sd_notify(3) protocol, without
 * libsystemd): one datagram to the AF_UNIX socket named by $NOTIFY_SOCKET
 * (a path, or "@name" in the abstract namespace). A no-op, returning 0,
 * when the daemon does not run under a Type=notify unit.
 *
 *	fwd_sd_notify("READY=1\nSTATUS=4 ports, 1 worker");
 *	fwd_sd_notify_reloading();   ... reload ...   fwd_sd_notify("READY=1");
 *	fwd_sd_notify("STOPPING=1");
 */
#ifndef FWD_SDNOTIFY_H
#define FWD_SDNOTIFY_H

/* Send state (newline-separated VAR=VALUE assignments). Returns 0 when sent
 * or when there is nobody to tell, -errno when sending failed. */
int fwd_sd_notify(const char *state);

int fwd_sd_notifyf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "RELOADING=1" with the MONOTONIC_USEC stamp systemd >= 253 wants. */
int fwd_sd_notify_reloading(void);

#endif
