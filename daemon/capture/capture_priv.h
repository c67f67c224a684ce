/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture, control side: sessions (one per port at most, and one drop
 * capture), the copy pool and the per-slot rings, shared by capture.c
 * (resources, life cycle), capture_rpc.c (the streamed reply) and
 * capture_epb.c (pcapng packet comments). A "slot" is a port index, or
 * FWD_CAPTURE_DROPS for the drop capture.
 */
#ifndef FWD_CAPTURE_PRIV_H
#define FWD_CAPTURE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_pcapng.h>

#include "capture/capture.h"

/* Bytes each pool buffer has beyond a pcapng copy, for a packet comment. */
#define CAPTURE_COMMENT_MAX  120
#define CAPTURE_COMMENT_ROOM (CAPTURE_COMMENT_MAX + 8)

struct capture_session {
	uint8_t port;                  /* slot: port index, or FWD_CAPTURE_DROPS */
	uint16_t iface;                /* the interface asked for: the port, or a VLAN on it */
	uint16_t vlan;                 /* a VLAN interface's VID (its frames only), else 0 */
	bool gone;                     /* the VLAN interface was deleted: the session ends */
	uint8_t dirs;                  /* FWD_CAPTURE_RX | FWD_CAPTURE_TX, or FWD_CAPTURE_DROP */
	uint8_t reasons[FWD_DROP_MAX]; /* drop capture: 1 for each reason wanted */
	bool pcapng;                   /* stream a pcapng file, else packet records */
	uint32_t snaplen;
	uint64_t limit;    /* packets to capture, 0: until the client goes */
	uint64_t captured; /* packets sent to the client */
	uint64_t lost;     /* copies the control thread could not convert */
	uint64_t drops_base;
	uint64_t start_tsc; /* copies older than this belong to an earlier session */
	uint64_t start_ns;  /* CLOCK_REALTIME at start_tsc */
	uint64_t last_page_tsc;
	uint32_t pid; /* the client's, for "already running" messages */
	int memfd;    /* pcapng: rte_pcapng writes here, pages read it back */
	rte_pcapng_t *writer;
};

/*
 * A capture on a VLAN interface (capture_vlan.c) watches its port's slot
 * (the workers copy what the wire carries, before the VLAN demux, and
 * what leaves the port) and keeps the VLAN's frames only, shown untagged
 * as Linux's tcpdump shows a VLAN device's: whether the tag was in the
 * frame (taken out of the copy) or in the mbuf (a PMD's strip, a NIC's
 * insert). Returns whether s wants copy m; a port's session wants all.
 */
bool capture_vlan_take(const struct capture_session *s, struct rte_mbuf *m);

/* The name of what s captures: "drops", a port's or a VLAN's. */
const char *capture_session_name(const struct capture_session *s);

/* The TSC of a copy's meta, whole again: the latest TSC at or before now
 * whose 32 kept bits are the meta's (a copy is taken within minutes). */
static inline uint64_t capture_meta_tsc(const struct fwd_capture_meta *meta, uint64_t now)
{
	uint32_t back = fwd_capture_tsc(now) - meta->tsc;

	return ((now >> FWD_CAPTURE_TSC_SHIFT) - back) << FWD_CAPTURE_TSC_SHIFT;
}

/* Largest copy (bytes) that fits one segment with its pcapng framing. */
uint32_t capture_copy_max(void);

/* "drops" or the port's name. */
const char *capture_slot_name(uint8_t slot);

/*
 * Add an opt_comment option holding text (at most CAPTURE_COMMENT_MAX bytes
 * of it) to the pcapng Enhanced Packet Block of len bytes at blk, which has
 * room bytes: after the options it has, before an opt_endofopt if any.
 * Returns the block's new length, or -EINVAL (not a whole EPB) or -ENOSPC.
 */
int capture_epb_comment(uint8_t *blk, size_t len, size_t room, const char *text);

/* The bytes capture_epb_comment adds for text. */
size_t capture_epb_comment_size(const char *text);

/* Make sure the pool and the port's ring exist (kept until shutdown) and
 * the ring is empty. Returns 0 or -errno (logged). */
int capture_resources(uint8_t port);

struct rte_ring *capture_ring(uint8_t port);

/* The running session on port, or NULL. */
const struct capture_session *capture_session_on(uint8_t port);

/* Register s and switch the workers' copying on / off. */
void capture_begin(struct capture_session *s);
void capture_end(struct capture_session *s);

/* Copies of port's packets workers could not make or queue, since start. */
uint64_t capture_worker_drops(uint8_t port);

#endif
