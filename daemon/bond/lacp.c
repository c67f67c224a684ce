/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LACP's state machines (IEEE 802.1AX-2014 6.4), active mode: see
 * bond/lacp.h. Each machine is a function that runs the transitions its
 * inputs call for; timers are deadlines in nanoseconds (0: stopped) that
 * lacp_member_tick() checks, so the caller's tick (100 ms) bounds how late a
 * timer fires. Names of states follow the standard's figures.
 */
#include <errno.h>
#include <string.h>

#include "bond/lacp.h"

/* What a member records of a partner that says nothing (recordDefault):
 * nobody, out of sync, so that a silent partner's member carries nothing,
 * and short timeout, so that the actor keeps asking once a second. */
static const struct lacp_port_info partner_admin = { .state = LACP_ST_TIMEOUT };

static bool timer_done(uint64_t deadline, uint64_t now)
{
	return deadline != 0 && now >= deadline;
}

static void state_set(struct lacp_port_info *i, uint8_t bits, bool on)
{
	i->state = (uint8_t)(on ? i->state | bits : i->state & ~bits);
}

/* The same port of the same system with the same key and aggregation
 * (what update_Selected, update_NTT and recordPDU compare). */
static bool same_port(const struct lacp_port_info *a, const struct lacp_port_info *b)
{
	return a->port == b->port && a->port_prio == b->port_prio && a->sys_prio == b->sys_prio &&
	       a->key == b->key && memcmp(a->sys, b->sys, 6) == 0 &&
	       ((a->state ^ b->state) & LACP_ST_AGGREGATION) == 0;
}

/* The same partner system and key: the same aggregate (6.4.14). */
static bool same_aggregate(const struct lacp_port_info *a, const struct lacp_port_info *b)
{
	return a->sys_prio == b->sys_prio && a->key == b->key && memcmp(a->sys, b->sys, 6) == 0;
}

void lacp_member_actor(struct lacp_member *lm, const struct lacp_actor *a)
{
	struct lacp_port_info was = lm->actor;
	struct lacp_port_info *i = &lm->actor;

	i->sys_prio = a->sys_prio;
	memcpy(i->sys, a->sys_mac, 6);
	i->key = a->key;
	i->port_prio = a->port_prio;
	i->port = a->port_no;
	state_set(i, LACP_ST_ACTIVITY | LACP_ST_AGGREGATION, true);
	state_set(i, LACP_ST_TIMEOUT, a->fast);
	if (memcmp(&was, i, sizeof(was)) != 0)
		lm->ntt = true;
}

static void record_default(struct lacp_member *lm)
{
	lm->partner = partner_admin;
	state_set(&lm->actor, LACP_ST_DEFAULTED, true);
}

void lacp_member_init(struct lacp_member *lm, const struct lacp_actor *a)
{
	memset(lm, 0, sizeof(*lm));
	lacp_member_actor(lm, a);
	/* INITIALIZE, then PORT_DISABLED until the link comes up */
	lm->selected = LACP_UNSELECTED;
	record_default(lm);
	lm->rx = LACP_RX_DISABLED;
	lm->mux = LACP_MUX_DETACHED;
	lm->periodic = LACP_PER_NONE;
}

/* The receive machine enters s (but CURRENT: rx_current). */
static void rx_enter(struct lacp_member *lm, enum lacp_rx_state s)
{
	lm->rx = (uint8_t)s;
	switch (s) {
	case LACP_RX_DISABLED:
		state_set(&lm->partner, LACP_ST_SYNC, false);
		lm->current_while = 0;
		break;
	case LACP_RX_EXPIRED:
		state_set(&lm->partner, LACP_ST_SYNC, false);
		state_set(&lm->partner, LACP_ST_TIMEOUT, true);
		lm->current_while = lm->now + LACP_SHORT_TIMEOUT_NS;
		state_set(&lm->actor, LACP_ST_EXPIRED, true);
		break;
	case LACP_RX_DEFAULTED:
		if (!same_port(&partner_admin, &lm->partner)) /* update_Default_Selected */
			lm->selected = LACP_UNSELECTED;
		record_default(lm);
		state_set(&lm->actor, LACP_ST_EXPIRED, false);
		lm->current_while = 0;
		break;
	case LACP_RX_CURRENT:
		break;
	}
}

