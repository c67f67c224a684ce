/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel's interface indices of control-plane interfaces (tap: true on
 * a port, a VLAN interface or a loopback): the TAP code records them when
 * it creates a kernel interface, FPM reads them to turn a route's RTA_OIF
 * into fwd's interface. An ifindex no interface has now (the TAP was
 * recreated, the daemon restarted) maps to nothing. Control thread only.
 */
#ifndef FWD_CP_IFMAP_H
#define FWD_CP_IFMAP_H

#include <stdint.h>

/* Interface id's kernel interface is ifindex (0: it has none any more).
 * 0, or -ENOMEM (then id has no kernel interface in the map). */
int cp_ifmap_set(uint16_t id, uint32_t ifindex);
/* The interface whose kernel interface is ifindex, or -1. */
int cp_ifmap_port(uint32_t ifindex);
/* Forget them all (the module's end). */
void cp_ifmap_clear(void);

#endif
