/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics endpoint's two halves (stats/ only): metrics.c builds the
 * OpenMetrics exposition and keeps it for METRICS_CACHE_MS, metrics_http.c
 * serves it over HTTP/1.1 under a connection cap and a deadline per
 * connection (fwd-daemon(8), METRICS).
 */
#ifndef FWD_METRICS_H
#define FWD_METRICS_H

#include <stdbool.h>
#include <stddef.h>

struct event_base;

#define METRICS_CACHE_MS 1000 /* GETs within this share one exposition */

/* The exposition, built again when the last is METRICS_CACHE_MS old or a
 * `stats clear` came since; NULL when memory is short. Control thread. */
const char *metrics_body(size_t *len);

/*
 * Families of a layer above stats/ (the VRFs' route counts, vrf/): a writer
 * registered from a constructor appends its families to every exposition,
 * after the core's, with metrics_family for each TYPE and HELP line. At
 * most METRICS_WRITERS.
 */
#define METRICS_WRITERS 4
struct evbuffer;
typedef void (*metrics_writer_fn)(struct evbuffer *b);
void metrics_add_writer(metrics_writer_fn fn);
void metrics_family(struct evbuffer *b, const char *name, const char *type, const char *help);

/* Serve GET and HEAD /metrics on listen_fd (listening, non-blocking; the
 * server owns it from now, also on failure). 0 or -errno. */
int metrics_http_start(struct event_base *base, int listen_fd);
void metrics_http_stop(void);

/*
 * The answer to a request line (without its CRLF): 200 for GET or HEAD
 * of /metrics (*head set for HEAD), 404 for another path, 405 for another
 * method, 400 when it is not "METHOD TARGET HTTP/1.x".
 */
int metrics_http_status(const char *line, bool *head);

#endif
