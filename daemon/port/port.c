/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "core/control.h"
#include "core/daemon.h"
#include "core/event.h"
#include "core/log.h"
#include "core/iface.h"
#include "core/module.h"
#include "port/port.h"

/* The ethdev name of a device string: the vdev name before the first comma. */
static void device_ethdev_name(const char *device, char *name, size_t len)
{
	size_t n = strcspn(device, ",");

	if (n >= len)
		n = len - 1;
	memcpy(name, device, n);
	name[n] = '\0';
}

static int port_find(const struct fwd_conf_port *cp, uint16_t *port_id)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	device_ethdev_name(cp->device, name, sizeof(name));
	if (rte_eth_dev_get_port_by_name(name, port_id) == 0)
		return 0;
	LOG(ERR,
	    "port %s: no DPDK port for device \"%s\" (not probed: check the address, the "
	    "driver binding or the vdev arguments)",
	    cp->name, cp->device);
	return -ENODEV;
}

static void port_rss_conf(const struct rte_eth_dev_info *info, struct rte_eth_conf *conf,
                          uint16_t n_rxq)
{
	uint64_t hf =
	        (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) & info->flow_type_rss_offloads;

	if (n_rxq > 1 && hf != 0) {
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf = hf;
	}
}

static int port_check_caps(struct fwd_port *p, const struct rte_eth_dev_info *info)
{
	if (p->n_rxq > info->max_rx_queues) {
		LOG(ERR, "port %s: %u rx queues configured, device supports %u", p->name, p->n_rxq,
		    info->max_rx_queues);
		return -EINVAL;
	}
	if (p->n_txq > info->max_tx_queues) {
		LOG(ERR,
		    "port %s: %u workers need %u tx queues, device supports %u "
		    "(use fewer worker lcores, or give the vdev more queues, e.g. qpairs=N)",
		    p->name, p->n_txq, p->n_txq, info->max_tx_queues);
		return -EINVAL;
	}
	if (p->mtu < info->min_mtu || p->mtu > info->max_mtu) {
		LOG(ERR, "port %s: mtu %u outside the device's range %u..%u", p->name, p->mtu,
		    info->min_mtu, info->max_mtu);
		return -EINVAL;
	}
	return 0;
}

const char *fwd_port_rx_problem(unsigned frame, unsigned buf, unsigned min_buf, bool scattered)
{
	if (buf < min_buf)
		return "the device needs larger rx buffers than the mbuf pool's";
	if (frame > buf)
		return "a frame of this MTU does not fit one rx buffer";
	if (scattered)
		return "the device would receive frames in several buffers (scattered rx)";
	return NULL;
}

/* The largest frame the device takes at MTU mtu: its own overhead (as
 * ethdev reckons it), at least ours. */
static unsigned port_max_frame(const struct rte_eth_dev_info *info, unsigned mtu)
{
	unsigned over = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;

	/* virtual devices say UINT32_MAX and UINT16_MAX: not an overhead */
	if (info->max_rx_pktlen > info->max_mtu && info->max_rx_pktlen - info->max_mtu <= 64)
		over = RTE_MAX(over, info->max_rx_pktlen - info->max_mtu);
	return mtu + RTE_MAX(over + 2 * RTE_VLAN_HLEN, (unsigned)FWD_FRAME_OVERHEAD);
}

/* Refuse a port whose frames of its MTU would not arrive in one mbuf: the
 * input paths read the first segment only (the slow path drops others). */
static int port_check_rx_fit(const struct fwd_port *p)
{
	struct rte_eth_dev_info info;
	struct rte_eth_rxq_info qi;
	unsigned buf = rte_pktmbuf_data_room_size(fwd.pool) - RTE_PKTMBUF_HEADROOM;
	bool scattered = false;
	const char *why;

	if (rte_eth_dev_info_get(p->port_id, &info) < 0)
		return 0;
	for (uint16_t q = 0; q < p->n_rxq; q++)
		if (rte_eth_rx_queue_info_get(p->port_id, q, &qi) == 0 && qi.scattered_rx)
			scattered = true;
	why = fwd_port_rx_problem(port_max_frame(&info, p->mtu), buf, info.min_rx_bufsize,
	                          scattered);
	if (why == NULL)
		return 0;
	LOG(ERR,
	    "port %s: mtu %u: %s (frames up to %u bytes, %u-byte buffers, device %s); fwd "
	    "forwards frames of one segment only: lower the mtu",
	    p->name, p->mtu, why, port_max_frame(&info, p->mtu), buf, p->driver);
	return -EINVAL;
}

