/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <rte_ethdev.h>

#include "core/daemon.h"
#include "core/iface.h"
#include "core/rpc.h"
#include "port/port.h"
#include "core/counter.h"
#include "stats/stats_ctl.h"

/* Always shown, even at zero: the counters an operator looks for first. */
static const char *const key_xstats[] = { "rx_missed_errors", "rx_mbuf_allocation_errors" };

static Fwd__Counter *counter_new(struct fwd_rpc_call *call, const char *name, uint64_t value)
{
	Fwd__Counter *c = fwd_rpc_alloc(call, sizeof(*c));

	fwd__counter__init(c);
	c->name = fwd_rpc_strdup(call, name);
	c->value = value;
	return c;
}

static bool is_key_xstat(const char *name)
{
	for (unsigned i = 0; i < RTE_DIM(key_xstats); i++)
		if (strcmp(name, key_xstats[i]) == 0)
			return true;
	return false;
}

/* Fetch xstats names and values; returns the count (0 on failure). */
static int xstats_read(uint16_t port_id, struct rte_eth_xstat_name **names,
                       struct rte_eth_xstat **vals)
{
	int n = port_id == FWD_PORT_ID_NONE ? 0 : rte_eth_xstats_get_names(port_id, NULL, 0);

	if (n <= 0) /* a bond has no device: its members have the NIC's counters */
		return 0;
	*names = calloc(n, sizeof(**names));
	*vals = calloc(n, sizeof(**vals));
	if (*names == NULL || *vals == NULL || rte_eth_xstats_get_names(port_id, *names, n) != n ||
	    rte_eth_xstats_get(port_id, *vals, n) != n) {
		free(*names);
		free(*vals);
		*names = NULL;
		*vals = NULL;
		return 0;
	}
	return n;
}

/* The DPDK xstats that are not 0 or are key ones, since start or `stats
 * clear`; then, for a port on a kernel interface (af_xdp, af_packet), what
 * the kernel dropped on it before fwd's rings, always: kernel_rx_dropped. */
static void port_xstats(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortStats *ps)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *vals = NULL;
	int n = xstats_read(p->port_id, &names, &vals);
	uint64_t kdrop;
	bool kif = fwd_port_kif_rx_dropped(p, &kdrop) == 0;

	if (n == 0 && !kif)
		return;
	ps->xstats = (Fwd__Counter **)fwd_rpc_ptr_array(call, n + kif);
	for (int i = 0; i < n; i++) {
		uint64_t v = vals[i].value;
		if (p->xstats_base != NULL && (unsigned)i < p->n_xstats)
			v = v > p->xstats_base[i] ? v - p->xstats_base[i] : 0;
		if (v != 0 || is_key_xstat(names[i].name))
			ps->xstats[ps->n_xstats++] = counter_new(call, names[i].name, v);
	}
	if (kif)
		ps->xstats[ps->n_xstats++] = counter_new(
		        call, "kernel_rx_dropped",
		        kdrop > p->kif_rx_dropped_base ? kdrop - p->kif_rx_dropped_base : 0);
	free(names);
	free(vals);
}

static void port_drops(struct fwd_rpc_call *call, const struct fwd_port_ctrs *c, Fwd__PortStats *ps)
{
	ps->drop_reasons = (Fwd__Counter **)fwd_rpc_ptr_array(call, FWD_DROP_MAX);
	for (unsigned r = 0; r < FWD_DROP_MAX; r++) {
		ps->drops += c->drop[r];
		if (c->drop[r] != 0)
			ps->drop_reasons[ps->n_drop_reasons++] =
			        counter_new(call, fwd_drop_names[r], c->drop[r]);
	}
}

/* The counters of interface id (a port's, a VLAN's, a loopback's). */
static Fwd__PortStats *ctrs_stats(struct fwd_rpc_call *call, unsigned id, const char *name)
{
	Fwd__PortStats *ps = fwd_rpc_alloc(call, sizeof(*ps));
	const struct fwd_rates *r = fwd_stats_port_rates(id);
	struct fwd_port_ctrs c;

	fwd__port_stats__init(ps);
	fwd_stats_port_get(id, &c);
	ps->name = fwd_rpc_strdup(call, name);
	ps->rx_packets = c.rx_pkts;
	ps->rx_bytes = c.rx_bytes;
	ps->tx_packets = c.tx_pkts;
	ps->tx_bytes = c.tx_bytes;
	ps->consumed = c.consumed;
	ps->created = c.created;
	ps->rx_pps = r->rx_pps;
	ps->rx_bps = r->rx_bps;
	ps->tx_pps = r->tx_pps;
	ps->tx_bps = r->tx_bps;
	port_drops(call, &c, ps);
	return ps;
}

