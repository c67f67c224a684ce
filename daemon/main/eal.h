/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_EAL_H
#define FWD_EAL_H

#include <stdbool.h>

#include "core/config.h"

/* Initialise the EAL from cfg->dpdk and the ports' devices. */
int fwd_eal_init(const struct fwd_config *cfg, const char *prog);

void fwd_eal_cleanup(void);

#endif
