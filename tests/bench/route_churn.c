/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route churn for the hitless benchmark: one RPC connection, route changes
 * paced at RATE per second for SECONDS, requests pipelined (up to WINDOW
 * in flight) so the rate does not depend on the round-trip time.
 *
 *   route_churn -s SOCKET -g GW[,GW...] -t TRAFFIC [-r RATE] [-d SECONDS] [-w WINDOW] [-m get]
 *
 * Every cycle of ten changes: four adds and four deletes of /24s in
 * 100.64.0.0/10 (no bench traffic goes there), one replace of such a
 * route, and one replace of a route that does carry traffic (a line
 * "PREFIX via GW" of TRAFFIC), moved to the next gateway of -g, so the
 * traffic-carrying routes really change while packets use them.
 * Routes it added are deleted again at the end (not timed). Prints one
 * JSON object: operations, errors, achieved rate and latencies.
 * With -m get it sends read-only `route get` requests for the traffic
 * routes instead, at the same pace: the control-plane load without the
 * table changes, for comparison.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fwd_frame.h"

#define POOL_SIZE   16384 /* /24s in 100.64.0.0/10 */
#define MAX_TRAFFIC 65536
#define MAX_GWS     16

struct churn {
	int fd;
	double rate, seconds;
	unsigned window;
	int get_only;
	char *gws[MAX_GWS];
	unsigned n_gws;
	char **traffic; /* prefixes carrying bench traffic */
	unsigned *traffic_gw;
	unsigned n_traffic;
	uint64_t add_i, del_i; /* pool routes [del_i, add_i) exist */
	uint64_t sent, done, errors, n_traffic_replace;
	uint32_t next_id;
	double *sent_at, *latency;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pool_prefix(uint64_t i, char buf[32])
{
	uint32_t a = (100u << 24 | 64u << 16) + ((uint32_t)(i % POOL_SIZE) << 8);

	snprintf(buf, 32, "%u.%u.%u.0/24", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff);
}

static int send_route(struct churn *c, const char *prefix, const char *via, int del)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__RouteAddReq add = FWD__ROUTE_ADD_REQ__INIT;
	Fwd__RouteDelReq rdel = FWD__ROUTE_DEL_REQ__INIT;

	req.id = ++c->next_id;
	req.api_version = FWD_API_VERSION;
	if (del) {
		rdel.prefix = (char *)prefix;
		req.body_case = FWD__REQUEST__BODY_ROUTE_DEL;
		req.route_del = &rdel;
	} else {
		add.prefix = (char *)prefix;
		add.via = (char *)via;
		add.replace = 1;
		req.body_case = FWD__REQUEST__BODY_ROUTE_ADD;
		req.route_add = &add;
	}
	return fwd_frame_write_timeout(c->fd, &req.base, 5000);
}

static int send_get(struct churn *c, const char *prefix)
{
	Fwd__Request req = FWD__REQUEST__INIT;
	Fwd__RouteGetReq get = FWD__ROUTE_GET_REQ__INIT;
	char addr[64];

	snprintf(addr, sizeof(addr), "%.*s", (int)strcspn(prefix, "/"), prefix);
	get.address = addr;
	req.id = ++c->next_id;
	req.api_version = FWD_API_VERSION;
	req.body_case = FWD__REQUEST__BODY_ROUTE_GET;
	req.route_get = &get;
	return fwd_frame_write_timeout(c->fd, &req.base, 5000);
}

/* The k-th change of the timed phase. */
static int send_op(struct churn *c, uint64_t k)
{
	char p[32];
	unsigned step = k % 10;

	if (c->get_only)
		return send_get(c, c->traffic[k % c->n_traffic]);

	if (step == 9 && c->n_traffic > 0) {
		unsigned t = c->n_traffic_replace++ % c->n_traffic;
		c->traffic_gw[t] = (c->traffic_gw[t] + 1) % c->n_gws;
		return send_route(c, c->traffic[t], c->gws[c->traffic_gw[t]], 0);
	}
	if (step == 8 && c->add_i > c->del_i) {
		pool_prefix(c->add_i - 1, p);
		return send_route(c, p, c->gws[k % c->n_gws], 0);
	}
	if (step >= 4 && c->add_i > c->del_i) {
		pool_prefix(c->del_i++, p);
		return send_route(c, p, NULL, 1);
	}
	if (c->add_i - c->del_i >= POOL_SIZE) { /* pool full: delete instead */
		pool_prefix(c->del_i++, p);
		return send_route(c, p, NULL, 1);
	}
	pool_prefix(c->add_i++, p);
	return send_route(c, p, c->gws[k % c->n_gws], 0);
}

static int read_reply(struct churn *c)
{
	uint8_t *buf;
	size_t len;
	Fwd__Response *r;
	int rc = fwd_frame_read(c->fd, &buf, &len, 5000);

	if (rc < 0)
		return rc;
	r = fwd__response__unpack(NULL, len, buf);
	free(buf);
	if (r == NULL)
		return -EBADMSG;
	if (r->id != c->done + 1) {
		fwd__response__free_unpacked(r, NULL);
		return -EBADMSG;
	}
	if (r->status != 0 && c->errors++ < 5)
		fprintf(stderr, "route_churn: request %u refused: %s\n", r->id, r->error);
	if (c->done < c->sent && c->sent_at != NULL)
		c->latency[c->done] = now_s() - c->sent_at[c->done];
	c->done++;
	fwd__response__free_unpacked(r, NULL);
	return 0;
}

/* Wait up to `wait` seconds for a reply and read it if one came. */
static int poll_reply(struct churn *c, double wait)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	struct timespec ts = { (time_t)wait, (long)((wait - (time_t)wait) * 1e9) };
	int rc = ppoll(&pfd, 1, wait < 0 ? NULL : &ts, NULL);

	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	if (rc > 0)
		return read_reply(c);
	return 0;
}

