/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The event bus (core/event.h): one ring, written and read by the control
 * thread only. The ring exists while someone subscribes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>

#include "core/event.h"
#include "core/iface.h"
#include "core/vrf.h"

struct fwd_event_sub {
	uint64_t next; /* seq of the next event to read */
	uint64_t lost; /* wanted events overwritten before it read them */
	uint32_t mask; /* 1 << enum fwd_event_object */
	unsigned slot; /* in bus.subs */
};

static struct {
	struct fwd_event *ring;
	uint64_t head;  /* seq of the next event emitted */
	uint32_t wants; /* the union of the subscribers' masks */
	unsigned n_subs;
	struct fwd_event_sub *subs[FWD_EVENT_SUBS];
} bus;

static const char *const object_names[] = {
#define FWD_EVENT_NAME(e, name) [FWD_EVENT_##e] = name,
	FWD_EVENT_OBJECTS(FWD_EVENT_NAME)
#undef FWD_EVENT_NAME
};

const char *fwd_event_object_name(enum fwd_event_object object)
{
	return (unsigned)object < RTE_DIM(object_names) ? object_names[object] : "?";
}

int fwd_event_object_parse(const char *name)
{
	for (unsigned i = 0; i < RTE_DIM(object_names); i++)
		if (strcmp(name, object_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

bool fwd_event_wanted(enum fwd_event_object object)
{
	return (bus.wants >> object) & 1;
}

/* e, the oldest event, is about to be overwritten: subscribers that have
 * not read it lose it (counted if they wanted it). */
static void overwrite(const struct fwd_event *e)
{
	for (unsigned i = 0; i < FWD_EVENT_SUBS; i++) {
		struct fwd_event_sub *s = bus.subs[i];
		if (s == NULL || s->next > e->seq)
			continue;
		s->lost += (s->mask >> e->object) & 1;
		s->next = e->seq + 1;
	}
}

struct fwd_event *fwd_event_new(enum fwd_event_object object, const char *action)
{
	struct fwd_event *e;
	struct timespec ts;

	if (!fwd_event_wanted(object))
		return NULL;
	e = &bus.ring[bus.head % FWD_EVENT_RING];
	if (bus.head >= FWD_EVENT_RING)
		overwrite(e);
	memset(e, 0, sizeof(*e));
	clock_gettime(CLOCK_REALTIME, &ts);
	e->seq = bus.head++;
	e->time_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	e->object = (uint8_t)object;
	snprintf(e->action, sizeof(e->action), "%s", action);
	return e;
}

void fwd_event_route_pruned(const char *prefix, const char *via, uint8_t origin)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_ROUTE, "del");

	if (e == NULL)
		return;
	snprintf(e->prefix, sizeof(e->prefix), "%s", prefix);
	snprintf(e->text, sizeof(e->text), "%s", via);
	snprintf(e->origin, sizeof(e->origin), "%s", fwd_origin_name(origin));
}

void fwd_event_addr(const char *action, const char *port, const char *prefix, uint8_t origin)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_ADDR, action);

	if (e == NULL)
		return;
	snprintf(e->port, sizeof(e->port), "%s", port);
	snprintf(e->prefix, sizeof(e->prefix), "%s", prefix);
	snprintf(e->origin, sizeof(e->origin), "%s", fwd_origin_name(origin));
	const struct fwd_iface *ifp = fwd_iface_by_name(port);
	if (ifp != NULL && ifp->vrf != FWD_VRF_DEFAULT) /* "": the default VRF */
		snprintf(e->vrf, sizeof(e->vrf), "%s", fwd_vrf_name(ifp->vrf));
}

static void wants_update(void)
{
	bus.wants = 0;
	for (unsigned i = 0; i < FWD_EVENT_SUBS; i++)
		if (bus.subs[i] != NULL)
			bus.wants |= bus.subs[i]->mask;
}

struct fwd_event_sub *fwd_event_subscribe(uint32_t mask)
{
	struct fwd_event_sub *s;
	unsigned i = 0;

	while (i < FWD_EVENT_SUBS && bus.subs[i] != NULL)
		i++;
	if (i == FWD_EVENT_SUBS)
		return NULL;
	if (bus.ring == NULL)
		bus.ring = calloc(FWD_EVENT_RING, sizeof(*bus.ring)); /* pages come as used */
	s = calloc(1, sizeof(*s));
	if (bus.ring == NULL || s == NULL) {
		free(s);
		return NULL;
	}
	*s = (struct fwd_event_sub){ .next = bus.head, .mask = mask & FWD_EVENT_ALL, .slot = i };
	bus.subs[i] = s;
	bus.n_subs++;
	wants_update();
	return s;
}

void fwd_event_unsubscribe(struct fwd_event_sub *s)
{
	if (s == NULL)
		return;
	bus.subs[s->slot] = NULL;
	free(s);
	wants_update();
	if (--bus.n_subs == 0) {
		free(bus.ring);
		bus.ring = NULL;
	}
}

const struct fwd_event *fwd_event_read(struct fwd_event_sub *s, uint64_t *lost)
{
	*lost += s->lost;
	s->lost = 0;
	while (s->next < bus.head) {
		const struct fwd_event *e = &bus.ring[s->next++ % FWD_EVENT_RING];
		if ((s->mask >> e->object) & 1)
			return e;
	}
	return NULL;
}
