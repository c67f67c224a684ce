/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The event bus behind `fwdctl monitor` (doc/architecture.md, "Events").
 * Features describe what changed (a link, an address, a route, a
 * neighbour, an FDB entry, a reload, a burst of drops) with fwd_event_new;
 * every subscriber reads the events of the objects it asked for.
 *
 * Control thread only: features emit from it (workers never do: what they
 * see reaches the control thread first), and the RPC side (event_rpc.c)
 * reads from it. One ring of FWD_EVENT_RING events is shared by all
 * subscribers, each with its own read position: emitting costs the same
 * whatever the number of subscribers, and nothing when there is none. A
 * subscriber that falls a whole ring behind loses the oldest events; they
 * are counted and the next read reports how many. The daemon never waits
 * for a subscriber.
 */
#ifndef FWD_EVENT_H
#define FWD_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "fwd_inet.h"

#define FWD_EVENT_RING (1u << 15) /* events kept for the slowest subscriber (~12 MB) */
#define FWD_EVENT_SUBS 64         /* subscribers at a time */
/* Of those, `fwdctl monitor` (event_rpc.c) keeps the last places for root
 * and lets any other user hold this many: no local user can lock the
 * others out. */
#define FWD_MONITOR_ROOT_RESERVE 16
#define FWD_MONITOR_PER_USER     8

/* Objects, as `fwdctl monitor OBJECT` names them. */
#define FWD_EVENT_OBJECTS(X)                                                      \
	X(PORT, "port")     /* link up, down; admin-up, admin-down */             \
	X(ADDR, "addr")     /* address add, del */                                \
	X(ROUTE, "route")   /* route add, del, replace */                         \
	X(NEIGH, "neigh")   /* state (a new one), del */                          \
	X(FDB, "fdb")       /* bridge FDB learn, move, age, flush */              \
	X(CONFIG, "config") /* reload ok, refused */                              \
	X(DROPS, "drops")   /* per port and reason, once a second */              \
	X(IFACE, "iface")   /* interface add, del, up, down (VLANs, loopbacks) */ \
	X(VRF, "vrf")       /* VRF add, del; an interface moved into one */

enum fwd_event_object {
#define FWD_EVENT_ENUM(e, name) FWD_EVENT_##e,
	FWD_EVENT_OBJECTS(FWD_EVENT_ENUM)
#undef FWD_EVENT_ENUM
	        FWD_EVENT_MAX
};

#define FWD_EVENT_ALL ((1u << FWD_EVENT_MAX) - 1)

/*
 * One event. Fields an object does not use stay empty; `fwdctl monitor -j`
 * prints them under the names of proto/fwd.proto's Event.
 */
struct fwd_event {
	uint64_t seq;     /* bus: position in the stream */
	uint64_t time_ns; /* bus: CLOCK_REALTIME when emitted */
	uint64_t count;   /* drops: in the last second; config: changes applied */
	uint8_t object;   /* enum fwd_event_object */
	char action[12];  /* see proto/fwd.proto, Event */
	char port[FWD_NAME_MAX];
	char bridge[FWD_NAME_MAX];      /* fdb */
	char from_port[FWD_NAME_MAX];   /* fdb move: the port the MAC left */
	char prefix[FWD_PREFIX_STRLEN]; /* addr, route: the prefix; neigh: the address */
	char lladdr[18];                /* neigh, fdb */
	char state[12];                 /* neigh */
	char origin[16];                /* route, addr: fwd_origin_name */
	char vrf[16];                   /* route, addr, neigh, vrf: the VRF's name ("" = default) */
	/* route: the gateways (comma separated) or the type; drops: the drop
	 * reason; config: why a reload was refused */
	char text[128];
};

/*
 * A zeroed event of object with action, stamped, in the ring; the caller
 * fills the rest before returning to the event loop. NULL when no
 * subscriber wants object: then the caller skips the formatting too.
 */
struct fwd_event *fwd_event_new(enum fwd_event_object object, const char *action);
/* Does any subscriber want object? (to skip building an event's inputs) */
bool fwd_event_wanted(enum fwd_event_object object);

/* A route removed by a cascade (its gateway's subnet went), as text. */
void fwd_event_route_pruned(const char *prefix, const char *via, uint8_t origin);
/* An address added or removed: prefix in text, origin an enum fwd_origin. */
void fwd_event_addr(const char *action, const char *port, const char *prefix, uint8_t origin);

const char *fwd_event_object_name(enum fwd_event_object object);
/* The object named name, or -EINVAL. */
int fwd_event_object_parse(const char *name);

/* Subscribers (event_rpc.c). mask: 1 << enum fwd_event_object. */
struct fwd_event_sub;

/* NULL when FWD_EVENT_SUBS are taken or memory is short. */
struct fwd_event_sub *fwd_event_subscribe(uint32_t mask);
void fwd_event_unsubscribe(struct fwd_event_sub *s);
/* The next event s wants, or NULL when it has read them all. Events a
 * subscriber fell too far behind to read are added to *lost. */
const struct fwd_event *fwd_event_read(struct fwd_event_sub *s, uint64_t *lost);

#endif
