/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LACP, IEEE 802.1AX-2014 clause 6, active mode, as a pure library: no
 * DPDK, no globals, no clock of its own (the caller passes now_ns) and
 * frames as bytes (a slow-protocols PDU after its Ethernet header). One
 * struct lacp_member per bond member holds the actor's and the partner's
 * information and the state of its machines: receive (6.4.12), periodic
 * transmission (6.4.13), mux with coupled control (6.4.15, collecting and
 * distributing together), transmit (6.4.16, NTT, at most 3 PDUs a fast
 * periodic time) and the marker responder (6.5). Selection (6.4.14) runs
 * over a bond's members together: one aggregator per bond, the members
 * whose partner has the same system and key as the aggregator's are
 * Selected, the others Unselected. doc/architecture.md ("LACP") tells how
 * the control thread drives it (bond/lacp_ctl.c).
 */
#ifndef FWD_LACP_H
#define FWD_LACP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LACP_PDU_LEN     110 /* a LACPDU or a marker PDU, after the Ethernet header */
#define LACP_ETHERTYPE   0x8809
#define LACP_SUBTYPE     1
#define LACP_SUBTYPE_MRK 2

/* Timers (6.4.4), in nanoseconds. */
#define LACP_FAST_PERIODIC_NS  (1000000000ull)
#define LACP_SLOW_PERIODIC_NS  (30000000000ull)
#define LACP_SHORT_TIMEOUT_NS  (3000000000ull)
#define LACP_LONG_TIMEOUT_NS   (90000000000ull)
#define LACP_AGGREGATE_WAIT_NS (2000000000ull)
#define LACP_TX_MAX            3 /* LACPDUs a fast periodic time at most (6.4.16) */

/* Actor_State / Partner_State bits (6.4.2.3 k)). */
enum lacp_state_bit {
	LACP_ST_ACTIVITY = 1 << 0,
	LACP_ST_TIMEOUT = 1 << 1, /* short timeout */
	LACP_ST_AGGREGATION = 1 << 2,
	LACP_ST_SYNC = 1 << 3,
	LACP_ST_COLLECTING = 1 << 4,
	LACP_ST_DISTRIBUTING = 1 << 5,
	LACP_ST_DEFAULTED = 1 << 6,
	LACP_ST_EXPIRED = 1 << 7,
};

enum lacp_rx_state { LACP_RX_DISABLED, LACP_RX_EXPIRED, LACP_RX_DEFAULTED, LACP_RX_CURRENT };
enum lacp_mux_state { LACP_MUX_DETACHED, LACP_MUX_WAITING, LACP_MUX_ATTACHED, LACP_MUX_COLL_DIST };
enum lacp_periodic { LACP_PER_NONE, LACP_PER_FAST, LACP_PER_SLOW };
enum lacp_selected { LACP_UNSELECTED, LACP_SELECTED, LACP_STANDBY };

/* One end of a link as a LACPDU carries it (Actor or Partner Information). */
struct lacp_port_info {
	uint16_t sys_prio;
	uint8_t sys[6];
	uint16_t key;
	uint16_t port_prio;
	uint16_t port;
	uint8_t state; /* enum lacp_state_bit */
};

/* The actor's administrative values (the bond's configuration). */
struct lacp_actor {
	uint8_t sys_mac[6];
	uint16_t sys_prio, key, port_no, port_prio;
	bool fast; /* lacp_rate: ask the partner for a LACPDU a second, time it out in 3 s */
};

struct lacp_counters {
	uint64_t rx_lacpdu, tx_lacpdu; /* LACPDUs taken, sent */
	uint64_t rx_marker;            /* marker requests answered */
	uint64_t rx_bad;               /* malformed, looped or of an unknown subtype: refused */
};

struct lacp_member {
	struct lacp_port_info actor;         /* operational: the state bits move */
	struct lacp_port_info partner;       /* operational: the last LACPDU's actor, or zeros */
	bool port_enabled;                   /* link up */
	bool ntt;                            /* need to transmit */
	bool ready_n;                        /* wait_while ran out */
	bool agg_ready;                      /* the aggregator's Ready, as selection last saw it */
	uint8_t rx, mux, periodic, selected; /* enum lacp_rx_state, _mux_state, ... */
	uint64_t now;                        /* the clock as the last call gave it */
	uint64_t current_while, periodic_at, wait_while; /* deadlines (ns), 0: stopped */
	uint64_t tx_at[LACP_TX_MAX]; /* when the last LACP_TX_MAX LACPDUs left */
	unsigned tx_next;
	struct lacp_counters ctr;
};

/* What `bond show` tells of a member. */
struct lacp_info {
	struct lacp_port_info actor, partner;
	uint8_t rx, mux, selected;
	struct lacp_counters ctr;
};

void lacp_member_init(struct lacp_member *lm, const struct lacp_actor *a);
/* The actor's administrative values changed (rate, system, key): a partner
 * told of them by the next LACPDU, now. */
void lacp_member_actor(struct lacp_member *lm, const struct lacp_actor *a);
void lacp_member_link(struct lacp_member *lm, bool up, uint64_t now_ns);
/* A slow-protocols PDU of len bytes (after the Ethernet header): 0 a LACPDU
 * (or a marker response) taken, 1 a marker request whose response is in
 * reply (LACP_PDU_LEN bytes, *reply_len set), -EINVAL malformed,
 * -ELOOP our own, -EPROTONOSUPPORT another slow protocol. */
int lacp_member_rx(struct lacp_member *lm, const uint8_t *pdu, size_t len, uint64_t now_ns,
                   uint8_t *reply, size_t *reply_len);
void lacp_member_tick(struct lacp_member *lm, uint64_t now_ns);
/* The LACPDU to send now (periodic, NTT; pdu holds LACP_PDU_LEN), or false. */
bool lacp_member_tx(struct lacp_member *lm, uint64_t now_ns, uint8_t *pdu, size_t *len);
/* Selection over one bond's members, then their mux machines. */
void lacp_select(struct lacp_member **m, unsigned n);
bool lacp_member_collecting(const struct lacp_member *lm);
bool lacp_member_distributing(const struct lacp_member *lm);
void lacp_member_info(const struct lacp_member *lm, struct lacp_info *out);

const char *lacp_state_bit_name(unsigned bit); /* bit 0..7: "activity", ...; else NULL */
const char *lacp_rx_state_name(unsigned s);
const char *lacp_mux_state_name(unsigned s);
const char *lacp_selected_name(unsigned s);

/* The codec (bond/lacp_pdu.c). */
struct lacp_pdu {
	struct lacp_port_info actor, partner;
	uint16_t collector_max_delay;
};
/* 0 or -EINVAL (a version 1 layout: TLV types and lengths, the terminator). */
int lacp_pdu_parse(const uint8_t *b, size_t len, struct lacp_pdu *out);
void lacp_pdu_build(const struct lacp_pdu *p, uint8_t out[LACP_PDU_LEN]);
/* A marker request: its response in out; 1 done, 0 a response (ignored), -EINVAL. */
int lacp_marker_respond(const uint8_t *b, size_t len, uint8_t out[LACP_PDU_LEN]);

#endif
