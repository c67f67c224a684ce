/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the FPM listener (cp/fpm.h). Three parts, each testable alone:
 *
 *   fpm_parse.c  FRR's FPM framing and the netlink messages in it, turned
 *                into struct fpm_msg; a frame is checked whole before any
 *                of it is used, so a bad frame changes nothing;
 *   fpm_table.c  what zebra wants (prefix -> next hops, group or type,
 *                origin), the next-hop objects and groups, and how that
 *                meets fwd's FIB: precedence of fwd's own routes, echoed
 *                connected routes, stale marks and their sweep;
 *   fpm_conn.c   the TCP listener and the one zebra connection, on the
 *                control thread's event loop.
 *
 * Everything here runs on the control thread.
 */
#ifndef FWD_CP_FPM_PRIV_H
#define FWD_CP_FPM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/config.h"
#include "fwd_inet.h"
#include "l3/l3.h"

#define FPM_HDR_LEN       4
#define FPM_FRAME_MAX     65535 /* the 16-bit length of the header */
#define FPM_VERSION       1
#define FPM_TYPE_NETLINK  1
#define FPM_QUIET_S       3  /* a replay has ended when the stream is quiet this long */
#define FPM_GRACE_DEFAULT 30 /* control.fpm_grace_s */
/* control.fpm_max_routes: two full tables of both families (about 1M IPv4
 * and 200k IPv6 routes each today) with room to grow */
#define FPM_MAX_ROUTES_DEFAULT 3000000

/* Errors that refuse a whole frame and close the connection. */
enum fpm_err {
	FPM_ERR_VERSION,   /* FPM header version is not 1 */
	FPM_ERR_TYPE,      /* FPM header type is not netlink */
	FPM_ERR_FRAME_LEN, /* FPM length below the header */
	FPM_ERR_NL_LEN,    /* nlmsg_len out of the frame, too short or misaligned */
	FPM_ERR_ATTR,      /* an attribute runs past its message or is too short */
	FPM_ERR_FAMILY,    /* unknown address family */
	FPM_ERR_PREFIX,    /* prefix length over 32/128, host bits, missing RTA_DST */
	FPM_ERR_ADDR_SIZE, /* a destination or gateway of the wrong size */
	FPM_ERR_NEXTHOP,   /* a malformed rtnexthop or next-hop object */
	FPM_ERR_MAX
};

/* Things counted that do not close the connection. */
enum fpm_ctr {
	FPM_C_FRAMES,
	FPM_C_MESSAGES,
	FPM_C_ROUTE_ADD,     /* RTM_NEWROUTE taken */
	FPM_C_ROUTE_DEL,     /* RTM_DELROUTE taken */
	FPM_C_NH_ADD,        /* RTM_NEWNEXTHOP taken */
	FPM_C_NH_DEL,        /* RTM_DELNEXTHOP taken */
	FPM_C_SKIP_MSG,      /* other message types (neighbours for EVPN, ...) */
	FPM_C_UNKNOWN_TABLE, /* routes of a table no VRF has (vrfs[].table) */
	FPM_C_SKIP_TYPE,     /* route types other than unicast, blackhole, unreachable, prohibit */
	FPM_C_SKIP_FAMILY,   /* MPLS and other families fwd does not route */
	FPM_C_CONNECTED,     /* echoes of fwd's own connected subnets and addresses */
	FPM_C_NO_DEV,        /* next hop without gateway on an interface fwd does not know */
	FPM_C_NHG_UNKNOWN,   /* a route or group names a next-hop id zebra never sent */
	FPM_C_GW_FAMILY,     /* a gateway of the other family (RTA_VIA, RFC 5549) */
	FPM_C_ECMP_TRUNC,    /* next hops past FWD_ECMP_MAX left out */
	FPM_C_INSTALL_FAIL,  /* the FIB refused the route (its message in last_install_error) */
	FPM_C_DEL_UNKNOWN,   /* a delete of a prefix or id zebra never sent */
	FPM_C_STALE_SWEPT,   /* stale routes removed after a replay */
	FPM_C_ENCAP_MPLS,    /* routes refused: an MPLS label push (RTA_ENCAP/NHA_ENCAP) */
	FPM_C_ENCAP_SEG6,    /* routes refused: SRv6 (seg6, seg6local) */
	FPM_C_ENCAP_OTHER,   /* routes refused: another lightweight tunnel */
	FPM_C_ROUTE_LIMIT,   /* routes refused: the session holds control.fpm_max_routes */
	FPM_C_NH_LIMIT,      /* next-hop objects refused: as many as control.fpm_max_routes */
	FPM_C_VRF_MIXED,     /* netns backend: a route's next hops in different VRFs */
	FPM_C_VRF_AMBIGUOUS, /* netns backend: a delete of a prefix several VRFs have */
	FPM_C_MAX
};

