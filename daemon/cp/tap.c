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
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_tun.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <event2/event.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/config_schema.h"
#include "core/control.h"
#include "core/counter.h"
#include "core/counters.h"
#include "core/daemon.h"
#include "core/log.h"
#include "core/module.h"
#include "core/ports.h"
#include "core/punt.h"
#include "core/rpc.h"
#include "core/worker.h"
#include "cp/ifmap.h"
#include "cp/tap.h"
#include "ip4/addr.h"
#include "ip4/output.h"
#include "ip6/addr6.h"
#include "ip6/output.h"
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
	unsigned n4, n6; /* the addresses the kernel was given */
	struct fwd_ip4_prefix a4[FWD_MAX_ADDRS];
	struct fwd_ip6_prefix a6[ADDR6_MAX];
	uint64_t n_up, n_up_dropped, n_down, n_down_dropped; /* port show */
};

static struct tap taps[FWD_MAX_PORTS];
static bool wanted[FWD_MAX_PORTS];        /* by the config being applied */
static bool wanted_before[FWD_MAX_PORTS]; /* for undo */
static struct event *sync_timer;
static int ioctl_fd = -1, nl_fd = -1;
static uint32_t nl_seq;

static FWD_COUNTER(up_frames, "tap_up_frames");
static FWD_COUNTER(up_dropped, "tap_up_dropped");
static FWD_COUNTER(down_frames, "tap_down_frames");
static FWD_COUNTER(down_no_mbuf, "tap_down_no_mbuf");
static FWD_COUNTER(down_no_route, "tap_down_no_route");
static FWD_COUNTER(down_arp, "tap_down_arp");
static FWD_COUNTER(down_ndp, "tap_down_ndp");
static FWD_COUNTER(down_too_big, "tap_down_too_big");
static FWD_COUNTER(down_invalid, "tap_down_invalid");
static FWD_COUNTER(down_not_ours, "tap_down_not_ours");
static FWD_COUNTER(sync_errors, "tap_sync_errors");

/* ---- the config key ---- */

static const struct conf_field port_row =
        CONF_F("tap", CONF_BOOL, struct fwd_conf_port, tap, .def = false);

static void tap_config_check(struct fwd_conf_checker *c, const struct fwd_config *cfg)
{
	char at[48];

	for (unsigned i = 0; i < cfg->n_ports; i++) {
		const struct fwd_conf_port *p = &cfg->ports[i];

		if (!p->tap)
			continue;
		snprintf(at, sizeof(at), "ports[%u].tap", i);
		if (p->mode != FWD_MODE_L3)
			fwd_conf_error(c, at, "only l3 ports have a kernel interface");
		else if (strlen(p->name) >= IFNAMSIZ || strchr(p->name, '/') != NULL ||
		         strcmp(p->name, ".") == 0 || strcmp(p->name, "..") == 0)
			fwd_conf_error(c, at,
			               "port name %s is not a kernel interface name (at most %d "
			               "characters, no '/')",
			               p->name, IFNAMSIZ - 1);
	}
}

RTE_INIT(tap_schema_register)
{
	fwd_config_schema_add("ports", &port_row);
	fwd_config_register_check(tap_config_check);
}

/* ---- netlink: addresses ---- */

struct nl_req {
	struct nlmsghdr h;
	struct ifaddrmsg ifa;
	char attrs[64];
};

static void nl_attr(struct nl_req *r, uint16_t type, const void *data, uint16_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)r + NLMSG_ALIGN(r->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (uint16_t)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

/* Send r and read the kernel's answer: 0 or -errno. */
static int nl_talk(struct nl_req *r)
{
	char buf[1024];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	r->h.nlmsg_seq = ++nl_seq;
	if (sendto(nl_fd, r, r->h.nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(nl_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n < 0)
			return -errno;
		for (; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != nl_seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
				return -EPROTO;
			return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
		}
	}
}

static int nl_addr(bool add, uint32_t ifindex, int family, const void *addr, uint8_t len)
{
	struct nl_req r;
	uint32_t flags = IFA_F_NODAD | IFA_F_PERMANENT;
	uint16_t alen = family == AF_INET ? 4 : 16;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.ifa));
	r.h.nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (add ? NLM_F_CREATE | NLM_F_REPLACE : 0);
	r.ifa.ifa_family = (uint8_t)family;
	r.ifa.ifa_prefixlen = len;
	r.ifa.ifa_index = ifindex;
	r.ifa.ifa_flags = (uint8_t)flags;
	nl_attr(&r, IFA_LOCAL, addr, alen);
	nl_attr(&r, IFA_ADDRESS, addr, alen);
	if (add && family == AF_INET && len < 31) { /* as `ip addr add ... brd +` */
		uint32_t b = *(const uint32_t *)addr | htonl(UINT32_MAX >> len);

		nl_attr(&r, IFA_BROADCAST, &b, 4);
	}
	if (add)
		nl_attr(&r, IFA_FLAGS, &flags, sizeof(flags));
	return nl_talk(&r);
}

