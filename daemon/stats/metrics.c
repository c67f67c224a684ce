/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OpenMetrics endpoint (control.metrics: "A.B.C.D:PORT", off when empty):
 * GET /metrics on the control thread's event loop, metrics_http.c doing
 * the HTTP. Everything is read from the same aggregation `fwdctl stats`
 * uses, so the numbers agree (counters restart at `stats clear`; scrapers
 * treat that as a counter reset). The exposition is built at most once per
 * METRICS_CACHE_MS whatever the number of GETs, so scrapes cannot make the
 * control thread rebuild it in a loop.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "core/config_schema.h"
#include "core/daemon.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/module.h"
#include "core/worker.h"
#include "port/port.h"
#include "core/counter.h"
#include "stats/metrics.h"
#include "stats/stats_ctl.h"

#define LISTEN_BACKLOG 128 /* metrics_http.c takes them 16 at a time */
#define DEFER_ACCEPT_S 5   /* as long as a connection's deadline */

static struct {
	char *data;
	size_t len;
	uint64_t built_ms;
	bool stale; /* a `stats clear` came since it was built */
} cache;

static FWD_COUNTER(builds, "metrics_builds");

static metrics_writer_fn writers[METRICS_WRITERS];
static unsigned n_writers;

void metrics_add_writer(metrics_writer_fn fn)
{
	if (n_writers == METRICS_WRITERS)
		abort(); /* a broken build, not a run-time condition */
	writers[n_writers++] = fn;
}

/* Names in labels come from the validated config ([A-Za-z0-9_.-]) or from
 * our own tables, so they never need escaping. */
