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

from scapy.all import ARP, ICMP, IP, TCP, UDP, Dot1AD, Dot1Q, Ether, IPOption, Raw, conf
from scapy.layers.inet6 import (HBHOptUnknown, ICMPv6DestUnreach, ICMPv6EchoRequest,
                                ICMPv6MLQuery, ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptDstLLAddr,
                                ICMPv6NDOptSrcLLAddr, IPv6, IPv6ExtHdrDestOpt,
                                IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting,
                                RouterAlert)

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
# IPv6 (fuzz_env.h): p0 2001:db8::1/64, p1 2001:db8:1::1/64 (MTU 1280), static
# neighbours 2001:db8::2 (p0) and 2001:db8:1::2 (p1); link-local addresses from
# the fixed MACs
V6_P0, V6_P1 = "2001:db8::1", "2001:db8:1::1"
V6_NB0, V6_NB1 = "2001:db8::2", "2001:db8:1::2"
LL_P0 = "fe80::fd:ff:fe00:0"
V6_ROUTED, V6_VIA_P0 = "2001:db8:100::7", "2001:db8:200::9"  # via p1's, p0's neighbour
V6_VIA_LL = "2001:db8:300::5"  # via fe80::2 on p0 (static too: a reset frees what waits)
ALL_NODES, SN_P0 = "ff02::1", "ff02::1:ff00:1"  # solicited-node of 2001:db8::1
# VLANs (fuzz_env.h): p0.100 10.0.100.1/24 2001:db8:64::1/64 (.2 learnt from its
# ARP or NS before a packet goes to it), p1.200 10.0.200.1/24 (MTU 1200); VLAN 300
# has no interface; loopback lo0 198.18.0.1, 2001:db8:ff::1
VID_A, VID_B, VID_UNKNOWN = 100, 200, 300
V4_A, V4_A_NB, V4_B = "10.0.100.1", "10.0.100.2", "10.0.200.1"
V6_A, V6_A_NB = "2001:db8:64::1", "2001:db8:64::2"
LO4, LO6 = "198.18.0.1", "2001:db8:ff::1"


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


def to6(port, dst, src=None, hlim=64, src_mac=None, dst_mac=None, **kw):
    src = src or (V6_NB0 if port == P0 else V6_NB1)
    return (Ether(src=src_mac or (NB0 if port == P0 else NB1), dst=dst_mac or MAC[port]) /
            IPv6(src=src, dst=dst, hlim=hlim, **kw))


def group_mac(group):
    """The Ethernet address of an IPv6 group (RFC 2464 7)."""
    b = bytes(IPv6(dst=group))[36:40]
    return "33:33:" + ":".join("%02x" % x for x in b)


def udp6(port, dst, payload=b"fuzz" * 8, **kw):
    return to6(port, dst, **kw) / UDP(sport=40000, dport=33434) / Raw(payload)


def echo6(port, dst, **kw):
    return to6(port, dst, **kw) / ICMPv6EchoRequest(id=7, seq=1, data=b"ping" * 8)


def ns(port, target, src, dst, lladdr=HOST_A):
    f = to6(port, dst, src=src, hlim=255, src_mac=lladdr, dst_mac=group_mac(dst)
            if dst.startswith("ff") else None) / ICMPv6ND_NS(tgt=target)
    return f / ICMPv6NDOptSrcLLAddr(lladdr=lladdr) if src != "::" else f


def na(port, target, dst, lladdr, solicited=True):
    return (to6(port, dst, src=target, hlim=255, src_mac=lladdr,
                dst_mac=group_mac(dst) if dst.startswith("ff") else None) /
            ICMPv6ND_NA(tgt=target, R=0, S=int(solicited), O=1) /
            ICMPv6NDOptDstLLAddr(lladdr=lladdr))


