/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fake fwd-daemon for the CLI tests: a thread on a temporary socket that
 * answers fwdctl's requests with canned replies, one connection at a time,
 * and records what it was asked. fake_mode makes it misbehave.
 */
#ifndef FWD_TEST_CLI_FAKE_H
#define FWD_TEST_CLI_FAKE_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <stdio.h>

#include "cli.h"
#include "fwd_frame.h"

enum fake_mode {
	FAKE_OK,
	FAKE_SILENT,    /* never answers */
	FAKE_GARBAGE,   /* answers bytes that do not unpack */
	FAKE_WRONG_ID,  /* answers another request */
	FAKE_HANGUP,    /* closes without answering */
	FAKE_OLD_DAEMON /* refuses our API version */
};

struct fake {
	char dir[64], path[128];
	int lfd;
	pthread_t thread;
	atomic_bool stop;
	atomic_int mode;
	atomic_int requests;
	/* the last request, written before its reply is sent */
	pthread_mutex_t lock;
	int last_body;
	uint32_t last_version;
	char last_name[128];
	char last_vrf[64]; /* the vrf a route, addr list, neigh list or iface set sent */
	int last_up;
};

/* Fills resp for req; returns the reply to send (resp, or NULL for none). */
typedef void (*fake_reply_fn)(const Fwd__Request *req, Fwd__Response *resp, int fd);

static fake_reply_fn fake_reply;

static const char *fake_vrf_of(const Fwd__Request *req)
{
	switch (req->body_case) {
	case FWD__REQUEST__BODY_ROUTE_LIST:
		return req->route_list->vrf;
	case FWD__REQUEST__BODY_ROUTE_GET:
		return req->route_get->vrf;
	case FWD__REQUEST__BODY_ROUTE_ADD:
		return req->route_add->vrf;
	case FWD__REQUEST__BODY_ADDR_LIST:
		return req->addr_list->vrf;
	case FWD__REQUEST__BODY_NEIGH_LIST:
		return req->neigh_list->vrf;
	case FWD__REQUEST__BODY_IFACE_SET:
		return req->iface_set->vrf;
	default:
		return "";
	}
}

static void fake_record(struct fake *f, const Fwd__Request *req)
{
	const char *name = "";

	if (req->body_case == FWD__REQUEST__BODY_PORT_SHOW)
		name = req->port_show->name;
	else if (req->body_case == FWD__REQUEST__BODY_PORT_SET)
		name = req->port_set->name;
	else if (req->body_case == FWD__REQUEST__BODY_STATS)
		name = req->stats->port;
	pthread_mutex_lock(&f->lock);
	snprintf(f->last_vrf, sizeof(f->last_vrf), "%s", fake_vrf_of(req));
	f->last_body = req->body_case;
	f->last_version = req->api_version;
	snprintf(f->last_name, sizeof(f->last_name), "%s", name);
	f->last_up = req->body_case == FWD__REQUEST__BODY_PORT_SET ? req->port_set->up : -1;
	pthread_mutex_unlock(&f->lock);
	atomic_fetch_add(&f->requests, 1);
}

static void fake_answer(struct fake *f, int fd, const Fwd__Request *req)
{
	Fwd__Response resp = FWD__RESPONSE__INIT;

	resp.id = req->id;
	switch (atomic_load(&f->mode)) {
	case FAKE_SILENT:
		return;
	case FAKE_GARBAGE:
		(void)!write(fd, "\0\0\0\x03\xff\xff\xff", 7);
		return;
	case FAKE_WRONG_ID:
		resp.id = req->id + 1;
		resp.status = EIO;
		break;
	case FAKE_OLD_DAEMON:
		resp.status = EPROTO;
		resp.error = "API version mismatch: client speaks 1, daemon speaks 0; "
		             "upgrade fwdctl/fwd-daemon together";
		break;
	default:
		fake_reply(req, &resp, fd);
		if (resp.id == 0)
			return; /* fake_reply sent its own pages */
	}
	(void)fwd_frame_write_timeout(fd, &resp.base, 2000);
}

static void fake_serve(struct fake *f, int fd)
{
	uint8_t *buf;
	size_t len;

	while (!atomic_load(&f->stop) && fwd_frame_read(fd, &buf, &len, 2000) == 0) {
		Fwd__Request *req = fwd__request__unpack(NULL, len, buf);

		free(buf);
		if (req == NULL)
			break;
		fake_record(f, req);
		if (atomic_load(&f->mode) == FAKE_HANGUP) {
			fwd__request__free_unpacked(req, NULL);
			break;
		}
		fake_answer(f, fd, req);
		fwd__request__free_unpacked(req, NULL);
	}
	close(fd);
}

