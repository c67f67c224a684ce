/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The interface table: what L2 and L3 name, between the ports (core/ports.h:
 * what is physical: DPDK id, queues, tx buffers) and everything above them.
 * doc/architecture.md ("Interfaces") maps it.
 *
 * Ids 0..FWD_MAX_PORTS-1 are the ports themselves (iface id == port index),
 * so a port is an interface without a lookup; VLAN sub-interfaces and
 * loopbacks take ids from FWD_MAX_PORTS up. The control thread is the only
 * writer; workers read entries by id (fwd_ifaces[id]) and map a port's
 * tagged frames to an id through the port's VLAN map (fwd_port.vlan_map:
 * 4096 ids by VID, allocated only while the port has VLAN interfaces,
 * published with a release store; a removed map or a freed id is reused
 * only after an RCU grace period).
 *
 * Deleting an interface first runs the hooks higher layers registered
 * (fwd_iface_hook_add: addresses, the routes through it, its neighbours, in
 * the order they ask for), as Linux removes them with the device.
 */
#ifndef FWD_IFACE_H
#define FWD_IFACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config.h"
#include "core/drop.h"
#include "core/ports.h"

#define FWD_IFNAME_MAX       16 /* a VLAN's or loopback's name, incl. NUL (IFNAMSIZ) */
#define FWD_VLAN_IDS         4096
#define FWD_MAX_LOGICAL      4192 /* VLANs and loopbacks (bonds) in all */
#define FWD_MAX_IFACES       (FWD_MAX_PORTS + FWD_MAX_LOGICAL)
#define FWD_IFACE_NONE       UINT16_MAX /* no interface (a VLAN map slot without one) */
#define FWD_IFACE_NO_PORT    UINT8_MAX  /* a loopback's parent port */
#define FWD_VLAN_MAP_UNKNOWN FWD_IFACE_NONE

enum fwd_iface_type {
	FWD_IFACE_FREE = 0, /* an unused id */
	FWD_IFACE_PORT,
	FWD_IFACE_VLAN,
	FWD_IFACE_LOOPBACK,
};

struct fwd_iface {
	/* datapath: read by workers, written by control */
	uint16_t id;
	uint8_t type;   /* enum fwd_iface_type */
	uint8_t mode;   /* enum fwd_port_mode */
	uint8_t port;   /* parent port index (PORT, VLAN); FWD_IFACE_NO_PORT for a loopback */
	uint8_t bridge; /* mode bridge: index in fwd.cfg->bridges */
	uint16_t peer;  /* mode xconnect: the peer interface */
	uint16_t vlan;  /* 802.1Q VID (VLAN), 0 untagged */
	uint16_t mtu;   /* L3 MTU; a VLAN's tag does not count against it */
	struct rte_ether_addr mac;
	uint16_t vrf;   /* the VRF whose tables route what arrives here (core/vrf.h) */
	uint64_t mac48; /* mac as the low 48 bits of a little-endian load: one compare */
	volatile uint8_t admin_up;
	volatile uint8_t rpf;    /* enum fwd_rpf */
	volatile uint8_t filter; /* FWD_FILTER_IN|OUT (core/worker.h) */
	uint8_t tx_vlan_hw;      /* the (parent) port inserts tags (TX_VLAN_INSERT) */
	uint8_t rx_ip4_cksum;    /* the (parent) port's NIC flags IPv4 header checksums */
	uint8_t rx_vlan_strip;   /* a port: its PMD strips tags (RX_VLAN_STRIP) */

	/* control thread only */
	char name[FWD_NAME_MAX]; /* a port's name; VLANs and loopbacks: < FWD_IFNAME_MAX */
	bool tap;                /* a kernel interface of this name (cp/) */
} __rte_cache_aligned;

extern struct fwd_iface fwd_ifaces[FWD_MAX_IFACES];

/* The entry of id, or NULL if id is free or out of range. */
struct fwd_iface *fwd_iface_get(unsigned id);
struct fwd_iface *fwd_iface_by_name(const char *name);
/* The VLAN interface of (port, vid), or NULL. */
struct fwd_iface *fwd_iface_by_vlan(uint8_t port, uint16_t vid);
/* The next interface in use after id (start with -1), or NULL: ports first. */
struct fwd_iface *fwd_iface_next(int id);
/* by position in the table, not ifp->id: a port's entry before its first
 * sync holds id 0, which would walk the ports forever */
#define FWD_IFACE_FOREACH(ifp)                          \
	for ((ifp) = fwd_iface_next(-1); (ifp) != NULL; \
	     (ifp) = fwd_iface_next((int)((ifp)-fwd_ifaces)))
unsigned fwd_iface_count(void);

/* Whether ifp carries addresses (mode l3; a loopback always). */
static inline bool fwd_iface_is_l3(const struct fwd_iface *ifp)
{
	return ifp->type != FWD_IFACE_FREE && ifp->mode == FWD_MODE_L3;
}
/* The name of interface id: a port's from the port table (ports are named
 * there first), "" for a free id. */
