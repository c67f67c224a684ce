#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a synthetic Internet-like IPv4 routing table for `fwdctl route load`.

    gen_routes.py COUNT GATEWAY [GATEWAY...] > table.txt

Prefix lengths follow the shape of today's global table (mostly /24, then
/22 and /23, a long tail up to /8), addresses are unique unicast prefixes
outside private and special ranges, gateways are used round robin. The
same COUNT and gateways always give the same table (fixed seed).
"""
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


def allowed(addr):
    return not any(addr & mask == net for net, mask in EXCLUDED)


def lengths(count):
    total = sum(SHAPE.values())
    out = []
    for length, share in SHAPE.items():
        out += [length] * max(1, round(count * share / total))
    random.shuffle(out)
    out = (out * (count // len(out) + 1))[:count]
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    count = int(sys.argv[1])
    gateways = sys.argv[2:]
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


if __name__ == "__main__":
    main()
