/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 part of the config: its checks (ip6_check.c) and what runs, for
 * `config show` (running.c). l3/l3_config.c applies it, with IPv4's.
 */
#ifndef FWD_IP6_CONFIG_H
#define FWD_IP6_CONFIG_H

#include <stdint.h>

#include "core/config.h"

struct fwd_reload_log;

int ip6_config_running(struct fwd_config *run, uint64_t *omitted);
void ip6_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg);

#endif
