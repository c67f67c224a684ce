/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port table: one entry per configured port, indexed by its position in
 * the config ("port index", 0..fwd_n_ports-1; the DPDK port id is separate).
 * The port feature (port/) fills it before workers launch; at run time the
 * control thread changes admin_up and the bond fields. Workers read it.
 *
 * A bond (bond/, doc/architecture.md "Bonds") is a port above its members:
 * an entry after the configured ports with no DPDK device (port_id
 * FWD_PORT_ID_NONE, no queues); a member's frames are its bond's input, and
 * the bond's tx buffer is flushed through the hook bond/ registers. A bond
 * added by a reload takes the next entry, written before fwd_n_ports grows
 * past it (a release store); a removed bond's entry stays, unused, until a
 * restart.
 */
#ifndef FWD_PORTS_H
#define FWD_PORTS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "core/config.h"

#define FWD_PORT_ID_NONE UINT16_MAX /* a bond's port_id: no DPDK device */

enum fwd_member_state {
	FWD_MEMBER_NONE = 0,   /* a plain port */
	FWD_MEMBER_IDLE,       /* its frames are dropped (bond_inactive) */
	FWD_MEMBER_COLLECTING, /* its frames are the bond's input (active-backup: the
	                        * active member; LACP: collecting) */
};

struct fwd_port {
	/* datapath: read by workers, written by control before launch */
	uint16_t port_id; /* DPDK port id */
	uint8_t idx;      /* index in fwd_ports */
	uint8_t mode;     /* enum fwd_port_mode */
	uint8_t peer;     /* xconnect: index of the peer port */
	uint8_t bridge;   /* bridge: index in fwd.cfg->bridges (a reload renumbers it) */
	uint16_t mtu;
	struct rte_ether_addr mac;
	uint64_t mac48;       /* mac as the low 48 bits of a little-endian load: one compare */
	uint8_t rx_ip4_cksum; /* the NIC flags IPv4 header checksums (RX_IP_CKSUM_GOOD/BAD) */
	/* datapath: read by workers, written by control at run time */
	volatile uint8_t admin_up;
	volatile uint8_t rpf;    /* enum fwd_rpf (ports[].rpf), read once per burst */
	volatile uint8_t filter; /* FWD_FILTER_IN|OUT (core/worker.h): a filter is attached */
	uint8_t is_bond;         /* a bond: no device, tx by fwd_bond_xmit */
	/* a bond's member: FWD_MEMBER_* (0: not a member, so a zeroed entry is
	 * a plain port), and the index of its bond. Written by control (bond/)
	 * at run time: bond first, then member with a release store. */
	volatile uint8_t member;
	volatile uint8_t bond;
	/* VID -> interface id (core/iface.h), NULL while the port has no VLAN
	 * interface: one test per burst on a port without VLANs */
	const uint16_t *volatile vlan_map;

	/* control thread only */
	char name[FWD_NAME_MAX];
	char device[FWD_DEVICE_MAX];
	char driver[64];
	uint16_t n_rxq, n_txq, rxd, txd;
	uint16_t rxq_worker[16]; /* rx queue -> worker index */
	bool probed;
	bool started;
	bool promiscuous;
	bool link_up;
	bool link_full_duplex;
	uint32_t link_speed;
	uint64_t link_changes;
	/* xstats baseline for `stats clear` */
	unsigned n_xstats;
	uint64_t *xstats_base;
	/* af_xdp and af_packet: the kernel interface the PMD reads (its iface=
	 * argument), "" for other ports; and that interface's rx_dropped when the
	 * port started (metrics) and when it started or `stats clear` ran (frames the kernel
	 * dropped before fwd's rings: on af_xdp, a full rx ring) */
	char kif[16];
	uint64_t kif_rx_dropped_start, kif_rx_dropped_base;
} __rte_cache_aligned;

extern struct fwd_port fwd_ports[FWD_MAX_PORTS];
extern unsigned fwd_n_ports;

struct fwd_port *fwd_port_by_name(const char *name);

#endif
