/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture resources and life cycle. The copy pool and a port's ring are
 * created on the first capture that needs them and kept until shutdown:
 * workers may still hold a pointer to them for a burst after a capture
 * stops, and captures are rare enough that the memory is not worth an RCU
 * dance.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_mbuf_dyn.h>
#include <rte_ring.h>

#include "capture/capture_priv.h"
#include "core/iface.h"
#include "core/log.h"
#include "core/module.h"
#include "port/port.h"

#define RING_SIZE  1024 /* per port */
#define POOL_SIZE  4095 /* copies in flight over all ports (a few full rings), 2^n - 1 */
#define POOL_CACHE 32

static struct capture_session *sessions[FWD_CAPTURE_SLOTS];
static uint32_t copy_max;

uint32_t capture_copy_max(void)
{
	return copy_max;
}

struct rte_ring *capture_ring(uint8_t port)
{
	return fwd_capture_ports[port].ring;
}

const struct capture_session *capture_session_on(uint8_t port)
{
	return sessions[port];
}

const char *capture_slot_name(uint8_t slot)
{
	return slot == FWD_CAPTURE_DROPS ? "drops" : fwd_ports[slot].name;
}

/* Buffers hold the largest frame any port can receive plus pcapng framing,
 * so every copy is one segment (rte_pcapng writes chained copies wrongly). */
static int pool_create(void)
{
	unsigned mtu = RTE_ETHER_MTU;

	for (unsigned p = 0; p < fwd_n_ports; p++)
		mtu = RTE_MAX(mtu, (unsigned)fwd_ports[p].mtu);
	copy_max = mtu + RTE_ETHER_HDR_LEN + 2 * 4; /* VLAN tag and CRC */
	fwd_capture_pool = rte_pktmbuf_pool_create(
	        "fwd_capture", POOL_SIZE, POOL_CACHE,
	        RTE_ALIGN(sizeof(struct fwd_capture_meta), RTE_MBUF_PRIV_ALIGN),
	        RTE_PKTMBUF_HEADROOM + rte_pcapng_mbuf_size(copy_max) + CAPTURE_COMMENT_ROOM,
	        SOCKET_ID_ANY);
	if (fwd_capture_pool == NULL) {
		LOG(ERR, "capture buffer pool: %s", rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

static void ring_drain(struct rte_ring *r)
{
	struct rte_mbuf *pkts[64];
	unsigned n;

	while ((n = rte_ring_dequeue_burst(r, (void **)pkts, RTE_DIM(pkts), NULL)) > 0)
		rte_pktmbuf_free_bulk(pkts, n);
}

int capture_resources(uint8_t port)
{
	struct fwd_capture_port *cp = &fwd_capture_ports[port];
	char name[RTE_RING_NAMESIZE];

	if (fwd_capture_pool == NULL && pool_create() < 0)
		return -ENOMEM;
	if (cp->ring == NULL) {
		snprintf(name, sizeof(name), "fwd_capture_%u", port);
		cp->ring = rte_ring_create(name, RING_SIZE, SOCKET_ID_ANY, RING_F_SC_DEQ);
		if (cp->ring == NULL) {
			LOG(ERR, "capture ring for %s: %s", capture_slot_name(port),
			    rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	ring_drain(cp->ring); /* what an earlier capture left */
	return 0;
}

uint64_t capture_worker_drops(uint8_t port)
{
	uint64_t sum = 0;

	for (unsigned w = 0; w <= FWD_MAX_WORKERS; w++)
		sum += fwd_capture_wstats[w].drops[port];
	return sum;
}

void capture_begin(struct capture_session *s)
{
	struct fwd_capture_port *cp = &fwd_capture_ports[s->port];

	sessions[s->port] = s;
	cp->snaplen = s->snaplen;
	rte_smp_wmb(); /* ring and snaplen before the flag workers test */
	if (s->port != FWD_CAPTURE_DROPS)
		fwd_tap_dirs[s->port] = s->dirs;
	else
		for (unsigned r = 0; r < FWD_DROP_MAX; r++)
			fwd_drop_taps[r] = s->reasons[r];
}

void capture_end(struct capture_session *s)
{
	if (s->port != FWD_CAPTURE_DROPS)
		fwd_tap_dirs[s->port] = 0;
	else
		memset((void *)fwd_drop_taps, 0, sizeof(fwd_drop_taps));
	if (sessions[s->port] == s)
		sessions[s->port] = NULL;
}

/* A VLAN interface deleted under its capture ends the capture (its next
 * page says so): its id and name may soon be another interface's. */
static void on_iface_del(const struct fwd_iface *ifp, enum fwd_iface_event ev)
{
	struct capture_session *s;

	(void)ev;
	if (ifp->type != FWD_IFACE_VLAN || ifp->port >= FWD_MAX_PORTS)
		return;
	s = sessions[ifp->port];
	if (s != NULL && s->vlan != 0 && s->iface == ifp->id)
		s->gone = true;
}

RTE_INIT(capture_iface_register)
{
	fwd_iface_hook_add(FWD_IFACE_EV_DEL, 50, on_iface_del);
}

static int capture_init(const struct fwd_config *cfg)
{
	(void)cfg;
	fwd_tap = fwd_capture_copy;
	fwd_drop_tap = fwd_capture_drop;
	return 0;
}

/* After the workers stopped and the RPC server ended every session. */
static void capture_fini(void)
{
	memset((void *)fwd_drop_taps, 0, sizeof(fwd_drop_taps));
	for (unsigned p = 0; p < FWD_CAPTURE_SLOTS; p++) {
		struct fwd_capture_port *cp = &fwd_capture_ports[p];

		if (cp->ring != NULL) {
			ring_drain(cp->ring);
			rte_ring_free(cp->ring);
		}
		sessions[p] = NULL;
	}
	memset(fwd_capture_ports, 0, sizeof(fwd_capture_ports));
	memset((void *)fwd_tap_dirs, 0, sizeof(fwd_tap_dirs));
	memset(fwd_capture_wstats, 0, sizeof(fwd_capture_wstats));
	rte_mempool_free(fwd_capture_pool);
	fwd_capture_pool = NULL;
}

static struct fwd_module capture_module = {
	.name = "capture",
	.init = capture_init,
	.fini = capture_fini,
};
FWD_MODULE(capture_module);