/* CURRENT on a LACPDU: update_Selected, update_NTT, recordPDU, the timer. */
static void rx_current(struct lacp_member *lm, const struct lacp_pdu *p)
{
	const uint8_t told =
	        LACP_ST_ACTIVITY | LACP_ST_TIMEOUT | LACP_ST_SYNC | LACP_ST_AGGREGATION;
	bool about_us = same_port(&p->partner, &lm->actor);
	bool sync;

	if (!same_port(&p->actor, &lm->partner))
		lm->selected = LACP_UNSELECTED;
	if (!about_us || ((p->partner.state ^ lm->actor.state) & told) != 0)
		lm->ntt = true;
	sync = ((about_us && (p->actor.state & LACP_ST_SYNC)) ||
	        (!(p->actor.state & LACP_ST_AGGREGATION) && (p->actor.state & LACP_ST_SYNC))) &&
	       ((lm->actor.state & LACP_ST_ACTIVITY) || (p->partner.state & LACP_ST_ACTIVITY));
	lm->partner = p->actor;
	state_set(&lm->partner, LACP_ST_SYNC, sync);
	state_set(&lm->actor, LACP_ST_DEFAULTED, false);
	lm->current_while = lm->now + ((lm->actor.state & LACP_ST_TIMEOUT) ? LACP_SHORT_TIMEOUT_NS
	                                                                   : LACP_LONG_TIMEOUT_NS);
	state_set(&lm->actor, LACP_ST_EXPIRED, false);
	lm->rx = LACP_RX_CURRENT;
}

/* The periodic transmission machine: NTT every second while the partner
 * asks for short timeouts, every 30 s otherwise. */
static void periodic_run(struct lacp_member *lm)
{
	bool fast = (lm->partner.state & LACP_ST_TIMEOUT) != 0;

	if (!lm->port_enabled) { /* NO_PERIODIC */
		lm->periodic = LACP_PER_NONE;
		lm->periodic_at = 0;
		return;
	}
	switch (lm->periodic) {
	case LACP_PER_NONE:
		lm->periodic = LACP_PER_FAST;
		lm->periodic_at = lm->now + LACP_FAST_PERIODIC_NS;
		/* fall through */
	case LACP_PER_FAST:
		if (!fast) {
			lm->periodic = LACP_PER_SLOW;
			lm->periodic_at = lm->now + LACP_SLOW_PERIODIC_NS;
			break;
		}
		if (timer_done(lm->periodic_at, lm->now)) { /* PERIODIC_TX */
			lm->ntt = true;
			lm->periodic_at = lm->now + LACP_FAST_PERIODIC_NS;
		}
		break;
	default:                                                    /* SLOW */
		if (fast || timer_done(lm->periodic_at, lm->now)) { /* PERIODIC_TX */
			lm->ntt = true;
			lm->periodic = fast ? LACP_PER_FAST : LACP_PER_SLOW;
			lm->periodic_at =
			        lm->now + (fast ? LACP_FAST_PERIODIC_NS : LACP_SLOW_PERIODIC_NS);
		}
		break;
	}
}

/* The mux machine (coupled control, figure 6-22) enters s. */
static void mux_enter(struct lacp_member *lm, enum lacp_mux_state s)
{
	const uint8_t cd = LACP_ST_COLLECTING | LACP_ST_DISTRIBUTING;

	lm->mux = (uint8_t)s;
	lm->wait_while = 0;
	switch (s) {
	case LACP_MUX_DETACHED:
		state_set(&lm->actor, LACP_ST_SYNC | cd, false);
		lm->ntt = true;
		break;
	case LACP_MUX_WAITING:
		lm->wait_while = lm->now + LACP_AGGREGATE_WAIT_NS;
		lm->ready_n = lm->agg_ready = false;
		break;
	case LACP_MUX_ATTACHED:
		state_set(&lm->actor, LACP_ST_SYNC, true);
		state_set(&lm->actor, cd, false);
		lm->ntt = true;
		break;
	case LACP_MUX_COLL_DIST:
		state_set(&lm->actor, cd, true);
		lm->ntt = true;
		break;
	}
}

