/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_RUNNING_H
#define FWD_RUNNING_H

#include <stdint.h>

#include "core/config.h"

/*
 * The running configuration: the last loaded file with what the modules
 * hold now written over their sections (each module's `running` hook:
 * addresses, routes and static neighbours as they are, changes made through
 * fwdctl included, bulk tables from `route load` left out: *omitted says
 * how many routes those are). Free with fwd_config_free; NULL on ENOMEM.
 */
struct fwd_config *fwd_running_config(uint64_t *omitted);

#endif
