/* SPDX-License-Identifier: BSD-3-Clause */
/* TEMP: trivial neighbour and ICMP stubs so the daemon links before the
 * neigh branch is merged. Drop this file at merge. */
#include <errno.h>

#include "ip4/icmp.h"
#include "neigh/neigh.h"

const char *neigh_state_name(enum neigh_state s)
{
	(void)s;
	return "none";
}

int neigh_ref(uint32_t ip, uint8_t port, uint32_t *nh)
{
	(void)ip, (void)port, (void)nh;
	return -ENOSPC;
}

void neigh_unref(uint32_t nh)
{
	(void)nh;
}

int neigh_add_static(uint32_t ip, uint8_t port, const struct rte_ether_addr *mac, char *err,
                     size_t errlen)
{
	(void)ip, (void)port, (void)mac, (void)err, (void)errlen;
	return -ENOTSUP;
}

int neigh_del(uint32_t ip, uint8_t port)
{
	(void)ip, (void)port;
	return -ENOENT;
}

unsigned neigh_flush(uint8_t port, bool with_static)
{
	(void)port, (void)with_static;
	return 0;
}

void neigh_port_changed(uint8_t port)
{
	(void)port;
}

void neigh_output(struct rte_mbuf *m, uint32_t nh)
{
	(void)nh;
	rte_pktmbuf_free(m);
}

void neigh_output_glean(struct rte_mbuf *m, uint8_t port, uint32_t dst)
{
	(void)port, (void)dst;
	rte_pktmbuf_free(m);
}

uint64_t neigh_count(void)
{
	return 0;
}

int neigh_describe(uint32_t nh, enum neigh_state *state, struct rte_ether_addr *mac)
{
	(void)nh, (void)state, (void)mac;
	return -ENOENT;
}

void icmp4_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                      uint8_t in_port)
{
	(void)m, (void)type, (void)code, (void)aux, (void)in_port;
}
