/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Process-wide state of fwd-daemon. Written by the control thread (main
 * lcore) only; workers read the fields marked so.
 */
#ifndef FWD_DAEMON_H
#define FWD_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/config.h"

#define FWD_MAX_WORKERS 64

struct event_base;
struct rte_mempool;
struct rte_rcu_qsbr;
struct fwd_worker;
struct fwd_rpc_server;

struct fwd_daemon {
	struct fwd_config *cfg; /* running configuration */
	struct event_base *evbase;
	struct fwd_rpc_server *rpc;
	struct rte_mempool *pool; /* workers: rx and copies */
	struct rte_rcu_qsbr *rcu; /* workers: report quiescent state each loop */
	unsigned control_lcore;
	unsigned n_workers;
	struct fwd_worker *workers[FWD_MAX_WORKERS];
	time_t start_time;
	uint64_t start_tsc;
};

extern struct fwd_daemon fwd;

#endif
