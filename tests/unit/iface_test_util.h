/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two ports p0, p1 (up, MTU 1500, MACs ..:01 and ..:02) as interfaces 0
 * and 1, no VLANs: the start of the interface tests (iface_test,
 * acl_iface_test).
 */
#ifndef FWD_IFACE_TEST_UTIL_H
#define FWD_IFACE_TEST_UTIL_H

#include <stdio.h>
#include <string.h>

#include "core/iface.h"
#include "core/ports.h"

static inline void two_ports(void)
{
	fwd_iface_reset();
	memset(fwd_ports, 0, sizeof(fwd_ports));
	fwd_n_ports = 2;
	for (uint8_t i = 0; i < 2; i++) {
		snprintf(fwd_ports[i].name, sizeof(fwd_ports[i].name), "p%u", i);
		fwd_ports[i].idx = i;
		fwd_ports[i].mtu = 1500;
		fwd_ports[i].admin_up = 1;
		fwd_ports[i].mac.addr_bytes[5] = (uint8_t)(i + 1);
		memcpy(&fwd_ports[i].mac48, &fwd_ports[i].mac, 6);
		fwd_iface_port_sync(i);
	}
}

#endif
