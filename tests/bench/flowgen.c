/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flowgen: the hot packet source of make bench's flows group.
 *
 *     flowgen EAL-ARGS -- PCAP
 *
 * Sends the frames of PCAP, in order and over and over, out of its port 0
 * (a net_memif server; the program under test is its client). net_pcap's
 * infinite_rx, the benchmarks' usual source, keeps every frame in an mbuf
 * of its own and copies it out on each receive: with a million distinct
 * destinations that copy misses the caches in the program under test,
 * which a NIC writing frames into the last-level cache (DDIO) never makes
 * it pay. Here the frames are read in order from one array (the hardware
 * prefetcher streams it) on another CPU, and the program under test copies
 * each out of a memif ring of 1024 buffers that stays hot; what it misses
 * is its own: the FIB, the next hops.
 *
 * Single-threaded, one lcore. Frames the ring has no room for are kept and
 * offered again, so the rate is what the client takes. On SIGTERM or
 * SIGINT it prints frames sent and full-ring retries and exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#define SLOT  64 /* bytes a frame takes in the array */
#define BURST 32
#define POOL  8191
#define RING  1024

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct frames {
	uint8_t *data; /* count slots of SLOT bytes */
	uint16_t *len;
	uint32_t count;
};

/* The frames of a classic pcap file (microsecond or nanosecond, either byte
 * order), each at most SLOT bytes. */
static int read_pcap(const char *path, struct frames *f)
{
	FILE *in = fopen(path, "rb");
	uint32_t hdr[6], rec[4], cap = 1 << 16;
	int swap, oom = 0;

	if (in == NULL)
		return -errno;
	if (fread(hdr, sizeof(hdr), 1, in) != 1)
		goto bad;
	swap = hdr[0] == 0xd4c3b2a1 || hdr[0] == 0x4d3cb2a1;
	if (!swap && hdr[0] != 0xa1b2c3d4 && hdr[0] != 0xa1b23c4d)
		goto bad;
	f->data = aligned_alloc(64, (size_t)cap * SLOT);
	f->len = malloc(cap * sizeof(*f->len));
	f->count = 0;
	while (f->data != NULL && f->len != NULL && fread(rec, sizeof(rec), 1, in) == 1) {
		uint32_t n = swap ? __builtin_bswap32(rec[2]) : rec[2];

		if (n > SLOT || n < 14)
			goto bad;
		if (f->count == cap) {
			uint8_t *data = realloc(f->data, (size_t)cap * 2 * SLOT);
			uint16_t *len = data ? realloc(f->len, cap * 2 * sizeof(*len)) : NULL;

			f->data = data ? data : f->data;
			if (len == NULL) {
				oom = 1;
				break;
			}
			f->len = len;
			cap *= 2;
		}
		if (fread(f->data + (size_t)f->count * SLOT, n, 1, in) != 1)
			goto bad;
		f->len[f->count++] = n;
	}
	if (f->data == NULL || f->len == NULL || oom) {
		fclose(in);
		return -ENOMEM;
	}
	fclose(in);
	return f->count ? 0 : -EINVAL;
bad:
	fclose(in);
	return -EINVAL;
}

static int port_up(uint16_t port, struct rte_mempool *pool)
{
	struct rte_eth_conf conf = { 0 };
	int ret = rte_eth_dev_configure(port, 1, 1, &conf);

	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, RING, rte_socket_id(), NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, RING, rte_socket_id(), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/* Fill the free part of pkts[] with the next frames; returns the new fill. */
static uint16_t fill(struct rte_mbuf **pkts, uint16_t have, const struct frames *f, uint32_t *next)
{
	for (uint16_t i = have; i < BURST; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t k = *next;

		rte_memcpy(rte_pktmbuf_mtod(m, void *), f->data + (size_t)k * SLOT, f->len[k]);
		m->data_len = m->pkt_len = f->len[k];
		*next = k + 1 == f->count ? 0 : k + 1;
	}
	return BURST;
}

int main(int argc, char **argv)
{
	struct rte_mbuf *pkts[BURST], *rx[BURST];
	uint64_t sent = 0, retries = 0, last_sent = 0, last_retries = 0, next_report;
	struct rte_mempool *pool;
	struct frames f = { 0 };
	uint32_t next = 0;
	uint16_t have = 0;
	int n = rte_eal_init(argc, argv), ret;

	if (n < 0)
		return 1;
	if (argc - n != 2) {
		fprintf(stderr, "usage: flowgen EAL-ARGS -- PCAP\n");
		return 2;
	}
	ret = read_pcap(argv[n + 1], &f);
	if (ret < 0) {
		fprintf(stderr, "flowgen: %s: %s\n", argv[n + 1],
		        ret == -EINVAL ? "not a pcap of frames of at most 64 bytes"
		                       : strerror(-ret));
		return 1;
	}
	pool = rte_pktmbuf_pool_create("flowgen", POOL, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
	                               rte_socket_id());
	if (pool == NULL || rte_eth_dev_count_avail() < 1 || port_up(0, pool) != 0) {
		fprintf(stderr, "flowgen: cannot set up port 0 (a net_memif vdev)\n");
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("flowgen: %u frames from %s\n", f.count, argv[n + 1]);
	fflush(stdout);
	next_report = rte_get_tsc_cycles() + rte_get_tsc_hz();
	while (!stop) {
		uint16_t got = rte_eth_rx_burst(0, 0, rx, BURST), done;

		if (got)
			rte_pktmbuf_free_bulk(rx, got);
		if (have < BURST) {
			if (rte_pktmbuf_alloc_bulk(pool, pkts + have, BURST - have) != 0)
				continue;
			have = fill(pkts, have, &f, &next);
		}
		done = rte_eth_tx_burst(0, 0, pkts, have);
		sent += done;
		if (done < have) {
			retries++;
			memmove(pkts, pkts + done, (have - done) * sizeof(pkts[0]));
		}
		have -= done;
		if (unlikely(rte_get_tsc_cycles() > next_report)) {
			if (getenv("FLOWGEN_REPORT"))
				printf("flowgen: %.2f Mpps, %lu full-ring retries\n",
				       (sent - last_sent) / 1e6,
				       (unsigned long)(retries - last_retries));
			last_sent = sent;
			last_retries = retries;
			next_report = rte_get_tsc_cycles() + rte_get_tsc_hz();
		}
	}
	if (have)
		rte_pktmbuf_free_bulk(pkts, have);
	printf("flowgen: sent %lu frames, %lu full-ring retries\n", (unsigned long)sent,
	       (unsigned long)retries);
	rte_eth_dev_stop(0);
	rte_eth_dev_close(0);
	rte_eal_cleanup();
	return 0;
}
