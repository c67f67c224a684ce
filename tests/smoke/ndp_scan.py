#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Both ends of a scan of a /64 through a router, without scapy.

    ndp_scan.py answer IFACE PREFIX/64 SECONDS
        answer every Neighbor Solicitation on IFACE for a target in the
        prefix with a solicited, override NA from IFACE's MAC (an on-link
        host that claims the whole /64), for SECONDS; prints how many.
    ndp_scan.py scan PREFIX/64 COUNT
        send one UDP datagram to each of COUNT random addresses of the
        prefix (through the host's default route), about 1,000 a second.
"""
import ipaddress
import random
import socket
import struct
import sys
import time


def cksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def na(mac, ns):
    """The NA answering frame ns (an NS), or None."""
    if len(ns) < 78 or ns[12:14] != b"\x86\xdd" or ns[20] != 58 or ns[54] != 135:
        return None
    src, target = ns[22:38], ns[62:78]
    body = struct.pack("!BBHI16sBB6s", 136, 0, 0, 0x60000000, target, 2, 1, mac)
    pseudo = target + src + struct.pack("!IxxxB", len(body), 58)
    body = body[:2] + struct.pack("!H", cksum(pseudo + body)) + body[4:]
    ip = struct.pack("!IHBB16s16s", 6 << 28, len(body), 58, 255, target, src)
    return ns[6:12] + mac + b"\x86\xdd" + ip + body, target


def answer(iface, prefix, seconds):
    net = ipaddress.IPv6Network(prefix)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x86DD))
    s.bind((iface, 0))
    mac = s.getsockname()[4]
    s.settimeout(0.2)
    end, n = time.time() + float(seconds), 0
    while time.time() < end:
        try:
            f = s.recv(2048)
        except socket.timeout:
            continue
        r = na(mac, f)
        if r is not None and ipaddress.IPv6Address(r[1]) in net:
            s.send(r[0])
            n += 1
    print(n)


def scan(prefix, count):
    net = ipaddress.IPv6Network(prefix)
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    rnd = random.Random(33)
    for i in range(int(count)):
        a = net[rnd.randrange(2, 1 << 64)]
        s.sendto(b"scan", (str(a), 9))
        if i % 50 == 49:
            time.sleep(0.05)


if __name__ == "__main__":
    if sys.argv[1] == "answer":
        answer(*sys.argv[2:5])
    else:
        scan(*sys.argv[2:4])
