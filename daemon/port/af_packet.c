/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * af_packet ports that see fragments as they were sent. DPDK 22.11's
 * af_packet PMD (drivers/net/af_packet/rte_eth_af_packet.c) joins each
 * queue's socket to a fanout group with PACKET_FANOUT_FLAG_DEFRAG, and no
 * devarg turns it off: the kernel then reassembles the IPv4 fragments fwd
 * should forward, and the PMD copies at most one ring slot (2,016 bytes by
 * default) of the datagram: `ping -s 2000` through fwd died as a truncated
 * packet. A socket never leaves its fanout group, so before the port starts
 * fwd puts in place of each of the PMD's sockets one set up as the PMD set
 * its own (TPACKET_V2, PACKET_LOSS, PACKET_QDISC_BYPASS, the same rx and tx
 * rings mapped over the same address, bound to the interface), whose
 * fanout group hashes without DEFRAG. The PMD keeps its file descriptor
 * (dup2) and its ring pointers (MAP_FIXED), and nothing of it runs yet.
 * When that cannot be done (another PMD version, ring settings it cannot
 * read) the port keeps the PMD's sockets, with a warning; frames the kernel
 * cut are then dropped as `truncated`.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "core/log.h"
#include "port/port.h"

/* The PMD's ring settings, from the device string as the PMD reads them. */
struct ring_args {
	unsigned blocksz, framesz, framecnt, qdisc_bypass;
};

static unsigned arg_of(const char *device, const char *key, unsigned dflt)
{
	char pat[32];
	const char *a;

	snprintf(pat, sizeof(pat), ",%s=", key);
	a = strstr(device, pat);
	return a != NULL ? (unsigned)strtoul(a + strlen(pat), NULL, 0) : dflt;
}

static void ring_args(const char *device, struct ring_args *r)
{
	r->blocksz = arg_of(device, "blocksz", (unsigned)getpagesize());
	r->framesz = arg_of(device, "framesz", 2048);
	r->framecnt = arg_of(device, "framecnt", 512);
	r->qdisc_bypass = arg_of(device, "qdisc_bypass", 1);
}

/* Where fd's ring is mapped, from /proc/self/maps; 0 if nowhere. */
static uintptr_t ring_map(int fd, size_t *len)
{
	struct stat st;
	char line[256], tag[40];
	uintptr_t lo = 0, hi, found = 0;
	FILE *f;

	if (fstat(fd, &st) < 0 || (f = fopen("/proc/self/maps", "r")) == NULL)
		return 0;
	snprintf(tag, sizeof(tag), "socket:[%ju]", (uintmax_t)st.st_ino);
	while (found == 0 && fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, tag) != NULL &&
		    sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2) {
			found = lo;
			*len = hi - lo;
		}
	fclose(f);
	return found;
}

/* A socket like the PMD's, its rings mapped over map, in fanout group id. */
static int replacement(int ifindex, const struct ring_args *r, void *map, size_t len, int id)
{
	struct tpacket_req req = { r->blocksz, r->framecnt / (r->blocksz / r->framesz), r->framesz,
		                   r->framecnt };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
		                   .sll_protocol = htons(ETH_P_ALL),
		                   .sll_ifindex = ifindex };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)), v2 = TPACKET_V2, one = 1;
	int fanout = id | (PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_ROLLOVER) << 16;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v2, sizeof(v2)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_LOSS, &one, sizeof(one)) < 0 ||
	    (r->qdisc_bypass &&
	     setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)) < 0) ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) < 0 ||
	    2 * (size_t)req.tp_block_size * req.tp_block_nr != len ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_FANOUT, &fanout, sizeof(fanout)) < 0 ||
	    /* last: until here the PMD's own ring is untouched */
	    mmap(map, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED | MAP_FIXED, fd, 0) !=
	            map) {
		int rc = errno != 0 ? -errno : -EINVAL;

		close(fd);
		return rc;
	}
	return fd;
}

/* fd is one of the PMD's sockets on ifindex: its ring's address and length. */
static bool pmd_socket(int fd, int ifindex, uintptr_t *map, size_t *len)
{
	struct sockaddr_ll sll;
	socklen_t sl = sizeof(sll);
	int dom;
	socklen_t dl = sizeof(dom);

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &dl) < 0 || dom != AF_PACKET ||
	    getsockname(fd, (struct sockaddr *)&sll, &sl) < 0 || sll.sll_ifindex != ifindex)
		return false;
	*map = ring_map(fd, len);
	return *map != 0;
}

int port_af_packet_nodefrag(const struct fwd_port *p)
{
	struct rte_eth_dev_info info;
	struct ring_args r;
	struct dirent *de;
	unsigned done = 0;
	int id, rc = 0;
	DIR *d;

	if (rte_eth_dev_info_get(p->port_id, &info) < 0 || info.if_index == 0)
		return -ENODEV;
	ring_args(p->device, &r);
	if (r.framesz == 0 || r.blocksz < r.framesz || r.framecnt == 0)
		return -EINVAL;
	/* the PMD's group is (pid ^ ifindex) & 0xffff: ours differs from it */
	id = ((getpid() ^ (int)info.if_index) & 0xffff) ^ 0x8000;
	d = opendir("/proc/self/fd");
	if (d == NULL)
		return -errno;
	while (rc >= 0 && (de = readdir(d)) != NULL) {
		int fd = atoi(de->d_name), nfd;
		uintptr_t map = 0;
		size_t len = 0;

		if (de->d_name[0] == '.' || fd == dirfd(d) ||
		    !pmd_socket(fd, (int)info.if_index, &map, &len))
			continue;
		nfd = replacement((int)info.if_index, &r, (void *)map, len, id);
		if (nfd < 0) {
			rc = nfd;
			break;
		}
		rc = dup2(nfd, fd) < 0 ? -errno : 0;
		close(nfd);
		done++;
	}
	closedir(d);
	if (rc == 0 && done == 0)
		rc = -ENOENT;
	return rc;
}
