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
#include <stdlib.h>
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

struct tap *taps[TAP_MAX_IDS];
static bool wanted[FWD_MAX_PORTS];        /* ports[].tap of the config being applied */
static bool wanted_before[FWD_MAX_PORTS]; /* for undo */
static int backend_before;
static struct event *sync_timer;

/* ---- interfaces come and go ---- */

void tap_close(uint16_t id)
{
	struct tap *t = tap_of(id);

	if (t == NULL)
		return;
	if (t->ev != NULL)
		event_free(t->ev);
	close(t->fd); /* the interface is not persistent: it goes with its fd */
	LOG(NOTICE, "interface %s: kernel interface removed", tap_if_name(id));
	taps[id] = NULL;
	free(t);
	cp_ifmap_set(id, 0);
}

/* The kernel interface's MAC: the interface's, or (a loopback has none)
 * the one the kernel chose; its index. */
static int tap_mac_index(struct tap *t, const struct tap_view *v)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", v->name);
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	if (v->mac != NULL) {
		memcpy(ifr.ifr_hwaddr.sa_data, v->mac, 6);
		if (ioctl(tap_ioctl_fd, SIOCSIFHWADDR, &ifr) < 0)
			return -errno;
	}
	if (ioctl(tap_ioctl_fd, SIOCGIFHWADDR, &ifr) < 0)
		return -errno;
	memcpy(&t->kmac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(tap_ioctl_fd, SIOCGIFINDEX, &ifr) < 0)
		return -errno;
	t->ifindex = (uint32_t)ifr.ifr_ifindex;
	return 0;
}

/* The kernel's TAP of that name, ours alone, NOARP, down, with its MAC. */
static int tap_create(struct tap *t, const struct tap_view *v)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", v->name);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	t->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	/* a persistent interface of that name (one left behind) is taken over */
	if (t->fd < 0 || ioctl(t->fd, TUNSETIFF, &ifr) < 0) {
		rc = -errno;
		LOG(ERR, "interface %s: cannot create its kernel interface: %s", v->name,
		    strerror(-rc));
		return rc;
	}
	if (ioctl(t->fd, TUNSETPERSIST, 0) < 0)
		rc = -errno;
	else if ((rc = tap_set_flags(0, v->name, IFF_NOARP, IFF_UP)) == 0)
		rc = tap_mac_index(t, v);
	if (rc < 0)
		LOG(ERR, "interface %s: kernel interface: persistence, NOARP, MAC or index: %s",
		    v->name, strerror(-rc));
	return rc;
}

/* fwd makes the link-local address, runs DAD and reads RAs; a namespace
 * whose new interfaces have IPv6 off (default.disable_ipv6) still gets the
 * interface's addresses. A loopback's TAP takes packets for its addresses
 * that came in elsewhere: no reverse-path filter on it. */
static void tap_sysctls(struct tap *t)
{
	tap_sysctl(t, "ipv6", "addr_gen_mode", "1");
	tap_sysctl(t, "ipv6", "accept_ra", "0");
	tap_sysctl(t, "ipv6", "accept_dad", "0");
	tap_sysctl(t, "ipv6", "dad_transmits", "0");
	tap_sysctl(t, "ipv6", "router_solicitations", "0");
	tap_sysctl(t, "ipv6", "disable_ipv6", "0");
	if (t->no_link)
		tap_sysctl(t, "ipv4", "rp_filter", "0");
}

static int tap_open(uint16_t id)
{
	struct tap_view v;
	struct tap *t;
	int rc;

	if (id >= TAP_MAX_IDS || !tap_if_view(id, &v))
		return -ENODEV;
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return -ENOMEM;
	t->fd = -1;
	t->id = id;
	t->no_link = !v.has_link;
	/* made in fwd's namespace, then placed: sysctls after (a move resets them) */
	if ((rc = tap_create(t, &v)) < 0 || (rc = tap_vrf_place(t, fwd_iface_get(id)->vrf)) < 0)
		goto fail;
	tap_sysctls(t);
	t->ev = event_new(fwd.evbase, t->fd, EV_READ | EV_PERSIST, tap_on_read, t);
	if (t->ev == NULL || event_add(t->ev, NULL) < 0) {
		rc = -ENOMEM;
		goto fail;
	}
	t->carrier = true; /* sync_one sets them all */
	taps[id] = t;
	if (cp_ifmap_set(id, t->ifindex) < 0) /* FPM cannot name it: counted as no_dev */
		LOG(WARNING, "interface %s: kernel interface: no memory to map its index", v.name);
	LOG(NOTICE, "interface %s: kernel interface %s, ifindex %" PRIu32, v.name, v.name,
	    t->ifindex);
	tap_sync_one(t);
	return 0;
fail:
	if (t->ev != NULL)
		event_free(t->ev);
	if (t->fd >= 0)
		close(t->fd);
	free(t);
	return rc;
}

static bool want_id(unsigned id)
{
	return id < FWD_MAX_PORTS ? id < fwd_n_ports && wanted[id] : tap_if_wanted((uint16_t)id);
}

/* The interfaces the config wants, and no others. */
static int tap_apply(void)
{
	int rc = 0, r;

	/* one that fails (its name taken by another kind of kernel interface)
	 * leaves the others be: the first error is returned, each is logged */
	for (unsigned i = 0; i < TAP_MAX_IDS; i++) {
		if (!want_id(i) || (taps[i] != NULL && tap_vrf_moved(taps[i])))
			tap_close((uint16_t)i); /* a VRF's change: made again in the new one */
		else if (taps[i] == NULL && (r = tap_open((uint16_t)i)) < 0 && rc == 0)
			rc = r;
	}
	return rc;
}

/* Once a second: the interfaces follow their ports, and one whose
 * interface changed VRF since (fwdctl iface set ... vrf) is made again. */
static void tap_tick(void *arg)
{
	for (unsigned i = 0; i < TAP_MAX_IDS; i++)
		if (taps[i] != NULL && tap_vrf_moved(taps[i])) {
			tap_apply();
			break;
		}
	tap_sync_all(arg);
}

static void want(const struct fwd_config *cfg)
{
	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		wanted[i] = i < cfg->n_ports && cfg->ports[i].tap;
}

static bool any_wanted(void)
{
	for (unsigned i = 0; i < TAP_MAX_IDS; i++)
		if (want_id(i))
			return true;
	return false;
}

static int tap_init(const struct fwd_config *cfg)
{
	int rc;

	want(cfg);
	tap_vrf_backend = cfg->control.vrf_backend;
	sync_timer = fwd_timer_every(TAP_SYNC_US, tap_tick, NULL);
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
	for (unsigned i = 0; i < TAP_MAX_IDS; i++)
		tap_close((uint16_t)i);
	memset(wanted, 0, sizeof(wanted));
	fwd_timer_free(&sync_timer);
	tap_vrf_fini();
	tap_sockets_close();
	cp_ifmap_clear();
}

static int tap_reload_apply(const struct fwd_config *cur, const struct fwd_config *next,
                            struct fwd_reload_log *log)
{
	(void)cur;
	(void)log;
	memcpy(wanted_before, wanted, sizeof(wanted));
	backend_before = tap_vrf_backend;
	want(next);
	tap_vrf_backend = next->control.vrf_backend;
	return 0;
}

static void tap_undo(void)
{
	memcpy(wanted, wanted_before, sizeof(wanted));
	tap_vrf_backend = backend_before;
}

/* After every module applied (addresses and interfaces included): open
 * and close, then bring every interface in step. */
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
