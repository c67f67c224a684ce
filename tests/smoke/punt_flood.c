/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A flood of packets the router must punt, as fast as one core can send
 * them through a packet socket: UDP to a routed destination with TTL 1
 * (time exceeded) and UDP to a destination with no route (net
 * unreachable), alternately, from one source, for a number of seconds.
 * Prints the packets sent and the rate reached. For punt_flood_test.sh.
 *
 *   punt_flood IFACE ROUTER_MAC SRC_IP TTL1_DST NO_ROUTE_DST SECONDS
 */
#define _GNU_SOURCE /* sendmmsg */
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netpacket/packet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_LEN 60
#define BATCH     64

static uint16_t ip_cksum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;

	for (size_t i = 0; i < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* An Ethernet + IPv4 + UDP frame from src to dst with the given TTL. */
static void build(uint8_t *f, const uint8_t *dmac, const uint8_t *smac, struct in_addr src,
                  struct in_addr dst, uint8_t ttl)
{
	uint16_t c;

	memset(f, 0, FRAME_LEN);
	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	f[14] = 0x45;
	f[17] = 28; /* total length: 20 + 8 */
	f[22] = ttl;
	f[23] = IPPROTO_UDP;
	memcpy(f + 26, &src, 4);
	memcpy(f + 30, &dst, 4);
	c = ip_cksum(f + 14, 20);
	f[24] = (uint8_t)(c >> 8);
	f[25] = (uint8_t)c;
	f[34] = 0x30; /* udp ports 12345 -> 33434, length 8, no checksum */
	f[35] = 0x39;
	f[36] = 0x82;
	f[37] = 0x9a;
	f[39] = 8;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint8_t frames[2][FRAME_LEN], dmac[6], smac[6];
	struct in_addr src, ttl_dst, nr_dst;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct ifreq ifr = { 0 };
	unsigned long long sent = 0;
	double start, end, t;
	int fd;

	if (argc != 7 ||
	    sscanf(argv[2], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &dmac[0], &dmac[1], &dmac[2], &dmac[3],
	           &dmac[4], &dmac[5]) != 6 ||
	    inet_pton(AF_INET, argv[3], &src) != 1 || inet_pton(AF_INET, argv[4], &ttl_dst) != 1 ||
	    inet_pton(AF_INET, argv[5], &nr_dst) != 1 || atof(argv[6]) <= 0) {
		fprintf(stderr, "usage: punt_flood IFACE ROUTER_MAC SRC_IP TTL1_DST NO_ROUTE_DST "
		                "SECONDS\n");
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0 || strlen(argv[1]) >= IFNAMSIZ) {
		perror("punt_flood: socket");
		return 1;
	}
	strcpy(ifr.ifr_name, argv[1]);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("punt_flood: SIOCGIFHWADDR");
		return 1;
	}
	memcpy(smac, ifr.ifr_hwaddr.sa_data, 6);
	sll.sll_ifindex = (int)if_nametoindex(argv[1]);
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, dmac, 6);
	build(frames[0], dmac, smac, src, ttl_dst, 1);
	build(frames[1], dmac, smac, src, nr_dst, 64);
	for (unsigned i = 0; i < BATCH; i++) {
		iov[i] = (struct iovec){ .iov_base = frames[i & 1], .iov_len = FRAME_LEN };
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_name = &sll,
			                                 .msg_namelen = sizeof(sll),
			                                 .msg_iov = &iov[i],
			                                 .msg_iovlen = 1 } };
	}
	start = now_s();
	end = start + atof(argv[6]);
	do {
		int n = sendmmsg(fd, msgs, BATCH, 0);
		if (n > 0)
			sent += (unsigned)n;
		t = now_s();
	} while (t < end);
	printf("%llu %.0f\n", sent, (double)sent / (t - start));
	close(fd);
	return 0;
}