static int run_timed(struct churn *c, uint64_t total, double *elapsed)
{
	double t0 = now_s();
	int rc = 0;

	while (rc == 0 && (c->sent < total || c->done < c->sent)) {
		double due = t0 + (double)c->sent / c->rate, now = now_s();
		int can_send = c->sent < total && c->sent - c->done < c->window;

		if (can_send && now >= due) {
			c->sent_at[c->sent] = now;
			rc = send_op(c, c->sent);
			c->sent++;
			continue;
		}
		rc = poll_reply(c, can_send ? due - now : 1.0);
	}
	*elapsed = now_s() - t0;
	return rc;
}

/* Remove what the timed phase left in the pool, one request at a time. */
static int cleanup(struct churn *c)
{
	char p[32];
	int rc = 0;

	c->sent_at = NULL;
	while (rc == 0 && c->del_i < c->add_i) {
		pool_prefix(c->del_i++, p);
		rc = send_route(c, p, NULL, 1);
		if (rc == 0) {
			c->sent++;
			rc = read_reply(c);
		}
	}
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pct(const double *v, uint64_t n, double p)
{
	return n == 0 ? 0 : v[(uint64_t)fmin((double)n - 1, floor(p * (double)n))];
}

static void report(struct churn *c, uint64_t total, double elapsed)
{
	qsort(c->latency, total, sizeof(double), cmp_double);
	printf("{\"mode\":\"%s\",\"ops\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"seconds\":%.3f,"
	       "\"rate\":%.0f,\"target_rate\":%.0f,\"traffic_replaces\":%" PRIu64 ","
	       "\"latency_ms\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f}}\n",
	       c->get_only ? "get" : "change", total, c->errors, elapsed, total / elapsed, c->rate,
	       c->n_traffic_replace, pct(c->latency, total, 0.5) * 1e3,
	       pct(c->latency, total, 0.99) * 1e3, pct(c->latency, total, 1.0) * 1e3);
}

static int read_traffic(struct churn *c, const char *file)
{
	char line[256], prefix[64], via[64];
	FILE *f = fopen(file, "r");

	if (f == NULL)
		return -errno;
	c->traffic = calloc(MAX_TRAFFIC, sizeof(*c->traffic));
	c->traffic_gw = calloc(MAX_TRAFFIC, sizeof(*c->traffic_gw));
	while (c->traffic && c->traffic_gw && c->n_traffic < MAX_TRAFFIC &&
	       fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%63s via %63s", prefix, via) != 2)
			continue;
		c->traffic_gw[c->n_traffic] = 0;
		for (unsigned g = 0; g < c->n_gws; g++)
			if (strcmp(c->gws[g], via) == 0)
				c->traffic_gw[c->n_traffic] = g;
		c->traffic[c->n_traffic++] = strdup(prefix);
	}
	fclose(f);
	return c->traffic && c->traffic_gw ? 0 : -ENOMEM;
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void usage(void)
{
	fprintf(stderr, "usage: route_churn -s SOCKET -g GW[,GW...] -t TRAFFIC [-r RATE] "
	                "[-d SECONDS] [-w WINDOW] [-m get]\n");
	exit(2);
}

static void parse_args(struct churn *c, int argc, char **argv, const char **sock,
                       const char **traffic)
{
	int opt;

	while ((opt = getopt(argc, argv, "s:g:t:r:d:w:m:")) != -1) {
		switch (opt) {
		case 's':
			*sock = optarg;
			break;
		case 'g':
			for (char *g = strtok(optarg, ","); g && c->n_gws < MAX_GWS;
			     g = strtok(NULL, ","))
				c->gws[c->n_gws++] = g;
			break;
		case 't':
			*traffic = optarg;
			break;
		case 'r':
			c->rate = atof(optarg);
			break;
		case 'd':
			c->seconds = atof(optarg);
			break;
		case 'w':
			c->window = (unsigned)atoi(optarg);
			break;
		case 'm':
			c->get_only = strcmp(optarg, "get") == 0;
			break;
		default:
			usage();
		}
	}
	if (*sock == NULL || *traffic == NULL || c->n_gws == 0 || c->rate <= 0 || c->seconds <= 0 ||
	    c->window == 0)
		usage();
}

int main(int argc, char **argv)
{
	struct churn c = { .rate = 10000, .seconds = 10, .window = 64 };
	const char *sock = NULL, *traffic = NULL;
	uint64_t total;
	double elapsed = 0;
	int rc;

	parse_args(&c, argc, argv, &sock, &traffic);
	total = (uint64_t)(c.rate * c.seconds);
	c.sent_at = calloc(total, sizeof(double));
	c.latency = calloc(total, sizeof(double));
	if (c.sent_at == NULL || c.latency == NULL || read_traffic(&c, traffic) < 0) {
		fprintf(stderr, "route_churn: %s: %s\n", traffic, strerror(errno));
		return 1;
	}
	if (c.get_only && c.n_traffic == 0) {
		fprintf(stderr, "route_churn: %s: no routes\n", traffic);
		return 1;
	}
	c.fd = connect_to(sock);
	if (c.fd < 0) {
		fprintf(stderr, "route_churn: %s: %s\n", sock, strerror(errno));
		return 3;
	}
	rc = run_timed(&c, total, &elapsed);
	if (rc == 0)
		rc = cleanup(&c);
	if (rc < 0) {
		fprintf(stderr, "route_churn: connection: %s\n", strerror(-rc));
		return 1;
	}
	report(&c, total, elapsed);
	return c.errors ? 1 : 0;
}