static void *fake_thread(void *arg)
{
	struct fake *f = arg;
	struct pollfd pfd = { .fd = f->lfd, .events = POLLIN };

	while (!atomic_load(&f->stop)) {
		int fd;

		if (poll(&pfd, 1, 20) <= 0)
			continue;
		fd = accept(f->lfd, NULL, NULL);
		if (fd >= 0)
			fake_serve(f, fd);
	}
	return NULL;
}

static void fake_start(struct fake *f)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->lock, NULL);
	snprintf(f->dir, sizeof(f->dir), "/tmp/fwdctl-test.XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		abort();
	snprintf(f->path, sizeof(f->path), "%s/fwd.sock", f->dir);
	memcpy(sa.sun_path, f->path, strlen(f->path) + 1);
	f->lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (f->lfd < 0 || bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(f->lfd, 16) < 0 || pthread_create(&f->thread, NULL, fake_thread, f) != 0)
		abort();
}

static void fake_stop(struct fake *f)
{
	atomic_store(&f->stop, true);
	pthread_join(f->thread, NULL);
	close(f->lfd);
	unlink(f->path);
	rmdir(f->dir);
	pthread_mutex_destroy(&f->lock);
}

/* ------------------------------------------------------------ canned replies */

static void reply_status(Fwd__Response *r)
{
	static uint32_t workers[] = { 1, 2 };
	static Fwd__MempoolInfo mp = FWD__MEMPOOL_INFO__INIT;
	static Fwd__StatusResp st = FWD__STATUS_RESP__INIT;

	mp.name = "fwd_mbufs";
	mp.size = 16383;
	mp.in_use = 1234;
	mp.available = 15149;
	st.version = "0.1.0";
	st.uptime_s = 7380;
	st.api_version = 1;
	st.config_path = "/etc/fwd.yaml";
	st.lcores = "0-2";
	st.n_worker_lcores = 2;
	st.worker_lcores = workers;
	st.n_ports = 3;
	st.n_ports_up = 2;
	st.mempool = &mp;
	st.pid = 4242;
	st.routes = 1000003;
	st.neighbours = 3;
	r->body_case = FWD__RESPONSE__BODY_STATUS_RESP;
	r->status_resp = &st;
}

static Fwd__PortInfo ports[3];

static void init_ports(void)
{
	static char *addrs[] = { "10.0.0.1/24", "10.0.1.1/24" };
	static Fwd__QueueMap q0 = FWD__QUEUE_MAP__INIT, q1 = FWD__QUEUE_MAP__INIT;
	static Fwd__QueueMap *qs[] = { &q0, &q1 };
	static const char *const names[] = { "p0", "p2", "p4" }, *const modes[] = { "l3",
		                                                                    "xconnect",
		                                                                    "bridge" };
	static const char *const devs[] = { "0000:03:00.0", "net_tap2,iface=t2",
		                            "net_tap4,iface=t4" };

	for (int i = 0; i < 3; i++) {
		fwd__port_info__init(&ports[i]);
		ports[i].name = (char *)names[i];
		ports[i].port_id = i;
		ports[i].mode = (char *)modes[i];
		ports[i].device = (char *)devs[i];
		ports[i].driver = i ? "net_tap" : "net_ixgbe";
		ports[i].mac = i ? "02:00:00:00:00:02" : "02:00:00:00:00:01";
		ports[i].mtu = 1500;
		ports[i].admin_up = 1;
		ports[i].link_up = i != 2;
		ports[i].rx_queues = ports[i].tx_queues = 2;
		ports[i].rxd = ports[i].txd = 1024;
	}
	ports[1].peer = "p3";
	ports[2].bridge = "br0";
	ports[0].link_speed_mbps = 10000;
	ports[0].link_full_duplex = 1;
	ports[0].link_changes = 1;
	ports[0].n_addresses = 2;
	ports[0].addresses = addrs;
	q1.queue = 1;
	q1.worker = 1;
	q0.lcore = 1;
	q1.lcore = 2;
	ports[0].n_rx_queue_workers = 2;
	ports[0].rx_queue_workers = qs;
}

/* Two pages, as a large table would come. */
static void reply_port_list(Fwd__Response *r, int fd)
{
	static Fwd__PortListResp pl = FWD__PORT_LIST_RESP__INIT;
	static Fwd__PortInfo *first[] = { &ports[0], &ports[1] }, *second[] = { &ports[2] };

	r->body_case = FWD__RESPONSE__BODY_PORT_LIST;
	r->port_list = &pl;
	pl.n_ports = 2;
	pl.ports = first;
	r->more = 1;
	(void)fwd_frame_write(fd, &r->base);
	pl.n_ports = 1;
	pl.ports = second;
	r->more = 0;
	(void)fwd_frame_write(fd, &r->base);
	r->id = 0;
}

static int refuse_port(const char *name, Fwd__Response *r)
{
	static char msg[200];

	if (strcmp(name, "p0") == 0)
		return 0;
	snprintf(msg, sizeof(msg), "no such port: %s", name);
	r->status = ENODEV;
	r->error = msg;
	return 1;
}