static Fwd__PortStats *port_stats(struct fwd_rpc_call *call, const struct fwd_port *p)
{
	Fwd__PortStats *ps = ctrs_stats(call, p->idx, p->name);

	ps->link_up = p->link_up;
	ps->admin_up = p->admin_up;
	port_xstats(call, p, ps);
	return ps;
}

/* VLANs and loopbacks: a VLAN's link is its port's; a loopback is always up. */
static void iface_stats(struct fwd_rpc_call *call, const char *only, Fwd__StatsResp *r)
{
	unsigned n = 0;

	for (unsigned id = fwd_stats_next(FWD_MAX_PORTS - 1); id < FWD_MAX_IFACES;
	     id = fwd_stats_next(id))
		n++;
	r->interfaces = (Fwd__PortStats **)fwd_rpc_ptr_array(call, n);
	for (unsigned id = fwd_stats_next(FWD_MAX_PORTS - 1); id < FWD_MAX_IFACES;
	     id = fwd_stats_next(id)) {
		const struct fwd_iface *ifp = &fwd_ifaces[id];
		Fwd__PortStats *ps;
		if (only != NULL && only[0] != '\0' && strcmp(only, ifp->name) != 0)
			continue;
		ps = ctrs_stats(call, id, ifp->name);
		ps->admin_up = ifp->admin_up;
		ps->link_up = ifp->type == FWD_IFACE_LOOPBACK ||
		              (ifp->port < fwd_n_ports && fwd_ports[ifp->port].link_up);
		r->interfaces[r->n_interfaces++] = ps;
	}
}

static void global_counters(struct fwd_rpc_call *call, Fwd__StatsResp *r)
{
	size_t n = 0;

	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		n++;
	r->global = (Fwd__Counter **)fwd_rpc_ptr_array(call, n);
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		r->global[r->n_global++] =
		        counter_new(call, c->name, c->value > c->base ? c->value - c->base : 0);
}

static int stats_get(struct fwd_rpc_call *call)
{
	const char *only = call->req->stats->port;
	Fwd__StatsResp *r = fwd_rpc_alloc(call, sizeof(*r));
	struct timeval now;

	if (only != NULL && only[0] != '\0' && fwd_port_by_name(only) == NULL &&
	    fwd_iface_by_name(only) == NULL)
		return fwd_rpc_error(call, ENODEV, "no such port or interface: %s", only);
	fwd__stats_resp__init(r);
	r->ports = (Fwd__PortStats **)fwd_rpc_ptr_array(call, fwd_n_ports);
	for (unsigned i = 0; i < fwd_n_ports; i++)
		if (only == NULL || only[0] == '\0' || strcmp(only, fwd_ports[i].name) == 0)
			r->ports[r->n_ports++] = port_stats(call, &fwd_ports[i]);
	iface_stats(call, only, r);
	global_counters(call, r);
	r->interval_s = fwd_stats_interval();
	gettimeofday(&now, NULL);
	r->timestamp_ms = (uint64_t)now.tv_sec * 1000 + now.tv_usec / 1000;
	call->resp->body_case = FWD__RESPONSE__BODY_STATS;
	call->resp->stats = r;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_STATS, stats_get, FWD_RPC_READ);

static void xstats_baseline(struct fwd_port *p)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *vals;
	int n = xstats_read(p->port_id, &names, &vals);
	uint64_t *b = n > 0 ? calloc(n, sizeof(*b)) : NULL;

	for (int i = 0; b != NULL && i < n; i++)
		b[i] = vals[i].value;
	free(p->xstats_base);
	p->xstats_base = b;
	p->n_xstats = b != NULL ? (unsigned)n : 0;
	if (fwd_port_kif_rx_dropped(p, &p->kif_rx_dropped_base) < 0)
		p->kif_rx_dropped_base = 0;
	if (n > 0) {
		free(names);
		free(vals);
	}
}

static int stats_clear(struct fwd_rpc_call *call)
{
	(void)call;
	fwd_stats_clear();
	for (unsigned i = 0; i < fwd_n_ports; i++)
		xstats_baseline(&fwd_ports[i]);
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_STATS_CLEAR, stats_clear, FWD_RPC_CHANGE);
