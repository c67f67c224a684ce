/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_LIFECYCLE_H
#define FWD_LIFECYCLE_H

#include <stdbool.h>

/*
 * Start everything for fwd.cfg after EAL init. With launch false, workers
 * are created but not launched and no RPC server listens (fuzzers drive
 * the code in-process). On failure, call fwd_dataplane_down anyway.
 */
int fwd_dataplane_up(bool launch);
void fwd_dataplane_down(void);

#endif