/* One transition of the mux machine, if its inputs call for one. */
static bool mux_step(struct lacp_member *lm)
{
	bool sel = lm->selected == LACP_SELECTED, unsel = lm->selected == LACP_UNSELECTED;
	bool psync = (lm->partner.state & LACP_ST_SYNC) != 0;

	switch (lm->mux) {
	case LACP_MUX_DETACHED:
		if (unsel)
			return false;
		mux_enter(lm, LACP_MUX_WAITING);
		return true;
	case LACP_MUX_WAITING:
		if (unsel)
			mux_enter(lm, LACP_MUX_DETACHED);
		else if (sel && lm->agg_ready)
			mux_enter(lm, LACP_MUX_ATTACHED);
		else
			return false;
		return true;
	case LACP_MUX_ATTACHED:
		if (!sel)
			mux_enter(lm, LACP_MUX_DETACHED);
		else if (psync)
			mux_enter(lm, LACP_MUX_COLL_DIST);
		else
			return false;
		return true;
	default: /* COLLECTING_DISTRIBUTING */
		if (sel && psync)
			return false;
		mux_enter(lm, LACP_MUX_ATTACHED);
		return true;
	}
}

static void mux_run(struct lacp_member *lm)
{
	for (unsigned i = 0; i < 8 && mux_step(lm); i++)
		;
}

void lacp_member_link(struct lacp_member *lm, bool up, uint64_t now_ns)
{
	lm->now = now_ns;
	if (up == lm->port_enabled)
		return;
	lm->port_enabled = up;
	if (up) {
		rx_enter(lm, LACP_RX_EXPIRED); /* PORT_DISABLED -> EXPIRED */
		lm->ntt = true;                /* tell the partner at once, not in a second */
	} else {
		rx_enter(lm, LACP_RX_DISABLED);
		lm->selected = LACP_UNSELECTED;
	}
	periodic_run(lm);
	mux_run(lm);
}

void lacp_member_tick(struct lacp_member *lm, uint64_t now_ns)
{
	lm->now = now_ns;
	if (lm->rx == LACP_RX_CURRENT && timer_done(lm->current_while, now_ns))
		rx_enter(lm, LACP_RX_EXPIRED);
	else if (lm->rx == LACP_RX_EXPIRED && timer_done(lm->current_while, now_ns))
		rx_enter(lm, LACP_RX_DEFAULTED);
	if (lm->mux == LACP_MUX_WAITING && timer_done(lm->wait_while, now_ns)) {
		lm->ready_n = true;
		lm->wait_while = 0;
	}
	periodic_run(lm);
	mux_run(lm);
}

static int rx_lacpdu(struct lacp_member *lm, const uint8_t *pdu, size_t len)
{
	struct lacp_pdu p;

	if (lacp_pdu_parse(pdu, len, &p) < 0) {
		lm->ctr.rx_bad++;
		return -EINVAL;
	}
	if (p.actor.sys_prio == lm->actor.sys_prio && memcmp(p.actor.sys, lm->actor.sys, 6) == 0) {
		lm->ctr.rx_bad++; /* our own, looped back to us */
		return -ELOOP;
	}
	lm->ctr.rx_lacpdu++;
	if (!lm->port_enabled)
		return 0; /* PORT_DISABLED takes none */
	rx_current(lm, &p);
	periodic_run(lm);
	mux_run(lm);
	return 0;
}

int lacp_member_rx(struct lacp_member *lm, const uint8_t *pdu, size_t len, uint64_t now_ns,
                   uint8_t *reply, size_t *reply_len)
{
	uint8_t out[LACP_PDU_LEN];
	int r;

	lm->now = now_ns;
	if (pdu != NULL && len >= 1 && pdu[0] == LACP_SUBTYPE)
		return rx_lacpdu(lm, pdu, len);
	if (pdu == NULL || len < 1 || pdu[0] != LACP_SUBTYPE_MRK) {
		lm->ctr.rx_bad++;
		return -EPROTONOSUPPORT;
	}
	r = lacp_marker_respond(pdu, len, out);
	if (r < 0)
		lm->ctr.rx_bad++;
	if (r != 1 || reply == NULL || reply_len == NULL)
		return r < 0 ? r : 0;
	lm->ctr.rx_marker++;
	memcpy(reply, out, sizeof(out));
	*reply_len = sizeof(out);
	return 1;
}

