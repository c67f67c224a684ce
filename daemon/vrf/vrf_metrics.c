/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The VRFs in the metrics endpoint (fwd-daemon(8), METRICS): each VRF's
 * routes per family, and each interface's VRF, so a scraper can put the
 * interfaces' counters (labelled port= or interface=) in their VRF.
 */
#include <inttypes.h>

#include <event2/buffer.h>
#include <rte_common.h>

#include "core/iface.h"
#include "core/vrf.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "stats/metrics.h"

static void vrf_metrics(struct evbuffer *b)
{
	const struct fwd_iface *ifp;

	metrics_family(b, "fwd_vrf_routes", "gauge", "Routes in a VRF, by family.");
	FWD_VRF_FOREACH(v)
	{
		evbuffer_add_printf(
		        b, "fwd_vrf_routes{vrf=\"%s\",table=\"%u\",family=\"ipv4\"} %" PRIu64 "\n",
		        fwd_vrf_name((unsigned)v), fwd_vrfs[v].table, ip4_ribs[v].n_routes);
		evbuffer_add_printf(
		        b, "fwd_vrf_routes{vrf=\"%s\",table=\"%u\",family=\"ipv6\"} %" PRIu64 "\n",
		        fwd_vrf_name((unsigned)v), fwd_vrfs[v].table, ip6_ribs[v].n_routes);
	}
	metrics_family(b, "fwd_interface_vrf", "gauge",
	               "1 for each interface (port= or interface=) and the VRF it is in.");
	FWD_IFACE_FOREACH(ifp)
	{
		evbuffer_add_printf(b, "fwd_interface_vrf{%s=\"%s\",vrf=\"%s\"} 1\n",
		                    ifp->id < FWD_MAX_PORTS ? "port" : "interface", ifp->name,
		                    fwd_vrf_name(ifp->vrf));
	}
}

RTE_INIT(vrf_metrics_register)
{
	metrics_add_writer(vrf_metrics);
}
