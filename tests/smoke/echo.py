#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""TCP and UDP echo for smoke tests, both families.

  echo.py serve PORT [SECONDS]    echo TCP and UDP on every address (v4 and v6)
                                  of the namespace, for at most SECONDS (60)
  echo.py tcp ADDR PORT [BYTES]   send BYTES (65536) over TCP, expect them back
  echo.py udp ADDR PORT [N]       N datagrams (5), expect each echoed
A client exits 0 when everything came back unchanged within 5 s, else 1
with the reason on stderr.
"""
import os
import select
import socket
import sys
import time


def serve(port, secs):
    socks = []
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        s = socket.socket(socket.AF_INET6, kind)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # v4-mapped too
        s.bind(("::", port))
        if kind == socket.SOCK_STREAM:
            s.listen(8)
        socks.append(s)
    tcp, udp = socks
    conns = []
    end = time.monotonic() + secs
    while time.monotonic() < end:
        r, _, _ = select.select([tcp, udp] + conns, [], [], 0.5)
        for s in r:
            if s is tcp:
                conns.append(tcp.accept()[0])
            elif s is udp:
                data, peer = udp.recvfrom(65535)
                udp.sendto(data, peer)
            else:
                data = s.recv(65536)
                if data:
                    s.sendall(data)
                else:
                    conns.remove(s)
                    s.close()


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def tcp(addr, port, n):
    payload = os.urandom(n)
    with socket.create_connection((addr, port), timeout=5) as s:
        s.sendall(payload)
        s.shutdown(socket.SHUT_WR)
        got = b""
        while len(got) < n:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    if got != payload:
        sys.exit(f"tcp: {len(got)} of {n} bytes came back (or changed)")


def udp(addr, port, n):
    s = socket.socket(family(addr), socket.SOCK_DGRAM)
    s.settimeout(5)
    for i in range(n):
        msg = b"vlan-echo-%d-" % i + os.urandom(200)
        s.sendto(msg, (addr, port))
        if s.recvfrom(65535)[0] != msg:
            sys.exit(f"udp: datagram {i} came back changed")


def main(argv):
    if argv[1] == "serve":
        serve(int(argv[2]), float(argv[3]) if len(argv) > 3 else 60)
    elif argv[1] == "tcp":
        tcp(argv[2], int(argv[3]), int(argv[4]) if len(argv) > 4 else 65536)
    elif argv[1] == "udp":
        udp(argv[2], int(argv[3]), int(argv[4]) if len(argv) > 4 else 5)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main(sys.argv)
    except (OSError, IndexError, ValueError) as e:
        sys.exit(f"{sys.argv[1:]}: {e}")
