# SPDX-License-Identifier: BSD-3-Clause
"""Random and mutated frames for the malformed-traffic suite.

Scapy builds a few dozen valid templates once (every path of the router:
routed, local, glean, no route, blackhole, ARP, broadcast, options,
fragments; and the same for IPv6: routed, local, link-local, NDP of every
kind, hop-by-hop, fragments, packet too big, errors); then each frame is a
template with zero to three byte-level mutations (truncation, lengths, IHL,
options, fragment fields, TTL 0/1, group source MACs, ARP with wrong sizes,
VLAN tags, frames past the MTU, bit flips; for IPv6: version, payload
length, hop limit, next header, addresses of every class, extension header
lengths, ICMPv6 type and code, NDP option lengths; 802.1Q: templates of
every ethertype on the VLAN interface of VLAN_EXTRA, tags of VLAN 0, 4095,
unknown VLANs, two tags, tags cut short), fast enough for 100k frames in a
second or two. A seeded
random.Random makes the stream the same in every run. Checksums are made
right again after most header edits, so frames get past the first check
(for IPv6: the ICMPv6 or UDP checksum right behind the fixed header).
"""
import random
import struct

from scapy.all import (ARP, ICMP, IP, TCP, UDP, Ether, ICMPv6DestUnreach, ICMPv6EchoRequest,
                       ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6ND_RA, ICMPv6ND_Redirect, ICMPv6ND_RS,
                       ICMPv6NDOptDstLLAddr, ICMPv6NDOptMTU, ICMPv6NDOptPrefixInfo,
                       ICMPv6NDOptSrcLLAddr, ICMPv6PacketTooBig, IPOption, IPv6,
                       IPv6ExtHdrDestOpt, IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                       IPv6ExtHdrRouting, PadN, Raw, RouterAlert, conf)

from conftest import (BLACKHOLE, BLACKHOLE6, GW, GW6, HOST, HOST6, P0_ADDR, P0_ADDR6, P1_ADDR,
                      P1_ADDR6, R0_LL, T0_LL, T0_MAC, UNROUTED, UNROUTED6)
from frames6 import solicited

conf.verb = 0

# The VLAN interface the malformed suite's router has on p0 (no static
# neighbours on it: the router resolves V_HOST, which never answers), and
# VLANs it does not have.
VID, VID_UNKNOWN = 100, 300
V_ADDR, V_HOST, V_ADDR6, V_HOST6 = "10.20.100.1", "10.20.100.2", "2001:db8:20:100::1", \
    "2001:db8:20:100::2"
VLAN_EXTRA = {"tail": f"""\
interfaces:
  - {{ name: p0.100, port: p0, vlan: {VID}, addresses: [{V_ADDR}/24, "{V_ADDR6}/64"] }}
"""}
TPIDS = (b"\x81\x00", b"\x81\x00", b"\x81\x00", b"\x88\xa8", b"\x91\x00")
DST = "198.51.100.10"
DST6 = "2001:db8:51::10"
JUMBO_MAX = 1518  # what a veth with MTU 1500 still carries: header, VLAN tag, 1500
BCAST = b"\xff" * 6


