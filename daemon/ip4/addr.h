/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Interface addresses of l3 interfaces (control thread only), keyed by
 * interface id (core/iface.h: a port's id is its index). Each address
 * makes a local /32 in the FIB, a connected route for its subnet, and,
 * for subnets shorter than /31, a local entry for the directed broadcast;
 * a loopback's address is only local (a loopback has no neighbours), of
 * any length. doc/architecture.md ("Interfaces").
 *
 * The rules that decide whether an address, a gateway, a route's prefix or
 * a static neighbour is acceptable are written once, here, over a view of a
 * set of port addresses: the running one (addr4_running) for fwdctl and
 * reloads, or a config file's for `fwd-daemon --check` and `config check`.
 * So the checks of a file and of the daemon applying it cannot disagree.
 */
#ifndef FWD_IP4_ADDR_H
#define FWD_IP4_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/iface.h"
#include "core/vrf.h"
#include "fwd_inet.h"

struct ip4_port_addrs {
	unsigned n;
	struct fwd_ip4_prefix a[FWD_MAX_ADDRS]; /* in the order added; a[0] is primary */
	uint8_t origin[FWD_MAX_ADDRS];          /* enum fwd_origin */
};

extern struct ip4_port_addrs ip4_addrs[FWD_MAX_IFACES];

/* The addresses of a set of interfaces, as a rule sees them: port[] has
 * n_ports entries, by interface id (a port's index, a VLAN's or loopback's
 * id; a config's interfaces[i] at FWD_MAX_PORTS + i); a config's view and
 * the reconcile's point it at ports[], the running one at its own array. */
struct addr4_view_port {
	const char *name;
	bool l3;
	bool lo;      /* a loopback: its addresses connect no subnet */
	bool late;    /* added after the ports (a config's interfaces[]): a port's
	                 address is checked without it, as start-up adds them */
	uint16_t vrf; /* its VRF (core/vrf.h): rules look only at its VRF's entries */
	unsigned n;
	const struct fwd_ip4_prefix *a;
};
struct addr4_view {
	unsigned n_ports;
	struct addr4_view_port *port;
	struct addr4_view_port ports[FWD_MAX_IFACES];
	/* the IPv4 addresses a[] points at, when the view holds its own */
	struct fwd_ip4_prefix store[FWD_MAX_IFACES][FWD_MAX_ADDRS];
	uint8_t index[FWD_MAX_IFACES][FWD_MAX_ADDRS]; /* store's index in the whole list */
};

/* The running addresses (kept up to date by addr4_add and addr4_del). */
const struct addr4_view *addr4_running(void);
/* A config's IPv4 addresses, all of them (the other family's left out):
 * its ports', and its interfaces' through the hook below. About 1.4 MB:
 * allocate the view on the heap. */
void addr4_view_config(struct addr4_view *v, const struct fwd_config *cfg);
/* Entry id of v (its own store) from e (name, l3, lo, late) and the IPv4
 * ones of the n addresses a; the entries between fill empty. */
void addr4_view_put(struct addr4_view *v, unsigned id, const struct addr4_view_port *e,
                    const struct fwd_prefix *a, unsigned n);
/* The entry called name, or -1. */
int addr4_view_index(const struct addr4_view *v, const char *name);
/* The interfaces a config file has besides its ports are known to the module
 * above that owns them (iface/): addr4_view_config asks it to put them in
 * the view (addr4_view_put, at FWD_MAX_PORTS + their place). One hook. */
void addr4_set_config_view_hook(void (*fn)(struct addr4_view *v, const struct fwd_config *cfg));

/* The rules: 0, or -errno with a message in err (which may be NULL). */
int addr4_rule_l3(const struct addr4_view *v, unsigned port, char *err, size_t errlen);
int addr4_rule_mac(const uint8_t mac[6], char *err, size_t errlen);
int addr4_rule_add(const struct addr4_view *v, unsigned port, const struct fwd_ip4_prefix *p,
                   char *err, size_t errlen);
/* A gateway on a connected subnet of VRF vrf (of dev when dev >= 0), not
 * ours: *port is the port it is reached on. */
int addr4_rule_gateway(const struct addr4_view *v, uint16_t vrf, uint32_t via, int dev,
                       unsigned *port, char *err, size_t errlen);
/* A static route's prefix may not be a connected subnet of its VRF. */
int addr4_rule_route(const struct addr4_view *v, uint16_t vrf, const struct fwd_ip4_prefix *p,
                     char *err, size_t errlen);
/* A neighbour: a unicast host of one of port's subnets, not ours; with a
 * unicast MAC when mac is not NULL. */
int addr4_rule_neigh(const struct addr4_view *v, unsigned port, uint32_t ip, const uint8_t *mac,
                     char *err, size_t errlen);

/* Add or remove an address; errors come back as -errno with a message. */
int addr4_add(uint16_t port, const struct fwd_ip4_prefix *p, uint8_t origin, char *err,
              size_t errlen);
int addr4_del(uint16_t port, const struct fwd_ip4_prefix *p, char *err, size_t errlen);
/* Put port's addresses in the order of want (the same set; origins follow). */
void addr4_reorder(uint16_t port, const struct fwd_ip4_prefix *want, const uint8_t *origin,
                   unsigned n);

/*
 * Removing an address also removes the routes and neighbours that depend
 * on its subnet. Between begin and end (a reload) that cascade waits, so
 * that an address renumbered or moved to another port takes nothing with
 * it that is still wanted; end runs it once.
 */
void addr4_batch_begin(void);
void addr4_batch_end(void);

/*
 * What a change of addresses tells the routes that follow them: a connected
 * subnet came or went, gateways may have lost theirs (prune). ip4/route.c
 * registers them from a constructor, so that addresses call no route code
 * and calls go one way (routes use the rules above). One set; NULL removes it.
 */
struct addr4_route_hooks {
	int (*connected_add)(const struct fwd_ip4_prefix *s, uint16_t port);
	void (*connected_del)(const struct fwd_ip4_prefix *s, uint16_t port);
	unsigned (*prune)(void);
};
void addr4_set_route_hooks(const struct addr4_route_hooks *h);

/* True when ip is one of our addresses (on any interface of VRF vrf). */
bool addr4_is_local(uint16_t vrf, uint32_t ip);

/* True when ip is the directed broadcast of one of VRF vrf's subnets. */
bool addr4_is_bcast(uint16_t vrf, uint32_t ip);

/* The interface of VRF vrf whose subnet holds ip (the longest one; a
 * loopback's address itself too), or -1. */
int addr4_port_of(uint16_t vrf, uint32_t ip);
/* True when ip lies inside one of port's subnets. */
bool addr4_on_port(uint16_t port, uint32_t ip);

/* The source address for a packet we send out of port towards dst: the
 * port's address on dst's subnet, else its primary; 0 when it has none. */
uint32_t addr4_source(uint16_t port, uint32_t dst);

#endif
