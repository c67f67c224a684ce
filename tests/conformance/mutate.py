# SPDX-License-Identifier: BSD-3-Clause
"""Random and mutated frames for the malformed-traffic suite.

Scapy builds a few dozen valid templates once (every path of the router:
routed, local, glean, no route, blackhole, ARP, broadcast, options,
fragments); then each frame is a template with zero to three byte-level
mutations (truncation, lengths, IHL, options, fragment fields, TTL 0/1,
group source MACs, ARP with wrong sizes, VLAN tags, frames past the MTU,
bit flips), fast enough for 100k frames in a second or two. A seeded
random.Random makes the stream the same in every run. Checksums are made
right again after most header edits, so frames get past the first check.
"""
import random
import struct

from scapy.all import ARP, ICMP, IP, TCP, UDP, Ether, IPOption, Raw, conf

from conftest import BLACKHOLE, GW, HOST, P0_ADDR, P1_ADDR, T0_MAC, UNROUTED

conf.verb = 0

DST = "198.51.100.10"
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
    ]
    return [bytearray(bytes(p)) for p in t]


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

    def m_vlan(self, f):
        """A VLAN (or QinQ) tag after the MAC addresses."""
        tpid = self.r.choice((b"\x81\x00", b"\x88\xa8"))
        return f[:12] + bytearray(tpid + struct.pack("!H", self.r.randrange(4096))) + f[12:]

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

    def m_random(self, f):
        return bytearray(self.r.getrandbits(8) for _ in range(self.r.randrange(0, 128)))


def frames(n, seed, router_mac):
    """n frames: mostly mutated templates, some valid, some pure noise."""
    r = random.Random(seed)
    m = Mutator(r, router_mac)
    t = templates(router_mac)
    return [m.frame(t) for _ in range(n)]