def _ip_cksum(f):
    """Recompute the IPv4 header checksum of frame f (bytearray) in place."""
    if len(f) < 34:
        return f
    hlen = max(20, (f[14] & 0xf) * 4)
    if 14 + hlen > len(f):
        return f
    f[24:26] = b"\0\0"
    s = sum(struct.unpack("!%dH" % (hlen // 2), bytes(f[14:14 + hlen])))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    f[24:26] = struct.pack("!H", ~s & 0xffff)
    return f


def templates(router_mac):
    """Valid frames from the tester's t0 to the router's p0."""
    def ip(dst, src=HOST, **kw):
        return Ether(src=T0_MAC, dst=router_mac) / IP(src=src, dst=dst, **kw)

    def arp(op, psrc, pdst, hwsrc="02:aa:00:00:10:01", dst="ff:ff:ff:ff:ff:ff"):
        return Ether(src=hwsrc, dst=dst) / ARP(op=op, hwsrc=hwsrc, psrc=psrc, pdst=pdst)

    blackhole = BLACKHOLE.split("/")[0][:-1] + "5"
    t = [
        ip(DST) / UDP(sport=1000, dport=2000) / Raw(b"u" * 40),
        ip(DST) / ICMP(id=1, seq=1) / Raw(b"p" * 56),
        ip(DST) / TCP(sport=1001, dport=80, flags="S"),
        ip(DST) / UDP() / Raw(b"B" * 1400),  # fragmented at p1 (MTU 1280)
        ip(DST, flags="DF") / UDP() / Raw(b"D" * 1400),  # fragmentation needed
        ip(DST, flags="MF", frag=37) / UDP() / Raw(b"f" * 200),
        ip(DST, options=[IPOption(b"\x07\x07\x04\0\0\0\0")]) / UDP() / Raw(b"o" * 20),
        ip(DST, options=[IPOption(b"\x94\x04\0\0")]) / UDP() / Raw(b"B" * 1300),
        ip(DST, ttl=1) / UDP() / Raw(b"t" * 20),
        ip(P0_ADDR) / ICMP(id=2, seq=2) / Raw(b"e" * 32),
        ip(P1_ADDR) / UDP(dport=33434) / Raw(b"l" * 8),
        ip(P0_ADDR, proto=47) / Raw(b"\0" * 8),
        ip(UNROUTED) / UDP() / Raw(b"n" * 16),
        ip(blackhole) / UDP() / Raw(b"h" * 16),
        ip("10.20.1.77") / UDP() / Raw(b"g" * 16),  # glean on p0's subnet
        ip("10.20.2.77") / UDP() / Raw(b"g" * 16),  # glean on p1's subnet
        ip(GW) / ICMP(id=3, seq=3),
        ip("255.255.255.255") / UDP(),
        ip("10.20.1.255") / UDP(),
        ip("224.0.0.9") / UDP(),
        arp(1, "10.20.1.9", P0_ADDR),
        arp(1, "10.20.1.10", "10.20.1.10"),  # gratuitous
        arp(2, "10.20.1.11", P0_ADDR, dst=router_mac),
        arp(1, "10.20.1.12", "10.20.1.99"),
    ] + templates6(router_mac)
    return [bytearray(bytes(p)) for p in t] + vlan_templates(router_mac)


def vlan_tag(f, vid, tpid=b"\x81\x00", prio=0):
    return f[:12] + bytearray(tpid + struct.pack("!H", prio << 13 | vid)) + f[12:]


def vlan_templates(router_mac):
    """Valid frames on VLAN VID of p0, one or more of each ethertype fwd handles."""
    def ip(dst, src=V_HOST):
        return Ether(src=T0_MAC, dst=router_mac) / IP(src=src, dst=dst)

    def ip6(dst, src=V_HOST6, mac=router_mac, **kw):
        return Ether(src=T0_MAC, dst=mac) / IPv6(src=src, dst=dst, **kw)

    group, gmac = solicited(V_ADDR6)
    t = [
        ip(V_ADDR) / ICMP(id=4, seq=1) / Raw(b"v" * 32),
        ip(DST) / UDP(sport=1000, dport=2000) / Raw(b"v" * 40),
        ip(DST, src=V_HOST) / TCP(dport=80, flags="S"),
        ip(UNROUTED) / UDP() / Raw(b"n" * 16),
        ip("10.20.100.77") / UDP() / Raw(b"g" * 16),  # glean on the VLAN
        Ether(src=T0_MAC, dst="ff:ff:ff:ff:ff:ff") / ARP(op=1, hwsrc=T0_MAC, psrc=V_HOST,
                                                       pdst=V_ADDR),
        Ether(src=T0_MAC, dst=router_mac) / ARP(op=2, hwsrc=T0_MAC, psrc="10.20.100.77",
                                              pdst=V_ADDR),
        ip6(V_ADDR6) / ICMPv6EchoRequest(id=4, seq=2) / Raw(b"v" * 32),
        ip6(DST6) / UDP() / Raw(b"v" * 40),
        ip6(DST6, hlim=1) / UDP() / Raw(b"t" * 20),
        ip6(group, mac=gmac, hlim=255) / ICMPv6ND_NS(tgt=V_ADDR6) /
        ICMPv6NDOptSrcLLAddr(lladdr=T0_MAC),
        ip6(group, src="::", mac=gmac, hlim=255) / ICMPv6ND_NS(tgt=V_ADDR6),  # DAD
    ]
    return [vlan_tag(bytearray(bytes(p)), VID) for p in t]


def templates6(router_mac):
    """Valid IPv6 frames from t0 to p0 (or to a group), every path."""
    def ip6(dst, src=HOST6, mac=router_mac, **kw):
        return Ether(src=T0_MAC, dst=mac) / IPv6(src=src, dst=dst, **kw)

    def nsol(target, src=HOST6, slla=True):
        group, mac = solicited(target)
        p = ip6(group, src, mac, hlim=255) / ICMPv6ND_NS(tgt=target)
        return p / ICMPv6NDOptSrcLLAddr(lladdr=T0_MAC) if slla else p

    blackhole6 = BLACKHOLE6.split("/")[0] + "5"
    big = b"P" * 1400
    return [
        ip6(DST6) / UDP(sport=1000, dport=2000) / Raw(b"u" * 40),
        ip6(DST6) / ICMPv6EchoRequest(id=1, seq=1) / Raw(b"p" * 56),
        ip6(DST6) / TCP(sport=1001, dport=80, flags="S"),
        ip6(DST6) / UDP() / Raw(big),  # packet too big at p1 (MTU 1280)
        ip6(DST6) / IPv6ExtHdrHopByHop(options=[PadN(optdata=b"\0\0\0\0")]) / UDP() /
        Raw(b"h" * 40),
        ip6(DST6) / IPv6ExtHdrHopByHop(options=[RouterAlert()]) / UDP() / Raw(b"a" * 8),
        ip6(DST6) / IPv6ExtHdrDestOpt() / IPv6ExtHdrRouting(addresses=[GW6]) / UDP() /
        Raw(b"r" * 8),
        ip6(DST6) / IPv6ExtHdrFragment(nh=17, m=1, id=7) / Raw(b"f" * 200),
        ip6(DST6) / IPv6ExtHdrFragment(nh=17, offset=100, id=7) / Raw(b"f" * 1300),
        ip6(DST6, hlim=1) / UDP() / Raw(b"t" * 20),
        ip6(DST6, src=T0_LL) / UDP() / Raw(b"s" * 20),  # beyond scope
        ip6(P0_ADDR6) / ICMPv6EchoRequest(id=2, seq=2) / Raw(b"e" * 32),
        ip6(R0_LL, src=T0_LL) / ICMPv6EchoRequest(id=2, seq=3) / Raw(b"e" * 32),
        ip6("ff02::1", src=T0_LL, mac="33:33:00:00:00:01") / ICMPv6EchoRequest(id=2, seq=4),
        ip6(P1_ADDR6) / UDP(dport=33434) / Raw(b"l" * 8),
        ip6(P0_ADDR6, nh=253) / Raw(b"\0" * 8),
        ip6(P0_ADDR6) / ICMPv6DestUnreach(code=4) / IPv6(src=P0_ADDR6, dst=HOST6) / UDP(),
        ip6(P0_ADDR6) / ICMPv6PacketTooBig(mtu=1280) / IPv6(src=P0_ADDR6, dst=HOST6) / UDP(),
        ip6(UNROUTED6) / UDP() / Raw(b"n" * 16),
        ip6(blackhole6) / UDP() / Raw(b"h" * 16),
        ip6("2001:db8:20:1::77") / UDP() / Raw(b"g" * 16),  # resolution on p0's link
        ip6("2001:db8:20:2::77") / UDP() / Raw(b"g" * 16),  # resolution on p1's link
        ip6(GW6) / ICMPv6EchoRequest(id=3, seq=3),
        ip6("ff0e::1", mac="33:33:00:00:00:01") / UDP(),
        nsol(P0_ADDR6),
        nsol(R0_LL, src=T0_LL),
        nsol(P0_ADDR6, src="::", slla=False),  # someone's DAD
        nsol("2001:db8:20:1::99"),
        ip6(P0_ADDR6, hlim=255) / ICMPv6ND_NS(tgt=P0_ADDR6) / ICMPv6NDOptSrcLLAddr(lladdr=T0_MAC),
        ip6("ff02::1", src="2001:db8:20:1::55", mac="33:33:00:00:00:01", hlim=255) /
        ICMPv6ND_NA(tgt="2001:db8:20:1::55", R=0, S=0, O=1) /
        ICMPv6NDOptDstLLAddr(lladdr=T0_MAC),  # unsolicited
        ip6(P0_ADDR6, src="2001:db8:20:1::77", hlim=255) /
        ICMPv6ND_NA(tgt="2001:db8:20:1::77", S=1, O=1) / ICMPv6NDOptDstLLAddr(lladdr=T0_MAC),
        ip6("ff02::2", src=T0_LL, mac="33:33:00:00:00:02", hlim=255) / ICMPv6ND_RS() /
        ICMPv6NDOptSrcLLAddr(lladdr=T0_MAC),
        ip6("ff02::1", src=T0_LL, mac="33:33:00:00:00:01", hlim=255) / ICMPv6ND_RA() /
        ICMPv6NDOptSrcLLAddr(lladdr=T0_MAC) / ICMPv6NDOptMTU(mtu=1400) /
        ICMPv6NDOptPrefixInfo(prefix="2001:db8:77::", prefixlen=64),
        ip6(R0_LL, src=T0_LL, hlim=255) / ICMPv6ND_Redirect(tgt=T0_LL, dst=DST6),
    ]


def _l4_cksum6(f):
    """Recompute the ICMPv6 or UDP checksum of IPv6 frame f (bytearray) in
    place, when that header follows the fixed one and the payload length fits."""
    if len(f) < 62 or f[12:14] != b"\x86\xdd":
        return f
    plen = struct.unpack("!H", f[18:20])[0]
    nh = f[20]
    at = {58: 56, 17: 60}.get(nh)
    if at is None or 54 + plen > len(f) or plen < (4 if nh == 58 else 8):
        return f
    f[at:at + 2] = b"\0\0"
    data = bytes(f[22:54]) + struct.pack("!IxxxB", plen, nh) + bytes(f[54:54 + plen])
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    f[at:at + 2] = struct.pack("!H", (~s & 0xffff) or 0xffff)
    return f


class Mutator:
    """Applies named, seeded mutations to frames."""

    def __init__(self, rng, router_mac):
        self.r = rng
        self.mac = bytes.fromhex(router_mac.replace(":", ""))
        self.ops = [getattr(self, n) for n in dir(self) if n.startswith("m_")]

    def frame(self, templates):
        f = bytearray(self.r.choice(templates))
        for _ in range(self.r.choice((0, 1, 1, 2, 2, 3))):
            f = self.r.choice(self.ops)(f)
        # a raw socket sends nothing shorter than the Ethernet header
        return bytes(f[:JUMBO_MAX]).ljust(14, b"\0")

    def fix(self, f):
        return _ip_cksum(f) if self.r.random() < 0.8 else f

    def rand_ip(self):
        return self.r.choice([
            bytes(self.r.getrandbits(8) for _ in range(4)),
            bytes([10, 20, 1, self.r.getrandbits(8)]), bytes([10, 20, 2, self.r.getrandbits(8)]),
            bytes([198, 51, 100, self.r.getrandbits(8)]), b"\xff\xff\xff\xff", b"\0\0\0\0",
            b"\x7f\0\0\1", b"\xe0\0\0\1", b"\xf0\0\0\1", bytes([10, 20, 1, 1])])

    def m_truncate(self, f):
        return f[:self.r.randrange(0, max(1, len(f)))]

    def m_pad(self, f):
        return f + bytes(self.r.getrandbits(8) for _ in range(self.r.randrange(1, 64)))

    def m_jumbo(self, f):
        return f + b"J" * max(0, self.r.randrange(1500, JUMBO_MAX + 1) - len(f))

    def m_ihl(self, f):
        if len(f) > 14:
            f[14] = (f[14] & 0xf0) | self.r.randrange(16)
        return self.fix(f)

    def m_version(self, f):
        if len(f) > 14:
            f[14] = (self.r.randrange(16) << 4) | (f[14] & 0xf)
        return self.fix(f)

    def m_total_length(self, f):
        if len(f) >= 18:
            n = self.r.choice((0, 19, 20, len(f) - 14, len(f) - 13, 0xffff,
                               self.r.randrange(65536)))
            f[16:18] = struct.pack("!H", max(0, n) & 0xffff)
        return self.fix(f)

    def m_ttl(self, f):
        if len(f) > 22:
            f[22] = self.r.choice((0, 1, 2, 255))
        return self.fix(f)

    def m_fragment(self, f):
        if len(f) >= 22:
            flags = self.r.choice((0, 0x2000, 0x4000, 0x6000, 0x8000))
            f[20:22] = struct.pack("!H", flags | self.r.choice((0, 1, 185, 8100, 0x1fff)))
        return self.fix(f)

    def m_options(self, f):
        """Grow the header by option bytes (well-formed or not)."""
        if len(f) < 34 or f[12:14] != b"\x08\x00":
            return f
        n = self.r.choice((4, 8, 40))
        opts = self.r.choice((b"\x01" * n, b"\x07" + bytes([n - 1]) + b"\x04" + b"\0" * (n - 3),
                              bytes(self.r.getrandbits(8) for _ in range(n))))
        hl = (f[14] & 0xf) * 4
        f = f[:14 + hl] + bytearray(opts) + f[14 + hl:]
        f[14] = 0x40 | min(15, (hl + n) // 4)
        tot = struct.unpack("!H", f[16:18])[0] + n
        f[16:18] = struct.pack("!H", tot & 0xffff)
        return self.fix(f)

    def m_checksum(self, f):
        if len(f) >= 26:
            f[24] ^= 1 + self.r.randrange(255)
        return f

    def m_src_mac(self, f):
        if len(f) >= 12:
            f[6:12] = self.r.choice((BCAST, b"\x01\x00\x5e\0\0\1", b"\0" * 6, self.mac,
                                     b"\x33\x33\0\0\0\1"))
        return f

    def m_dst_mac(self, f):
        if len(f) >= 6:
            f[0:6] = self.r.choice((BCAST, b"\x01\x00\x5e\0\0\x09", b"\x02\x99\0\0\0\1",
                                    b"\x01\x80\xc2\0\0\0", self.mac))
        return f

    def m_ethertype(self, f):
        if len(f) >= 14:
            f[12:14] = self.r.choice((b"\x86\xdd", b"\x88\xcc", b"\x08\x06", b"\x08\x00",
                                      b"\x00\x2e", b"\xff\xff"))
        return f

    def vid(self):
        return self.r.choice((0, 0, 1, VID, VID, VID_UNKNOWN, 4094, 4095, self.r.randrange(4096)))

    def m_vlan(self, f):
        """A VLAN (or QinQ) tag after the MAC addresses: VLAN 0 (priority),
        the router's, unknown ones, 4095; priority bits and DEI at random."""
        tci = self.r.randrange(16) << 12 | self.vid()
        return f[:12] + bytearray(self.r.choice(TPIDS) + struct.pack("!H", tci)) + f[12:]

    def m_vlan_double(self, f):
        """Two tags (802.1ad outside or two 802.1Q)."""
        return self.m_vlan(self.m_vlan(f))

    def m_vlan_retag(self, f):
        """A tagged frame's VLAN changed (or its tag made a priority tag)."""
        if len(f) >= 16 and bytes(f[12:14]) in TPIDS:
            f[14:16] = struct.pack("!H", (f[14] & 0xf0) << 8 | self.vid())
        return f

    def m_vlan_truncate(self, f):
        """Cut inside the tag or right behind it."""
        if len(f) < 16 or bytes(f[12:14]) not in TPIDS:
            f = self.m_vlan(f)
        return f[:self.r.randrange(12, 21)]

    def m_arp_fields(self, f):
        if len(f) >= 22 and f[12:14] == b"\x08\x06":
            i = self.r.choice((14, 16, 18, 19, 20))
            f[i] = self.r.getrandbits(8)
        return f

    def m_ip_addr(self, f):
        if len(f) >= 34 and f[12:14] == b"\x08\x00":
            at = self.r.choice((26, 30))
            f[at:at + 4] = self.rand_ip()
        return self.fix(f)

    def m_arp_addr(self, f):
        if len(f) >= 42 and f[12:14] == b"\x08\x06":
            at = self.r.choice((28, 38))
            f[at:at + 4] = self.rand_ip()
        return f

    def m_bitflip(self, f):
        for _ in range(self.r.randrange(1, 6)):
            if f:
                f[self.r.randrange(len(f))] ^= 1 << self.r.randrange(8)
        return f

    # ---------------------------------------------------------------- IPv6
    def is6(self, f):
        return len(f) >= 54 and f[12:14] == b"\x86\xdd"

    def fix6(self, f):
        return _l4_cksum6(f) if self.r.random() < 0.8 else f

    def rand_ip6(self):
        r = self.r
        low = bytes([r.getrandbits(8)])
        return r.choice([
            bytes(r.getrandbits(8) for _ in range(16)), bytes(16), bytes(15) + b"\1",
            bytes.fromhex("20010db8002000010000000000000000")[:15] + low,  # p0's prefix
            bytes.fromhex("20010db8002000020000000000000000")[:15] + low,  # p1's prefix
            bytes.fromhex("20010db8005100000000000000000000")[:15] + low,  # routed
            bytes.fromhex("20010db8009900000000000000000000")[:15] + low,  # no route
            bytes.fromhex("fe800000000000000000000000000000")[:15] + low,  # link-local
            bytes.fromhex("ff020000000000000000000000000001"),  # all nodes
            bytes.fromhex("ff020000000000000000000000000002"),  # all routers
            bytes.fromhex("ff0200000000000000000001ff000000")[:15] + low,  # solicited-node
            bytes.fromhex("ff000000000000000000000000000005"),  # reserved scope 0
            bytes.fromhex("ff0e0000000000000000000000000001"),  # global scope group
            bytes.fromhex("00000000000000000000ffff0a140101"),  # IPv4-mapped
            bytes.fromhex("20010db8002000010000000000000001"),  # p0's address
            bytes.fromhex("fe8000000000000000ff00fffe000100")])  # p0's link-local

    def m_v6_version(self, f):
        if self.is6(f):
            f[14] = (self.r.choice((0, 4, 6, 6, 7, 15)) << 4) | (f[14] & 0xf)
        return f

    def m_v6_payload_length(self, f):
        if self.is6(f):
            n = self.r.choice((0, 1, 7, 8, len(f) - 54, len(f) - 53, len(f) - 55, 0xffff,
                               self.r.randrange(65536)))
            f[18:20] = struct.pack("!H", max(0, n) & 0xffff)
        return self.fix6(f)

    def m_v6_hop_limit(self, f):
        if self.is6(f):
            f[21] = self.r.choice((0, 1, 2, 254, 255))
        return self.fix6(f)

    def m_v6_next_header(self, f):
        if self.is6(f):
            f[20] = self.r.choice((0, 6, 17, 43, 44, 58, 59, 60, 135, 253,
                                   self.r.getrandbits(8)))
        return self.fix6(f)

    def m_v6_addr(self, f):
        if self.is6(f):
            at = self.r.choice((22, 38))
            f[at:at + 16] = self.rand_ip6()
        return self.fix6(f)

    def m_v6_ext_len(self, f):
        """The length byte of the first extension header (if any)."""
        if self.is6(f) and f[20] in (0, 43, 44, 60) and len(f) > 55:
            f[55] = self.r.choice((0, 1, 2, 255, self.r.getrandbits(8)))
        return self.fix6(f)

    def m_v6_icmp(self, f):
        if self.is6(f) and f[20] == 58 and len(f) > 55:
            if self.r.random() < 0.5:
                f[54] = self.r.choice((1, 2, 3, 4, 127, 128, 129, 133, 134, 135, 136, 137, 143,
                                       self.r.getrandbits(8)))
            else:
                f[55] = self.r.choice((0, 1, 255))
        return self.fix6(f)

    def m_v6_ndp_option(self, f):
        """An NDP option's length (0 is invalid) or type, past the fixed part."""
        if self.is6(f) and f[20] == 58 and len(f) > 54 and 133 <= f[54] <= 137:
            first = {133: 8, 134: 16, 135: 24, 136: 24, 137: 40}[f[54]]
            at = 54 + first
            if len(f) > at + 1:
                f[at + self.r.choice((0, 1))] = self.r.choice((0, 1, 2, 3, 5, 255))
        return self.fix6(f)

    def m_v6_truncate_header(self, f):
        """Cut inside the 40-byte header or the first extension header."""
        if self.is6(f):
            return f[:self.r.randrange(14, min(len(f), 54 + 16) + 1)]
        return f

    def m_random(self, f):
        return bytearray(self.r.getrandbits(8) for _ in range(self.r.randrange(0, 128)))


def frames(n, seed, router_mac):
    """n frames: mostly mutated templates, some valid, some pure noise."""
    r = random.Random(seed)
    m = Mutator(r, router_mac)
    t = templates(router_mac)
    return [m.frame(t) for _ in range(n)]
