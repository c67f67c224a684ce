/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel side of a VRF's interfaces (control.vrf_backend, fwd.yaml(5),
 * doc/frr.md "VRFs"). With "vrf", fwd makes a kernel VRF device named like
 * the VRF with its table (as `ip link add blue type vrf table 10`) and
 * enslaves the VRF's kernel interfaces to it, so FRR runs `router bgp ...
 * vrf blue`; with "netns" (kernels without the VRF driver: FRR's `zebra -n`
 * backend) it moves them into the network namespace /run/netns/<VRF>,
 * which it makes if there is none.
 *
 * A TAP is always made in fwd's own namespace first and then moved: the
 * kernel keeps its ifindex where that index is free, so the ifindexes of
 * fwd's kernel interfaces stay unique across its namespaces, and FPM's
 * RTA_OIF (an index inside the VRF's namespace) still names one interface
 * (cp/ifmap.h). Control thread only: setns() changes only the calling
 * thread's namespace, and fwd's is entered again before returning.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/ioctl.h>

#include "core/log.h"
#include "core/vrf.h"
#include "cp/tap_priv.h"

#define NETNS_DIR "/run/netns"

int tap_vrf_backend = FWD_VRF_BACKEND_DEV;
static int self_fd = -1;           /* fwd's own network namespace */
static int ns_fds[FWD_MAX_VRFS];   /* each VRF's namespace, + 1 (0: not open) */
static bool vrf_dev[FWD_MAX_VRFS]; /* a VRF device fwd made for that VRF */
static uint32_t dev_table[FWD_MAX_VRFS];

int tap_ns_enter(uint16_t ns)
{
	if (ns == 0)
		return 0;
	if (ns >= FWD_MAX_VRFS || ns_fds[ns] == 0 || self_fd < 0)
		return -ENOENT;
	return setns(ns_fds[ns] - 1, CLONE_NEWNET) < 0 ? -errno : 0;
}

void tap_ns_leave(uint16_t ns)
{
	if (ns != 0 && self_fd >= 0 && setns(self_fd, CLONE_NEWNET) < 0)
		LOG(ERR, "kernel interfaces: back to fwd's namespace: %s", strerror(errno));
}

/* A new named namespace at path, as `ip netns add`: a file with the
 * namespace of a thread that unshared bound on it. */
static int netns_make(const char *path)
{
	int fd, rc = 0;

	if (mkdir(NETNS_DIR, 0755) < 0 && errno != EEXIST)
		return -errno;
	if ((fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0)) < 0)
		return -errno;
	close(fd);
	if (unshare(CLONE_NEWNET) < 0)
		rc = -errno;
	else if (mount("/proc/thread-self/ns/net", path, "none", MS_BIND, NULL) < 0)
		rc = -errno;
	if (setns(self_fd, CLONE_NEWNET) < 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		unlink(path);
	return rc;
}

/* The namespace of VRF vrf open (made if absent), its sockets too, its
 * loopback up (FRR's sessions may use it). */
static int netns_open(uint16_t vrf)
{
	char path[64 + FWD_IFNAME_MAX];
	int fd, rc;

	if (ns_fds[vrf] != 0)
		return tap_ns_sockets(vrf);
	if (self_fd < 0 && (self_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	snprintf(path, sizeof(path), NETNS_DIR "/%s", fwd_vrf_name(vrf));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && (rc = netns_make(path)) < 0)
		return rc;
	if (fd < 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	ns_fds[vrf] = fd + 1;
	if ((rc = tap_ns_sockets(vrf)) < 0)
		return rc;
	tap_set_flags(vrf, "lo", IFF_UP, 0);
	LOG(NOTICE, "VRF %s: network namespace %s", fwd_vrf_name(vrf), path);
	return 0;
}

/* The VRF device of vrf, made if fwd has not made it yet. */
static int vrf_dev_open(uint16_t vrf)
{
	const struct fwd_vrf *v = &fwd_vrfs[vrf];
	int rc;

	if (vrf_dev[vrf] && dev_table[vrf] == v->table)
		return 0;
	if (vrf_dev[vrf])
		tap_nl_vrf_dev(false, v->name, 0); /* its table changed: made again */
	rc = tap_nl_vrf_dev(true, v->name, v->table);
	if (rc == -EEXIST)
		rc = 0; /* one left behind by an earlier run, or the admin's */
	if (rc < 0)
		return rc;
	vrf_dev[vrf] = true;
	dev_table[vrf] = v->table;
	LOG(NOTICE, "VRF %s: kernel VRF device %s, table %u", v->name, v->name, v->table);
	return 0;
}

static int place_dev(struct tap *t, uint16_t vrf)
{
	unsigned master;
	int rc = vrf_dev_open(vrf);

	if (rc == -EOPNOTSUPP) {
		LOG(ERR, "VRF %s: the kernel has no VRF driver: set control.vrf_backend: netns",
		    fwd_vrf_name(vrf));
		return rc;
	}
	if (rc < 0 || (master = if_nametoindex(fwd_vrf_name(vrf))) == 0)
		return rc < 0 ? rc : -errno;
	return tap_nl_link_set(t->ifindex, IFLA_MASTER, master);
}

static int place_netns(struct tap *t, uint16_t vrf)
{
	struct ifreq ifr;
	int rc;

	if ((rc = netns_open(vrf)) < 0)
		return rc;
	if ((rc = tap_nl_link_set(t->ifindex, IFLA_NET_NS_FD, (uint32_t)(ns_fds[vrf] - 1))) < 0)
		return rc;
	t->ns = vrf;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", tap_if_name(t->id));
	if (ioctl(tap_ioctl_sock(vrf), SIOCGIFINDEX, &ifr) < 0)
		return -errno;
	if ((uint32_t)ifr.ifr_ifindex != t->ifindex) /* taken there: FPM may mistake it */
		LOG(WARNING, "interface %s: ifindex %u in namespace %s, %u in fwd's",
		    tap_if_name(t->id), ifr.ifr_ifindex, fwd_vrf_name(vrf), t->ifindex);
	t->ifindex = (uint32_t)ifr.ifr_ifindex;
	return 0;
}

int tap_vrf_place(struct tap *t, uint16_t vrf)
{
	int rc;

	t->vrf = vrf;
	t->backend = (uint8_t)tap_vrf_backend;
	if (vrf == 0)
		return 0;
	rc = tap_vrf_backend == FWD_VRF_BACKEND_NETNS ? place_netns(t, vrf) : place_dev(t, vrf);
	if (rc < 0)
		LOG(ERR, "interface %s: into VRF %s (%s): %s", tap_if_name(t->id),
		    fwd_vrf_name(vrf),
		    tap_vrf_backend == FWD_VRF_BACKEND_NETNS ? "netns" : "vrf device",
		    strerror(-rc));
	return rc;
}

bool tap_vrf_moved(const struct tap *t)
{
	const struct fwd_iface *ifp = fwd_iface_get(t->id);

	return ifp != NULL && (ifp->vrf != t->vrf || t->backend != tap_vrf_backend);
}

void tap_vrf_gone(uint16_t vrf)
{
	if (vrf == 0 || vrf >= FWD_MAX_VRFS)
		return;
	if (vrf_dev[vrf] && tap_nl_vrf_dev(false, fwd_vrf_name(vrf), 0) == 0)
		LOG(NOTICE, "VRF %s: kernel VRF device removed", fwd_vrf_name(vrf));
	vrf_dev[vrf] = false;
	/* a namespace stays (FRR's config names it); fwd only lets go of it */
	tap_ns_sockets_close(vrf);
	if (ns_fds[vrf] != 0)
		close(ns_fds[vrf] - 1);
	ns_fds[vrf] = 0;
}

void tap_vrf_fini(void)
{
	for (unsigned i = 1; i < FWD_MAX_VRFS; i++)
		tap_vrf_gone((uint16_t)i);
	if (self_fd >= 0)
		close(self_fd);
	self_fd = -1;
}

static int on_vrf_del(uint16_t vrf, enum fwd_vrf_event ev)
{
	(void)ev;
	tap_vrf_gone(vrf);
	return 0;
}

RTE_INIT(tap_vrf_hooks)
{
	fwd_vrf_hook_add(FWD_VRF_EV_DEL, on_vrf_del);
}