static void family(struct evbuffer *b, const char *name, const char *type, const char *help)
{
	evbuffer_add_printf(b, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

void metrics_family(struct evbuffer *b, const char *name, const char *type, const char *help)
{
	family(b, name, type, help);
}

static const struct port_family {
	const char *name, *help;
	size_t offset; /* in struct fwd_port_ctrs */
} port_families[] = {
	{ "fwd_port_rx_packets", "Packets received.", offsetof(struct fwd_port_ctrs, rx_pkts) },
	{ "fwd_port_rx_bytes", "Bytes received.", offsetof(struct fwd_port_ctrs, rx_bytes) },
	{ "fwd_port_tx_packets", "Packets sent.", offsetof(struct fwd_port_ctrs, tx_pkts) },
	{ "fwd_port_tx_bytes", "Bytes sent.", offsetof(struct fwd_port_ctrs, tx_bytes) },
	{ "fwd_port_consumed_packets",
	  "Packets taken in and used up (ARP, echo requests, fragmented).",
	  offsetof(struct fwd_port_ctrs, consumed) },
	{ "fwd_port_created_packets", "Packets made here (ARP, ICMP, fragments, flood copies).",
	  offsetof(struct fwd_port_ctrs, created) },
};

/* A port's label, or a VLAN's or loopback's (interface="p0.100"). */
static void row_label(char *buf, size_t len, unsigned id)
{
	if (id < FWD_MAX_PORTS)
		snprintf(buf, len, "port=\"%s\"", fwd_ports[id].name);
	else if (id < FWD_MAX_IFACES)
		snprintf(buf, len, "interface=\"%s\"", fwd_ifaces[id].name);
	else
		buf[0] = '\0';
}

/* Every port and interface; an interface's drop reasons only when not zero
 * (4,094 VLANs times every reason would swamp a scrape). */
static void port_metrics(struct evbuffer *b, const struct fwd_port_ctrs *c)
{
	char l[FWD_NAME_MAX + 16];

	for (unsigned f = 0; f < RTE_DIM(port_families); f++) {
		const struct port_family *pf = &port_families[f];

		family(b, pf->name, "counter", pf->help);
		for (unsigned p = fwd_stats_first(); p < FWD_MAX_IFACES; p = fwd_stats_next(p)) {
			row_label(l, sizeof(l), p);
			evbuffer_add_printf(b, "%s_total{%s} %" PRIu64 "\n", pf->name, l,
			                    *(const uint64_t *)((const char *)&c[p] + pf->offset));
		}
	}
	family(b, "fwd_port_drops", "counter",
	       "Packets dropped, by port (or interface) and reason.");
	for (unsigned p = fwd_stats_first(); p < FWD_MAX_IFACES; p = fwd_stats_next(p)) {
		row_label(l, sizeof(l), p);
		for (unsigned r = 0; r < FWD_DROP_MAX; r++)
			if (p < FWD_MAX_PORTS || c[p].drop[r] != 0)
				evbuffer_add_printf(
				        b, "fwd_port_drops_total{%s,reason=\"%s\"} %" PRIu64 "\n",
				        l, fwd_drop_names[r], c[p].drop[r]);
	}
}

static void port_state_metrics(struct evbuffer *b)
{
	struct rte_eth_stats hw;

	family(b, "fwd_port_link_up", "gauge", "1 when the link is up.");
	for (unsigned p = 0; p < fwd_n_ports; p++)
		evbuffer_add_printf(b, "fwd_port_link_up{port=\"%s\"} %d\n", fwd_ports[p].name,
		                    fwd_ports[p].link_up);
	family(b, "fwd_port_admin_up", "gauge", "1 when the port is administratively up.");
	for (unsigned p = 0; p < fwd_n_ports; p++)
		evbuffer_add_printf(b, "fwd_port_admin_up{port=\"%s\"} %d\n", fwd_ports[p].name,
		                    fwd_ports[p].admin_up);
	family(b, "fwd_port_rx_missed", "counter",
	       "Packets the NIC dropped for lack of rx descriptors (since the port started).");
	for (unsigned p = 0; p < fwd_n_ports; p++)
		if (rte_eth_stats_get(fwd_ports[p].port_id, &hw) == 0)
			evbuffer_add_printf(b,
			                    "fwd_port_rx_missed_total{port=\"%s\"} %" PRIu64 "\n",
			                    fwd_ports[p].name, hw.imissed);
	family(b, "fwd_port_kernel_rx_dropped", "counter",
	       "Frames the kernel dropped on an af_xdp or af_packet port's interface before "
	       "fwd's rings (since the port started).");
	for (unsigned p = 0; p < fwd_n_ports; p++) {
		uint64_t v;
		if (fwd_port_kif_rx_dropped(&fwd_ports[p], &v) == 0)
			evbuffer_add_printf(
			        b, "fwd_port_kernel_rx_dropped_total{port=\"%s\"} %" PRIu64 "\n",
			        fwd_ports[p].name,
			        v > fwd_ports[p].kif_rx_dropped_start
			                ? v - fwd_ports[p].kif_rx_dropped_start
			                : 0);
	}
}

static const struct worker_family {
	const char *name, *help;
	size_t offset; /* in struct fwd_loop_ctrs */
} worker_families[] = {
	{ "fwd_worker_packets", "Packets received by the worker.",
	  offsetof(struct fwd_loop_ctrs, pkts) },
	{ "fwd_worker_busy_cycles", "TSC cycles spent in loops that moved packets.",
	  offsetof(struct fwd_loop_ctrs, busy_cycles) },
	{ "fwd_worker_loops", "Polling loops.", offsetof(struct fwd_loop_ctrs, loops) },
	{ "fwd_worker_bursts", "Non-empty rx bursts.", offsetof(struct fwd_loop_ctrs, bursts) },
	{ "fwd_worker_sleeps", "Idle pauses of dataplane.idle_sleep_us.",
	  offsetof(struct fwd_loop_ctrs, sleeps) },
};

static void worker_metrics(struct evbuffer *b, const struct fwd_worker_load *l)
{
	family(b, "fwd_worker_busy_ratio", "gauge",
	       "Share of TSC cycles spent moving packets since start or stats clear.");
	for (unsigned w = 0; w < fwd.n_workers; w++)
		evbuffer_add_printf(b, "fwd_worker_busy_ratio{worker=\"%u\"} %.6f\n", w,
		                    l[w].busy_ratio);
	for (unsigned f = 0; f < RTE_DIM(worker_families); f++) {
		const struct worker_family *wf = &worker_families[f];

		family(b, wf->name, "counter", wf->help);
		for (unsigned w = 0; w < fwd.n_workers; w++)
			evbuffer_add_printf(
			        b, "%s_total{worker=\"%u\"} %" PRIu64 "\n", wf->name, w,
			        *(const uint64_t *)((const char *)&l[w].c + wf->offset));
	}
	family(b, "fwd_tsc_hz", "gauge", "TSC frequency, to turn cycle counters into seconds.");
	evbuffer_add_printf(b, "fwd_tsc_hz %" PRIu64 "\n", rte_get_tsc_hz());
}

static void global_metrics(struct evbuffer *b)
{
	family(b, "fwd_counter", "counter", "Control-thread events and drops not tied to a port.");
	for (struct fwd_counter *c = fwd_counters(); c != NULL; c = c->next)
		evbuffer_add_printf(b, "fwd_counter_total{name=\"%s\"} %" PRIu64 "\n", c->name,
		                    c->value > c->base ? c->value - c->base : 0);
	family(b, "fwd_mempool_mbufs_in_use", "gauge", "Packet buffers in use.");
	evbuffer_add_printf(b, "fwd_mempool_mbufs_in_use %u\n", rte_mempool_in_use_count(fwd.pool));
	family(b, "fwd_mempool_mbufs", "gauge", "Packet buffers in the pool.");
	evbuffer_add_printf(b, "fwd_mempool_mbufs %u\n", fwd.pool->size);
	family(b, "fwd_uptime_seconds", "gauge", "Seconds since fwd-daemon started.");
	evbuffer_add_printf(b, "fwd_uptime_seconds %lld\n",
	                    (long long)(time(NULL) - fwd.start_time));
	family(b, "fwd_build", "info", "fwd-daemon version.");
	evbuffer_add_printf(b, "fwd_build_info{version=\"%s\"} 1\n", FWD_VERSION);
}

/* The whole exposition; bounded by ports x drop reasons + workers. */
static void metrics_write(struct evbuffer *b)
{
	static struct fwd_port_ctrs c[FWD_MAX_IFACES]; /* too big for the stack */
	struct fwd_worker_load l[FWD_MAX_WORKERS];

	for (unsigned p = fwd_stats_first(); p < FWD_MAX_IFACES; p = fwd_stats_next(p))
		fwd_stats_port_get(p, &c[p]);
	for (unsigned w = 0; w < fwd.n_workers; w++)
		fwd_stats_worker_load(w, &l[w]);
	port_metrics(b, c);
	port_state_metrics(b);
	worker_metrics(b, l);
	global_metrics(b);
	for (unsigned i = 0; i < n_writers; i++)
		writers[i](b);
	evbuffer_add_printf(b, "# EOF\n");
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

const char *metrics_body(size_t *len)
{
	uint64_t now = mono_ms();
	struct evbuffer *b;
	char *data;
	size_t n;

	if (cache.data != NULL && !cache.stale && now - cache.built_ms < METRICS_CACHE_MS)
		goto out;
	b = evbuffer_new();
	if (b == NULL)
		goto out;
	metrics_write(b);
	n = evbuffer_get_length(b);
	data = malloc(n);
	if (data != NULL && evbuffer_remove(b, data, n) == (int)n) {
		free(cache.data);
		cache = (typeof(cache)){ .data = data, .len = n, .built_ms = now };
		builds.value++;
	} else {
		free(data);
	}
	evbuffer_free(b);
out:
	*len = cache.len;
	return cache.data;
}

static void cache_clear(void)
{
	cache.stale = true;
}

static void metrics_fini(void)
{
	metrics_http_stop();
	free(cache.data);
	cache = (typeof(cache)){ 0 };
}

/*
 * "A.B.C.D:PORT", already validated by the config loader; no getaddrinfo
 * (its AI_ADDRCONFIG refuses 127.0.0.1 on a host or namespace whose only
 * IPv4 address is loopback). TCP_DEFER_ACCEPT: the kernel hands us a
 * connection once its first bytes came, so a client that connects and
 * sends nothing costs no descriptor, and a scraper is accepted with its
 * request there to read at once, before other connections can push it
 * out (metrics_http.c).
 */
static int listen_on(const char *addr)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = strrchr(addr, ':');
	char host[INET_ADDRSTRLEN];
	int fd, one = 1, defer_s = DEFER_ACCEPT_S, rc;

	if (colon == NULL || (size_t)(colon - addr) >= sizeof(host))
		return -EINVAL;
	memcpy(host, addr, (size_t)(colon - addr));
	host[colon - addr] = '\0';
	sa.sin_port = htons((uint16_t)strtoul(colon + 1, NULL, 10));
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof(defer_s)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

static int metrics_init(const struct fwd_config *cfg)
{
	const char *addr = cfg->control.metrics;
	int fd;

	if (addr[0] == '\0')
		return 0;
	/* A metrics port someone else holds must not keep the router down. */
	fd = listen_on(addr);
	if (fd < 0) {
		LOG(ERR, "metrics endpoint %s: cannot listen: %s; continuing without it", addr,
		    strerror(-fd));
		return 0;
	}
	fd = metrics_http_start(fwd.evbase, fd);
	if (fd < 0)
		return fd;
	LOG(INFO, "metrics endpoint: http://%s/metrics", addr);
	return 0;
}

/* control.metrics: "A.B.C.D:PORT", or empty (off). */
static const char *valid_metrics(const char *s)
{
	const char *colon = strrchr(s, ':'), *p;
	char host[FWD_IP4_STRLEN];
	unsigned long port = 0;
	uint32_t addr;

	if (s[0] == '\0')
		return NULL; /* off */
	if (colon == NULL || (size_t)(colon - s) >= sizeof(host))
		return "expected A.B.C.D:PORT";
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	for (p = colon + 1; *p >= '0' && *p <= '9' && port <= 65535; p++)
		port = port * 10 + (unsigned long)(*p - '0');
	if (fwd_ip4_parse(host, &addr) < 0 || *p || p == colon + 1 || colon[1] == '0' ||
	    port > 65535)
		return "expected A.B.C.D:PORT with PORT 1..65535";
	return NULL;
}

static const struct conf_field metrics_row =
        CONF_F("metrics", CONF_STR, struct fwd_config, control.metrics, .min = 0, .def_str = "",
               .valid = valid_metrics);

RTE_INIT(metrics_schema_register)
{
	fwd_config_schema_add("control", &metrics_row);
	fwd_stats_on_clear(cache_clear);
}

static struct fwd_module metrics_module = {
	.name = "metrics",
	.depends_on = "stats",
	.init = metrics_init,
	.fini = metrics_fini,
};
FWD_MODULE(metrics_module);
