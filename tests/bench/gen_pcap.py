#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write the benchmark traffic: one packet per flow, replayed forever by
net_pcap (infinite_rx=1).

    gen_pcap.py TABLE FLOWS OUTDIR

TABLE is a `gen_routes.py` table; each flow goes to a random host inside a
random prefix of it, so the same traffic exercises the full table and the
16 covering routes of bench.py. Writes into OUTDIR:

  64.pcap       FLOWS UDP packets of 64 bytes on the wire (60 + FCS)
  imix.pcap     the same flows in simple IMIX sizes, 7:4:1 of 64/594/1518
  traffic.txt   the routes (from TABLE) the flows hit, "PREFIX via GW"
  ipv6-62.pcap  FLOWS IPv6 UDP packets of 62 bytes (14 + 40 + 8, no payload;
                66 on the wire), each to a random host in 2001:200:0:1::/64
                (l3fwd's default IPv6 route to its port 1), from a random
                source in 2001:2::/48 (RFC 5180 benchmarking space)

Every IPv4 packet passes RFC 1812 checks: valid header checksum, TTL 64,
unicast source in 198.18.128.0/17 (RFC 2544 benchmarking space). Every IPv6
packet passes RFC 8200's: version 6, payload length 8, hop limit 64, global
unicast source and destination, and carries a valid UDP checksum (mandatory
in IPv6, RFC 8200 8.1). All have the destination MAC of the first net_pcap
port. The same arguments always give the same files.
"""
import ipaddress
import os
import random
import sys

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import wrpcap

# net_pcap gives its first port this address (DPDK 22.11 drivers/net/pcap)
PCAP_PORT_MAC = "02:70:63:61:70:00"
SENDER_MAC = "02:00:00:00:00:01"
SOURCES = ipaddress.ip_network("198.18.128.0/17")
IMIX = [60] * 7 + [590] * 4 + [1514]  # frame sizes without the 4-byte FCS
UDP_OVERHEAD = 14 + 20 + 8
# IPv6: l3fwd's default route to port 1 (l3fwd_route.h, 2001:200:0:N::/64 to
# port N) and the RFC 5180 benchmarking range (errata 1752: 2001:2::/48; the
# RFC's text said 2001:200::/48, which l3fwd's table still cites)
V6_DESTINATIONS = ipaddress.ip_network("2001:200:0:1::/64")
V6_SOURCES = ipaddress.ip_network("2001:2::/48")
V6_FRAME = 14 + 40 + 8
V6_SEED = 5180


def pick_routes(table, count):
    with open(table) as f:
        lines = [line.split() for line in f if line.strip()]
    return random.sample(lines, count)


def flow_packet(route, size):
    net = ipaddress.ip_network(route[0])
    host = net.network_address + random.randrange(1, max(2, net.num_addresses - 1))
    src = SOURCES.network_address + random.randrange(1, SOURCES.num_addresses - 1)
    pkt = (Ether(dst=PCAP_PORT_MAC, src=SENDER_MAC) /
           IP(src=str(src), dst=str(host), ttl=64) /
           UDP(sport=random.randrange(1024, 65536), dport=random.randrange(1, 65536)) /
           Raw(bytes(size - UDP_OVERHEAD)))
    return Ether(bytes(pkt))  # computes lengths and checksums once


def resize(pkt, size):
    ip = pkt[IP].copy()
    ip.len = None
    ip.chksum = None
    ip[UDP].len = None
    ip[UDP].chksum = None
    ip[UDP].remove_payload()
    ip[UDP].add_payload(Raw(bytes(size - UDP_OVERHEAD)))
    return Ether(bytes(Ether(dst=pkt.dst, src=pkt.src) / ip))


def random_host(rng, net):
    """Neither the all-zeros (subnet-router anycast) nor the all-ones address."""
    return net.network_address + rng.randrange(1, net.num_addresses - 1)


def flow_packet_v6(rng):
    pkt = (Ether(dst=PCAP_PORT_MAC, src=SENDER_MAC) /
           IPv6(src=str(random_host(rng, V6_SOURCES)),
                dst=str(random_host(rng, V6_DESTINATIONS)), hlim=64) /
           UDP(sport=rng.randrange(1024, 65536), dport=rng.randrange(1, 65536)))
    pkt = Ether(bytes(pkt))  # computes the lengths and the UDP checksum once
    assert len(pkt) == V6_FRAME and pkt[UDP].chksum != 0
    return pkt


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    table, flows, outdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    random.seed(2544)
    routes = pick_routes(table, flows)
    small = [flow_packet(r, 60) for r in routes]
    sizes = (IMIX * (flows // len(IMIX) + 1))[:flows]
    random.shuffle(sizes)
    imix = [resize(p, s) if s != 60 else p for p, s in zip(small, sizes)]
    wrpcap(os.path.join(outdir, "64.pcap"), small)
    wrpcap(os.path.join(outdir, "imix.pcap"), imix)
    # a generator of its own, so the IPv4 files are what they were before
    rng = random.Random(V6_SEED)
    wrpcap(os.path.join(outdir, "ipv6-62.pcap"), [flow_packet_v6(rng) for _ in range(flows)])
    with open(os.path.join(outdir, "traffic.txt"), "w") as f:
        for r in sorted(set(tuple(r) for r in routes)):
            f.write(" ".join(r) + "\n")


if __name__ == "__main__":
    main()
