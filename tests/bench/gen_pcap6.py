#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write the IPv6 benchmark traffic: one packet per flow, replayed forever
by net_pcap (infinite_rx=1).

    gen_pcap6.py FLOWS OUT.pcap

FLOWS UDP packets of 62 bytes (66 on the wire), the smallest IPv6 UDP
frame, each to a random host of 2001:200:0:1::/64 (the destination of
DPDK l3fwd's IPv6 examples) from a random source in 2001:2::/48 (RFC 5180
benchmarking space), hop limit 64, destination MAC of the first net_pcap
port. The same arguments always give the same file.
"""
import ipaddress
import random
import sys

from scapy.layers.inet import UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.utils import wrpcap

PCAP_PORT_MAC = "02:70:63:61:70:00"  # net_pcap's first port (DPDK 22.11 drivers/net/pcap)
SENDER_MAC = "02:00:00:00:00:01"
SOURCES = ipaddress.ip_network("2001:2::/48")
DESTINATIONS = ipaddress.ip_network("2001:200:0:1::/64")


def host(net):
    return str(net.network_address + random.randrange(1, net.num_addresses - 1))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    flows, out = int(sys.argv[1]), sys.argv[2]
    random.seed(5180)
    pkts = [Ether(bytes(Ether(dst=PCAP_PORT_MAC, src=SENDER_MAC) /
                        IPv6(src=host(SOURCES), dst=host(DESTINATIONS), hlim=64) /
                        UDP(sport=random.randrange(1024, 65536), dport=random.randrange(1, 65536))))
            for _ in range(flows)]
    assert all(len(p) == 62 for p in pkts)
    wrpcap(out, pkts)


if __name__ == "__main__":
    main()
