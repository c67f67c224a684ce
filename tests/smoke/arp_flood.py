#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""ARP from one MAC for many addresses, out of one interface, as fast as it goes.

    arp_flood.py IFACE MAC garp FIRST COUNT      gratuitous: sender = target = FIRST+i
    arp_flood.py IFACE MAC ask FIRST COUNT TIP   requests for TIP from FIRST+i

The frames are built up front (no scapy needed) and written to an
AF_PACKET socket; a short pause every 256 frames lets the receiver keep up.
Prints how many were sent.
"""
import ipaddress
import socket
import struct
import sys
import time


def frame(mac, op, sip, tip):
    eth = b"\xff" * 6 + mac + b"\x08\x06"
    arp = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, mac, sip, b"\0" * 6, tip)
    return (eth + arp).ljust(60, b"\0")


def main(argv):
    iface, mac, mode, first, count = argv[1:6]
    mac = bytes.fromhex(mac.replace(":", ""))
    first = int(ipaddress.IPv4Address(first))
    frames = []
    for i in range(int(count)):
        sip = (first + i).to_bytes(4, "big")
        if mode == "garp":
            frames.append(frame(mac, 1 + i % 2, sip, sip))  # requests and replies
        else:
            frames.append(frame(mac, 1, sip, ipaddress.IPv4Address(argv[6]).packed))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    for i, f in enumerate(frames):
        s.send(f)
        if i % 256 == 255:
            time.sleep(0.002)
    print(len(frames))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
