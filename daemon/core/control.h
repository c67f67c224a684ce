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

struct event;

/* A periodic timer on the control loop, every period_us microseconds:
 * fn(arg). Returns NULL (with a log line) when it cannot be made. */
struct event *fwd_timer_every(unsigned period_us, void (*fn)(void *arg), void *arg);
/* Stop and free a timer made by fwd_timer_every; *ev may be NULL. */
void fwd_timer_free(struct event **ev);

/* Register the SIGHUP action (the config reload). */
void fwd_control_set_reload(void (*fn)(void));

#endif
