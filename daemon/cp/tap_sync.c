/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A kernel interface (cp/tap.c) follows its fwd interface, at every reload
 * and once a second: MTU, carrier, admin state and addresses, where they
 * differ.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <sys/ioctl.h>

#include "core/log.h"
#include "core/ports.h"
#include "cp/tap_priv.h"

/* Once a second, the same failure is counted but logged once per TAP. */
void tap_log_sync(struct tap *t, const char *what, int err)
{
	tap_sync_errors.value++;
	if (t->last_err == what)
		return;
	t->last_err = what;
	LOG(WARNING, "interface %s: kernel interface: %s: %s", tap_if_name(t->id), what,
	    strerror(err < 0 ? -err : err));
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

/* The kernel's addresses of t become its interface's: IPv4 all, IPv6
 * those in use (a tentative one when its DAD is over, a duplicate never). */
static void sync_addrs(struct tap *t)
{
	const struct ip4_port_addrs *p4;
	const struct ip6_port_addrs *p6;
	struct fwd_ip6_prefix want6[ADDR6_MAX];
	unsigned n6 = 0, k;
	int rc;

	if (!tap_if_addrs(t->id, &p4, &p6))
		return;
	for (unsigned i = 0; i < p6->n; i++)
		if (p6->state[i] == ADDR6_PREFERRED)
			want6[n6++] = p6->a[i];
	for (unsigned i = k = 0; i < t->n4; i++) {
		uint32_t be = htonl(t->a4[i].addr);

		if (has4(p4->a, p4->n, &t->a4[i]))
			t->a4[k++] = t->a4[i];
		else if ((rc = tap_nl_addr(t->ns, false, t->ifindex, AF_INET, &be, t->a4[i].len)) <
		                 0 &&
		         rc != -EADDRNOTAVAIL)
			tap_log_sync(t, "deleting an IPv4 address", rc);
	}
	t->n4 = k;
	for (unsigned i = 0; i < p4->n; i++) {
		uint32_t be = htonl(p4->a[i].addr);

		if (has4(t->a4, t->n4, &p4->a[i]))
			continue;
		if ((rc = tap_nl_addr(t->ns, true, t->ifindex, AF_INET, &be, p4->a[i].len)) < 0)
			tap_log_sync(t, "adding an IPv4 address", rc);
		else
			t->a4[t->n4++] = p4->a[i];
	}
	for (unsigned i = k = 0; i < t->n6; i++) {
		if (has6(want6, n6, &t->a6[i]))
			t->a6[k++] = t->a6[i];
		else if ((rc = tap_nl_addr(t->ns, false, t->ifindex, AF_INET6, t->a6[i].addr,
		                           t->a6[i].len)) < 0 &&
		         rc != -EADDRNOTAVAIL)
			tap_log_sync(t, "deleting an IPv6 address", rc);
	}
	t->n6 = k;
	for (unsigned i = 0; i < n6; i++) {
		if (has6(t->a6, t->n6, &want6[i]))
			continue;
		if ((rc = tap_nl_addr(t->ns, true, t->ifindex, AF_INET6, want6[i].addr,
		                      want6[i].len)) < 0)
			tap_log_sync(t, "adding an IPv6 address", rc);
		else
			t->a6[t->n6++] = want6[i];
	}
}

static void sync_mtu(struct tap *t, const struct tap_view *v)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", v->name);
	ifr.ifr_mtu = v->mtu;
	if (ioctl(tap_ioctl_sock(t->ns), SIOCSIFMTU, &ifr) < 0)
		tap_log_sync(t, "setting the MTU", errno);
	else
		t->mtu = v->mtu;
}

/* MTU, carrier, admin state and addresses, where they differ. */
void tap_sync_one(struct tap *t)
{
	struct tap_view v;
	int rc;

	if (t == NULL || !tap_if_view(t->id, &v))
		return;
	if (t->mtu != v.mtu)
		sync_mtu(t, &v);
	if (t->carrier != v.carrier) {
		int on = v.carrier;

		if (ioctl(t->fd, TUNSETCARRIER, &on) < 0)
			tap_log_sync(t, "setting the carrier", errno);
		else
			t->carrier = v.carrier;
	}
	if (t->up != v.up) {
		rc = v.up ? tap_set_flags(t->ns, v.name, IFF_UP, 0)
		          : tap_set_flags(t->ns, v.name, 0, IFF_UP);
		if (rc < 0)
			tap_log_sync(t, "setting the link state", rc);
		else
			t->up = v.up;
	}
	sync_addrs(t);
}

void tap_sync_all(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < TAP_MAX_IDS; i++)
		tap_sync_one(taps[i]);
}