extern const char *const fpm_err_names[FPM_ERR_MAX];
extern const char *const fpm_ctr_names[FPM_C_MAX];

/* One next hop as zebra gives it: a gateway (family 0: none) and the
 * kernel interface (0: none). */
struct fpm_nh {
	struct fwd_ip gw;
	uint32_t ifindex;
};

struct fpm_grp {
	uint32_t id;
	uint8_t weight;
};

enum fpm_msg_kind {
	FPM_MSG_SKIP, /* counted in ctr, nothing to do */
	FPM_MSG_ROUTE_ADD,
	FPM_MSG_ROUTE_DEL,
	FPM_MSG_NH_ADD,
	FPM_MSG_NH_DEL,
};

/* One netlink message, decoded. */
struct fpm_msg {
	uint8_t kind;     /* enum fpm_msg_kind */
	uint8_t skip_ctr; /* FPM_MSG_SKIP: enum fpm_ctr */
	/* routes */
	struct fwd_prefix prefix;
	uint8_t type;   /* enum l3_route_type */
	uint8_t origin; /* enum fwd_origin */
	uint32_t table; /* RTA_TABLE, or rtm_table without it */
	uint32_t nh_id; /* RTA_NH_ID, 0: none */
	/* routes and next-hop objects: an encapsulation fwd cannot do, as the
	 * enum fpm_ctr that counts its refusal (0: none) */
	uint8_t encap;
	/* routes (their next hops) and next-hop objects (one, or a group) */
	unsigned n_nh;
	bool truncated; /* more than FWD_ECMP_MAX were given */
	struct fpm_nh nh[FWD_ECMP_MAX];
	/* next-hop objects */
	uint32_t id;
	bool blackhole;
	unsigned n_grp; /* > 0: a group */
	struct fpm_grp grp[FWD_ECMP_MAX];
};

/* fpm_parse.c ------------------------------------------------------------ */

/* A frame's length from its 4-byte header: > 0, or -1 with *e set. */
int fpm_frame_len(const uint8_t hdr[FPM_HDR_LEN], enum fpm_err *e);

/*
 * Decode every netlink message of one frame's payload (the bytes after the
 * FPM header) and hand each to fn, which may be NULL to only check. Returns
 * the number of messages, or -1 with *e and a description in why (which
 * names the message) when any of it is malformed; fn is then never called
 * for a frame that fails, as the whole payload is checked first.
 */
int fpm_frame_parse(const uint8_t *p, size_t len, void (*fn)(const struct fpm_msg *m, void *arg),
                    void *arg, enum fpm_err *e, char *why, size_t whylen);

/*
 * Apply the messages of a payload that fpm_frame_parse has checked, from
 * byte *off on, one at a time until fn returns false; *off moves past each
 * one applied. True when the last one is applied. So a frame of costly
 * messages can be spread over turns of the loop.
 */
bool fpm_frame_apply(const uint8_t *p, size_t len, size_t *off,
                     bool (*fn)(const struct fpm_msg *m, void *arg), void *arg);

/* The origin of a netlink rtm_protocol (RTPROT_*, FRR's numbers included). */
uint8_t fpm_origin_of_proto(uint8_t proto);

/* fpm_peer.c ------------------------------------------------------------- */

/* The uid that owns the local socket at the other end of TCP connection
 * fd (NETLINK_SOCK_DIAG): 0, or -errno (-ENOENT: no such local socket, as
 * for a peer on another host or network namespace). */