/* Once a second, the same failure is counted but logged once per port. */
static void log_sync(uint8_t port, const char *what, int err)
{
	static const char *last[FWD_MAX_PORTS];

	sync_errors.value++;
	if (last[port] == what)
		return;
	last[port] = what;
	LOG(WARNING, "port %s: kernel interface: %s: %s", fwd_ports[port].name, what,
	    strerror(err < 0 ? -err : err));
}

/* ---- the interface's state ---- */

static int set_flags(const char *name, short set, short clear)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(ioctl_fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	return ioctl(ioctl_fd, SIOCSIFFLAGS, &ifr) < 0 ? -errno : 0;
}

static void sysctl6(uint8_t port, const char *key, const char *value)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", fwd_ports[port].name, key);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) < 0)
		log_sync(port, path, errno);
	if (fd >= 0)
		close(fd);
}

static bool has4(const struct fwd_ip4_prefix *a, unsigned n, const struct fwd_ip4_prefix *p)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].addr == p->addr && a[i].len == p->len)
			return true;
	return false;
}

static bool has6(const struct fwd_ip6_prefix *a, unsigned n, const struct fwd_ip6_prefix *p)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].len == p->len && memcmp(a[i].addr, p->addr, 16) == 0)
			return true;
	return false;
}

/* The kernel's addresses of port become fwd's: IPv4 all, IPv6 those in
 * use (a tentative one when its DAD is over, a duplicate never). */
static void sync_addrs(uint8_t port)
{
	struct tap *t = &taps[port];
	const struct ip4_port_addrs *p4 = &ip4_addrs[port];
	const struct ip6_port_addrs *p6 = &ip6_addrs[port];
	struct fwd_ip6_prefix want6[ADDR6_MAX];
	unsigned n6 = 0, k;
	int rc;

	for (unsigned i = 0; i < p6->n; i++)
		if (p6->state[i] == ADDR6_PREFERRED)
			want6[n6++] = p6->a[i];
	for (unsigned i = k = 0; i < t->n4; i++) {
		uint32_t be = htonl(t->a4[i].addr);

		if (has4(p4->a, p4->n, &t->a4[i]))
			t->a4[k++] = t->a4[i];
		else if ((rc = nl_addr(false, t->ifindex, AF_INET, &be, t->a4[i].len)) < 0 &&
		         rc != -EADDRNOTAVAIL)
			log_sync(port, "deleting an IPv4 address", rc);
	}
	t->n4 = k;
	for (unsigned i = 0; i < p4->n; i++) {
		uint32_t be = htonl(p4->a[i].addr);

		if (has4(t->a4, t->n4, &p4->a[i]))
			continue;
		if ((rc = nl_addr(true, t->ifindex, AF_INET, &be, p4->a[i].len)) < 0)
			log_sync(port, "adding an IPv4 address", rc);
		else
			t->a4[t->n4++] = p4->a[i];
	}
	for (unsigned i = k = 0; i < t->n6; i++) {
		if (has6(want6, n6, &t->a6[i]))
			t->a6[k++] = t->a6[i];
		else if ((rc = nl_addr(false, t->ifindex, AF_INET6, t->a6[i].addr, t->a6[i].len)) <
		                 0 &&
		         rc != -EADDRNOTAVAIL)
			log_sync(port, "deleting an IPv6 address", rc);
	}
	t->n6 = k;
	for (unsigned i = 0; i < n6; i++) {
		if (has6(t->a6, t->n6, &want6[i]))
			continue;
		if ((rc = nl_addr(true, t->ifindex, AF_INET6, want6[i].addr, want6[i].len)) < 0)
			log_sync(port, "adding an IPv6 address", rc);
		else
			t->a6[t->n6++] = want6[i];
	}
}

