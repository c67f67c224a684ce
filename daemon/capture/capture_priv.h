/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture, control side: sessions (one per port at most), the copy pool and
 * the per-port rings, shared by capture.c (resources, life cycle) and
 * capture_rpc.c (the streamed reply).
 */
#ifndef FWD_CAPTURE_PRIV_H
#define FWD_CAPTURE_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_pcapng.h>

#include "capture/capture.h"

struct capture_session {
	uint8_t port; /* port index */
	uint8_t dirs; /* FWD_CAPTURE_RX | FWD_CAPTURE_TX */
	bool pcapng;  /* stream a pcapng file, else packet records */
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

/* Largest copy (bytes) that fits one segment with its pcapng framing. */
uint32_t capture_copy_max(void);

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