static inline const char *fwd_iface_name(unsigned id)
{
	if (id < FWD_MAX_PORTS)
		return fwd_ports[id].name;
	return id < FWD_MAX_IFACES && fwd_ifaces[id].type != FWD_IFACE_FREE ? fwd_ifaces[id].name
	                                                                    : "";
}
/* The next id after id (start with -1) of a port (by fwd_n_ports, set even
 * where the table's port entries are not) or of a VLAN or loopback, or -1:
 * what loops over everything keyed by interface id walk. */
static inline int fwd_iface_next_id(int id)
{
	const struct fwd_iface *ifp;

	if (id + 1 < (int)fwd_n_ports)
		return id + 1;
	ifp = fwd_iface_next(id < FWD_MAX_PORTS ? FWD_MAX_PORTS - 1 : id);
	return ifp != NULL ? ifp->id : -1;
}
/* The id of the port or interface called name, or -1: by the walk above,
 * so it holds where a port's table entry is not set (tests). Control. */
static inline int fwd_iface_id_by_name(const char *name)
{
	for (int id = fwd_iface_next_id(-1); id >= 0; id = fwd_iface_next_id(id))
		if (strcmp(fwd_iface_name((unsigned)id), name) == 0)
			return id;
	return -1;
}
static inline bool fwd_iface_is_loopback(unsigned id)
{
	return id >= FWD_MAX_PORTS && id < FWD_MAX_IFACES &&
	       fwd_ifaces[id].type == FWD_IFACE_LOOPBACK;
}

/*
 * Control API (control thread). Errors: -EINVAL (vid outside 1-4094, a name
 * empty or of FWD_IFNAME_MAX characters or more, mtu 0), -EEXIST (the name,
 * or the port's VLAN, is taken), -ENODEV (no such port or interface),
 * -ERANGE (an MTU above the parent port's), -ENOSPC (FWD_MAX_LOGICAL in
 * use), -ENOMEM, -EPERM (deleting a port). mtu 0: the parent port's.
 */
int fwd_iface_vlan_add(const char *name, uint8_t port, uint16_t vid, uint16_t mtu, uint16_t *id);
int fwd_iface_loopback_add(const char *name, uint16_t *id);
int fwd_iface_del(uint16_t id);
int fwd_iface_set_admin(uint16_t id, bool up);
int fwd_iface_set_mtu(uint16_t id, uint16_t mtu);
/* mode l3 or bridge (bridge: index in fwd.cfg->bridges); a VLAN or port only. */
int fwd_iface_set_mode(uint16_t id, enum fwd_port_mode mode, uint8_t bridge);
/*
 * Move interface id to VRF vrf (core/vrf.h): what it holds in its VRF goes
 * first (FWD_IFACE_EV_VRF_LEAVE: addresses, routes through it, neighbours),
 * as Linux does when a device changes master; then the field changes and
 * FWD_IFACE_EV_VRF_ENTER runs (an IPv6 link-local address comes back). The
 * caller re-adds the addresses it wants. 0 (also when already there), or
 * -ENODEV (no such interface or VRF).
 */
int fwd_iface_set_vrf(uint16_t id, uint16_t vrf);

/* Copy what the port table says of port into its interface (port/ calls it
 * when it sets up a port and when its state changes), and the MAC into its
 * VLANs. */
void fwd_iface_port_sync(uint8_t port);
/* The VLAN offloads port/ turned on for port: rx strip (the port then keeps
 * a VLAN map, so a stripped tag is never taken for an untagged frame) and
 * tx insert. Returns 0 or -ENOMEM. */
int fwd_iface_port_vlan_offload(uint8_t port, bool rx_strip, bool tx_insert);

/*
 * Hooks higher layers register (from a constructor or their module init):
 * FWD_IFACE_EV_DEL runs before an interface goes, in ascending `order`
 * (addresses 10, routes through it 20, neighbours 30); FWD_IFACE_EV_ADD
 * after one is made; FWD_IFACE_EV_CHANGE after its admin state, MTU or
 * mode changed. FWD_IFACE_EV_VRF_LEAVE runs before an interface moves to
 * another VRF (fwd_iface_set_vrf), in the same order as DEL, for what
 * belongs to its VRF (addresses, routes through it, neighbours);
 * FWD_IFACE_EV_VRF_ENTER after it moved.
 */
enum fwd_iface_event {
	FWD_IFACE_EV_ADD,
	FWD_IFACE_EV_DEL,
	FWD_IFACE_EV_CHANGE,
	FWD_IFACE_EV_VRF_LEAVE,
	FWD_IFACE_EV_VRF_ENTER,
	FWD_IFACE_EV_MAX,
};
typedef void (*fwd_iface_hook_fn)(const struct fwd_iface *ifp, enum fwd_iface_event ev);
int fwd_iface_hook_add(enum fwd_iface_event ev, int order, fwd_iface_hook_fn fn);