def ip6_seeds():
    big = b"x" * 1300
    mld = (to6(P0, ALL_NODES, src="fe80::99", hlim=1, dst_mac=group_mac(ALL_NODES)) /
           IPv6ExtHdrHopByHop(options=[RouterAlert()]) / ICMPv6MLQuery())
    s = {
        "v6-udp-routed": rec(P0, udp6(P0, V6_ROUTED)),
        "v6-burst-routed": rec(P0, udp6(P0, V6_ROUTED), copies=8),
        "v6-udp-routed-p1-to-p0": rec(P1, udp6(P1, V6_VIA_P0)),
        "v6-via-link-local": rec(P1, udp6(P1, V6_VIA_LL)),
        "v6-glean": rec(P1, udp6(P1, "2001:db8::77")),
        "v6-no-route": rec(P0, udp6(P0, "2001:db9::1")),
        "v6-blackhole": rec(P0, udp6(P0, "2001:db8:66::1")),
        "v6-hlim1": rec(P0, udp6(P0, V6_ROUTED, hlim=1)),
        "v6-hlim0": rec(P0, udp6(P0, V6_ROUTED, hlim=0)),
        "v6-too-big": rec(P0, udp6(P0, V6_ROUTED, payload=big)),
        "v6-link-local-src-routed": rec(P0, udp6(P0, V6_ROUTED, src="fe80::99")),
        "v6-link-local-dst": rec(P0, udp6(P0, "fe80::5")),
        "v6-hbh-routed": rec(P0, to6(P0, V6_ROUTED) / IPv6ExtHdrHopByHop(options=[RouterAlert()]) /
                             UDP(sport=1, dport=2)),
        "v6-hbh-unknown-option": rec(P0, to6(P0, V6_ROUTED) / IPv6ExtHdrHopByHop(
            options=[HBHOptUnknown(otype=0x80, optdata=b"\0\0")]) / UDP(sport=1, dport=2)),
        "v6-fragment-routed": rec(P0, to6(P0, V6_ROUTED) / IPv6ExtHdrFragment(m=1, id=9) /
                                  UDP(sport=1, dport=2) / Raw(b"f" * 16)),
        "v6-echo-local": rec(P0, echo6(P0, V6_P0)),
        "v6-echo-local-p1-addr": rec(P0, echo6(P0, V6_P1)),
        "v6-echo-link-local": rec(P0, echo6(P0, LL_P0, src="fe80::99")),
        "v6-echo-all-nodes": rec(P0, echo6(P0, ALL_NODES, dst_mac=group_mac(ALL_NODES))),
        "v6-echo-dstopts": rec(P0, to6(P0, V6_P0) / IPv6ExtHdrDestOpt() /
                               ICMPv6EchoRequest(id=1, seq=2)),
        "v6-echo-atomic-fragment": rec(P0, to6(P0, V6_P0) / IPv6ExtHdrFragment(id=3) /
                                       ICMPv6EchoRequest(id=1, seq=2)),
        "v6-routing-left-local": rec(P0, to6(P0, V6_P0) /
                                     IPv6ExtHdrRouting(type=0, segleft=1, addresses=[V6_NB0]) /
                                     UDP(sport=1, dport=2)),
        "v6-fragment-local": rec(P0, to6(P0, V6_P0) / IPv6ExtHdrFragment(m=1, id=4) /
                                 ICMPv6EchoRequest(id=1, seq=2)),
        "v6-udp-local": rec(P0, udp6(P0, V6_P0)),
        "v6-tcp-local": rec(P0, to6(P0, V6_P0) / TCP(dport=22)),
        "v6-unknown-next-header-local": rec(P0, to6(P0, V6_P0, nh=253) / Raw(b"\0" * 8)),
        "v6-icmp6-error-to-local": rec(P0, to6(P0, V6_P0) / ICMPv6DestUnreach() /
                                       Raw(bytes(IPv6(dst=V6_NB0) / UDP()))),
        "v6-mld-query": rec(P0, mld),
        "v6-ns-for-us": rec(P0, ns(P0, V6_P0, "2001:db8::9", SN_P0)),
        "v6-ns-dad": rec(P0, ns(P0, V6_P0, "::", SN_P0)),
        "v6-ns-link-local": rec(P0, ns(P0, LL_P0, "fe80::99", "ff02::1:ff00:0")),
        "v6-na-unsolicited": rec(P0, na(P0, "2001:db8::9", ALL_NODES, HOST_A, solicited=False)),
        # resolution end to end: held for a host of p0's prefix, its answer releases it
        "v6-glean-then-na": chain(
            (P1, udp6(P1, "2001:db8::77")),
            (P0, na(P0, "2001:db8::77", V6_P0, HOST_B)),
            (P1, udp6(P1, "2001:db8::77"))),
        "v6-not-for-us": rec(P0, udp6(P0, V6_ROUTED, dst_mac="02:33:33:33:33:33")),
        "v6-group-frame-unicast": rec(P0, udp6(P0, V6_ROUTED, dst_mac=group_mac(ALL_NODES))),
        "v6-src-multicast": rec(P0, udp6(P0, V6_ROUTED, src="ff02::1")),
        "v6-src-loopback": rec(P0, udp6(P0, V6_ROUTED, src="::1")),
        "v6-src-unspecified": rec(P0, udp6(P0, V6_ROUTED, src="::")),
        "v6-src-v4mapped": rec(P0, udp6(P0, V6_ROUTED, src="::ffff:10.0.0.2")),
    }
    f = bytes(udp6(P0, V6_ROUTED))
    s["v6-truncated"] = rec(P0, f[:40])
    s["v6-padded"] = rec(P0, f + b"\0" * 20)
    s["v6-payload-past-frame"] = rec(P0, f[:18] + b"\x01\x00" + f[20:])
    s["v6-bad-version"] = rec(P0, f[:14] + b"\x40" + f[15:])
    return s


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