static int port_setup_queues(struct fwd_port *p, int socket)
{
	int rc;

	for (uint16_t q = 0; q < p->n_rxq; q++) {
		rc = rte_eth_rx_queue_setup(p->port_id, q, p->rxd, socket, NULL, fwd.pool);
		if (rc < 0) {
			LOG(ERR, "port %s: rx queue %u: %s", p->name, q, rte_strerror(-rc));
			return rc;
		}
	}
	for (uint16_t q = 0; q < p->n_txq; q++) {
		rc = rte_eth_tx_queue_setup(p->port_id, q, p->txd, socket, NULL);
		if (rc < 0) {
			LOG(ERR, "port %s: tx queue %u: %s", p->name, q, rte_strerror(-rc));
			return rc;
		}
	}
	return 0;
}

void fwd_port_kernel_iface(struct fwd_port *p)
{
	const char *arg = strstr(p->device, ",iface=");

	p->kif[0] = '\0';
	if (arg == NULL ||
	    (strcmp(p->driver, "net_af_xdp") != 0 && strcmp(p->driver, "net_af_packet") != 0))
		return;
	arg += strlen(",iface=");
	size_t n = strcspn(arg, ",");
	if (n > 0 && n < sizeof(p->kif)) {
		memcpy(p->kif, arg, n);
		p->kif[n] = '\0';
	}
}

int fwd_port_kif_rx_dropped(const struct fwd_port *p, uint64_t *v)
{
	char path[96];
	FILE *f;
	int rc = 0;

	if (p->kif[0] == '\0' || strchr(p->kif, '/') != NULL)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_dropped", p->kif);
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fscanf(f, "%" SCNu64, v) != 1)
		rc = -EIO;
	fclose(f);
	return rc;
}

/* The port's MAC, and the VLAN offloads configured for its interfaces. */
static int port_read_mac(struct fwd_port *p, const struct rte_eth_conf *conf)
{
	int rc = rte_eth_macaddr_get(p->port_id, &p->mac);

	memcpy(&p->mac48, &p->mac, sizeof(p->mac)); /* the two high bytes stay 0 */
	if (rc == 0)
		rc = fwd_iface_port_vlan_offload(
		        p->idx, false,
		        (conf->txmode.offloads & RTE_ETH_TX_OFFLOAD_VLAN_INSERT) != 0);
	return rc;
}

static int port_configure(struct fwd_port *p)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf = { 0 };
	int socket, rc;

	rc = rte_eth_dev_info_get(p->port_id, &info);
	if (rc < 0)
		return rc;
	snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name);
	fwd_port_kernel_iface(p);
	rc = port_check_caps(p, &info);
	if (rc < 0)
		return rc;
	port_rss_conf(&info, &conf, p->n_rxq);
	conf.rxmode.mtu = p->mtu;
	/* let the NIC verify IPv4 header checksums where it can: the fast path skips its own */
	if (p->mode == FWD_MODE_L3 && (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM)) {
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
		p->rx_ip4_cksum = 1;
	}
	/* VLAN interfaces' frames leave tagged by the NIC where it can; rx strip
	 * stays off: the worker strips in software (doc/architecture.md,
	 * "Interfaces") */
	conf.txmode.offloads |= info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
	rc = rte_eth_dev_configure(p->port_id, p->n_rxq, p->n_txq, &conf);
	if (rc < 0) {
		LOG(ERR, "port %s: configure: %s", p->name, rte_strerror(-rc));
		return rc;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &p->rxd, &p->txd);
	if (rc < 0)
		return rc;
	socket = rte_eth_dev_socket_id(p->port_id);
	rc = port_setup_queues(p, socket < 0 ? 0 : socket);
	if (rc < 0)
		return rc;
	if (strcmp(p->driver, "net_af_packet") == 0 && (rc = port_af_packet_nodefrag(p)) < 0)
		LOG(WARNING, "port %s: the kernel reassembles IPv4 fragments it receives: %s",
		    p->name, strerror(-rc));
	return port_read_mac(p, &conf);
}

static int port_init_one(struct fwd_port *p, const struct fwd_config *cfg,
                         const struct fwd_conf_port *cp, unsigned n_workers)
{
	snprintf(p->name, sizeof(p->name), "%s", cp->name);
	snprintf(p->device, sizeof(p->device), "%s", cp->device);
	p->mode = cp->mode;
	p->mtu = cp->mtu;
	p->n_rxq = cp->rx_queues;
	p->n_txq = n_workers;
	p->rxd = cp->rxd;
	p->txd = cp->txd;
	p->admin_up = 1;
	if (cp->mode == FWD_MODE_XCONNECT) {
		const struct fwd_conf_port *peer = fwd_config_port(cfg, cp->peer);
		p->peer = peer - cfg->ports;
	}
	if (cp->mode == FWD_MODE_BRIDGE) {
		const struct fwd_conf_bridge *b = fwd_config_bridge(cfg, cp->bridge);
		p->bridge = b - cfg->bridges;
	}
	int rc = port_find(cp, &p->port_id);
	if (rc < 0)
		return rc;
	p->probed = true;
	rc = port_configure(p);
	fwd_iface_port_sync(p->idx);
	return rc;
}

