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
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "core/log.h"
#include "cp/tap_priv.h"

int tap_ioctl_fd = -1;
static int nl_fd = -1;
static uint32_t nl_seq;

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

int tap_nl_addr(bool add, uint32_t ifindex, int family, const void *addr, uint8_t len)
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

int tap_set_flags(const char *name, short set, short clear)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(tap_ioctl_fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	return ioctl(tap_ioctl_fd, SIOCSIFFLAGS, &ifr) < 0 ? -errno : 0;
}

void tap_sysctl(struct tap *t, const char *ip, const char *key, const char *value)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/%s/conf/%s/%s", ip, tap_if_name(t->id), key);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) < 0)
		tap_log_sync(t, path, errno);
	if (fd >= 0)
		close(fd);
}

/* The sockets for ioctls and netlink, opened with the first interface. */
int tap_sockets_open(void)
{
	struct timeval tv = { .tv_sec = 1 };

	if (tap_ioctl_fd < 0)
		tap_ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (nl_fd < 0) {
		nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
		if (nl_fd >= 0)
			setsockopt(nl_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (tap_ioctl_fd < 0 || nl_fd < 0) {
		LOG(ERR, "kernel interfaces: sockets: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

void tap_sockets_close(void)
{
	if (tap_ioctl_fd >= 0)
		close(tap_ioctl_fd);
	if (nl_fd >= 0)
		close(nl_fd);
	tap_ioctl_fd = nl_fd = -1;
}
