/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports: ethdev set-up, queues, RSS, link state, admin state. The table
 * itself (struct fwd_port, fwd_ports) is in core/ports.h. */
#ifndef FWD_PORT_H
#define FWD_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "core/config.h"
#include "core/ports.h"

/* Probe and configure every port of cfg (after EAL init, before launch). */
int fwd_ports_init(const struct fwd_config *cfg, unsigned n_workers);
int fwd_ports_start(void);
/* Mbufs the PMDs of cfg's ports (probed, not yet configured) keep in their
 * own rings, to add to dataplane.mbufs when sizing the pool: af_xdp's. */
unsigned fwd_ports_pinned_mbufs(const struct fwd_config *cfg, unsigned n_workers);
void fwd_ports_stop(void);
void fwd_ports_close(void);

/* Admin state: up/down. */
int fwd_port_set_admin(struct fwd_port *p, bool up);

/* Re-read link state of every port, log changes; returns ports with link up. */
unsigned fwd_ports_link_poll(void);

/* RPC: the ip4 feature fills PortInfo.addresses through this hook. */
struct fwd_rpc_call;
struct Fwd__PortInfo;
void fwd_port_rpc_set_addr_fill(void (*fn)(struct fwd_rpc_call *call, const struct fwd_port *p,
                                           struct Fwd__PortInfo *pi));
/* RPC: the control-plane port feature (cp/tap.c) fills PortInfo.tap. */
void fwd_port_rpc_set_tap_fill(void (*fn)(struct fwd_rpc_call *call, const struct fwd_port *p,
                                          struct Fwd__PortInfo *pi));

#endif