/*
 * af_xdp (DPDK 22.11) maps the mbuf pool as its UMEM and keeps pool
 * buffers for itself, per queue pair: its fill ring stocked with ring_size
 * (its default ring size, 2048) from set-up on, a tx ring of rxd entries,
 * and a completion ring of ring_size it empties only on its next tx burst.
 * Other PMDs take buffers per received burst and give them back on tx.
 */
unsigned fwd_ports_pinned_mbufs(const struct fwd_config *cfg, unsigned n_workers)
{
	unsigned n = 0;

	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *cp = &cfg->ports[i];
		char name[RTE_ETH_NAME_MAX_LEN];
		struct rte_eth_dev_info info;
		uint16_t id;

		device_ethdev_name(cp->device, name, sizeof(name));
		if (rte_eth_dev_get_port_by_name(name, &id) != 0 ||
		    rte_eth_dev_info_get(id, &info) != 0 ||
		    strcmp(info.driver_name, "net_af_xdp") != 0)
			continue; /* a missing device is reported by fwd_ports_init */
		unsigned ring = info.default_rxportconf.ring_size
		                        ? info.default_rxportconf.ring_size
		                        : 2048;
		n += RTE_MAX((unsigned)cp->rx_queues, n_workers) * (2 * ring + cp->rxd);
	}
	return n;
}

/* A bond's entry (bond/ joins its members and gives it their MAC): no
 * device, no queues; a release store of fwd_n_ports publishes it. The
 * table starts zeroed, and a bond's entry is only ever a bond's. */
int fwd_port_bond_add(const struct fwd_config *cfg, unsigned i)
{
	const struct fwd_conf_port *cp = &cfg->ports[i];
	struct fwd_port *p = &fwd_ports[i];

	if (i >= FWD_MAX_PORTS || !cp->bond || i > fwd_n_ports)
		return -EINVAL;
	/* not cleared: a reload's modules before bond/ may have set its filter */
	p->idx = i;
	p->port_id = FWD_PORT_ID_NONE;
	p->is_bond = 1;
	snprintf(p->name, sizeof(p->name), "%s", cp->name);
	snprintf(p->driver, sizeof(p->driver), "bond");
	p->mode = cp->mode;
	p->mtu = cp->mtu;
	p->admin_up = 1;
	if (cp->mac_port < i) { /* its first member's, set up before it */
		p->mac = fwd_ports[cp->mac_port].mac;
		memcpy(&p->mac48, &p->mac, sizeof(p->mac));
	}
	if (cp->mode == FWD_MODE_XCONNECT)
		p->peer = fwd_config_port(cfg, cp->peer) - cfg->ports;
	if (cp->mode == FWD_MODE_BRIDGE)
		p->bridge = fwd_config_bridge(cfg, cp->bridge) - cfg->bridges;
	fwd_iface_port_sync(p->idx);
	if (i == fwd_n_ports)
		__atomic_store_n(&fwd_n_ports, i + 1, __ATOMIC_RELEASE);
	return 0;
}

int fwd_ports_init(const struct fwd_config *cfg, unsigned n_workers)
{
	for (unsigned i = 0; i < cfg->n_ports; i++) {
		struct fwd_port *p = &fwd_ports[i];

		if (cfg->ports[i].bond) {
			int rc = fwd_port_bond_add(cfg, i);
			if (rc < 0)
				return rc;
			continue;
		}
		memset(p, 0, sizeof(*p));
		p->idx = i;
		fwd_n_ports = i + 1;
		int rc = port_init_one(p, cfg, &cfg->ports[i], n_workers);
		if (rc < 0) {
			LOG(ERR, "port %s (%s): initialisation failed", cfg->ports[i].name,
			    cfg->ports[i].device);
			return rc;
		}
	}
	return 0;
}

