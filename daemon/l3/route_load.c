/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl route load FILE`: the client streams the file in chunks of lines
 * and waits for each chunk's reply; existing prefixes are replaced, and the
 * first bad line stops the load with "FILE:LINE: message" and what was
 * applied before it. The chunk with `last` set gets the totals: routes
 * added and replaced, time spent in the daemon since the chunk starting at
 * line 1, and FIB + RIB memory of both families. Files mix IPv4 and IPv6
 * routes.
 *
 * A chunk is applied in slices (doc/architecture.md, "Route load in
 * slices"): the reply is deferred (core/rpc.h), and each turn of the
 * control loop applies lines and FIB writes for at most SLICE_US, the
 * wide writes of short prefixes (a /0 rewrites 2^24 entries) cut into
 * budgets of the FIBs (ip4/fib.h), so ARP, timers and other clients run
 * between slices. The reply goes out once every line of the chunk is in
 * both FIBs. Another client's change lands between two slices, after the
 * lines applied so far.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "core/log.h"
#include "core/rpc.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "l3/l3.h"
#include "nexthop/nexthop.h"

#define SLICE_US   2000      /* work per turn of the control loop */
#define FIB_BUDGET (1 << 14) /* FIB entries between clock checks (~50 us) */

static struct {
	uint64_t added, replaced;
	struct timespec start;
} load;

struct load_cursor {
	size_t next;  /* index of the chunk's next line */
	uint16_t vrf; /* RouteLoadReq.vrf: every line goes there */
};

/* Both FIBs of the load's VRF take (or stop taking) a budget of entries. */
static void set_budgets(uint16_t vrf, bool on)
{
	if (!fwd_vrf_used(vrf)) /* a reload deleted it meanwhile */
		return;
	fib4_set_budget(ip4_fibs[vrf], on ? FIB_BUDGET : FIB4_NO_BUDGET);
	fib6_set_budget(ip6_fibs[vrf], on ? FIB_BUDGET : FIB6_NO_BUDGET);
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

static int load_line(struct fwd_rpc_call *call, const Fwd__RouteLoadReq *q, size_t i)
{
	const char *name = q->name != NULL && q->name[0] != '\0' ? q->name : "-";
	struct l3_route r;
	char err[200];
	int rc = l3_route_parse_line(q->lines[i], &r, err, sizeof(err));

	if (rc == 1)
		return 0;
	if (rc == 0) {
		r.vrf = ((const struct load_cursor *)call->cursor)->vrf;
		r.origin = FWD_ORIGIN_LOAD;
		r.replace = true;
		rc = l3_route_add(&r, err, sizeof(err));
	}
	if (rc < 0)
		return fwd_rpc_error(call, -rc,
		                     "%s:%zu: %s (applied before it: %" PRIu64 " added, %" PRIu64
		                     " replaced)",
		                     name, q->first_line + i, err, load.added, load.replaced);
	if (rc == 1)
		load.replaced++;
	else
		load.added++;
	return 0;
}

/* Continue a wide FIB write, or apply the next line; 1 when nothing is left. */
static int load_step(struct fwd_rpc_call *call, struct load_cursor *cur)
{
	const Fwd__RouteLoadReq *q = call->req->route_load;

	if (!fwd_vrf_used(cur->vrf))
		return fwd_rpc_error(call, ENOENT, "the VRF was deleted during the load");
	set_budgets(cur->vrf, true);
	if (fib4_pending(ip4_fibs[cur->vrf]))
		fib4_step(ip4_fibs[cur->vrf]);
	else if (fib6_pending(ip6_fibs[cur->vrf]))
		fib6_step(ip6_fibs[cur->vrf]);
	else if (cur->next < q->n_lines)
		return load_line(call, q, cur->next++);
	else
		return 1;
	return 0;
}

static void load_reply(struct fwd_rpc_call *call)
{
	Fwd__RouteLoadResp *r = fwd_rpc_alloc(call, sizeof(*r));
	uint16_t v = ((const struct load_cursor *)call->cursor)->vrf;

	fwd__route_load_resp__init(r);
	r->added = load.added;
	r->replaced = load.replaced;
	r->routes = ip4_ribs[v].n_routes + ip6_ribs[v].n_routes; /* the load's VRF's */
	r->seconds = since(&load.start);
	r->memory_bytes = fib4_memory(ip4_fibs[v]) + rib4_memory(&ip4_ribs[v]) +
	                  fib6_memory(ip6_fibs[v]) + rib6_memory(&ip6_ribs[v]) +
	                  (uint64_t)nh_count * sizeof(struct nexthop);
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_LOAD;
	call->resp->route_load = r;
}

/* One turn's slice: -EINPROGRESS while lines or FIB writes are left. */
static int load_turn(struct fwd_rpc_call *call)
{
	struct timespec t0;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (rc == 0 && since(&t0) < SLICE_US / 1e6)
		rc = load_step(call, call->cursor);
	set_budgets(((const struct load_cursor *)call->cursor)->vrf, false);
	if (rc < 0) {
		LOG(NOTICE, "route load by uid %u pid %d: %s", (unsigned)call->peer.uid,
		    (int)call->peer.pid, call->error);
		return rc;
	}
	if (rc == 0)
		return -EINPROGRESS;
	if (call->req->route_load->last)
		load_reply(call);
	return 0;
}

/* The client went away mid-chunk: what was begun in the FIBs is completed. */
static void load_cursor_free(void *cursor)
{
	uint16_t vrf = ((const struct load_cursor *)cursor)->vrf;

	free(cursor);
	if (fwd_vrf_used(vrf) && ip4_fibs[vrf] != NULL)
		fib4_finish(ip4_fibs[vrf]);
	if (fwd_vrf_used(vrf) && ip6_fibs[vrf] != NULL)
		fib6_finish(ip6_fibs[vrf]);
}

static int route_load(struct fwd_rpc_call *call)
{
	const Fwd__RouteLoadReq *q = call->req->route_load;
	uint16_t vrf = FWD_VRF_DEFAULT;

	if (l3_vrf_arg(call, q->vrf, &vrf) < 0)
		return -ENOENT;
	if (q->first_line <= 1) {
		load.added = load.replaced = 0;
		clock_gettime(CLOCK_MONOTONIC, &load.start);
	}
	call->cursor = calloc(1, sizeof(struct load_cursor));
	if (call->cursor == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	((struct load_cursor *)call->cursor)->vrf = vrf;
	call->cursor_free = load_cursor_free;
	call->next = load_turn;
	call->deferred = true;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_LOAD, route_load, FWD_RPC_CHANGE);
