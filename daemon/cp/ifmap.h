/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel's interface indices of control-plane ports (ports[].tap): the
 * TAP code records them when it creates an interface, FPM reads them to
 * turn a route's RTA_OIF into a fwd port. Control thread only.
 */
#ifndef FWD_CP_IFMAP_H
#define FWD_CP_IFMAP_H

#include <stdint.h>

/* Port port's kernel interface is ifindex (0: it has none any more). */
void cp_ifmap_set(uint8_t port, uint32_t ifindex);
/* The port whose kernel interface is ifindex, or -1. */
int cp_ifmap_port(uint32_t ifindex);

#endif
