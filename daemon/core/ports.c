/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "core/ports.h"

struct fwd_port fwd_ports[FWD_MAX_PORTS];
unsigned fwd_n_ports;

struct fwd_port *fwd_port_by_name(const char *name)
{
	for (unsigned i = 0; i < fwd_n_ports; i++)
		if (strcmp(fwd_ports[i].name, name) == 0)
			return &fwd_ports[i];
	return NULL;
}
