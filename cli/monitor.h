/* SPDX-License-Identifier: BSD-3-Clause */
/* fwdctl monitor's text lines (monitor.c), apart for tests/unit/cli_monitor_test.c. */
#ifndef FWD_CLI_MONITOR_H
#define FWD_CLI_MONITOR_H

#include <stdio.h>

#include "fwd.pb-c.h"

/* e as one line of text, without the timestamp and the newline. */
void fwd_monitor_line(FILE *out, const Fwd__Event *e);

#endif
