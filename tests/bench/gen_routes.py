#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a synthetic Internet-like routing table for `fwdctl route load`.

    gen_routes.py COUNT GATEWAY [GATEWAY...] > table.txt       (IPv4)
    gen_routes.py -6 COUNT GATEWAY [GATEWAY...] > table6.txt   (IPv6)

IPv4: prefix lengths follow the shape of today's global table (mostly /24,
then /22 and /23, a long tail up to /8), addresses are unique unicast
prefixes outside private and special ranges.

IPv6: the shape of today's global IPv6 table (/48 about half, then /32,
/44, /40, /36, /29, /28, /47, /46 and a tail from /19 to /64), placed as
real allocations are: /32, /29 and shorter allocations at random in the
RIRs' blocks of 2000::/3 (none in 2001::/23, 2001:db8::/32, 2002::/16 or
3fff::/20), each announced or not, and the longer prefixes inside them, a
few allocations holding most of them (heavy-tailed popularity) and
assignments bunched from the start of an allocation as ISPs hand them out.

Gateways are used round robin. The same COUNT and gateways always give the
same table (fixed seed).
"""
import bisect
import ipaddress
import random
import sys

# approximate share of each prefix length in the global IPv4 table
SHAPE = {8: 16, 9: 12, 10: 40, 11: 100, 12: 300, 13: 600, 14: 1200, 15: 2000,
         16: 13000, 17: 8000, 18: 14000, 19: 25000, 20: 45000, 21: 55000,
         22: 120000, 23: 110000, 24: 600000}
EXCLUDED = [ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3")]


EXCLUDED = [(int(n.network_address), int(n.netmask)) for n in EXCLUDED]

# approximate share (per 10,000) of each prefix length in the global IPv6 table
SHAPE6 = {19: 1, 20: 1, 22: 1, 23: 1, 24: 2, 26: 1, 27: 2, 28: 250, 29: 300, 30: 50,
          31: 40, 32: 1200, 33: 120, 34: 100, 35: 50, 36: 350, 37: 40, 38: 60,
          39: 50, 40: 650, 41: 40, 42: 120, 43: 60, 44: 800, 45: 100, 46: 180,
          47: 200, 48: 5000, 52: 20, 56: 60, 60: 10, 64: 40}
# the RIRs' blocks (IANA's IPv6 unicast assignments) and their weights
RIR6 = [("2001:200::/23", 2), ("2001:400::/23", 2), ("2001:600::/23", 2),
        ("2001:800::/22", 3), ("2001:c00::/23", 2), ("2001:1200::/23", 1),
        ("2001:1400::/22", 2), ("2001:1800::/23", 2), ("2001:1c00::/22", 3),
        ("2001:4000::/23", 2), ("2001:4400::/23", 1), ("2001:4800::/23", 2),
        ("2001:8000::/19", 3), ("2001:b000::/20", 2), ("2003::/18", 2),
        ("2400::/12", 22), ("2600::/12", 22), ("2610::/23", 1), ("2620::/23", 2),
        ("2800::/12", 12), ("2a00::/12", 25), ("2a10::/12", 8), ("2c00::/12", 2)]
EXCLUDED6 = [ipaddress.ip_network(n) for n in (
    "2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20")]
EXCLUDED6 = [(int(n.network_address), int(n.netmask)) for n in EXCLUDED6]
ALLOC_LENS = (32, 32, 29)  # what an RIR allocation usually is


def allowed(addr):
    return not any(addr & mask == net for net, mask in EXCLUDED)


def lengths(count, shape=SHAPE):
    total = sum(shape.values())
    out = []
    for length, share in shape.items():
        out += [length] * max(1, round(count * share / total))
    random.shuffle(out)
    out = (out * (count // len(out) + 1))[:count]
    return out


def main4(count, gateways):
    random.seed(1812)
    seen = set()
    out = sys.stdout
    for i, length in enumerate(lengths(count)):
        for _ in range(64):
            addr = random.getrandbits(32) & (0xFFFFFFFF << (32 - length)) & 0xFFFFFFFF
            if (addr, length) not in seen and allowed(addr):
                break
        else:
            continue  # this length is full: skip
        seen.add((addr, length))
        out.write("%s/%d via %s\n" % (ipaddress.IPv4Address(addr), length,
                                      gateways[i % len(gateways)]))


def mask6(length):
    return ((1 << 128) - 1) ^ ((1 << (128 - length)) - 1)


def allowed6(addr):
    return not any(addr & mask == net for net, mask in EXCLUDED6)


class Allocations:
    """Allocations, each with a popularity drawn from a heavy-tailed law."""

    def __init__(self):
        blocks = [ipaddress.ip_network(b) for b, _ in RIR6]
        self.blocks = [(int(b.network_address), b.prefixlen) for b in blocks]
        self.block_cum = []
        for _, weight in RIR6:
            self.block_cum.append((self.block_cum[-1] if self.block_cum else 0) + weight)
        self.allocs = []  # (addr, len)
        self.cum = []  # cumulative popularity

    def new(self, length):
        """A fresh aligned prefix of this length in an RIR block."""
        i = bisect.bisect(self.block_cum, random.random() * self.block_cum[-1])
        base, blen = self.blocks[i]
        length = max(length, blen)
        addr = base | random.getrandbits(length - blen) << (128 - length)
        return addr, length

    def add(self, addr, length):
        weight = random.paretovariate(1.1)
        self.allocs.append((addr, length))
        self.cum.append((self.cum[-1] if self.cum else 0) + weight)

    def pick(self, longer_than):
        """A popular allocation shorter than longer_than, if any."""
        for _ in range(8):
            if not self.allocs:
                return None
            i = bisect.bisect(self.cum, random.random() * self.cum[-1])
            if self.allocs[i][1] < longer_than:
                return self.allocs[i]
        return None


def inner(bits):
    """Bits below an allocation: often the first few, as ISPs assign them."""
    if bits == 0:
        return 0
    if random.random() < 0.6:
        return int(2 ** (random.random() * bits)) - 1
    return random.getrandbits(bits)


def prefix6(allocs, length):
    """A prefix of this length: an allocation of its own, or inside one."""
    if length <= 32 and random.random() < 0.85:
        return allocs.new(length)
    alloc = allocs.pick(length)
    if alloc is None:
        return allocs.new(length)
    base, alen = alloc
    return base | inner(length - alen) << (128 - length), length


def main6(count, gateways):
    random.seed(8200)
    allocs = Allocations()
    # the allocations first, so that none is popular for being early;
    # those the table does not announce stand for PI blocks and aggregates
    # filtered upstream
    for _ in range(max(1, count // 5)):
        allocs.add(*allocs.new(random.choice(ALLOC_LENS)))
    seen = set()
    out = sys.stdout
    for i, length in enumerate(lengths(count, SHAPE6)):
        for _ in range(64):
            addr, plen = prefix6(allocs, length)
            addr &= mask6(plen)
            if (addr, plen) not in seen and allowed6(addr):
                break
        else:
            continue  # no room left for this length: skip
        seen.add((addr, plen))
        out.write("%s/%d via %s\n" % (ipaddress.IPv6Address(addr), plen,
                                      gateways[i % len(gateways)]))


def main():
    args = sys.argv[1:]
    six = len(args) > 0 and args[0] == "-6"
    if six:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    count = int(args[0])
    gateways = args[1:]
    if six:
        main6(count, gateways)
    else:
        main4(count, gateways)


if __name__ == "__main__":
    main()