def tag(frame, vid, tpid=0x8100, prio=0):
    """frame (an Ether frame) with an 802.1Q (or 802.1ad) tag after its MACs."""
    f = bytes(frame)
    return f[:12] + struct.pack("!HH", tpid, prio << 13 | vid) + f[12:]


def vlan_seeds():
    """Tagged frames: every ethertype the demux hands on, on a known VLAN,
    an unknown one, VLAN 0 (priority tag: untagged traffic) and 4095, two
    tags, tags cut short; routed into and out of VLANs, to the loopback."""
    a_echo = echo(P0, V4_A, src_ip=V4_A_NB)
    s = {
        "vlan-echo": rec(P0, tag(a_echo, VID_A)),
        "vlan-udp-local": rec(P0, tag(udp(P0, V4_A, src_ip=V4_A_NB), VID_A)),
        "vlan-routed-out-untagged": rec(P0, tag(udp(P0, ROUTED, src_ip=V4_A_NB), VID_A)),
        "vlan-routed-in-to-vlan": chain(
            (P0, tag(arp(P0, 1, V4_A_NB, V4_A, hwsrc=NB0), VID_A)),
            (P1, udp(P1, V4_A_NB, src_ip="10.0.1.2"))),
        "vlan-to-vlan": chain(
            (P0, tag(arp(P0, 1, V4_A_NB, V4_A, hwsrc=NB0), VID_A)),
            (P1, tag(udp(P1, V4_A_NB, src_ip="10.0.200.2"), VID_B))),
        "vlan-glean-then-reply": chain(
            (P1, udp(P1, "10.0.100.77", src_ip="10.0.1.2")),
            (P0, tag(arp(P0, 2, "10.0.100.77", V4_A, dst=MAC[P0]), VID_A))),
        "vlan-ttl1": rec(P0, tag(udp(P0, ROUTED, src_ip=V4_A_NB, ttl=1), VID_A)),
        "vlan-no-route": rec(P0, tag(udp(P0, "8.8.8.8", src_ip=V4_A_NB), VID_A)),
        "vlan-big-to-mtu-1200": rec(P1, tag(udp(P1, "10.0.200.9", src_ip="10.0.200.2",
                                                payload=b"m" * 1250, flags="DF"), VID_B)),
        "vlan-glean": rec(P0, tag(udp(P0, "10.0.100.77", src_ip=V4_A_NB), VID_A)),
        "vlan-arp-request": rec(P0, tag(arp(P0, 1, "10.0.100.9", V4_A), VID_A)),
        "vlan-arp-reply": rec(P0, tag(arp(P0, 2, "10.0.100.77", V4_A, dst=MAC[P0]), VID_A)),
        "vlan-echo6": rec(P0, tag(echo6(P0, V6_A, src=V6_A_NB), VID_A)),
        "vlan-routed6": rec(P0, tag(udp6(P0, V6_ROUTED, src=V6_A_NB), VID_A)),
        "vlan-routed6-in": chain(
            (P0, tag(ns(P0, V6_A, V6_A_NB, "ff02::1:ff00:1", lladdr=NB0), VID_A)),
            (P1, udp6(P1, V6_A_NB, src=V6_NB1))),
        "vlan-hlim1": rec(P0, tag(udp6(P0, V6_ROUTED, src=V6_A_NB, hlim=1), VID_A)),
        "vlan-ns": rec(P0, tag(ns(P0, V6_A, V6_A_NB, "ff02::1:ff00:1"), VID_A)),
        "vlan-ns-dad": rec(P0, tag(ns(P0, V6_A, "::", "ff02::1:ff00:1"), VID_A)),
        "vlan-na": rec(P0, tag(na(P0, "2001:db8:64::77", V6_A, HOST_A), VID_A)),
        "vlan-loopback": rec(P0, tag(echo(P0, LO4, src_ip=V4_A_NB), VID_A)),
        "vlan-loopback6": rec(P0, tag(echo6(P0, LO6, src=V6_A_NB), VID_A)),
        "loopback-untagged": rec(P0, echo(P0, LO4)),
        "vlan-unknown": rec(P0, tag(a_echo, VID_UNKNOWN)),
        "vlan-unknown-arp": rec(P0, tag(arp(P0, 1, "10.0.100.9", V4_A), VID_UNKNOWN)),
        "vlan-0-echo": rec(P0, tag(echo(P0, "10.0.0.1"), 0, prio=5)),
        "vlan-0-arp": rec(P0, tag(arp(P0, 1, "10.0.0.9", "10.0.0.1"), 0)),
        "vlan-0-ns": rec(P0, tag(ns(P0, V6_P0, V6_NB0, SN_P0), 0)),
        "vlan-4095": rec(P0, tag(a_echo, 4095)),
        "vlan-on-other-port": rec(P1, tag(a_echo, VID_A)),
        "vlan-double": rec(P0, tag(tag(a_echo, VID_B), VID_A)),
        "vlan-qinq": rec(P0, tag(tag(a_echo, VID_A), VID_A, tpid=0x88a8)),
        "vlan-inner-8021ad": rec(P0, tag(tag(a_echo, VID_B, tpid=0x88a8), VID_A)),
        "vlan-copies": rec(P0, tag(a_echo, VID_A), copies=8, offload=True),
        "vlan-on-xconnect": rec(P2, tag(a_echo, VID_A)),
        "vlan-on-bridge": rec(P4, Ether(src=HOST_A, dst=BCAST) / Dot1AD(vlan=9) / IP() / UDP()),
        "vlan-then-untagged-same-mac": chain((P0, tag(a_echo, VID_A)), (P0, echo(P0, "10.0.0.1")),
                                              (P0, tag(a_echo, VID_UNKNOWN))),
    }
    t = tag(a_echo, VID_A)
    for cut in (13, 14, 15, 16, 17, 18, 20, 30):
        s["vlan-truncated-%d" % cut] = rec(P0, t[:cut])
    s["vlan-chained-split-in-tag"] = rec(P0, t + bytes([15, 0xc5]))  # CHAIN_MARK: 2 segments
    return s


