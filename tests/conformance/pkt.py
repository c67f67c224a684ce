# SPDX-License-Identifier: BSD-3-Clause
"""Send frames on one interface and capture what arrives on others.

Runs inside a test namespace (ip netns exec NS /usr/bin/python3 pkt.py):
the capture sockets are opened before anything is sent, frames go out
through a raw AF_PACKET socket exactly as given. With `expect` N > 0,
capture stops `grace` seconds after the N-th frame (later ones would still
be caught in that time) or at `timeout`; with N = 0 it stops once nothing
has come for `quiet` seconds.

stdin:  {"send": "t0", "frames": [hex, ...], "listen": ["t0", "t1"],
         "expect": N, "quiet": s, "grace": s, "timeout": s}
        (only IPv4 frames count towards `expect`: ARP may come and go)
stdout: {"t0": [hex, ...], "t1": [hex, ...]}  (frames we sent are not included)
"""
import json
import select
import socket
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
RCVBUF = 8 << 20


def open_listeners(names):
    socks = {}
    for name in names:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        s.bind((name, 0))
        s.setblocking(False)
        socks[s.fileno()] = (name, s)
    return socks


def send(name, frames):
    if not frames:
        return
    with socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as s:
        s.bind((name, 0))
        for f in frames:
            s.send(bytes.fromhex(f))


def drain(sock, out):
    """Read what is queued into out; returns how many IPv4 frames came."""
    got = 0
    while True:
        try:
            data, addr = sock.recvfrom(65535)
        except BlockingIOError:
            return got
        if addr[2] != PACKET_OUTGOING:
            out.append(data.hex())
            got += data[12:14] == b"\x08\x00"


def capture(socks, expect, quiet, grace, timeout):
    out = {name: [] for name, _ in socks.values()}
    start = last = time.monotonic()
    total = 0
    poller = select.poll()
    for fd in socks:
        poller.register(fd, select.POLLIN)
    while True:
        now = time.monotonic()
        if expect and total < expect:
            idle = timeout  # still waiting for what must come
        else:
            idle = grace if expect else quiet
        if now - start >= timeout or now - last >= idle:
            return out
        wait = min(timeout - (now - start), idle - (now - last))
        for fd, _ in poller.poll(max(1, int(wait * 1000))):
            name, s = socks[fd]
            n = len(out[name])
            total += drain(s, out[name])
            if len(out[name]) != n:
                last = time.monotonic()


def main():
    req = json.load(sys.stdin)
    socks = open_listeners(req.get("listen", []))
    for _, s in socks.values():  # anything from before this exchange
        drain(s, [])
    send(req["send"], req.get("frames", []))
    out = capture(socks, req.get("expect", 0), req.get("quiet", 0.3), req.get("grace", 0.05),
                  req.get("timeout", 3.0))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
