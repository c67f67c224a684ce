/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 interface addresses of l3 interfaces (control thread only). Every l3
 * port and VLAN interface has its link-local address (fe80::/64, modified
 * EUI-64 of its MAC) first, then the configured ones. Each address makes a
 * local /128 in the FIB and, for a global one, a connected route for its
 * prefix (the link-local /64 is the interface's alone and has no FIB entry:
 * link-local destinations are never routed).
 *
 * An address is tentative until Duplicate Address Detection (RFC 4862 5.4,
 * ndp.c) says nobody else has it: a tentative address is not ours yet (no
 * local entry, never a source, NS for it not answered); a duplicate stays
 * listed as such and unused.
 *
 * The rules on an address, a gateway, a route's prefix and a static
 * neighbour are written once, here, over a view (as addr4_* in ip4/addr.h).
 */
#ifndef FWD_IP6_ADDR_H
#define FWD_IP6_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/iface.h"
#include "core/vrf.h"
#include "fwd_inet.h"

enum addr6_state {
	ADDR6_TENTATIVE, /* DAD running */
	ADDR6_PREFERRED, /* in use */
	ADDR6_DUPLICATE, /* DAD failed: someone else has it */
};

const char *addr6_state_name(enum addr6_state s);

#define ADDR6_MAX (FWD_MAX_ADDRS + 1) /* the configured ones and the link-local */

struct ip6_port_addrs {
	unsigned n;                         /* 0 on a port that is not l3 */
	struct fwd_ip6_prefix a[ADDR6_MAX]; /* a[0]: the link-local address */
	uint8_t origin[ADDR6_MAX];          /* enum fwd_origin (ADDRESS for the link-local) */
	uint8_t state[ADDR6_MAX];           /* enum addr6_state */
	bool ra;                            /* ports[].ra: send Router Advertisements */
};

/* By interface id; a loopback's a[0] is ::1 (it has no link-local). */
extern struct ip6_port_addrs ip6_addrs[FWD_MAX_IFACES];

/* The addresses of a set of interfaces, as a rule sees them (link-local
 * ones aside): port[] has n_ports entries, by interface id (a config's
 * interfaces[i] at FWD_MAX_PORTS + i); a config's view and the reconcile's
 * point it at ports[] (about 2.4 MB: on the heap), the running one at its
 * own array. late: as in ip4/addr.h. */
struct addr6_view_port {
	const char *name;
	bool l3;
	bool lo; /* a loopback: its addresses connect no prefix */
	bool late;
	uint16_t vrf; /* as in ip4/addr.h */
	unsigned n;
	struct fwd_ip6_prefix a[FWD_MAX_ADDRS];
};
struct addr6_view {
	unsigned n_ports;
	struct addr6_view_port *port;
	struct addr6_view_port ports[FWD_MAX_IFACES];
};

const struct addr6_view *addr6_running(void);
/* A config's ports and, through the hook, its other interfaces. */
void addr6_view_config(struct addr6_view *v, const struct fwd_config *cfg);
/* Entry id from e (name, l3, lo, late) and the IPv6 ones of the n addresses a. */
void addr6_view_put(struct addr6_view *v, unsigned id, const struct addr6_view_port *e,
                    const struct fwd_prefix *a, unsigned n);
int addr6_view_index(const struct addr6_view *v, const char *name);
/* As addr4_set_config_view_hook (ip4/addr.h). */
void addr6_set_config_view_hook(void (*fn)(struct addr6_view *v, const struct fwd_config *cfg));

/* The rules: 0, or -errno with a message in err (which may be NULL). */
int addr6_rule_add(const struct addr6_view *v, unsigned port, const struct fwd_ip6_prefix *p,
                   char *err, size_t errlen);
/* A gateway: on a connected prefix of VRF vrf (of dev when dev >= 0), or
 * link-local with dev given; not ours. *port is where it is reached. */
int addr6_rule_gateway(const struct addr6_view *v, uint16_t vrf, const uint8_t via[16], int dev,
                       unsigned *port, char *err, size_t errlen);
int addr6_rule_route(const struct addr6_view *v, uint16_t vrf, const struct fwd_ip6_prefix *p,
                     char *err, size_t errlen);
/* A neighbour: a unicast address on one of port's prefixes or link-local, not ours. */
int addr6_rule_neigh(const struct addr6_view *v, unsigned port, const uint8_t ip[16],
                     const uint8_t *mac, char *err, size_t errlen);

/* A port or VLAN interface became l3 (its link-local address appears: a
 * VLAN's is its port's, from the same MAC, as Linux's VLAN devices have) or
 * stopped being one. A VLAN's follow its mode through the interface hooks. */
int addr6_port_up(uint16_t port);
void addr6_port_down(uint16_t port);

/* A loopback's addresses are in use at once (no DAD) and connect no prefix. */
int addr6_add(uint16_t port, const struct fwd_ip6_prefix *p, uint8_t origin, char *err,
              size_t errlen);
int addr6_del(uint16_t port, const struct fwd_ip6_prefix *p, char *err, size_t errlen);
void addr6_batch_begin(void);
void addr6_batch_end(void);

/* DAD (ndp.c) finished for a on port: in use, or a duplicate. */
void addr6_dad_done(uint16_t port, const uint8_t a[16], bool duplicate);
/* The state of a on port, or -1 when it is not one of port's addresses. */
int addr6_state(uint16_t port, const uint8_t a[16]);

/*
 * What a change of addresses tells the code that follows them, so that
 * addresses call neither routes nor NDP and calls go one way (they use the
 * rules and addr6_dad_done above). Routes (ip6/route6.c): a connected
 * prefix came or went, gateways may have lost theirs (prune). NDP
 * (ip6/ndp_dad.c): an address is tentative (start DAD) or went while
 * tentative (stop it); a port's addresses changed (replan its RAs). Each is
 * registered from a constructor; one set each, NULL removes it.
 */
struct addr6_route_hooks {
	int (*connected_add)(const struct fwd_ip6_prefix *s, uint16_t port);
	void (*connected_del)(const struct fwd_ip6_prefix *s, uint16_t port);
	unsigned (*prune)(void);
};
void addr6_set_route_hooks(const struct addr6_route_hooks *h);
struct addr6_ndp_hooks {
	void (*dad_start)(uint16_t port, const uint8_t a[16]);
	void (*dad_stop)(uint16_t port, const uint8_t a[16]);
	void (*port_changed)(uint16_t port, bool ra);
};
void addr6_set_ndp_hooks(const struct addr6_ndp_hooks *h);

/* One of our addresses in use, on interface port (or on any of VRF vrf
 * when port is FWD_IFACE_NONE). */
bool addr6_is_local(uint16_t vrf, uint16_t port, const uint8_t ip[16]);
/* The interface of VRF vrf whose global prefix holds ip (the longest; a
 * loopback's address itself too), or -1. */
int addr6_port_of(uint16_t vrf, const uint8_t ip[16]);
/* On one of port's prefixes, link-local ones included. */
bool addr6_on_port(uint16_t port, const uint8_t ip[16]);
/* The source for a packet out of port to dst (RFC 6724, simply): the
 * link-local address for a link-local or multicast-link-scope dst, else the
 * port's global address on dst's prefix, else its first global one, else
 * its link-local; false when the port has no usable address. */
bool addr6_source(uint16_t port, const uint8_t dst[16], uint8_t out[16]);

#endif