# Bond (fuzz_env.h): m6, m7 (net_null6, net_null7) are the members of bond0, an
# LACP bond (fast rate) with 10.0.8.1/24 and the MAC of m6; 10.0.8.2 is a
# static neighbour behind it. Slow protocols (IEEE 802.3 annex 57A): ethertype
# 0x8809 to 01:80:c2:00:00:02, subtype 1 LACP (IEEE 802.1AX 6.4.2), 2 marker.
M6, M7 = 6, 7
BOND_MAC = "02:fd:00:00:00:06"
SLOW_MAC = "01:80:c2:00:00:02"
V4_BOND, V4_BOND_NB = "10.0.8.1", "10.0.8.2"
PARTNER_SYS = "02:22:00:00:00:01"
SYNC_ALL = 0x3d  # activity, aggregation, synchronization, collecting, distributing
FAST = 0x02


def lacp_tlv(t, prio, system, key, port_prio, port, state):
    return struct.pack("!BBH6sHHHB3x", t, 20, prio, bytes.fromhex(system.replace(":", "")),
                       key, port_prio, port, state)


def lacpdu(src, actor_state=SYNC_ALL | FAST, partner_state=SYNC_ALL | FAST, port=1,
           key=33, system=PARTNER_SYS, partner_sys=BOND_MAC, partner_port=1,
           partner_key=0, version=1, dst=SLOW_MAC):
    """A LACPDU from the partner's port `port` about itself (actor) and what
    it knows of us (partner): 110 bytes after the Ethernet header."""
    body = (bytes([1, version]) +
            lacp_tlv(1, 0x8000, system, key, 0x80, port, actor_state) +
            lacp_tlv(2, 0xffff, partner_sys, partner_key, 0xff, partner_port, partner_state) +
            struct.pack("!BBH12x", 3, 16, 0) + b"\0\0" + bytes(50))
    return Ether(src=src, dst=dst, type=0x8809) / Raw(body)


