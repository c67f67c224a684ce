/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 part of the config (addresses, routes, static neighbours) made
 * real: at start-up (ip4_init) and by `config reload`, through the same
 * reconcile (ip4_config.c).
 */
#ifndef FWD_IP4_CONFIG_H
#define FWD_IP4_CONFIG_H

#include <stdint.h>

#include "core/config.h"

struct fwd_reload_log;

/*
 * Reconcile the running addresses, routes and static neighbours with cfg
 * (keeping what fwdctl added that cfg does not contradict). Returns 0 with
 * the changes noted in log and the cascade of removed addresses pending
 * until ip4_config_commit (or ip4_config_undo); or -errno with the running
 * state as it was and the failure noted in log.
 */
int ip4_config_apply(const struct fwd_config *cfg, struct fwd_reload_log *log);
void ip4_config_commit(void);
/* Back to the state before the last successful ip4_config_apply. */
void ip4_config_undo(void);

/* Write the running addresses, routes and static neighbours over run's
 * (`config show`); *omitted counts the routes of `route load` left out. */
int ip4_config_running(struct fwd_config *run, uint64_t *omitted);

/* The config's checks of what IPv4 owns, through the rules in ip4/addr.h. */
void ip4_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg);

#endif
