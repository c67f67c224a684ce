/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What fwd writes into the kernel for its TAP interfaces (cp/tap.c): a small
 * NETLINK_ROUTE writer for addresses, interface flags by ioctl, and IPv6
 * sysctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "core/log.h"
#include "cp/tap_priv.h"

/* The sockets of each namespace fwd's TAPs live in (index: the VRF whose
 * namespace it is, 0 fwd's own; cp/tap_vrf.c): an ioctl or netlink request
 * reaches the interfaces of the namespace its socket was made in. */
static struct {
	int ioctl_fd, nl_fd;
	bool open;
} socks[FWD_MAX_VRFS];
int tap_ioctl_fd = -1; /* socks[0].ioctl_fd */
static uint32_t nl_seq;

struct nl_req {
	struct nlmsghdr h;
	union {
		struct ifaddrmsg ifa;
		struct ifinfomsg ifi;
	};
	char attrs[128];
};

static struct rtattr *nl_attr(struct nl_req *r, uint16_t type, const void *data, uint16_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)r + NLMSG_ALIGN(r->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (uint16_t)RTA_LENGTH(len);
	if (len > 0)
		memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

/* A nested attribute ends here: its length covers what was added in it. */
static void nl_nest_end(struct nl_req *r, struct rtattr *a)
{
	a->rta_len = (uint16_t)((char *)r + r->h.nlmsg_len - (char *)a);
}

/* Send r on fd and read the kernel's answer: 0 or -errno. */
static int nl_talk(int fd, struct nl_req *r)
{
	char buf[1024];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	r->h.nlmsg_seq = ++nl_seq;
	if (sendto(fd, r, r->h.nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
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

int tap_ioctl_sock(uint16_t ns)
{
	return ns < FWD_MAX_VRFS && socks[ns].open ? socks[ns].ioctl_fd : -1;
}

/* The sockets of namespace ns (0: fwd's own): opened where they are made. */
int tap_ns_sockets(uint16_t ns)
{
	struct timeval tv = { .tv_sec = 1 };
	int rc;

	if (ns >= FWD_MAX_VRFS)
		return -EINVAL;
	if (socks[ns].open)
		return 0;
	if ((rc = tap_ns_enter(ns)) < 0)
		return rc;
	socks[ns].ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	socks[ns].nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	rc = socks[ns].ioctl_fd < 0 || socks[ns].nl_fd < 0 ? -errno : 0;
	tap_ns_leave(ns);
	if (rc < 0) {
		LOG(ERR, "kernel interfaces: sockets: %s", strerror(-rc));
		if (socks[ns].ioctl_fd >= 0)
			close(socks[ns].ioctl_fd);
		if (socks[ns].nl_fd >= 0)
			close(socks[ns].nl_fd);
		return rc;
	}
	setsockopt(socks[ns].nl_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	socks[ns].open = true;
	if (ns == 0)
		tap_ioctl_fd = socks[0].ioctl_fd;
	return 0;
}

void tap_ns_sockets_close(uint16_t ns)
{
	if (ns >= FWD_MAX_VRFS || !socks[ns].open)
		return;
	close(socks[ns].ioctl_fd);
	close(socks[ns].nl_fd);
	socks[ns].open = false;
	if (ns == 0)
		tap_ioctl_fd = -1;
}

/* RTM_NEWLINK on fwd's own namespace: attr (IFLA_MASTER, IFLA_NET_NS_FD)
 * of the interface ifindex set to value. */
int tap_nl_link_set(uint32_t ifindex, uint16_t attr, uint32_t value)
{
	struct nl_req r;

	if (!socks[0].open)
		return -ENOTCONN;
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.ifi));
	r.h.nlmsg_type = RTM_NEWLINK;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.ifi.ifi_family = AF_UNSPEC;
	r.ifi.ifi_index = (int)ifindex;
	nl_attr(&r, attr, &value, sizeof(value));
	return nl_talk(socks[0].nl_fd, &r);
}

/* `ip link add NAME type vrf table TABLE` and up (add), or `ip link del
 * NAME`, in fwd's own namespace: 0 or -errno (-EOPNOTSUPP: no VRF driver). */
int tap_nl_vrf_dev(bool add, const char *name, uint32_t table)
{
	struct nl_req r;
	struct rtattr *info, *data;

	if (!socks[0].open)
		return -ENOTCONN;
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.ifi));
	r.h.nlmsg_type = add ? RTM_NEWLINK : RTM_DELLINK;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (add ? NLM_F_CREATE | NLM_F_EXCL : 0);
	r.ifi.ifi_family = AF_UNSPEC;
	r.ifi.ifi_flags = add ? IFF_UP : 0;
	r.ifi.ifi_change = add ? IFF_UP : 0;
	nl_attr(&r, IFLA_IFNAME, name, (uint16_t)(strlen(name) + 1));
	if (add) {
		info = nl_attr(&r, IFLA_LINKINFO, NULL, 0);
		nl_attr(&r, IFLA_INFO_KIND, "vrf", 4);
		data = nl_attr(&r, IFLA_INFO_DATA, NULL, 0);
		nl_attr(&r, IFLA_VRF_TABLE, &table, sizeof(table));
		nl_nest_end(&r, data);
		nl_nest_end(&r, info);
	}
	return nl_talk(socks[0].nl_fd, &r);
}

int tap_nl_addr(uint16_t ns, bool add, uint32_t ifindex, int family, const void *addr, uint8_t len)
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
	if (ns >= FWD_MAX_VRFS || !socks[ns].open)
		return -ENOTCONN;
	return nl_talk(socks[ns].nl_fd, &r);
}

int tap_set_flags(uint16_t ns, const char *name, short set, short clear)
{
	struct ifreq ifr;
	int fd = tap_ioctl_sock(ns);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	return ioctl(fd, SIOCSIFFLAGS, &ifr) < 0 ? -errno : 0;
}

void tap_sysctl(struct tap *t, const char *ip, const char *key, const char *value)
{
	char path[128];
	int fd;

	/* /proc/sys/net is the namespace of the thread that opens it */
	snprintf(path, sizeof(path), "/proc/sys/net/%s/conf/%s/%s", ip, tap_if_name(t->id), key);
	fd = tap_ns_enter(t->ns) < 0 ? -1 : open(path, O_WRONLY | O_CLOEXEC);
	tap_ns_leave(t->ns);
	if (fd < 0 || write(fd, value, strlen(value)) < 0)
		tap_log_sync(t, path, errno);
	if (fd >= 0)
		close(fd);
}

/* The sockets of fwd's own namespace, opened with the first interface. */
int tap_sockets_open(void)
{
	return tap_ns_sockets(0);
}

void tap_sockets_close(void)
{
	for (unsigned i = 0; i < FWD_MAX_VRFS; i++)
		tap_ns_sockets_close((uint16_t)i);
}
