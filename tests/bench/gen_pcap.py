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

Every packet passes RFC 1812 checks: valid header checksum, TTL 64, unicast
source in 198.18.128.0/17 (RFC 2544 benchmarking space), destination MAC of
the first net_pcap port. The same arguments always give the same files.
"""
import ipaddress
import os
import random
import sys

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import wrpcap

# net_pcap gives its first port this address (DPDK 22.11 drivers/net/pcap)
PCAP_PORT_MAC = "02:70:63:61:70:00"
SENDER_MAC = "02:00:00:00:00:01"
SOURCES = ipaddress.ip_network("198.18.128.0/17")
IMIX = [60] * 7 + [590] * 4 + [1514]  # frame sizes without the 4-byte FCS
UDP_OVERHEAD = 14 + 20 + 8


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
    with open(os.path.join(outdir, "traffic.txt"), "w") as f:
        for r in sorted(set(tuple(r) for r in routes)):
            f.write(" ".join(r) + "\n")


if __name__ == "__main__":
    main()
