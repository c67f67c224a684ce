/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Learning bridges (ports in `mode: bridge`). Each configured bridge owns a
 * slot in bridge_table for the life of the daemon (a reload that removes or
 * adds bridges frees or takes slots, never renumbers them), so workers can
 * hold a pointer to it. Members are fixed at start: a port joining,
 * leaving or changing bridge needs a restart.
 *
 * Learning: workers put 8-byte notes (bridge_note) for unknown or moved
 * source MACs on bridge_notes, a multi-producer ring the control thread
 * drains every BRIDGE_POLL_MS into fdb_learn; it ages every BRIDGE_AGE_MS.
 */
#ifndef FWD_L2_BRIDGE_H
#define FWD_L2_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "core/daemon.h"
#include "core/worker.h"
#include "l2/fdb.h"

#define BRIDGE_POLL_MS    10
#define BRIDGE_AGE_MS     500
#define BRIDGE_NOTES_RING 4096

struct fwd_reload_log;

struct bridge {
	struct fdb fdb;
	/* datapath: read by workers; set at start, before they launch */
	uint8_t slot;
	uint8_t n_members;
	uint8_t members[FWD_MAX_PORTS]; /* port indices */

	/* control thread only */
	bool used;
	char name[FWD_NAME_MAX];
	uint64_t base_flooded, base_full, base_lost; /* per-worker sums when the slot was taken */
};

/* Per-worker counters, written by the worker that owns them only. */
struct bridge_wstats {
	uint64_t flooded[FWD_MAX_BRIDGES];    /* frames flooded (not the copies) */
	uint64_t fdb_full[FWD_MAX_BRIDGES];   /* frames from an unknown MAC while full */
	uint64_t notes_lost[FWD_MAX_BRIDGES]; /* learn notes the full ring refused */
	struct {
		uint64_t note, at;
	} recent[64]; /* notes sent lately: do not repeat one within BRIDGE_POLL_MS * 2 */
} __rte_cache_aligned;

extern struct bridge bridge_table[FWD_MAX_BRIDGES];
extern struct bridge *bridge_of_port[FWD_MAX_PORTS]; /* datapath: NULL unless a member */
extern struct bridge_wstats bridge_wstats[FWD_MAX_WORKERS];
extern struct rte_ring *bridge_notes; /* workers -> control: learn/move notes */
extern uint64_t bridge_note_gap;      /* set at init: fdb_clock ticks */
extern uint64_t bridge_refresh_gap;

/* A note: MAC in the low 48 bits, then the ingress port, then the bridge slot. */
static inline uint64_t bridge_note(uint64_t key, uint8_t port, uint8_t slot)
{
	return key | (uint64_t)port << 48 | (uint64_t)slot << 56;
}

/* The datapath (registered for FWD_MODE_BRIDGE; exposed for tests). */
void bridge_input(struct fwd_worker *w, const struct fwd_iface *in, struct rte_mbuf **pkts,
                  uint16_t n);

/* Control thread. */
struct bridge *bridge_by_name(const char *name);
int bridge_create(struct bridge *b, const struct fwd_conf_bridge *cb);
void bridge_destroy(struct bridge *b);
/* Drain learn notes into the FDBs; returns how many were handled. */
unsigned bridge_poll(uint64_t now);
/* Age every FDB (entries on admin-down ports go too). */
void bridge_age(uint64_t now);

struct bridge_ctrs {
	uint64_t learned, flooded, fdb_full, moved, aged, notes_lost;
};
void bridge_counters(const struct bridge *b, struct bridge_ctrs *out);

/* Life cycle and reload hooks (the module's; exposed for tests). */
int bridge_module_init(const struct fwd_config *cfg);
void bridge_module_fini(void);
int bridge_reload_check(const struct fwd_config *cur, const struct fwd_config *next, char *err,
                        size_t errlen);
int bridge_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                        struct fwd_reload_log *log);

#endif
