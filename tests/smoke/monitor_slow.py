# SPDX-License-Identifier: BSD-3-Clause
"""A monitor client too slow for what happens: subscribes, then reads
nothing until the file GO exists; then reads pages until one reports lost
events, and prints "lost N events M" (M: events read in all).

usage: monitor_slow.py SOCKET GO"""
import os
import socket
import sys
import time

import fwdrpc

MONITOR, EVENTS = 80, 80


def fields(msg):
    """[(number, value)] of a message's varint and length-delimited fields."""
    out, i = [], 0
    while i < len(msg):
        key, i = fwdrpc.decode_varint(msg, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = fwdrpc.decode_varint(msg, i)
        elif wire == 2:
            ln, i = fwdrpc.decode_varint(msg, i)
            v, i = msg[i:i + ln], i + ln
        else:
            raise ValueError("wire type %d" % wire)
        out.append((num, v))
    return out


def main():
    path, go = sys.argv[1], sys.argv[2]
    c = fwdrpc.Client(path, timeout=20)
    c.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    c.s.sendall(fwdrpc.frame(fwdrpc.request(1, MONITOR, b"")))
    c.read_response()  # the first, empty page: subscribed
    print("subscribed", flush=True)
    deadline = time.time() + 25
    while not os.path.exists(go) and time.time() < deadline:
        time.sleep(0.1)
    events = 0
    while True:
        for num, v in fields(c.read_response()):
            if num != EVENTS:
                continue
            for n, x in fields(v):
                if n == 1:
                    events += 1
                elif n == 2 and x > 0:
                    print("lost %d events %d" % (x, events), flush=True)
                    return


main()