def marker(src, tlv=1, port=1, system=PARTNER_SYS, xid=0x01020304, tlv_len=16):
    body = (bytes([2, 1]) +
            struct.pack("!BBH6sIH", tlv, tlv_len, port,
                        bytes.fromhex(system.replace(":", "")), xid, 0) +
            b"\0\0" + bytes(90))
    return Ether(src=src, dst=SLOW_MAC, type=0x8809) / Raw(body)


# LACPDUs DPDK's bonding PMD (mode 4, tests/smoke/lib_bond.sh) sent on a veth:
# defaulted, then in sync with the other end, then collecting and
# distributing; that other end's system (02:00:00:b0:0d:01 there) made ours.
DPDK_LACPDUS = [bytes.fromhex(
    "0180c2000002da6972c83d8b880901010114ffffda6972c83d8b002100ff0001%s0000000214ffff%s"
    "002100ff0001%s00000003100000" % (a, p, b) + "00" * 64)
    for a, p, b in (("45", "000000000000", "00"), ("0d", "02fd00000006", "0d"),
                    ("3d", "02fd00000006", "1d"))]


def bond_seeds():
    """LACPDUs and markers on the members of bond0: an aggregation coming
    up, a partner going away, a second partner system, timers' bits, marker
    requests (answered) and responses, everything cut short or slightly
    wrong; data on a member before and after it collects; slow protocols
    where no bond is."""
    pa, pb = "02:22:00:00:00:0a", "02:22:00:00:00:0b"
    up6 = lacpdu(pa, port=1, partner_port=1)
    up7 = lacpdu(pb, port=2, partner_port=2)
    data = to(P0, V4_BOND, src_ip=V4_BOND_NB, src_mac=pa, dst_mac=BOND_MAC) / \
        ICMP(type=8, id=7, seq=1) / Raw(b"bond" * 8)
    routed = to(P0, ROUTED, src_ip=V4_BOND_NB, src_mac=pa, dst_mac=BOND_MAC) / \
        UDP(sport=40000, dport=33434) / Raw(b"bond" * 8)
    s = {
        "lacp-up-m6": rec(M6, up6),
        "lacp-up-both": chain((M6, up6), (M7, up7), (M6, up6), (M7, up7)),
        "lacp-up-then-data": chain((M6, up6), (M6, up6), (M6, data), (M7, data)),
        "lacp-up-then-routed": chain((M6, up6), (M7, up7), (M6, routed), (M7, routed)),
        "lacp-data-not-collecting": rec(M6, data),
        "lacp-out-of-sync": chain((M6, up6), (M6, lacpdu(pa, actor_state=0x05))),
        "lacp-slow-rate": rec(M6, lacpdu(pa, actor_state=SYNC_ALL, partner_state=SYNC_ALL)),
        "lacp-passive": rec(M6, lacpdu(pa, actor_state=0x3c)),
        "lacp-expired-defaulted": rec(M6, lacpdu(pa, actor_state=0xff)),
        "lacp-other-system-on-m7": chain((M6, up6), (M7, lacpdu(pb, system="02:33:00:00:00:01"))),
        "lacp-other-key-on-m7": chain((M6, up6), (M7, lacpdu(pb, key=99, port=2))),
        "lacp-partner-change": chain((M6, up6), (M6, lacpdu(pa, system="02:33:00:00:00:01"))),
        "lacp-our-own-pdu-looped": rec(M6, lacpdu(BOND_MAC, system=BOND_MAC)),
        "lacp-version2": rec(M6, lacpdu(pa, version=2)),
        "lacp-version0": rec(M6, lacpdu(pa, version=0)),
        "lacp-unicast-dst": rec(M6, lacpdu(pa, dst=BOND_MAC)),
        "lacp-burst": rec(M6, up6, copies=8),
        "lacp-on-l3-port": rec(P0, lacpdu(pa)),
        "lacp-on-bridge": rec(P4, lacpdu(pa)),
        "lacp-on-xconnect": rec(P2, lacpdu(pa)),
        "lacp-tagged": rec(M6, tag(lacpdu(pa), 100)),
        "marker-request": rec(M6, marker(pa)),
        "marker-request-m7": chain((M7, up7), (M7, marker(pb, port=2))),
        "marker-response": rec(M6, marker(pa, tlv=2)),
        "marker-bad-tlv": rec(M6, marker(pa, tlv=7)),
        "marker-bad-len": rec(M6, marker(pa, tlv_len=200)),
        "marker-burst": rec(M6, marker(pa), copies=8),
        "slow-oam": rec(M6, Ether(src=pa, dst=SLOW_MAC, type=0x8809) / Raw(b"\x03" + bytes(60))),
        "slow-subtype-0": rec(M6, Ether(src=pa, dst=SLOW_MAC, type=0x8809) / Raw(bytes(60))),
        "slow-empty": rec(M6, bytes(Ether(src=pa, dst=SLOW_MAC, type=0x8809))),
        "lacp-tlv-len-0": rec(M6, bytes(up6)[:16] + b"\0" + bytes(up6)[17:]),
        "lacp-tlv-len-255": rec(M6, bytes(up6)[:17] + b"\xff" + bytes(up6)[18:]),
        "lacp-chained-split": rec(M6, bytes(up6) + bytes([40, 0xc5])),
        "lacp-dpdk-defaulted": rec(M6, DPDK_LACPDUS[0]),
        "lacp-dpdk-sequence": chain(*((M6, f) for f in DPDK_LACPDUS)),
        "lacp-dpdk-both-members": chain(*((m, f) for f in DPDK_LACPDUS for m in (M6, M7))),
        "arp-on-bond": chain((M6, up6), (M6, arp(M6, 1, V4_BOND_NB, V4_BOND, hwsrc=pa))),
    }
    for cut in (14, 15, 16, 20, 37, 58, 60, 76, 78, 94, 123):
        s["lacp-truncated-%d" % cut] = rec(M6, bytes(up6)[:cut])
    for cut in (15, 16, 18, 30, 34):
        s["marker-truncated-%d" % cut] = rec(M6, bytes(marker(pa))[:cut])
    return s


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    seeds = {**l3_seeds(), **arp_seeds(), **l2_seeds(), **ip6_seeds(), **vlan_seeds(),
             **bond_seeds()}
    for i, (name, data) in enumerate(seeds.items()):
        with open(os.path.join(OUT, "%02d-%s" % (i, name)), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds), OUT))


if __name__ == "__main__":
    main()
