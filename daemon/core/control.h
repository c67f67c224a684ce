/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control thread's event loop: RPC, timers, signals. SIGTERM/SIGINT
 * stop it; SIGHUP reloads the configuration.
 */
#ifndef FWD_CONTROL_H
#define FWD_CONTROL_H

int fwd_control_init(void);
/* Run until a stop signal; returns 0. */
int fwd_control_run(void);
void fwd_control_fini(void);

/* Register the SIGHUP action (the config reload). */
void fwd_control_set_reload(void (*fn)(void));

#endif
