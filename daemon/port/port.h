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
/* The entry of cfg->ports[i], a bond's (no device): at start-up, and for a
 * bond a reload adds (i == fwd_n_ports, which then grows). 0 or -EINVAL. */
int fwd_port_bond_add(const struct fwd_config *cfg, unsigned i);
/* Mbufs the PMDs of cfg's ports (probed, not yet configured) keep in their
 * own rings, to add to dataplane.mbufs when sizing the pool: af_xdp's. */
unsigned fwd_ports_pinned_mbufs(const struct fwd_config *cfg, unsigned n_workers);
void fwd_ports_stop(void);
/* p->kif from p->driver and p->device: af_xdp and af_packet read a kernel
 * interface, named by iface= in the device string (both PMDs refuse a
 * device without one); "" for other drivers or a name too long. */
void fwd_port_kernel_iface(struct fwd_port *p);
/* The kernel's rx_dropped count of p's interface (p->kif); -ENOENT if p has
 * none, -errno if it cannot be read. Control thread. */
int fwd_port_kif_rx_dropped(const struct fwd_port *p, uint64_t *v);

/* An af_packet port (p->driver "net_af_packet", probed, not started):
 * replace its PMD's sockets with ones the kernel hands fragments to as they
 * came, without reassembling them (port/af_packet.c); 0 or -errno, the
 * PMD's sockets then kept. */
int port_af_packet_nodefrag(const struct fwd_port *p);
void fwd_ports_close(void);

/*
 * One frame, one mbuf (doc/architecture.md, "Frames in one segment"): the
 * input paths read a frame from its first segment only. A frame of MTU mtu
 * is at most mtu + FWD_FRAME_OVERHEAD bytes (Ethernet header, CRC, two VLAN
 * tags, as ixgbe counts); the pool's buffers hold fwd_rx_buf_size(mtu) of
 * the largest MTU, rounded up to 1 KiB because NICs (ixgbe's SRRCTL) take
 * buffer sizes in 1 KiB units and round down.
 */
#define FWD_FRAME_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + 2 * RTE_VLAN_HLEN)

static inline unsigned fwd_rx_buf_size(unsigned mtu)
{
	return RTE_ALIGN_CEIL(RTE_MAX(mtu + FWD_FRAME_OVERHEAD, 2048u), 1024u);
}

/*
 * Why a port of MTU mtu cannot receive its frames in one buffer of buf
 * bytes, or NULL: frame is the largest frame the device takes for that MTU
 * (mtu + its overhead), min_buf the least buffer it accepts, scattered
 * whether it said it would scatter (rte_eth_rx_queue_info_get).
 */
const char *fwd_port_rx_problem(unsigned frame, unsigned buf, unsigned min_buf, bool scattered);

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
