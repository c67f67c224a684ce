/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/config.h"
#include "cp/ifmap.h"

static uint32_t ifindex_of[FWD_MAX_PORTS];

void cp_ifmap_set(uint8_t port, uint32_t ifindex)
{
	if (port < FWD_MAX_PORTS)
		ifindex_of[port] = ifindex;
}

int cp_ifmap_port(uint32_t ifindex)
{
	if (ifindex == 0)
		return -1;
	for (unsigned p = 0; p < FWD_MAX_PORTS; p++)
		if (ifindex_of[p] == ifindex)
			return (int)p;
	return -1;
}
