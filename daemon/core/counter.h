/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Named counters of the control thread that belong to no port (ICMP errors
 * rate-limited, ARP requests sent, RPC clients refused, ...). Only the
 * control thread touches them; `fwdctl stats` shows them under "global".
 *
 *	FWD_COUNTER(arp_requests, "arp_requests_sent");
 *	arp_requests.value++;
 */
#ifndef FWD_COUNTER_H
#define FWD_COUNTER_H

#include <stdint.h>

#include <rte_common.h>

struct fwd_counter {
	const char *name;
	uint64_t value;
	uint64_t base; /* value at the last `stats clear` */
	struct fwd_counter *next;
};

void fwd_counter_register(struct fwd_counter *c);
struct fwd_counter *fwd_counters(void);

#define FWD_COUNTER(var, name_)                       \
	struct fwd_counter var = { .name = (name_) }; \
	RTE_INIT(fwd_counter_reg_##var)               \
	{                                             \
		fwd_counter_register(&var);           \
	}

#endif
