/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 FIB: next-hop indices by longest prefix, read by workers without
 * locks and written by the control thread only; freed memory is reused
 * only after an RCU grace period, as in the IPv4 FIB (ip4/fib.h).
 *
 * Next hop 0 means "no route": a lookup never needs a separate miss test.
 * Indices are plain indices into the next-hop table (nexthop/nexthop.h),
 * at most FIB6_NH_MAX.
 *
 * CONTRACT (filled in by the fib6 work): struct fib6 and the inline lookup
 * below are defined here so that the fast path inlines them.
 */
#ifndef FWD_IP6_FIB_H
#define FWD_IP6_FIB_H

#include <stddef.h>
#include <stdint.h>

struct rte_rcu_qsbr;
struct fib6;

/* rcu may be NULL when no reader runs concurrently (tests, tools). */
struct fib6 *fib6_create(uint32_t n_tbl8, struct rte_rcu_qsbr *rcu, int socket);
void fib6_free(struct fib6 *f);
/* Point prefix ip/len at nh, leaving more specific prefixes alone; -ENOSPC. */
int fib6_add(struct fib6 *f, const uint8_t ip[16], uint8_t len, uint32_t nh);
/* Remove prefix ip/len: its entries fall back to the parent (parent_len < 0: none). */
void fib6_del(struct fib6 *f, const uint8_t ip[16], uint8_t len, int parent_len,
              uint32_t parent_nh);
void fib6_reclaim(struct fib6 *f);
size_t fib6_memory(const struct fib6 *f);
uint32_t fib6_tbl8_used(const struct fib6 *f);
/* static inline uint32_t fib6_lookup(const struct fib6 *f, const uint8_t ip[16]); */

#endif