int fpm_peer_uid(int fd, uid_t *uid);
/* A user's uid from its name: 0, or -errno (-ENOENT: no such user). */
int fpm_user_uid(const char *name, uid_t *uid);
/* May the owner of fd's peer feed routes (root or control.fpm_user)? If
 * not, fd is closed, counted and logged (once a second at most); *uid is
 * the owner found. peer names the connection in the log. */
bool fpm_peer_vetted(int fd, const char *peer, uid_t *uid);
struct fwd_reload_log;
/* control.fpm_user resolved now (start, reload; log NULL at start): a user
 * that does not exist leaves root alone, with a warning. */
void fpm_peer_user_set(const char *name, struct fwd_reload_log *log);

/* fpm_table.c ------------------------------------------------------------ */

/* What the table does to fwd's FIB: l3's functions; tests put their own. */
struct fpm_fib_ops {
	int (*add)(const struct l3_route *r, char *err, size_t errlen); /* r->vrf's */
	int (*del)(uint16_t vrf, const struct fwd_prefix *p, char *err, size_t errlen);
	int (*origin)(uint16_t vrf, const struct fwd_prefix *p); /* l3_route_origin */
	int (*port_of)(uint32_t ifindex);                        /* cp_ifmap_port */
};

struct fpm_stats {
	uint64_t ctr[FPM_C_MAX];
	uint64_t err[FPM_ERR_MAX];
	char last_error[256];         /* the last frame refused, and why */
	char last_install_error[256]; /* the last route the FIB refused */
	/* gauges */
	uint64_t routes;    /* prefixes zebra wants */
	uint64_t installed; /* of them in the FIB */
	uint64_t installed_by_origin[FWD_ORIGIN_MAX];
	uint64_t shadowed; /* held back by a fwd route on the same prefix */
	uint64_t stale;    /* of a previous connection, not sent again yet */
	uint64_t groups;   /* next-hop objects and groups */
};

extern struct fpm_stats fpm_stats;

void fpm_table_set_ops(const struct fpm_fib_ops *ops); /* NULL: l3's */
/* At most max routes sent by this connection (stale ones not counted) and
 * as many next-hop objects; more are refused, counted. */
void fpm_table_set_max(uint64_t max);
uint64_t fpm_table_max(void);
/* Apply one decoded message. */
void fpm_table_apply(const struct fpm_msg *m, void *arg);
/* A new connection: every route known now is stale until sent again, with
 * its next hops written out; next-hop objects are the old connection's ids
 * and are forgotten (zebra sends its own again before its routes). */
void fpm_table_mark_stale(void);
/* Queue the removal of the routes still stale. */
void fpm_table_sweep_start(void);
/* Do queued work (routes placed again after their group changed, a sweep)
 * until deadline_ns (fpm_now_ns); true when some is left for later. */
bool fpm_table_work(uint64_t deadline_ns);
/* Is some work queued? */
bool fpm_table_pending(void);
/* After a reload: queue the routes the FIB refused (their gateway may be on
 * a subnet now) and those it lost without the l3 hook hearing (an address
 * that went took the routes through it). */
void fpm_table_recheck(void);
/* Sweep at once, all of it (tests); returns the routes removed. */
unsigned fpm_table_sweep(void);
uint64_t fpm_now_ns(void); /* CLOCK_MONOTONIC */
/* A route of fwd's own at p went away (origin non-FPM) or one of ours was
 * taken out of the FIB by someone else (origin FPM): the l3 hook. */
void fpm_table_removed(uint16_t vrf, const struct fwd_prefix *p, uint8_t origin);
/* control.vrf_backend is netns: FPM's table 254 is every namespace's main,
 * and a route's VRF is its next hops' interfaces' (cp/fpm_vrf.c). */
void fpm_table_set_netns(bool netns);
/* VRF vrf goes: zebra's routes for it are forgotten (its FIB goes too). */
void fpm_table_vrf_gone(uint16_t vrf);
/* Forget everything (fini, tests); the FIB is left as it is. */
void fpm_table_clear(void);

#endif
