#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write the L2 and VLAN groups' traffic from the 64 B pcap of gen_pcap.py.

    gen_l2.py PCAP64 OUTDIR

Writes into OUTDIR:

  l2-64.pcap       the same packets between hosts on either side of a
                   bridge: source MAC one of SRC_HOSTS hosts behind the
                   source port, destination MAC one of SINK_HOSTS hosts
                   behind the sink port (each frame picks both at random),
                   64 B on the wire
  l2-learn.pcap    one frame from each host behind the sink port (to a host
                   behind the source port), read once by the sink port so
                   that the bridge under test learns where they are (no
                   more than fwd's bridge notes from one burst: 8)
  vlan100-64.pcap  the same packets tagged 802.1Q VLAN 100 (68 B on the
                   wire: the tag's 4 bytes on top of 64)

The same input always gives the same files.
"""
import os
import random
import sys

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw
from scapy.utils import rdpcap, wrpcap

SRC_HOSTS = 32
SINK_HOSTS = 8
SRC_HOST = "02:00:00:01:00:%02x"    # behind the source port
SINK_HOST = "02:00:00:02:00:%02x"   # behind the sink port
VLAN_IN = 100


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pkts, outdir = rdpcap(sys.argv[1]), sys.argv[2]
    random.seed(8021)
    l2 = [Ether(src=SRC_HOST % random.randrange(SRC_HOSTS),
                dst=SINK_HOST % random.randrange(SINK_HOSTS))
          / p[IP] for p in pkts]
    learn = [Ether(src=SINK_HOST % h, dst=SRC_HOST % h) / IP(src="198.19.0.%d" % (10 + h),
                                                             dst="198.18.0.%d" % (10 + h)) /
             UDP(sport=9, dport=9) / Raw(bytes(18)) for h in range(SINK_HOSTS)]
    tagged = [Ether(src=p.src, dst=p.dst) / Dot1Q(vlan=VLAN_IN) / p[IP] for p in pkts]
    for name, frames in (("l2-64.pcap", l2), ("l2-learn.pcap", learn),
                         ("vlan100-64.pcap", tagged)):
        path = os.path.join(outdir, name)
        wrpcap(path + ".tmp", frames)
        os.rename(path + ".tmp", path)


if __name__ == "__main__":
    main()
