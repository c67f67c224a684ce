#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write the packet fuzzer's seed corpus (tests/fuzz/corpus/packet/): valid
and slightly wrong frames for every path of fuzz_env.h's topology, in the
input format packet_fuzz.c reads. Run after changing either:
    tests/fuzz/make_packet_seeds.py
"""
import os
import shutil
import struct

from scapy.all import ARP, ICMP, IP, TCP, UDP, Dot1Q, Ether, IPOption, Raw, conf

conf.verb = 0
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "packet")

# packet_fuzz.c: port i has MAC 02:fd:00:00:00:0i (fuzz_env.h)
P0, P1, P2, P3, P4, P5 = range(6)
MAC = ["02:fd:00:00:00:0%d" % i for i in range(6)]
NB0, NB1 = "02:00:00:00:00:02", "02:00:00:00:01:02"  # static 10.0.0.2 (p0), 10.0.1.2 (p1)
HOST_A, HOST_B = "02:11:00:00:00:0a", "02:11:00:00:00:0b"
BCAST = "ff:ff:ff:ff:ff:ff"
ROUTED, VIA_P0 = "198.51.100.7", "192.0.2.9"  # via 10.0.1.2 (p1), via 10.0.0.2 (p0)
COPIES, CHAINED, OFFLOAD = 0x08, 0x40, 0x80


def fix_cksum(frame):
    """The IPv4 header checksum of a frame edited by hand, made right again."""
    f = bytearray(frame)
    hlen = (f[14] & 0xf) * 4
    f[24:26] = b"\0\0"
    words = struct.unpack("!%dH" % (hlen // 2), bytes(f[14:14 + hlen]))
    s = sum(words)
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    f[24:26] = struct.pack("!H", ~s & 0xffff)
    return bytes(f)


def rec(port, frame, copies=1, offload=False, chained=False):
    sel = port | (copies - 1) * COPIES | (OFFLOAD if offload else 0)
    frame = bytes(frame)
    if chained:
        return bytes([sel | CHAINED]) + struct.pack(">H", len(frame)) + frame
    return bytes([sel]) + frame


def chain(*records):
    """Several (port, frame) records in one input."""
    return b"".join(rec(p, f, chained=True) for p, f in records)


def to(port, dst_ip, src_ip="10.0.0.2", ttl=64, src_mac=None, dst_mac=None, **ipf):
    src_mac = src_mac or (NB0 if port == P0 else NB1)
    return Ether(src=src_mac, dst=dst_mac or MAC[port]) / IP(src=src_ip, dst=dst_ip, ttl=ttl,
                                                             **ipf)


def udp(port, dst, payload=b"fuzz" * 8, **kw):
    return to(port, dst, **kw) / UDP(sport=40000, dport=33434) / Raw(payload)


def echo(port, dst, payload=b"ping" * 8, **kw):
    return to(port, dst, **kw) / ICMP(type=8, id=7, seq=1) / Raw(payload)


def arp(port, op, psrc, pdst, hwsrc=HOST_A, dst=BCAST, hwdst="00:00:00:00:00:00"):
    return (Ether(src=hwsrc, dst=dst) /
            ARP(op=op, hwsrc=hwsrc, psrc=psrc, hwdst=hwdst, pdst=pdst))


def l3_seeds():
    big = b"x" * 1400
    s = {
        "udp-routed": rec(P0, udp(P0, ROUTED)),
        "icmp-routed": rec(P0, echo(P0, ROUTED)),
        "tcp-routed": rec(P0, to(P0, ROUTED) / TCP(sport=40001, dport=22, flags="S")),
        "udp-routed-p1-to-p0": rec(P1, udp(P1, VIA_P0, src_ip="10.0.1.2")),
        "burst-routed": rec(P0, udp(P0, ROUTED), copies=8),
        "offload-routed": rec(P0, udp(P0, ROUTED), offload=True),
        "echo-local": rec(P0, echo(P0, "10.0.0.1")),
        "echo-local-p1-second-addr": rec(P1, echo(P1, "10.0.2.1", src_ip="10.0.2.2")),
        "echo-local-options": rec(P0, echo(P0, "10.0.0.1", options=[IPOption(b"\x94\x04\0\0")])),
        "udp-local": rec(P0, udp(P0, "10.0.0.1")),
        "udp-local-bad-cksum": rec(P0, bytes(udp(P0, "10.0.0.1"))[:40] + b"\x12\x34" +
                                   bytes(udp(P0, "10.0.0.1"))[42:]),
        "tcp-local": rec(P0, to(P0, "10.0.0.1") / TCP(dport=22)),
        "gre-local": rec(P0, to(P0, "10.0.0.1", proto=47) / Raw(b"\0" * 8)),
        "icmp-error-to-local": rec(P0, to(P0, "10.0.0.1") / ICMP(type=3, code=1) /
                                   Raw(bytes(IP(dst="10.0.0.2") / UDP()))),
        "glean-p0": rec(P0, udp(P0, "10.0.0.77", src_ip="10.0.1.2", src_mac=NB0)),
        "glean-p1-slash30": rec(P0, udp(P0, "10.0.2.2")),
        "blackhole": rec(P0, udp(P0, "203.0.113.5")),
        "no-route": rec(P0, udp(P0, "8.8.8.8")),
        "ttl1": rec(P0, udp(P0, ROUTED, ttl=1)),
        "ttl0": rec(P0, udp(P0, ROUTED, ttl=0)),
        "ttl1-local": rec(P0, echo(P0, "10.0.0.1", ttl=1)),
        "big-fragmented": rec(P0, udp(P0, ROUTED, payload=big)),
        "big-df": rec(P0, udp(P0, ROUTED, payload=big, flags="DF")),
        "big-options-fragmented": rec(P0, udp(P0, ROUTED, payload=big, options=[
            IPOption(b"\x83\x07\x04\x0a\x00\x01\x02"), IPOption(b"\x01"),
            IPOption(b"\x94\x04\0\0")])),
        "fragment-first": rec(P0, udp(P0, ROUTED, flags="MF")),
        "fragment-middle": rec(P0, udp(P0, ROUTED, flags="MF", frag=100)),
        "fragment-last-local": rec(P0, udp(P0, "10.0.0.1", frag=10)),
        "fragment-high-offset": rec(P0, udp(P0, ROUTED, payload=big, frag=8100)),
        "options-rr": rec(P0, udp(P0, ROUTED, options=[IPOption(b"\x07\x07\x04\0\0\0\0")])),
        "bcast-limited": rec(P0, udp(P0, "255.255.255.255", dst_mac=BCAST)),
        "bcast-directed": rec(P0, udp(P0, "10.0.0.255", dst_mac=BCAST)),
        "bcast-link-unicast-ip": rec(P0, echo(P0, "10.0.0.1", dst_mac=BCAST)),
        "multicast": rec(P0, udp(P0, "224.0.0.5", dst_mac="01:00:5e:00:00:05")),
        "not-for-us": rec(P0, udp(P0, ROUTED, dst_mac="02:33:33:33:33:33")),
        "martian-src": rec(P0, udp(P0, ROUTED, src_ip="127.0.0.1")),
        "martian-dst": rec(P0, udp(P0, "240.0.0.1")),
        "vlan": rec(P0, Ether(src=NB0, dst=MAC[P0]) / Dot1Q(vlan=5) / IP(dst=ROUTED) / UDP()),
        "ipv6-type": rec(P0, Ether(src=NB0, dst=MAC[P0], type=0x86dd) / Raw(b"\x60" + b"\0" * 39)),
    }
    f = bytes(udp(P0, ROUTED))
    s["bad-cksum"] = rec(P0, f[:24] + b"\xde\xad" + f[26:])
    s["bad-ihl"] = rec(P0, f[:14] + b"\x44" + f[15:])
    s["ihl-past-frame"] = rec(P0, f[:14] + b"\x4f" + f[15:])
    s["truncated"] = rec(P0, f[:30])
    s["runt"] = rec(P0, f[:10])
    s["padded"] = rec(P0, f + b"\0" * 20)
    s["total-length-short"] = rec(P0, bytes(udp(P0, ROUTED, len=20)))
    rr = bytearray(bytes(udp(P0, ROUTED, payload=b"y" * 1300,
                             options=[IPOption(b"\x87\x07\x04\0\0\0\0")])))
    rr[35] = 0x09  # option length past the header
    s["options-bad-length-fragmented"] = rec(P0, fix_cksum(rr))
    return s


def arp_seeds():
    return {
        "arp-request-for-us": rec(P0, arp(P0, 1, "10.0.0.9", "10.0.0.1")),
        "arp-request-other": rec(P0, arp(P0, 1, "10.0.0.9", "10.0.0.8")),
        "arp-reply-unsolicited": rec(P0, arp(P0, 2, "10.0.0.77", "10.0.0.1", dst=MAC[P0])),
        "arp-gratuitous": rec(P0, arp(P0, 1, "10.0.0.50", "10.0.0.50")),
        "arp-static-override": rec(P0, arp(P0, 2, "10.0.0.2", "10.0.0.2", dst=MAC[P0])),
        "arp-short": rec(P0, bytes(arp(P0, 1, "10.0.0.9", "10.0.0.1"))[:30]),
        "arp-bad-hlen": rec(P0, bytes(arp(P0, 1, "10.0.0.9", "10.0.0.1"))[:18] + b"\x08" +
                            bytes(arp(P0, 1, "10.0.0.9", "10.0.0.1"))[19:]),
        "arp-from-our-mac": rec(P0, arp(P0, 1, "10.0.0.9", "10.0.0.1", hwsrc=MAC[P0])),
        "arp-p1-slash30": rec(P1, arp(P1, 1, "10.0.2.2", "10.0.2.1")),
        # resolution end to end: a packet held for 10.0.0.77, then its reply releases it
        "glean-then-reply": chain(
            (P0, udp(P0, "10.0.0.77", src_ip="10.0.1.2")),
            (P0, arp(P0, 2, "10.0.0.77", "10.0.0.1", dst=MAC[P0])),
            (P1, udp(P1, "10.0.0.77", src_ip="10.0.1.2"))),
        "learn-then-echo": chain(
            (P0, arp(P0, 1, "10.0.0.9", "10.0.0.1")),
            (P0, echo(P0, "10.0.0.1", src_ip="10.0.0.9", src_mac=HOST_A))),
    }


def l2_seeds():
    def eth(src, dst, payload=b"l2" * 30):
        return Ether(src=src, dst=dst, type=0x88b5) / Raw(payload)
    return {
        "xconnect": rec(P2, eth(HOST_A, HOST_B)),
        "xconnect-runt": rec(P2, b"\x01\x02\x03"),
        "xconnect-burst": rec(P2, eth(HOST_A, BCAST), copies=4),
        "xconnect-reverse": rec(P3, udp(P0, ROUTED)),
        "bridge-bcast": rec(P4, eth(HOST_A, BCAST)),
        "bridge-unknown": rec(P4, eth(HOST_A, HOST_B)),
        "bridge-reserved": rec(P4, eth(HOST_A, "01:80:c2:00:00:00")),
        "bridge-group-src": rec(P4, eth("01:00:5e:00:00:01", HOST_B)),
        "bridge-zero-src": rec(P5, eth("00:00:00:00:00:00", HOST_B)),
        "bridge-runt": rec(P5, b"\xff" * 12),
        "bridge-vlan": rec(P4, Ether(src=HOST_A, dst=BCAST) / Dot1Q(vlan=9) / IP() / UDP()),
        "bridge-learn-then-unicast": chain(
            (P5, eth(HOST_B, HOST_A)), (P4, eth(HOST_A, HOST_B)), (P4, eth(HOST_A, HOST_B))),
        "bridge-same-port": chain((P4, eth(HOST_B, HOST_A)), (P4, eth(HOST_A, HOST_B))),
        "bridge-move": chain((P4, eth(HOST_B, BCAST)), (P5, eth(HOST_B, BCAST)),
                             (P4, eth(HOST_A, HOST_B))),
        "bridge-many-macs": b"".join(
            rec(P4 + i % 2, eth("02:22:00:00:00:%02x" % i, BCAST), chained=True)
            for i in range(40)),
    }


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    seeds = {**l3_seeds(), **arp_seeds(), **l2_seeds()}
    for i, (name, data) in enumerate(seeds.items()):
        with open(os.path.join(OUT, "%02d-%s" % (i, name)), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds), OUT))


if __name__ == "__main__":
    main()
