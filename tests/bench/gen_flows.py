#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write 64 B UDP traffic to COUNT distinct destinations, fast (no scapy:
a million packets in a few seconds).

    gen_flows.py TABLE COUNT OUT.pcap [FILES]

TABLE is a `gen_routes.py` table ("PREFIX via GW" lines). Each packet goes
to a host of its own inside a route of its own (COUNT routes drawn from
TABLE without repetition, so COUNT must not exceed the table's size), so
the destinations are spread over the whole table and a FIB lookup per
packet lands on an entry of its own. With FILES > 1 the packets are dealt
round robin into OUT.0.pcap .. OUT.{FILES-1}.pcap instead: one file per rx
queue of a net_pcap source (the scaling group). Like gen_pcap.py: 60 bytes
(64 on the wire), valid IPv4 header checksum, TTL 64, sources in
198.18.128.0/17, random ports, UDP checksum 0 (none, RFC 768), destination
MAC of the first net_pcap port. The same arguments give the same files.
"""
import os
import random
import socket
import struct
import sys

PCAP_PORT_MAC = bytes.fromhex("027063617000")   # net_pcap's first port (gen_pcap.py)
SENDER_MAC = bytes.fromhex("020000000001")
SOURCE_BASE, SOURCE_SIZE = 0xC6128000, 1 << 15   # 198.18.128.0/17
FRAME = 60
PAYLOAD = FRAME - 14 - 20 - 8


def read_routes(table):
    """(network, host count) of every route of TABLE."""
    out = []
    with open(table) as f:
        for line in f:
            prefix = line.split(None, 1)[0] if line.strip() else None
            if prefix is None:
                continue
            addr, length = prefix.split("/")
            out.append((struct.unpack("!I", socket.inet_aton(addr))[0], 1 << (32 - int(length))))
    return out


def ip_checksum(hdr):
    s = sum(struct.unpack("!10H", hdr))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def packet(rng, net, size):
    dst = net + rng.randrange(1, max(2, size - 1))
    src = SOURCE_BASE + rng.randrange(1, SOURCE_SIZE - 1)
    ip = struct.pack("!BBHHHBBHII", 0x45, 0, FRAME - 14, 0, 0, 64, 17, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", ip_checksum(ip)) + ip[12:]
    udp = struct.pack("!HHHH", rng.randrange(1024, 65536), rng.randrange(1, 65536),
                      FRAME - 14 - 20, 0)
    return PCAP_PORT_MAC + SENDER_MAC + b"\x08\x00" + ip + udp + bytes(PAYLOAD)


def write_pcap(path, frames):
    record = struct.pack("<IIII", 0, 0, FRAME, FRAME)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        f.write(b"".join(record + fr for fr in frames))
    # a finished file only: a run that was stopped halfway leaves none
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    table, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    files = int(sys.argv[4]) if len(sys.argv) == 5 else 1
    routes = read_routes(table)
    if not 0 < count <= len(routes) or files < 1:
        sys.exit("gen_flows.py: COUNT must be 1..%d (the table's routes), FILES >= 1" %
                 len(routes))
    rng = random.Random(2544 + count)
    frames = [packet(rng, net, size) for net, size in rng.sample(routes, count)]
    if files == 1:
        write_pcap(out, frames)
        return
    base = out[:-5] if out.endswith(".pcap") else out
    for i in range(files):
        write_pcap("%s.%d.pcap" % (base, i), frames[i::files])


if __name__ == "__main__":
    main()
