/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interfaces[] in fwd.yaml(5): VLAN interfaces on a port and loopbacks. The
 * section is this module's own (a config section, core/config.h): its
 * struct, its keys (iface_config.c) and its checks (iface_check.c).
 */
#ifndef FWD_IFACE_CONFIG_H
#define FWD_IFACE_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"

#define FWD_IFNAME_LEN      15   /* a kernel interface takes the same name (IFNAMSIZ - 1) */
#define FWD_MAX_CONF_IFACES 4160 /* 4094 VLANs on one port, and loopbacks */

struct fwd_conf_iface {
	char name[FWD_NAME_MAX]; /* at most FWD_IFNAME_LEN characters */
	bool loopback;
	char port[FWD_NAME_MAX]; /* VLAN: the port that carries it */
	uint16_t vlan;           /* VLAN: 1-4094 */
	enum fwd_port_mode mode; /* VLAN: l3 (default) or bridge */
	char bridge[FWD_NAME_MAX];
	uint16_t mtu; /* VLAN: 0 = the port's */
	unsigned n_addresses;
	struct fwd_prefix addresses[FWD_MAX_ADDRS];
	bool tap;
	bool ra;
	enum fwd_rpf rpf;
	char acl_in[FWD_NAME_MAX];
	char acl_out[FWD_NAME_MAX];
	char vrf[FWD_NAME_MAX]; /* vrfs[].name, "" = default (vrf/vrf_config.h) */
	struct fwd_conf_pos pos;
};

struct iface_conf {
	unsigned n;
	struct fwd_conf_iface *ifaces; /* heap array */
};

/* cfg's interfaces[] */
const struct iface_conf *iface_conf(const struct fwd_config *cfg);
struct iface_conf *iface_conf_mut(struct fwd_config *cfg);
/* interfaces[] entry called name, or NULL */
const struct fwd_conf_iface *iface_conf_find(const struct fwd_config *cfg, const char *name);
/* Do two entries say the same? */
bool iface_conf_equal(const struct fwd_conf_iface *a, const struct fwd_conf_iface *b);
/* The MTU a VLAN interface runs with (its own, or its port's). */
uint16_t iface_conf_mtu(const struct fwd_config *cfg, const struct fwd_conf_iface *f);

#endif
