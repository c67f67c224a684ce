/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv4 input of l3 ports: the fast path (input.c) and the functions it
 * hands the rare frames to (input_slow.c).
 */
#ifndef FWD_IP4_INPUT_H
#define FWD_IP4_INPUT_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "core/worker.h"
#include "ip4/nh.h"

/* A frame the fast path doubted: its rx bytes counted, classified exactly
 * (each failure a drop reason or a punt), and routed when it passes. */
void ip4_input_slow(struct fwd_worker *w, const struct fwd_port *in, struct rte_mbuf *m);

/* A routed packet (index nhi, entry nh) whose next hop does not simply
 * forward it, or that is too large for it, or whose TTL expires here. */
void ip4_forward_slow(struct fwd_worker *w, uint8_t in, struct rte_mbuf *m, const struct nh4 *nh,
                      uint32_t nhi);

#endif
