/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 part of the config: its checks (ip4_check.c) and what runs, for
 * `config show` (running.c). l3/l3_config.c applies it, with IPv6's.
 */
#ifndef FWD_IP4_CONFIG_H
#define FWD_IP4_CONFIG_H

#include <stdint.h>

#include "core/config.h"

struct fwd_reload_log;

/* Write the running addresses, routes and static neighbours over run's
 * (`config show`); *omitted counts the routes of `route load` left out. */
int ip4_config_running(struct fwd_config *run, uint64_t *omitted);

/* The config's checks of what IPv4 owns, through the rules in ip4/addr.h. */
void ip4_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg);

#endif