/* MTU, carrier, admin state and addresses, where they differ. */
static void sync_one(uint8_t port)
{
	struct tap *t = &taps[port];
	const struct fwd_port *p = &fwd_ports[port];
	bool up = p->admin_up != 0, carrier = p->link_up;
	int rc;

	if (t->fd < 0)
		return;
	if (t->mtu != p->mtu) {
		struct ifreq ifr;

		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->name);
		ifr.ifr_mtu = p->mtu;
		if (ioctl(ioctl_fd, SIOCSIFMTU, &ifr) < 0)
			log_sync(port, "setting the MTU", errno);
		else
			t->mtu = p->mtu;
	}
	if (t->carrier != carrier) {
		int on = carrier;

		if (ioctl(t->fd, TUNSETCARRIER, &on) < 0)
			log_sync(port, "setting the carrier", errno);
		else
			t->carrier = carrier;
	}
	if (t->up != up) {
		rc = up ? set_flags(p->name, IFF_UP, 0) : set_flags(p->name, 0, IFF_UP);
		if (rc < 0)
			log_sync(port, "setting the link state", rc);
		else
			t->up = up;
	}
	sync_addrs(port);
}

static void on_sync(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < fwd_n_ports; i++)
		sync_one((uint8_t)i);
}

/* ---- down: what the kernel sends ---- */

static bool local6(uint8_t port, const uint8_t ip[16])
{
	bool ll = ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80;

	return addr6_is_local(ll ? port : FWD_MAX_PORTS, ip);
}

static void down_one(uint8_t port, const uint8_t *frame, unsigned len)
{
	const struct fwd_port *p = &fwd_ports[port];
	enum tap_down c = tap_down_class(frame, len, p->mtu, addr4_is_local, local6, port);
	struct rte_mbuf *m;
	bool bcast = false;
	char *d;

	/* the directed broadcast of the port's subnet: the kernel addressed it
	 * to the link's broadcast MAC, as on any NOARP interface */
	if (c == TAP_DOWN_ROUTE4) {
		uint32_t dst = (uint32_t)frame[30] << 24 | (uint32_t)frame[31] << 16 |
		               (uint32_t)frame[32] << 8 | frame[33];

		if (addr4_is_bcast(dst) && addr4_port_of(dst) == port) {
			c = TAP_DOWN_LINK;
			bcast = true;
		}
	}
	if (c != TAP_DOWN_ROUTE4 && c != TAP_DOWN_ROUTE6 && c != TAP_DOWN_LINK)
		taps[port].n_down_dropped++;
	switch (c) {
	case TAP_DOWN_ARP:
		down_arp.value++;
		return;
	case TAP_DOWN_NDP:
		down_ndp.value++;
		return;
	case TAP_DOWN_TOO_BIG:
		down_too_big.value++;
		return;
	case TAP_DOWN_INVALID:
		down_invalid.value++;
		return;
	case TAP_DOWN_NOT_OURS:
		down_not_ours.value++;
		return;
	default:
		break;
	}
	m = rte_pktmbuf_alloc(fwd.pool);
	if (m == NULL || (d = rte_pktmbuf_append(m, (uint16_t)len)) == NULL) {
		rte_pktmbuf_free(m);
		down_no_mbuf.value++;
		taps[port].n_down_dropped++;
		return;
	}
	memcpy(d, frame, len);
	down_frames.value++;
	taps[port].n_down++;
	switch (c) {
	case TAP_DOWN_ROUTE4:
		if (ip4_output(m) < 0)
			down_no_route.value++;
		return;
	case TAP_DOWN_ROUTE6:
		if (ip6_output(m, port) < 0)
			down_no_route.value++;
		return;
	default: /* TAP_DOWN_LINK: the kernel's frame, from the port's MAC */
		memcpy(d + 6, &p->mac, 6);
		if (bcast)
			memset(d, 0xff, 6);
		fwd_control_ctrs(port)->created++;
		fwd_control_tx(m, port);
		return;
	}
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
	static uint8_t frame[FRAME_MAX];
	uint8_t port = (uint8_t)(uintptr_t)arg;

	(void)what;
	for (unsigned i = 0; i < TAP_BURST; i++) {
		ssize_t n = read(fd, frame, sizeof(frame));

		if (n <= 0)
			return; /* EAGAIN: all read */
		down_one(port, frame, (unsigned)n);
	}
}

/* ---- up: what fwd does not answer ---- */

