/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The VRF module (fwd.yaml(5) VRFS, doc/architecture.md "VRFs"): vrfs[]
 * and ports[].vrf applied (vrf_ctl.c), `vrf list` (vrf_rpc.c). The
 * registry itself is core's (core/vrf.h); what lives in a VRF (addresses,
 * routes, neighbours) is ip4/'s, ip6/'s and nexthop/'s, per VRF.
 */
#ifndef FWD_VRF_VRF_H
#define FWD_VRF_VRF_H

#include <stdint.h>

#include "vrf/vrf_config.h"

/* The running VRF a config names ("" and "default": 0), or -1. */
int vrf_id_of(const char *name);
/* Move interface id to VRF vrf (fwd_iface_set_vrf) and tell `monitor`. */
int vrf_move(uint16_t id, uint16_t vrf);
/* A `monitor` event of object vrf: add, del, moved (iface: the interface). */
void vrf_event(const char *action, uint16_t vrf, const char *iface);

#endif
