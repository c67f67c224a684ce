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
#include <rte_mbuf.h>

#include "core/counter.h"
#include "core/rpc.h"
#include "ip4/addr.h"
#include "ip6/addr6.h"
#include "port/port.h"
#include "fwd.pb-c.h"

#define TAP_BURST   64      /* frames read an event */
#define TAP_SYNC_US 1000000 /* the interfaces follow their ports */
#define FRAME_MAX   (9216 + 14 + 4)

struct tap {
	int fd; /* -1: none */
	uint32_t ifindex;
	struct event *ev;
	uint16_t mtu;
	bool up, carrier;
	bool no_link;    /* a loopback's: nothing goes out of it as it is (tap_down_nolink) */
	unsigned n4, n6; /* the addresses the kernel was given */
	struct fwd_ip4_prefix a4[FWD_MAX_ADDRS];
	struct fwd_ip6_prefix a6[ADDR6_MAX];
	uint64_t n_up, n_up_dropped, n_down, n_down_dropped; /* port show */
};

extern struct tap taps[FWD_MAX_PORTS];

/* tap_netlink.c: the sockets for ioctls and netlink, opened with the first
 * interface, and what goes through them. */
extern int tap_ioctl_fd;
int tap_sockets_open(void);
void tap_sockets_close(void);
/* Add or delete an address (a: 4 or 16 bytes, network order); 0 or -errno. */
int tap_nl_addr(bool add, uint32_t ifindex, int family, const void *a, uint8_t len);
int tap_set_flags(const char *name, short set, short clear); /* 0 or -errno */
/* /proc/sys/net/ipv6/conf/<port's name>/key = value; failures logged. */
void tap_sysctl6(uint8_t port, const char *key, const char *value);

/* tap_sync.c: the interface of port follows the port. */
void tap_log_sync(uint8_t port, const char *what, int err);
void tap_sync_one(uint8_t port); /* MTU, carrier, admin state and addresses */
void tap_sync_all(void *arg);    /* every port (the timer's callback) */

/* tap_io.c: frames up (fwd_punt_up) and down (the TAP's read event). */
extern struct fwd_counter tap_sync_errors;
void tap_on_read(evutil_socket_t fd, short what, void *arg);
bool tap_up(struct rte_mbuf *m, uint8_t port);
/* `port show`: the interface and its counters. */
void tap_fill(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi);

#endif
