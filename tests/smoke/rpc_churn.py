#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Route churn through the control socket at a fixed pace, on one connection.

    rpc_churn.py SOCKET SECONDS INTERVAL_MS

Speaks the fwd RPC (4-byte big-endian length + protobuf) with a minimal
hand-written encoder for the two requests it needs, so the pace is not
bound by starting a process per change. Every 4 steps: replace the route
10.31.3.0/24 (which carries the test's TCP stream) with `dev p1`, add
10.99.N.0/24, replace 10.31.3.0/24 without dev, delete 10.99.N.0/24.
Prints the number of changes applied; exits 1 on any refused change.
"""
import socket
import struct
import sys
import time

API_VERSION = 1


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, wire, payload):
    key = varint(num << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def request(rid, body_field, body):
    return field(1, 0, rid) + field(2, 0, API_VERSION) + field(body_field, 2, body)


def route_add(prefix, via, dev=None):
    body = field(1, 2, prefix.encode()) + field(2, 2, via.encode())
    if dev:
        body += field(3, 2, dev.encode())
    return 32, body + field(5, 0, 1)  # replace: true


def route_del(prefix):
    return 33, field(1, 2, prefix.encode())


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError("daemon closed the connection")
        buf += chunk
    return buf


def status_of(resp):
    """The Response's status (field 2), 0 when absent."""
    i = 0
    while i < len(resp):
        key, i = decode_varint(resp, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, i = decode_varint(resp, i)
            if num == 2:
                return val
        elif wire == 2:
            ln, i = decode_varint(resp, i)
            i += ln
        else:
            raise ValueError("unexpected wire type %d" % wire)
    return 0


def decode_varint(b, i):
    n = shift = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return n, i


def call(s, rid, req):
    msg = request(rid, *req)
    s.sendall(struct.pack(">I", len(msg)) + msg)
    (ln,) = struct.unpack(">I", recv_exact(s, 4))
    return status_of(recv_exact(s, ln))


def main():
    path, seconds, interval = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]) / 1000
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    n, start = 0, time.monotonic()
    while time.monotonic() - start < seconds:
        k = n // 4 % 200
        req = [route_add("10.31.3.0/24", "10.31.2.2", "p1"),
               route_add("10.99.%d.0/24" % k, "10.31.2.2"),
               route_add("10.31.3.0/24", "10.31.2.2"),
               route_del("10.99.%d.0/24" % k)][n % 4]
        st = call(s, n + 1, req)
        if st != 0:
            print("change %d refused: errno %d" % (n, st), file=sys.stderr)
            sys.exit(1)
        n += 1
        time.sleep(max(0.0, start + n * interval - time.monotonic()))
    print(n)


if __name__ == "__main__":
    main()
