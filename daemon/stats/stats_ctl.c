/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/event.h"
#include "core/iface.h"
#include "core/module.h"
#include "core/punt.h"
#include "core/worker.h"
#include "core/counter.h"
#include "port/port.h"
#include "stats/stats_ctl.h"

#define SAMPLE_INTERVAL_MS 1000

/* by interface id (core/iface.h): ports, then VLANs and loopbacks */
static struct fwd_port_ctrs base[FWD_MAX_IFACES]; /* at the last clear */
static struct fwd_loop_ctrs loop_base[FWD_MAX_WORKERS];
static struct fwd_port_ctrs sample[FWD_MAX_IFACES]; /* at the last sample */
static struct fwd_rates rates[FWD_MAX_IFACES];
static struct timespec sample_time;
static uint64_t clear_tsc; /* TSC at the last clear (or start) */
static double interval;
static struct event *sample_ev;

unsigned fwd_stats_next(unsigned id)
{
	while (++id < FWD_MAX_IFACES) {
		if (id < FWD_MAX_PORTS ? id < fwd_n_ports : fwd_iface_get(id) != NULL)
			return id;
		if (id < FWD_MAX_PORTS)
			id = FWD_MAX_PORTS - 1;
	}
	return FWD_MAX_IFACES;
}

unsigned fwd_stats_first(void)
{
	return fwd_n_ports != 0 ? 0 : fwd_stats_next(0);
}

static void port_sum(unsigned port, struct fwd_port_ctrs *out)
{
	const struct fwd_wstats *ws[FWD_MAX_WORKERS];
	const struct fwd_port_ctrs *ctl = fwd_control_ctrs(port);
	unsigned n = 0;

	/* workers are made after the interfaces of the config: a hook that
	 * runs before them sums none */
	for (unsigned i = 0; i < fwd.n_workers; i++)
		if (fwd.workers[i] != NULL)
			ws[n++] = &fwd.workers[i]->stats;
	fwd_stats_sum_port(ws, n, port, out);
	/* the control thread's own row: the packets it dropped, consumed and
	 * made (its sends are transmitted, and counted, by workers) */
	for (unsigned r = 0; r < FWD_DROP_MAX; r++)
		out->drop[r] += ctl->drop[r];
	out->consumed += ctl->consumed;
	out->created += ctl->created;
}

void fwd_stats_port_get(unsigned port, struct fwd_port_ctrs *out)
{
	struct fwd_port_ctrs sum;

	port_sum(port, &sum);
	fwd_stats_sub(&sum, &base[port], out);
}

const struct fwd_rates *fwd_stats_port_rates(unsigned port)
{
	return &rates[port];
}

