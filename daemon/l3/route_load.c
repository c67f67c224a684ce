/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl route load FILE`: the client streams the file in chunks of lines;
 * each chunk is applied as it arrives (existing prefixes are replaced), and
 * the first bad line stops the load with "FILE:LINE: message". The chunk
 * with `last` set gets the totals: routes added and replaced, time spent in
 * the daemon since the chunk starting at line 1, and FIB + RIB memory of
 * both families. Files mix IPv4 and IPv6 routes.
 */
#include <errno.h>
#include <time.h>

#include "core/rpc.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "l3/l3.h"
#include "nexthop/nexthop.h"

static struct {
	uint64_t added, replaced;
	struct timespec start;
} load;

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
		r.origin = FWD_ORIGIN_LOAD;
		r.replace = true;
		rc = l3_route_add(&r, err, sizeof(err));
	}
	if (rc < 0)
		return fwd_rpc_error(call, -rc, "%s:%zu: %s", name, q->first_line + i, err);
	if (rc == 1)
		load.replaced++;
	else
		load.added++;
	return 0;
}

static int route_load(struct fwd_rpc_call *call)
{
	const Fwd__RouteLoadReq *q = call->req->route_load;

	if (q->first_line <= 1) {
		load.added = load.replaced = 0;
		clock_gettime(CLOCK_MONOTONIC, &load.start);
	}
	for (size_t i = 0; i < q->n_lines; i++) {
		int rc = load_line(call, q, i);
		if (rc < 0)
			return rc;
	}
	if (!q->last)
		return 0;
	Fwd__RouteLoadResp *r = fwd_rpc_alloc(call, sizeof(*r));
	fwd__route_load_resp__init(r);
	r->added = load.added;
	r->replaced = load.replaced;
	r->routes = ip4_rib.n_routes + ip6_rib.n_routes;
	r->seconds = since(&load.start);
	r->memory_bytes = fib4_memory(ip4_fib) + rib4_memory(&ip4_rib) + fib6_memory(ip6_fib) +
	                  rib6_memory(&ip6_rib) + (uint64_t)nh_count * sizeof(struct nexthop);
	call->resp->body_case = FWD__RESPONSE__BODY_ROUTE_LOAD;
	call->resp->route_load = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_ROUTE_LOAD, route_load, FWD_RPC_CHANGE);