/* Forget every VLAN and loopback (module fini, tests); ports stay. */
void fwd_iface_reset(void);

#define FWD_VLAN_HLEN 4 /* the tag: TPID and TCI */

/* Take the tag out of frame d (in m's first segment, >= 18 bytes): the 12
 * MAC bytes move up by 4 as two fixed-size copies (inline loads and stores,
 * no libc memmove), and the frame starts 4 bytes later. */
static __rte_always_inline void fwd_vlan_strip(struct rte_mbuf *m, uint8_t *d)
{
	uint64_t macs;
	uint32_t src_tail;

	memcpy(&macs, d, sizeof(macs));
	memcpy(&src_tail, d + sizeof(macs), sizeof(src_tail));
	memcpy(d + FWD_VLAN_HLEN + sizeof(macs), &src_tail, sizeof(src_tail));
	memcpy(d + FWD_VLAN_HLEN, &macs, sizeof(macs));
	m->data_off += FWD_VLAN_HLEN;
	m->data_len -= FWD_VLAN_HLEN;
	m->pkt_len -= FWD_VLAN_HLEN;
}

/* fwd_vlan_strip of n frames that all hold a tag. */
static inline void fwd_vlan_strip_all(struct rte_mbuf **pkts, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++)
		fwd_vlan_strip(pkts[i], rte_pktmbuf_mtod(pkts[i], uint8_t *));
}

/* The frames the demux's two common cases leave: untagged (the port's),
 * 802.1ad (no QinQ interfaces), a tag cut short. */
static inline uint16_t fwd_vlan_demux_rare(const struct fwd_port *p, const struct rte_mbuf *m,
                                           uint8_t *why)
{
	uint16_t type;

	if (m->data_len < sizeof(struct rte_ether_hdr))
		return p->idx; /* too short: the port's input judges it */
	type = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *)->ether_type;
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		*why = FWD_DROP_TRUNCATED;
		return FWD_IFACE_NONE;
	}
	if (type == RTE_BE16(RTE_ETHER_TYPE_QINQ)) {
		*why = FWD_DROP_VLAN_UNKNOWN;
		return FWD_IFACE_NONE;
	}
	return p->idx;
}

/*
 * The (port, VLAN) demux of one frame: its interface id, or FWD_IFACE_NONE
 * with *why the drop reason (vlan_unknown: a VID without an interface, an
 * 802.1ad outer tag; truncated: a tag cut short). An untagged or
 * priority-tagged (VID 0) frame is the port's. A tag the PMD stripped is
 * taken from the mbuf; a tag in the frame is left there and *tagged set
 * (the l3 input routes such frames with their tag: doc/performance.md,
 * "VLAN"). Inline, the common cases first.
 */
static __rte_always_inline uint16_t fwd_vlan_demux_keep(const struct fwd_port *p,
                                                        const uint16_t *map, struct rte_mbuf *m,
                                                        uint8_t *why, bool *tagged)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ether_hdr *eh = (const struct rte_ether_hdr *)d;
	const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(eh + 1);
	uint16_t vid, id;

	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) {
		vid = m->vlan_tci & 0xfff;
		m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED);
	} else if (likely(m->data_len >= sizeof(*eh) + sizeof(*vh) &&
	                  eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_VLAN))) {
		vid = rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
		*tagged = true;
	} else {
		return fwd_vlan_demux_rare(p, m, why);
	}
	id = map[vid];
	if (unlikely(id == FWD_IFACE_NONE))
		*why = FWD_DROP_VLAN_UNKNOWN;
	return id;
}

/* The demux above with the tag always out of the frame (stripped). */
static __rte_always_inline uint16_t fwd_vlan_demux(const struct fwd_port *p, const uint16_t *map,
                                                   struct rte_mbuf *m, uint8_t *why)
{
	bool tagged = false;
	uint16_t id = fwd_vlan_demux_keep(p, map, m, why, &tagged);

	if (tagged)
		fwd_vlan_strip(m, rte_pktmbuf_mtod(m, uint8_t *));
	return id;
}

/* The drop reason of a frame of ethertype type (big-endian) that an
 * untagged input does not handle: a tag reaching it has no interface. */
static inline uint8_t fwd_drop_ethertype(uint16_t type)
{
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN) || type == RTE_BE16(RTE_ETHER_TYPE_QINQ))
		return FWD_DROP_VLAN_UNKNOWN;
	return FWD_DROP_UNSUPPORTED;
}

/* Tag m (an Ethernet frame) with vid: by the NIC (hw) or in the frame.
 * Returns 0, or -ENOBUFS without headroom. */
int fwd_vlan_tag(struct rte_mbuf *m, uint16_t vid, bool hw);

#endif