double fwd_stats_interval(void)
{
	return interval;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void fwd_stats_loop_get(unsigned worker, struct fwd_loop_ctrs *out)
{
	const struct fwd_loop_ctrs *c = &fwd.workers[worker]->stats.loop;
	const struct fwd_loop_ctrs *b = &loop_base[worker];

	out->loops = sub0(c->loops, b->loops);
	out->busy_loops = sub0(c->busy_loops, b->busy_loops);
	out->busy_cycles = sub0(c->busy_cycles, b->busy_cycles);
	out->pkts = sub0(c->pkts, b->pkts);
	out->bursts = sub0(c->bursts, b->bursts);
	out->sleeps = sub0(c->sleeps, b->sleeps);
}

void fwd_stats_worker_load(unsigned worker, struct fwd_worker_load *out)
{
	uint64_t now = rte_rdtsc();

	memset(out, 0, sizeof(*out));
	fwd_stats_loop_get(worker, &out->c);
	out->elapsed_cycles = now > clear_tsc ? now - clear_tsc : 0;
	if (out->elapsed_cycles != 0)
		out->busy_ratio = RTE_MIN(1.0, (double)out->c.busy_cycles / out->elapsed_cycles);
	if (out->c.bursts != 0)
		out->avg_burst = (double)out->c.pkts / out->c.bursts;
	if (out->c.pkts != 0)
		out->cycles_per_packet = (double)out->c.busy_cycles / out->c.pkts;
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* `fwdctl monitor drops`: one event per port and reason that dropped in the
 * last second (so at most one a second each, whatever the rate). */
static void drop_events(unsigned port, const struct fwd_port_ctrs *prev,
                        const struct fwd_port_ctrs *cur)
{
	for (unsigned r = 0; r < FWD_DROP_MAX; r++) {
		struct fwd_event *e;
		if (cur->drop[r] <= prev->drop[r] ||
		    (e = fwd_event_new(FWD_EVENT_DROPS, "burst")) == NULL)
			continue;
		snprintf(e->port, sizeof(e->port), "%s",
		         port < FWD_MAX_PORTS    ? fwd_ports[port].name
		         : port < FWD_MAX_IFACES ? fwd_ifaces[port].name
		                                 : "");
		snprintf(e->text, sizeof(e->text), "%s", fwd_drop_names[r]);
		e->count = cur->drop[r] - prev->drop[r];
	}
}

static void stats_sample(void *arg)
{
	struct timespec now;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &now);
	interval = elapsed(&sample_time, &now);
	for (unsigned p = fwd_stats_first(); p < FWD_MAX_IFACES; p = fwd_stats_next(p)) {
		struct fwd_port_ctrs cur;
		fwd_stats_port_get(p, &cur);
		fwd_stats_rates(&sample[p], &cur, interval, &rates[p]);
		if (fwd_event_wanted(FWD_EVENT_DROPS))
			drop_events(p, &sample[p], &cur);
		sample[p] = cur;
	}
	sample_time = now;
}

static void (*clear_hooks[8])(void);

void fwd_stats_on_clear(void (*fn)(void))
{
	for (unsigned i = 0; i < RTE_DIM(clear_hooks); i++)
		if (clear_hooks[i] == NULL) {
			clear_hooks[i] = fn;
			return;
		}
	abort(); /* a broken invariant at start-up: raise the table size */
}

void fwd_stats_clear(void)
{
	for (unsigned i = 0; i < RTE_DIM(clear_hooks) && clear_hooks[i] != NULL; i++)
		clear_hooks[i]();
	for (unsigned p = fwd_stats_first(); p < FWD_MAX_IFACES; p = fwd_stats_next(p)) {
		port_sum(p, &base[p]);
		memset(&sample[p], 0, sizeof(sample[p]));
	}
	for (unsigned w = 0; w < fwd.n_workers; w++)
		loop_base[w] = fwd.workers[w]->stats.loop;
	clear_tsc = rte_rdtsc();
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		c->base = c->value;
}

/* A new interface may take a freed id whose counters the workers kept:
 * it counts from zero. */
static void iface_added(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	(void)ev;
	port_sum(ifp->id, &base[ifp->id]);
	memset(&sample[ifp->id], 0, sizeof(sample[ifp->id]));
	memset(&rates[ifp->id], 0, sizeof(rates[ifp->id]));
}

RTE_INIT(stats_iface_register)
{
	fwd_iface_hook_add(FWD_IFACE_EV_ADD, 0, iface_added);
}

static int stats_init(const struct fwd_config *cfg)
{
	(void)cfg;
	memset(base, 0, sizeof(base));
	memset(sample, 0, sizeof(sample));
	memset(rates, 0, sizeof(rates));
	memset(loop_base, 0, sizeof(loop_base));
	clear_tsc = fwd.start_tsc != 0 ? fwd.start_tsc : rte_rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &sample_time);
	sample_ev = fwd_timer_every(SAMPLE_INTERVAL_MS * 1000, stats_sample, NULL);
	return sample_ev != NULL ? 0 : -ENOMEM;
}

static void stats_fini(void)
{
	fwd_timer_free(&sample_ev);
}

static struct fwd_module stats_module = {
	.name = "stats",
	.init = stats_init,
	.fini = stats_fini,
};
FWD_MODULE(stats_module);
