/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-worker counters. Each worker writes only its own struct fwd_wstats
 * (no atomics: one writer, 64-bit aligned stores are not torn on the
 * platforms DPDK supports); the control thread sums them on read (stats/)
 * and keeps a baseline for `stats clear` so it never writes into a
 * worker's counters.
 */
#ifndef FWD_COUNTERS_H
#define FWD_COUNTERS_H

#include <stdint.h>

#include <rte_common.h>

#include "core/config.h"
#include "core/drop.h"
#include "core/iface.h"

struct fwd_port_ctrs {
	uint64_t rx_pkts;
	uint64_t rx_bytes;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t drop[FWD_DROP_MAX];
	/* With these, every packet is accounted for: summed over ports (and once
	 * nothing is in flight or held), rx + created == tx + drops + consumed. */
	uint64_t consumed; /* taken in and used up: ARP, echo requests, fragmented */
	uint64_t created;  /* made here: ARP, ICMP, fragments, flood copies */
} __rte_cache_aligned;

/* Worker loop accounting (like VPP's `show runtime`). */
struct fwd_loop_ctrs {
	uint64_t loops;
	uint64_t busy_loops;  /* loops that received or sent something */
	uint64_t busy_cycles; /* TSC cycles spent in busy loops */
	uint64_t pkts;        /* packets received */
	uint64_t bursts;      /* non-empty rx bursts */
	uint64_t sleeps;      /* idle pauses (dataplane.idle_sleep_us) */
} __rte_cache_aligned;

struct fwd_wstats {
	struct fwd_loop_ctrs loop;
	/* by interface id (core/iface.h): a port's at its index. Each packet is
	 * counted once, on the interface it arrived by or leaves by: a VLAN's
	 * frames on the VLAN, not on its port (doc/architecture.md,
	 * "Interfaces") */
	struct fwd_port_ctrs port[FWD_MAX_IFACES];
};

#endif
