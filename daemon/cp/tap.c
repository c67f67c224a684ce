/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane ports (ports[].tap, doc/architecture.md): one kernel TAP
 * interface per such port, named like it, in the daemon's namespace, with
 * the port's MAC, MTU, link state (admin: IFF_UP, link: carrier) and
 * addresses of both families. The kernel must not speak ARP or NDP on it
 * (fwd does): the interface is NOARP, and IPv6 makes no link-local address
 * of its own, accepts no RA and runs no DAD (fwd's addresses are given to
 * it with IFA_F_NODAD once fwd's DAD is over).
 *
 * Up: local delivery (ip4/local.c, ip6/local.c) hands what fwd does not
 * answer itself to tap_up through core/punt.h's hook; the punt ring and its
 * policing bound it before, the write (non-blocking) after: a full TAP
 * queue is a counted drop. Down: the TAP's fd in the event loop, at most
 * TAP_BURST frames an event; tap_down_class (tap_class.c) says where each
 * goes. The interface's state follows the port's at every reload and once
 * a second (fwdctl addr, port set, link changes): only differences reach
 * the kernel, by ioctl and a small NETLINK_ROUTE writer.
 *
 * This file opens and closes the interfaces (the module); tap_config.c
 * checks the key, tap_netlink.c writes into the kernel, tap_sync.c makes an
 * interface follow its port, tap_io.c moves the frames.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_tun.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>

#include <event2/event.h>

#include "core/daemon.h"
#include "core/control.h"
#include "core/log.h"
#include "core/module.h"
#include "core/ports.h"
#include "core/punt.h"
#include "cp/ifmap.h"
#include "cp/tap_priv.h"

struct tap taps[FWD_MAX_PORTS];
static bool wanted[FWD_MAX_PORTS];        /* by the config being applied */
static bool wanted_before[FWD_MAX_PORTS]; /* for undo */
static struct event *sync_timer;

/* ---- interfaces come and go ---- */

static void tap_close(uint8_t port)
{
	struct tap *t = &taps[port];

	if (t->fd < 0)
		return;
	if (t->ev != NULL)
		event_free(t->ev);
	close(t->fd); /* the interface is not persistent: it goes with its fd */
	LOG(NOTICE, "port %s: kernel interface removed", fwd_ports[port].name);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	cp_ifmap_set(port, 0);
}

static int tap_open(uint8_t port)
{
	struct tap *t = &taps[port];
	const struct fwd_port *p = &fwd_ports[port];
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->name);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	t->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	/* a persistent interface of that name (one left behind) is taken over */
	if (t->fd < 0 || ioctl(t->fd, TUNSETIFF, &ifr) < 0) {
		rc = -errno;
		LOG(ERR, "port %s: cannot create its kernel interface: %s", p->name, strerror(-rc));
		goto fail;
	}
	if (ioctl(t->fd, TUNSETPERSIST, 0) < 0) {
		rc = -errno;
		LOG(ERR, "port %s: kernel interface: not persistent: %s", p->name, strerror(-rc));
		goto fail;
	}
	if ((rc = tap_set_flags(p->name, IFF_NOARP, IFF_UP)) < 0) {
		LOG(ERR, "port %s: kernel interface: NOARP: %s", p->name, strerror(-rc));
		goto fail;
	}
	memset(&ifr.ifr_ifru, 0, sizeof(ifr.ifr_ifru));
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, &p->mac, 6);
	if (ioctl(tap_ioctl_fd, SIOCSIFHWADDR, &ifr) < 0 ||
	    ioctl(tap_ioctl_fd, SIOCGIFINDEX, &ifr) < 0) {
		rc = -errno;
		LOG(ERR, "port %s: kernel interface: MAC or index: %s", p->name, strerror(-rc));
		goto fail;
	}
	t->ifindex = (uint32_t)ifr.ifr_ifindex;
	/* fwd makes the link-local address, runs DAD and reads RAs */
	tap_sysctl6(port, "addr_gen_mode", "1");
	tap_sysctl6(port, "accept_ra", "0");
	tap_sysctl6(port, "accept_dad", "0");
	tap_sysctl6(port, "dad_transmits", "0");
	tap_sysctl6(port, "router_solicitations", "0");
	/* a namespace whose new interfaces have IPv6 off (default.disable_ipv6)
	 * still gets the port's addresses: set up as above, nothing is invented */
	tap_sysctl6(port, "disable_ipv6", "0");
	t->ev = event_new(fwd.evbase, t->fd, EV_READ | EV_PERSIST, tap_on_read,
	                  (void *)(uintptr_t)port);
	if (t->ev == NULL || event_add(t->ev, NULL) < 0) {
		rc = -ENOMEM;
		goto fail;
	}
	t->mtu = 0; /* sync_one sets them all */
	t->carrier = true;
	t->up = false;
	if (cp_ifmap_set(port, t->ifindex) < 0) /* FPM cannot name it: counted as no_dev */
		LOG(WARNING, "port %s: kernel interface: no memory to map its index", p->name);
	LOG(NOTICE, "port %s: kernel interface %s, ifindex %" PRIu32, p->name, p->name, t->ifindex);
	tap_sync_one(port);
	return 0;
fail:
	if (t->ev != NULL)
		event_free(t->ev);
	if (t->fd >= 0)
		close(t->fd);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	return rc;
}

/* The interfaces the config wants (wanted[]), and no others. */
static int tap_apply(void)
{
	int rc = 0;

	for (unsigned i = 0; i < FWD_MAX_PORTS; i++) {
		if (i >= fwd_n_ports || !wanted[i])
			tap_close((uint8_t)i);
		else if (taps[i].fd < 0 && rc == 0)
			rc = tap_open((uint8_t)i);
	}
	return rc;
}

static void want(const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		wanted[i] = i < cfg->n_ports && cfg->ports[i].tap;
}

static bool any_wanted(void)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		if (wanted[i])
			return true;
	return false;
}

static int tap_init(const struct fwd_config *cfg)
{
	int rc;

	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		taps[i].fd = -1;
	want(cfg);
	sync_timer = fwd_timer_every(TAP_SYNC_US, tap_sync_all, NULL);
	if (sync_timer == NULL)
		return -ENOMEM;
	fwd_punt_up = tap_up;
	fwd_port_rpc_set_tap_fill(tap_fill);
	if (!any_wanted())
		return 0;
	if ((rc = tap_sockets_open()) < 0)
		return rc;
	return tap_apply();
}

static void tap_fini(void)
{
	fwd_punt_up = NULL;
	fwd_port_rpc_set_tap_fill(NULL);
	memset(wanted, 0, sizeof(wanted));
	tap_apply();
	fwd_timer_free(&sync_timer);
	tap_sockets_close();
	cp_ifmap_clear();
}

static int tap_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	(void)cur;
	(void)log;
	memcpy(wanted_before, wanted, sizeof(wanted));
	want(next);
	return 0;
}

static void tap_undo(void)
{
	memcpy(wanted, wanted_before, sizeof(wanted));
}

/* After every module applied (addresses included): open and close, then
 * bring every interface in step. */
static void tap_commit(void)
{
	if (any_wanted() && tap_sockets_open() < 0)
		return;
	tap_apply();
	tap_sync_all(NULL);
}

static struct fwd_module tap_module = {
	.name = "tap",
	.depends_on = "l3-config",
	.init = tap_init,
	.fini = tap_fini,
	.reload_apply = tap_reload_apply,
	.undo = tap_undo,
	.commit = tap_commit,
};
FWD_MODULE(tap_module);
