/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 part of the config (addresses, `ra`, routes, static neighbours)
 * made real at start-up and by `config reload`, the same way as IPv4's
 * (ip4/ip4_config.h): a wanted state reconciled with the running one, what
 * fwdctl added kept where the file is silent, undone on failure.
 */
#ifndef FWD_IP6_CONFIG_H
#define FWD_IP6_CONFIG_H

#include <stdint.h>

#include "core/config.h"

struct fwd_reload_log;

int ip6_config_apply(const struct fwd_config *cfg, struct fwd_reload_log *log);
void ip6_config_commit(void);
void ip6_config_undo(void);
int ip6_config_running(struct fwd_config *run, uint64_t *omitted);
void ip6_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg);

#endif
