/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside cp/tap*.c: the state of each port's kernel interface and what the
 * files of the module give each other. tap.c opens and closes the
 * interfaces (the module), tap_config.c checks ports[].tap, tap_netlink.c
 * writes into the kernel (NETLINK_ROUTE addresses, ioctls, IPv6 sysctls),
 * tap_sync.c makes an interface follow its port, tap_io.c moves frames up
 * and down. Control thread only.
 */
#ifndef FWD_CP_TAP_PRIV_H
#define FWD_CP_TAP_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config.h"
#include "core/counter.h"
#include "core/iface.h"
#include "core/rpc.h"
#include "core/vrf.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"
#include "port/port.h"
#include "fwd.pb-c.h"

#define TAP_BURST   64      /* frames read an event */
#define TAP_SYNC_US 1000000 /* the interfaces follow their ports */
#define FRAME_MAX   (9216 + 14 + 4)

/* Interface ids a TAP may have (core/iface.h: a port's id is its index). */
#define TAP_MAX_IDS FWD_MAX_IFACES

struct tap {
	int fd;
	uint16_t id;     /* the interface's */
	uint16_t vrf;    /* the VRF it was placed in (cp/tap_vrf.c) */
	uint16_t ns;     /* the VRF whose namespace holds it (netns backend), 0: fwd's */
	uint8_t backend; /* enum fwd_vrf_backend it was placed with */
	uint32_t ifindex;
	struct event *ev;
	struct rte_ether_addr kmac; /* the kernel interface's MAC (frames up go to it) */
	uint16_t mtu;
	bool up, carrier;
	bool no_link;         /* a loopback's: nothing goes out of it as it is (tap_down_nolink) */
	const char *last_err; /* tap_log_sync: logged once until it changes */
	unsigned n4, n6;      /* the addresses the kernel was given */
	struct fwd_ip4_prefix a4[FWD_MAX_ADDRS];
	struct fwd_ip6_prefix a6[ADDR6_MAX];
	uint64_t n_up, n_up_dropped, n_down, n_down_dropped; /* port show */
};

/* The TAP of interface id, or NULL: allocated when it opens. */
extern struct tap *taps[TAP_MAX_IDS];
static inline struct tap *tap_of(unsigned id)
{
	return id < TAP_MAX_IDS ? taps[id] : NULL;
}

/* tap_if.c: what a TAP follows, whatever the interface is. */
struct tap_view {
	const char *name;
	const struct rte_ether_addr *mac; /* NULL: none (a loopback): the kernel's own */
	uint16_t mtu;
	bool up;       /* admin state: IFF_UP */
	bool carrier;  /* link (a VLAN's: its port's) */
	bool has_link; /* false: a loopback */
};
bool tap_if_view(uint16_t id, struct tap_view *v); /* false: no such interface */
const char *tap_if_name(uint16_t id);
/* Interfaces beyond the ports whose config asks for a TAP. */
bool tap_if_wanted(uint16_t id);
/* The addresses the kernel interface gets: false if none. */
bool tap_if_addrs(uint16_t id, const struct ip4_port_addrs **a4, const struct ip6_port_addrs **a6);

/* tap.c: close the TAP of id, if it has one. */
void tap_close(uint16_t id);

/* tap_netlink.c: the sockets for ioctls and netlink, opened with the first
 * interface, and what goes through them. */
extern int tap_ioctl_fd; /* fwd's own namespace's */
int tap_sockets_open(void);
void tap_sockets_close(void);
/* The sockets of namespace ns (a VRF's, 0: fwd's own), opened there: 0 or
 * -errno; the ioctl one (-1: not open). */
int tap_ns_sockets(uint16_t ns);
void tap_ns_sockets_close(uint16_t ns);
int tap_ioctl_sock(uint16_t ns);
/* Add or delete an address (a: 4 or 16 bytes, network order) in namespace
 * ns; 0 or -errno. */
int tap_nl_addr(uint16_t ns, bool add, uint32_t ifindex, int family, const void *a, uint8_t len);
int tap_set_flags(uint16_t ns, const char *name, short set, short clear); /* 0 or -errno */
/* In fwd's namespace: link attribute attr (IFLA_MASTER, IFLA_NET_NS_FD) of
 * ifindex set; a VRF device added (up, with table) or deleted. 0 or -errno. */
int tap_nl_link_set(uint32_t ifindex, uint16_t attr, uint32_t value);
int tap_nl_vrf_dev(bool add, const char *name, uint32_t table);
/* /proc/sys/net/<ip>/conf/<t's name>/key = value; failures logged. */
void tap_sysctl(struct tap *t, const char *ip, const char *key, const char *value);

/* tap_vrf.c: the kernel side of VRFs (control.vrf_backend). */
extern int tap_vrf_backend; /* enum fwd_vrf_backend (core/config.h) */
/* Put t (just made, in fwd's namespace) in VRF vrf's kernel side: 0 or
 * -errno (logged). */
int tap_vrf_place(struct tap *t, uint16_t vrf);
/* Has t's interface changed VRF (or the backend changed) since placed? */
bool tap_vrf_moved(const struct tap *t);
/* The kernel side of VRF vrf let go of (its VRF device deleted). */
void tap_vrf_gone(uint16_t vrf);
void tap_vrf_fini(void);
/* The calling thread into namespace ns (0: fwd's own, nothing to do) and
 * back: /proc/sys/net and new sockets are those of the thread's. */
int tap_ns_enter(uint16_t ns);
void tap_ns_leave(uint16_t ns);

/* tap_sync.c: the interface of t follows its fwd interface. */
void tap_log_sync(struct tap *t, const char *what, int err);
void tap_sync_one(struct tap *t); /* MTU, carrier, admin state and addresses */
void tap_sync_all(void *arg);     /* every TAP (the timer's callback) */

/* tap_io.c: frames up (fwd_punt_up) and down (the TAP's read event). */
extern struct fwd_counter tap_sync_errors;
void tap_on_read(evutil_socket_t fd, short what, void *arg);
bool tap_up(struct rte_mbuf *m, uint16_t iface);
/* `port show`: the interface and its counters. */
void tap_fill(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi);

#endif