static bool tap_up(struct rte_mbuf *m, uint8_t port)
{
	struct tap *t = port < FWD_MAX_PORTS ? &taps[port] : NULL;

	if (t == NULL || t->fd < 0)
		return false;
	if (m->nb_segs != 1 ||
	    write(t->fd, rte_pktmbuf_mtod(m, void *), rte_pktmbuf_data_len(m)) < 0) {
		up_dropped.value++; /* EAGAIN: the kernel's queue is full */
		t->n_up_dropped++;
		fwd_control_drop(m, port, FWD_DROP_PUNT_FULL);
		return true;
	}
	up_frames.value++;
	t->n_up++;
	fwd_control_ctrs(port)->consumed++;
	rte_pktmbuf_free(m);
	return true;
}

/* `port show`: the interface and its counters. */
static void tap_fill(struct fwd_rpc_call *call, const struct fwd_port *p, Fwd__PortInfo *pi)
{
	const struct tap *t = &taps[p->idx];
	Fwd__PortTap *pt;

	if (t->fd < 0 || (pt = fwd_rpc_alloc(call, sizeof(*pt))) == NULL)
		return;
	fwd__port_tap__init(pt);
	pt->name = fwd_rpc_strdup(call, p->name);
	pt->ifindex = t->ifindex;
	pt->up = t->n_up;
	pt->down = t->n_down;
	pt->up_dropped = t->n_up_dropped;
	pt->down_dropped = t->n_down_dropped;
	pi->tap = pt;
}

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
	if ((rc = set_flags(p->name, IFF_NOARP, IFF_UP)) < 0) {
		LOG(ERR, "port %s: kernel interface: NOARP: %s", p->name, strerror(-rc));
		goto fail;
	}
	memset(&ifr.ifr_ifru, 0, sizeof(ifr.ifr_ifru));
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, &p->mac, 6);
	if (ioctl(ioctl_fd, SIOCSIFHWADDR, &ifr) < 0 || ioctl(ioctl_fd, SIOCGIFINDEX, &ifr) < 0) {
		rc = -errno;
		LOG(ERR, "port %s: kernel interface: MAC or index: %s", p->name, strerror(-rc));
		goto fail;
	}
	t->ifindex = (uint32_t)ifr.ifr_ifindex;
	/* fwd makes the link-local address, runs DAD and reads RAs */
	sysctl6(port, "addr_gen_mode", "1");
	sysctl6(port, "accept_ra", "0");
	sysctl6(port, "accept_dad", "0");
	sysctl6(port, "dad_transmits", "0");
	sysctl6(port, "router_solicitations", "0");
	/* a namespace whose new interfaces have IPv6 off (default.disable_ipv6)
	 * still gets the port's addresses: set up as above, nothing is invented */
	sysctl6(port, "disable_ipv6", "0");
	t->ev = event_new(fwd.evbase, t->fd, EV_READ | EV_PERSIST, on_read,
	                  (void *)(uintptr_t)port);
	if (t->ev == NULL || event_add(t->ev, NULL) < 0) {
		rc = -ENOMEM;
		goto fail;
	}
	t->mtu = 0; /* sync_one sets them all */
	t->carrier = true;
	t->up = false;
	cp_ifmap_set(port, t->ifindex);
	LOG(NOTICE, "port %s: kernel interface %s, ifindex %" PRIu32, p->name, p->name, t->ifindex);
	sync_one(port);
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

/* The sockets for ioctls and netlink, opened with the first interface. */
static int sockets_open(void)
{
	struct timeval tv = { .tv_sec = 1 };

	if (ioctl_fd < 0)
		ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (nl_fd < 0) {
		nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
		if (nl_fd >= 0)
			setsockopt(nl_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (ioctl_fd < 0 || nl_fd < 0) {
		LOG(ERR, "kernel interfaces: sockets: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int tap_init(const struct fwd_config *cfg)
{
	int rc;

	for (unsigned i = 0; i < FWD_MAX_PORTS; i++)
		taps[i].fd = -1;
	want(cfg);
	sync_timer = fwd_timer_every(TAP_SYNC_US, on_sync, NULL);
	if (sync_timer == NULL)
		return -ENOMEM;
	fwd_punt_up = tap_up;
	fwd_port_rpc_set_tap_fill(tap_fill);
	if (!any_wanted())
		return 0;
	if ((rc = sockets_open()) < 0)
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
	if (ioctl_fd >= 0)
		close(ioctl_fd);
	if (nl_fd >= 0)
		close(nl_fd);
	ioctl_fd = nl_fd = -1;
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
	if (any_wanted() && sockets_open() < 0)
		return;
	tap_apply();
	on_sync(NULL);
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
