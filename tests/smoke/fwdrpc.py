# SPDX-License-Identifier: BSD-3-Clause
"""A minimal client for fwd's control socket, for tests that need more pace
or more control than starting fwdctl: 4-byte big-endian length framing and
a hand-written protobuf encoder for the few requests the tests send."""
import socket
import time
import struct

API_VERSION = 1
# Request oneof field numbers (proto/fwd.proto)
STATUS, ROUTE_LIST, ROUTE_GET, ROUTE_ADD, ROUTE_DEL = 10, 30, 31, 32, 33


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


def request(rid, body_field, body=b""):
    return field(1, 0, rid) + field(2, 0, API_VERSION) + field(body_field, 2, body)


def frame(msg):
    return struct.pack(">I", len(msg)) + msg


def route_add(prefix, via, dev=None, replace=True):
    body = field(1, 2, prefix.encode()) + field(2, 2, via.encode())
    if dev:
        body += field(3, 2, dev.encode())
    if replace:
        body += field(5, 0, 1)
    return ROUTE_ADD, body


def route_del(prefix):
    return ROUTE_DEL, field(1, 2, prefix.encode())


def decode_varint(b, i):
    n = shift = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return n, i


def scalars(msg):
    """{field number: value} of the varint fields of a message."""
    out, i = {}, 0
    while i < len(msg):
        key, i = decode_varint(msg, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            out[num], i = decode_varint(msg, i)
        elif wire == 2:
            ln, i = decode_varint(msg, i)
            i += ln
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        else:
            raise ValueError("wire type %d" % wire)
    return out


def fields(msg):
    """{field number: bytes} of the length-delimited fields of a message
    (the last of each number)."""
    out, i = {}, 0
    while i < len(msg):
        key, i = decode_varint(msg, i)
        num, wire = key >> 3, key & 7
        if wire == 2:
            ln, i = decode_varint(msg, i)
            out[num] = msg[i:i + ln]
            i += ln
        elif wire == 0:
            _, i = decode_varint(msg, i)
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
        else:
            raise ValueError("wire type %d" % wire)
    return out


def route_get(client, address):
    """(prefix, via) of the route `fwdctl route get ADDRESS` shows, or None
    when there is none: Response.route_get (31), its RouteEntry (1), that
    entry's prefix (1) and via (3)."""
    status, pages = client.call(ROUTE_GET, field(1, 2, address.encode()))
    if status:
        return None
    entry = fields(fields(fields(pages[0]).get(ROUTE_GET, b"")).get(1, b""))
    if not entry:
        return None
    return entry.get(1, b"").decode(), entry.get(3, b"").decode()


class Client:
    def __init__(self, path, timeout=10):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        # With a timeout the socket is non-blocking, and a Unix socket's
        # connect fails with EAGAIN while the daemon's backlog is full (a
        # busy machine, a crowd of clients) where fwdctl's blocking connect
        # waits: wait the same way, up to the timeout.
        end = time.monotonic() + timeout
        while True:
            try:
                self.s.connect(path)
                break
            except BlockingIOError:
                if time.monotonic() >= end:
                    raise
                time.sleep(0.01)
        self.rid = 0

    def recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.s.recv(n - len(buf))
            if not chunk:
                raise EOFError("daemon closed the connection")
            buf += chunk
        return buf

    def read_response(self):
        (ln,) = struct.unpack(">I", self.recv_exact(4))
        return self.recv_exact(ln)

    def call(self, body_field, body=b""):
        """Send one request; return (status, [responses]) reading all pages."""
        self.rid += 1
        self.s.sendall(frame(request(self.rid, body_field, body)))
        pages = []
        while True:
            resp = self.read_response()
            pages.append(resp)
            sc = scalars(resp)
            if not sc.get(4):  # more
                return sc.get(2, 0), pages

    def close(self):
        self.s.close()