int fwd_ports_start(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct fwd_port *p = &fwd_ports[i];
		int rc;

		if (p->is_bond)
			continue; /* no device: bond/ keeps its link */
		rc = rte_eth_dev_start(p->port_id);

		if (rc < 0) {
			LOG(ERR, "port %s: start: %s", p->name, rte_strerror(-rc));
			return rc;
		}
		p->started = true;
		if (fwd_port_kif_rx_dropped(p, &p->kif_rx_dropped_start) < 0)
			p->kif_rx_dropped_start = 0;
		p->kif_rx_dropped_base = p->kif_rx_dropped_start;
		if ((rc = port_check_rx_fit(p)) < 0)
			return rc;
		/* l3 ports take frames for their MAC and multicast (IPv6's NDP is
		 * multicast); the others forward any frame */
		if (p->mode != FWD_MODE_L3) {
			rc = rte_eth_promiscuous_enable(p->port_id);
			if (rc < 0 && rc != -ENOTSUP)
				LOG(WARNING, "port %s: promiscuous mode: %s", p->name,
				    rte_strerror(-rc));
		} else if ((rc = rte_eth_allmulticast_enable(p->port_id)) < 0 && rc != -ENOTSUP) {
			LOG(WARNING, "port %s: all-multicast mode: %s", p->name, rte_strerror(-rc));
		}
		p->promiscuous = rte_eth_promiscuous_get(p->port_id) == 1;
	}
	fwd_ports_link_poll();
	return 0;
}

void fwd_ports_stop(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct fwd_port *p = &fwd_ports[i];
		if (!p->started)
			continue;
		int rc = rte_eth_dev_stop(p->port_id);
		if (rc < 0)
			LOG(WARNING, "port %s: stop: %s", p->name, rte_strerror(-rc));
		p->started = false;
	}
}

void fwd_ports_close(void)
{
	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct fwd_port *p = &fwd_ports[i];
		if (p->probed)
			rte_eth_dev_close(p->port_id);
		free(p->xstats_base);
		memset(p, 0, sizeof(*p));
	}
	fwd_n_ports = 0;
}

/* `fwdctl monitor port`: a link or admin change. */
static void port_event(const struct fwd_port *p, const char *action)
{
	struct fwd_event *e = fwd_event_new(FWD_EVENT_PORT, action);

	if (e != NULL)
		snprintf(e->port, sizeof(e->port), "%s", p->name);
}

int fwd_port_set_admin(struct fwd_port *p, bool up)
{
	int rc = p->is_bond ? 0
	         : up       ? rte_eth_dev_set_link_up(p->port_id)
	                    : rte_eth_dev_set_link_down(p->port_id);

	/* Virtual devices may not drive a link; the admin flag alone stops traffic. */
	if (rc < 0 && rc != -ENOTSUP)
		LOG(WARNING, "port %s: set link %s: %s", p->name, up ? "up" : "down",
		    rte_strerror(-rc));
	p->admin_up = up;
	fwd_iface_port_sync(p->idx);
	LOG(NOTICE, "port %s: admin %s", p->name, up ? "up" : "down");
	port_event(p, up ? "admin-up" : "admin-down");
	return 0;
}

unsigned fwd_ports_link_poll(void)
{
	unsigned up = 0;

	for (unsigned i = 0; i < fwd_n_ports; i++) {
		struct fwd_port *p = &fwd_ports[i];
		struct rte_eth_link link;

		if (!p->started || rte_eth_link_get_nowait(p->port_id, &link) < 0)
			continue;
		bool now = link.link_status == RTE_ETH_LINK_UP;
		if (now != p->link_up) {
			port_event(p, now ? "up" : "down");
			p->link_changes++;
			if (now)
				LOG(NOTICE, "port %s: link up, %s, %s-duplex", p->name,
				    rte_eth_link_speed_to_str(link.link_speed),
				    link.link_duplex ? "full" : "half");
			else
				LOG(NOTICE, "port %s: link down", p->name);
		}
		p->link_up = now;
		p->link_speed = now ? link.link_speed : 0;
		p->link_full_duplex = link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
		up += now;
	}
	return up;
}

/* ------------------------------------------------------------ life cycle */

#define LINK_POLL_MS 500

static struct event *link_ev;

static void on_link_poll(void *arg)
{
	(void)arg;
	fwd_ports_link_poll();
}

/* The ports themselves are set up by the top (main/lifecycle.c) before any
 * module, and started after; the module polls their links. */
static int port_module_init(const struct fwd_config *cfg)
{
	(void)cfg;
	link_ev = fwd_timer_every(LINK_POLL_MS * 1000, on_link_poll, NULL);
	return link_ev != NULL ? 0 : -ENOMEM;
}

static void port_module_fini(void)
{
	fwd_timer_free(&link_ev);
}

static struct fwd_module port_module = {
	.name = "port",
	.init = port_module_init,
	.fini = port_module_fini,
};
FWD_MODULE(port_module);
