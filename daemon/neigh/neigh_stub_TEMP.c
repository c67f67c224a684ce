/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TEMPORARY stand-in for the neighbour module (branch neigh) so the daemon
 * links and the benchmarks can run: a small linear table, static entries
 * only, no ARP, no hold queue (punted packets are dropped), no ICMP
 * errors. Dropped when neigh is merged.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/module.h"
#include "ip4/icmp.h"
#include "ip4/nh.h"
#include "neigh/neigh.h"
#include "port/port.h"

#define STUB_MAX 4096

struct stub_neigh {
	uint32_t ip, nh, refs;
	uint8_t port;
	bool used, is_static;
	struct rte_ether_addr mac;
};

static struct stub_neigh tab[STUB_MAX];

static struct stub_neigh *stub_find(uint32_t ip, uint8_t port, bool create)
{
	struct stub_neigh *free_slot = NULL;

	for (unsigned i = 0; i < STUB_MAX; i++) {
		if (tab[i].used && tab[i].ip == ip && tab[i].port == port)
			return &tab[i];
		if (!tab[i].used && free_slot == NULL)
			free_slot = &tab[i];
	}
	if (!create || free_slot == NULL || nh4_alloc(ip, port, &free_slot->nh) < 0)
		return NULL;
	free_slot->used = true;
	free_slot->ip = ip;
	free_slot->port = port;
	free_slot->refs = 0;
	free_slot->is_static = false;
	return free_slot;
}

static void stub_put(struct stub_neigh *n)
{
	if (n->refs == 0 && !n->is_static) {
		nh4_release(n->nh);
		n->used = false;
	}
}

const char *neigh_state_name(enum neigh_state s)
{
	return s == NEIGH_PERMANENT ? "permanent" : "incomplete";
}

int neigh_ref(uint32_t ip, uint8_t port, uint32_t *nh)
{
	struct stub_neigh *n = stub_find(ip, port, true);

	if (n == NULL)
		return -ENOSPC;
	n->refs++;
	*nh = n->nh;
	return 0;
}

void neigh_unref(uint32_t nh)
{
	for (unsigned i = 0; i < STUB_MAX; i++) {
		if (tab[i].used && tab[i].nh == nh) {
			if (tab[i].refs > 0)
				tab[i].refs--;
			stub_put(&tab[i]);
			return;
		}
	}
}

int neigh_add_static(uint32_t ip, uint8_t port, const struct rte_ether_addr *mac, char *err,
                     size_t errlen)
{
	struct stub_neigh *n = stub_find(ip, port, true);

	if (n == NULL) {
		snprintf(err, errlen, "neighbour table full");
		return -ENOSPC;
	}
	n->is_static = true;
	n->mac = *mac;
	nh4_set_l2(n->nh, mac);
	return 0;
}

int neigh_del(uint32_t ip, uint8_t port)
{
	struct stub_neigh *n = stub_find(ip, port, false);

	if (n == NULL)
		return -ENOENT;
	n->is_static = false;
	nh4_set_l2(n->nh, NULL);
	stub_put(n);
	return 0;
}

unsigned neigh_flush(uint8_t port, bool with_static)
{
	(void)port;
	(void)with_static;
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
	(void)port;
	(void)dst;
	rte_pktmbuf_free(m);
}

uint64_t neigh_count(void)
{
	uint64_t c = 0;

	for (unsigned i = 0; i < STUB_MAX; i++)
		c += tab[i].used;
	return c;
}

unsigned neigh_static_list(struct fwd_conf_neigh *out, unsigned max)
{
	(void)out;
	(void)max;
	return 0;
}

int neigh_describe(uint32_t nh, enum neigh_state *state, struct rte_ether_addr *mac)
{
	for (unsigned i = 0; i < STUB_MAX; i++) {
		if (tab[i].used && tab[i].nh == nh) {
			*state = tab[i].is_static ? NEIGH_PERMANENT : NEIGH_INCOMPLETE;
			*mac = tab[i].mac;
			return 0;
		}
	}
	return -ENOENT;
}

void icmp4_send_error(const struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t aux,
                      uint8_t in_port)
{
	(void)m;
	(void)type;
	(void)code;
	(void)aux;
	(void)in_port;
}

/* The config's static neighbours, after ip4 has its addresses and routes. */
static int stub_init(const struct fwd_config *cfg)
{
	char err[128];

	for (unsigned i = 0; i < cfg->n_neighs; i++) {
		const struct fwd_conf_neigh *n = &cfg->neighs[i];
		struct fwd_port *p = fwd_port_by_name(n->port);
		if (p == NULL ||
		    neigh_add_static(n->address, p->idx, (const struct rte_ether_addr *)n->mac, err,
		                     sizeof(err)) < 0) {
			LOG(ERR, "neighbour on %s: %s", n->port, p == NULL ? "no such port" : err);
			return -EINVAL;
		}
	}
	return 0;
}

static struct fwd_module neigh_stub_module = {
	.name = "neigh_stub_TEMP",
	.prio = 350,
	.init = stub_init,
};
FWD_MODULE(neigh_stub_module);