static void reply_stats(Fwd__Response *r)
{
	static Fwd__Counter c[5];
	static Fwd__Counter *drops[] = { &c[0], &c[1], &c[2] }, *xs[] = { &c[3], &c[4] };
	static Fwd__PortStats p0 = FWD__PORT_STATS__INIT, p1 = FWD__PORT_STATS__INIT;
	static Fwd__PortStats *ps[] = { &p0, &p1 };
	static Fwd__StatsResp s = FWD__STATS_RESP__INIT;
	static const char *const names[] = { "no_route", "ttl_exceeded", "bad_checksum",
		                             "rx_missed_errors", "rx_nombuf" };
	static const uint64_t values[] = { 12, 3, 0, 5, 0 };

	for (int i = 0; i < 5; i++) {
		fwd__counter__init(&c[i]);
		c[i].name = (char *)names[i];
		c[i].value = values[i];
	}
	p0.name = "p0";
	p0.rx_packets = 123456789;
	p0.rx_bytes = 98765432100ull;
	p0.rx_pps = 1234567;
	p0.rx_bps = 9.87e9;
	p0.tx_packets = 123456000;
	p0.tx_bytes = 98700000000ull;
	p0.tx_pps = 1234000;
	p0.tx_bps = 9.86e9;
	p0.drops = 15;
	p0.n_drop_reasons = 3;
	p0.drop_reasons = drops;
	p0.n_xstats = 2;
	p0.xstats = xs;
	p1.name = "p1";
	s.n_ports = 2;
	s.ports = ps;
	s.interval_s = 1;
	r->body_case = FWD__RESPONSE__BODY_STATS;
	r->stats = &s;
}

static void reply_workers(Fwd__Response *r)
{
	static char *q0[] = { "p0/0", "p1/0" }, *q1[] = { "p0/1", "p1/1" };
	static Fwd__WorkerStats w0 = FWD__WORKER_STATS__INIT, w1 = FWD__WORKER_STATS__INIT;
	static Fwd__WorkerStats *ws[] = { &w0, &w1 };
	static Fwd__WorkerStatsResp resp = FWD__WORKER_STATS_RESP__INIT;

	w0.lcore = 1;
	w0.busy_pct = 42.5;
	w0.packets = 1000000;
	w0.avg_burst = 17.3;
	w0.cycles_per_packet = 88;
	w0.n_rx_queues = 2;
	w0.rx_queues = q0;
	w1.index = 1;
	w1.lcore = 2;
	w1.n_rx_queues = 2;
	w1.rx_queues = q1;
	resp.n_workers = 2;
	resp.workers = ws;
	r->body_case = FWD__RESPONSE__BODY_WORKERS;
	r->workers = &resp;
}

static void reply(const Fwd__Request *req, Fwd__Response *r, int fd)
{
	switch (req->body_case) {
	case FWD__REQUEST__BODY_STATUS:
		reply_status(r);
		break;
	case FWD__REQUEST__BODY_PORT_LIST:
		reply_port_list(r, fd);
		break;
	case FWD__REQUEST__BODY_PORT_SHOW:
		if (!refuse_port(req->port_show->name, r)) {
			r->body_case = FWD__RESPONSE__BODY_PORT;
			r->port = &ports[0];
		}
		break;
	case FWD__REQUEST__BODY_PORT_SET:
		refuse_port(req->port_set->name, r);
		break;
	case FWD__REQUEST__BODY_STATS:
		reply_stats(r);
		break;
	case FWD__REQUEST__BODY_STATS_WORKERS:
		reply_workers(r);
		break;
	case FWD__REQUEST__BODY_STATS_CLEAR:
		break;
	default:
		r->status = EOPNOTSUPP;
		r->error = "unknown request";
	}
}

/* What fwdctl printed in the last cli_run. */
static char *out_buf, *err_buf;

/* Run fwdctl with space-separated args; output lands in out_buf/err_buf
 * (FWD_TEST_SHOW=1 prints it). */
static int cli_run(const char *args)
{
	char *copy = strdup(args), *argv[32] = { "fwdctl" }, *save = NULL;
	int argc = 1, rc;
	size_t ol, el;
	FILE *out, *err;

	free(out_buf);
	free(err_buf);
	out = open_memstream(&out_buf, &ol);
	err = open_memstream(&err_buf, &el);
	for (char *w = strtok_r(copy, " ", &save); w && argc < 31; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	rc = fwd_cli_main(argc, argv, out, err);
	fclose(out);
	fclose(err);
	free(copy);
	if (getenv("FWD_TEST_SHOW"))
		printf("$ fwdctl %s    # exit %d\n%s%s\n", args, rc, out_buf, err_buf);
	return rc;
}

#endif
