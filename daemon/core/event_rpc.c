/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fwdctl monitor`: the Monitor request subscribes to the event bus
 * (core/event.h) and its reply streams pages of events for as long as the
 * client stays. The server asks for a page only when the client has taken
 * most of the last one (core/rpc_server.c), so a slow client falls behind
 * in the bus's ring, never in the daemon's memory; what it lost is counted
 * in the next page. Control thread only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/event.h"
#include "core/log.h"
#include "core/rpc.h"

#define PAGE_EVENTS  512  /* events per page: ~100 KiB packed at most */
#define HEARTBEAT_MS 1000 /* an empty page this often: a client that left is found */

struct monitor {
	struct monitor *prev, *next; /* in monitors */
	struct fwd_event_sub *sub;
	uint64_t last_page_ms;
	uint64_t lost; /* in all */
	pid_t pid;
	uid_t uid;
};

/* The running monitors, to count each user's places (at most
 * FWD_EVENT_SUBS, so a walk is cheap). */
static struct monitor *monitors;
static unsigned n_monitors;

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static char *str(struct fwd_rpc_call *call, const char *s)
{
	return s[0] != '\0' ? fwd_rpc_strdup(call, s) : (char *)"";
}

static Fwd__Event *event_msg(struct fwd_rpc_call *call, const struct fwd_event *e)
{
	Fwd__Event *m = fwd_rpc_alloc(call, sizeof(*m));
	bool route = e->object == FWD_EVENT_ROUTE;

	fwd__event__init(m);
	m->time_ns = e->time_ns;
	m->object = (char *)fwd_event_object_name(e->object);
	m->action = str(call, e->action);
	m->port = str(call, e->port);
	m->prefix = str(call, e->prefix);
	m->via = route ? str(call, e->text) : "";
	m->origin = str(call, e->origin);
	m->vrf = str(call, e->vrf);
	m->lladdr = str(call, e->lladdr);
	m->state = str(call, e->state);
	m->bridge = str(call, e->bridge);
	m->from_port = str(call, e->from_port);
	m->reason = route ? "" : str(call, e->text);
	m->count = e->count;
	return m;
}

static Fwd__MonitorEvents *page_new(struct fwd_rpc_call *call)
{
	Fwd__MonitorEvents *p = fwd_rpc_alloc(call, sizeof(*p));

	fwd__monitor_events__init(p);
	p->events = (Fwd__Event **)fwd_rpc_ptr_array(call, PAGE_EVENTS);
	call->resp->body_case = FWD__RESPONSE__BODY_EVENTS;
	call->resp->events = p;
	return p;
}

static int monitor_next(struct fwd_rpc_call *call)
{
	struct monitor *mon = call->cursor;
	Fwd__MonitorEvents *p = page_new(call);
	uint64_t now = mono_ms();
	const struct fwd_event *e;

	while (p->n_events < PAGE_EVENTS && (e = fwd_event_read(mon->sub, &p->lost)) != NULL)
		p->events[p->n_events++] = event_msg(call, e);
	mon->lost += p->lost;
	if (p->n_events == 0 && p->lost == 0 && now - mon->last_page_ms < HEARTBEAT_MS)
		return -EAGAIN;
	mon->last_page_ms = now;
	return 1; /* the stream only ends when the client goes */
}

static void monitor_free(void *cursor)
{
	struct monitor *mon = cursor;

	LOG(INFO, "monitor of pid %d ended, %llu events lost", (int)mon->pid,
	    (unsigned long long)mon->lost);
	fwd_event_unsubscribe(mon->sub);
	if (mon->prev != NULL)
		mon->prev->next = mon->next;
	else
		monitors = mon->next;
	if (mon->next != NULL)
		mon->next->prev = mon->prev;
	n_monitors--;
	free(mon);
}

/*
 * May uid start a monitor? Like the control socket's connections
 * (core/rpc_server.c): root while any place is free; another user while
 * more than FWD_MONITOR_ROOT_RESERVE places are free and it holds fewer
 * than FWD_MONITOR_PER_USER, so users of the socket group cannot take
 * every place and lock root (or one another) out.
 */
static int admit(struct fwd_rpc_call *call, uid_t uid)
{
	unsigned mine = 0;

	if (uid == 0)
		return 0;
	if (n_monitors >= FWD_EVENT_SUBS - FWD_MONITOR_ROOT_RESERVE)
		return fwd_rpc_error(call, EBUSY,
		                     "%u monitors are running, the last %u places are root's",
		                     n_monitors, FWD_MONITOR_ROOT_RESERVE);
	for (const struct monitor *m = monitors; m != NULL; m = m->next)
		mine += m->uid == uid;
	if (mine >= FWD_MONITOR_PER_USER)
		return fwd_rpc_error(
		        call, EBUSY,
		        "uid %d runs %u monitors already (the most a user but root may)", (int)uid,
		        mine);
	return 0;
}

static int parse_objects(struct fwd_rpc_call *call, const Fwd__MonitorReq *q, uint32_t *mask)
{
	*mask = q->n_objects == 0 ? FWD_EVENT_ALL : 0;
	for (size_t i = 0; i < q->n_objects; i++) {
		int o = fwd_event_object_parse(q->objects[i]);
		if (o < 0)
			return fwd_rpc_error(call, EINVAL,
			                     "unknown object %.32s (port, addr, route, neigh, fdb, "
			                     "config, drops, iface)",
			                     q->objects[i]);
		*mask |= 1u << o;
	}
	return 0;
}

static int monitor_start(struct fwd_rpc_call *call)
{
	struct monitor *mon;
	uint32_t mask;
	int rc = parse_objects(call, call->req->monitor, &mask);

	if (rc < 0 || (rc = admit(call, call->peer.uid)) < 0)
		return rc;
	mon = calloc(1, sizeof(*mon));
	if (mon == NULL)
		return fwd_rpc_error(call, ENOMEM, "out of memory");
	mon->sub = fwd_event_subscribe(mask);
	if (mon->sub == NULL) {
		free(mon);
		return fwd_rpc_error(call, EBUSY, "%u monitors are running already",
		                     FWD_EVENT_SUBS);
	}
	mon->pid = call->peer.pid;
	mon->uid = call->peer.uid;
	mon->next = monitors;
	if (monitors != NULL)
		monitors->prev = mon;
	monitors = mon;
	n_monitors++;
	mon->last_page_ms = mono_ms();
	page_new(call); /* an empty first page: the client knows it is subscribed */
	call->next = monitor_next;
	call->cursor = mon;
	call->cursor_free = monitor_free;
	return 0;
}
FWD_RPC_HANDLER(FWD__REQUEST__BODY_MONITOR, monitor_start, FWD_RPC_READ);
