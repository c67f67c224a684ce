/* SPDX-License-Identifier: BSD-3-Clause */
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "core/config.h"
#include "fwd_suggest.h"
#include "port/port_check.h"

/* Drivers DPDK's PCI bus can use: the user-space I/O ones, and mlx5's
 * bifurcated kernel driver, which DPDK drives beside the kernel's netdev. */
static const char *const dpdk_drivers[] = { "vfio-pci", "uio_pci_generic", "igb_uio", "mlx5_core" };

static char sysfs_pci[256] = "/sys/bus/pci/devices";

void fwd_port_check_sysfs(const char *dir)
{
	snprintf(sysfs_pci, sizeof(sysfs_pci), "%s", dir);
}

bool fwd_device_is_pci(const char *dev)
{
	unsigned dom, bus, slot, fn;
	int end = 0;

	if (sscanf(dev, "%x:%x:%x.%x%n", &dom, &bus, &slot, &fn, &end) == 4 && dev[end] == '\0')
		return true;
	end = 0;
	return sscanf(dev, "%x:%x.%x%n", &bus, &slot, &fn, &end) == 3 && dev[end] == '\0';
}

/* As sysfs names it: domain 0000 when the file leaves it out. */
static void pci_name(const char *dev, char *out, size_t len)
{
	unsigned dom = 0, bus, slot, fn;

	if (sscanf(dev, "%x:%x:%x.%x", &dom, &bus, &slot, &fn) != 4) {
		dom = 0;
		sscanf(dev, "%x:%x.%x", &bus, &slot, &fn);
	}
	snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, slot, fn);
}

static void check_pci(struct fwd_conf_checker *c, const char *path, const char *dev)
{
	char name[32], link[PATH_MAX], target[PATH_MAX];
	const char *drv;
	ssize_t n;

	pci_name(dev, name, sizeof(name));
	snprintf(link, sizeof(link), "%s/%s", sysfs_pci, name);
	if (access(link, F_OK) != 0) {
		fwd_conf_error(c, path, "no PCI device %s on this machine (lspci -D lists them)",
		               name);
		return;
	}
	snprintf(link, sizeof(link), "%s/%s/driver", sysfs_pci, name);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	drv = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	for (size_t i = 0; i < RTE_DIM(dpdk_drivers); i++)
		if (strcmp(drv, dpdk_drivers[i]) == 0)
			return;
	fwd_conf_error(c, path,
	               "PCI device %s is %s%s%s, which DPDK cannot drive: bind it to vfio-pci "
	               "(dpdk-devbind.py -b vfio-pci %s)",
	               name, drv[0] ? "bound to '" : "bound to no driver", drv, drv[0] ? "'" : "",
	               name);
}

/* The closest existing interface name, for a typo. */
static void closest_iface(const char *want, char *out, size_t len)
{
	struct if_nameindex *all = if_nameindex();
	unsigned best = ~0u;

	out[0] = '\0';
	for (struct if_nameindex *i = all; i != NULL && i->if_index != 0; i++)
		if (fwd_suggest_better(want, strlen(want), i->if_name, &best))
			snprintf(out, len, "%s", i->if_name);
	if (all != NULL)
		if_freenameindex(all);
}

/* A vdev's interface arguments (af_packet, af_xdp: iface=; pcap: iface=,
 * rx_iface=, tx_iface=, rx_iface_in=) name interfaces that must exist;
 * net_tap and net_tun make theirs. */
static void check_vdev(struct fwd_conf_checker *c, const char *path, const char *dev)
{
	static const char *const keys[] = { ",iface=", ",rx_iface=", ",tx_iface=",
		                            ",rx_iface_in=" };

	if (strncmp(dev, "net_tap", 7) == 0 || strncmp(dev, "net_tun", 7) == 0)
		return;
	for (size_t k = 0; k < RTE_DIM(keys); k++) {
		const char *v = strstr(dev, keys[k]);
		char ifname[IF_NAMESIZE + 8], near[IF_NAMESIZE];

		if (v == NULL)
			continue;
		v += strlen(keys[k]);
		snprintf(ifname, sizeof(ifname), "%.*s", (int)strcspn(v, ","), v);
		if (if_nametoindex(ifname) != 0)
			continue;
		closest_iface(ifname, near, sizeof(near));
		if (near[0] != '\0')
			fwd_conf_error(
			        c, path,
			        "no interface '%s' in fwd-daemon's network namespace (did you "
			        "mean '%s'?)",
			        ifname, near);
		else
			fwd_conf_error(
			        c, path,
			        "no interface '%s' in fwd-daemon's network namespace (ip link "
			        "lists them)",
			        ifname);
	}
}

static void check_devices(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < cfg->n_ports && !fwd_conf_full(c); i++) {
		const char *dev = cfg->ports[i].device;
		char path[32];

		snprintf(path, sizeof(path), "ports[%u].device", i);
		if (fwd_device_is_pci(dev))
			check_pci(c, path, dev);
		else
			check_vdev(c, path, dev);
	}
}

RTE_INIT(port_check_register)
{
	fwd_config_register_machine_check(check_devices);
}