bool lacp_member_tx(struct lacp_member *lm, uint64_t now_ns, uint8_t *pdu, size_t *len)
{
	struct lacp_pdu p = { .actor = lm->actor, .partner = lm->partner };

	lm->now = now_ns;
	if (!lm->ntt || !lm->port_enabled)
		return false;
	/* at most LACP_TX_MAX in any fast periodic time: the oldest of the
	 * last LACP_TX_MAX must be that old */
	if (lm->ctr.tx_lacpdu >= LACP_TX_MAX &&
	    now_ns - lm->tx_at[lm->tx_next] < LACP_FAST_PERIODIC_NS)
		return false;
	lacp_pdu_build(&p, pdu);
	*len = LACP_PDU_LEN;
	lm->tx_at[lm->tx_next] = now_ns;
	lm->tx_next = (lm->tx_next + 1) % LACP_TX_MAX;
	lm->ntt = false;
	lm->ctr.tx_lacpdu++;
	return true;
}

/* A member that knows its partner: link up, a LACPDU not timed out yet. */
static bool has_partner(const struct lacp_member *lm)
{
	return lm->port_enabled && (lm->rx == LACP_RX_CURRENT || lm->rx == LACP_RX_EXPIRED) &&
	       !(lm->actor.state & LACP_ST_DEFAULTED);
}

/* The member whose partner the aggregator has: one Selected already (it
 * stays as long as it has one), or the first that knows its partner. */
static int agg_owner(struct lacp_member **m, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (m[i]->selected == LACP_SELECTED && has_partner(m[i]))
			return (int)i;
	for (unsigned i = 0; i < n; i++)
		if (has_partner(m[i]))
			return (int)i;
	return -1;
}

/* Member i may be in owner's aggregate: the same partner system and key,
 * and both aggregatable (an individual link aggregates with nothing). */
static bool selectable(struct lacp_member **m, unsigned i, int owner)
{
	const struct lacp_port_info *p = &m[i]->partner, *o;

	if (owner < 0 || !has_partner(m[i]))
		return false;
	if ((int)i == owner)
		return true;
	o = &m[owner]->partner;
	return same_aggregate(p, o) && (p->state & LACP_ST_AGGREGATION) &&
	       (o->state & LACP_ST_AGGREGATION);
}

/* The aggregator's Ready: every member waiting to attach to it waited. */
static bool agg_ready(struct lacp_member **m, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (m[i]->selected == LACP_SELECTED && m[i]->mux == LACP_MUX_WAITING &&
		    !m[i]->ready_n)
			return false;
	return true;
}

void lacp_select(struct lacp_member **m, unsigned n)
{
	int owner = agg_owner(m, n);
	bool ready;

	for (unsigned i = 0; i < n; i++) {
		if (!selectable(m, i, owner))
			m[i]->selected = LACP_UNSELECTED;
		else if (m[i]->selected == LACP_UNSELECTED)
			m[i]->selected = LACP_SELECTED;
		mux_run(m[i]);
	}
	ready = agg_ready(m, n);
	for (unsigned i = 0; i < n; i++) {
		m[i]->agg_ready = ready;
		mux_run(m[i]);
	}
}

bool lacp_member_collecting(const struct lacp_member *lm)
{
	return (lm->actor.state & LACP_ST_COLLECTING) != 0;
}

bool lacp_member_distributing(const struct lacp_member *lm)
{
	return (lm->actor.state & LACP_ST_DISTRIBUTING) != 0;
}

void lacp_member_info(const struct lacp_member *lm, struct lacp_info *out)
{
	out->actor = lm->actor;
	out->partner = lm->partner;
	out->rx = lm->rx;
	out->mux = lm->mux;
	out->selected = lm->selected;
	out->ctr = lm->ctr;
}

static const char *name_of(const char *const *names, unsigned n, unsigned i)
{
	return i < n ? names[i] : NULL;
}

const char *lacp_state_bit_name(unsigned bit)
{
	static const char *const names[] = { "activity",        "timeout",    "aggregation",
		                             "synchronization", "collecting", "distributing",
		                             "defaulted",       "expired" };
	return name_of(names, 8, bit);
}

const char *lacp_rx_state_name(unsigned s)
{
	static const char *const names[] = { "port_disabled", "expired", "defaulted", "current" };
	return name_of(names, 4, s);
}

const char *lacp_mux_state_name(unsigned s)
{
	static const char *const names[] = { "detached", "waiting", "attached",
		                             "collecting_distributing" };
	return name_of(names, 4, s);
}

const char *lacp_selected_name(unsigned s)
{
	static const char *const names[] = { "unselected", "selected", "standby" };
	return name_of(names, 3, s);
}
