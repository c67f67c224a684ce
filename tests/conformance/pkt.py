# SPDX-License-Identifier: BSD-3-Clause
"""Send frames on one interface and capture what arrives on others.

Runs inside a test namespace (ip netns exec NS /usr/bin/python3 pkt.py):
the capture sockets are opened before anything is sent, frames go out
through a raw AF_PACKET socket exactly as given. With `expect` N > 0,
capture stops `grace` seconds after the N-th frame (later ones would still
be caught in that time) or at `timeout`; with N = 0 it stops once nothing
has come for `quiet` seconds.

stdin:  {"send": "t0", "frames": [hex, ...], "listen": ["t0", "t1"],
         "expect": N, "quiet": s, "grace": s, "timeout": s,
         "count": "ipv4",        which frames count towards `expect`:
                                 "ipv4" (the default: ARP may come and go),
                                 "ipv6" (IPv6 but NDP and MLD: neighbour
                                 discovery may come and go too), "ndp", "any"
         "triggers": [{"on": "t1", "match": [[offset, hex], ...],
                       "send_on": "t1", "frames": [hex, ...]}, ...],
                                 each answered once: the first frame received
                                 on `on` with those bytes at those offsets
                                 makes its frames go out of `send_on`
         "ready": true}          print "ready" on stderr once the capture
                                 sockets are open (for callers that do
                                 something else first; then send nothing)
stdout: {"t0": [hex, ...], "t1": [hex, ...]}  (frames we sent are not included)

An 802.1Q tag arrives as it was on the wire: the kernel takes it out of
every frame it receives (skb_vlan_untag) and hands it to packet sockets
beside the data (PACKET_AUXDATA), so it is put back in, as libpcap does.
Frames count by the ethertype behind their tags.
"""
import json
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
SOL_PACKET, PACKET_AUXDATA = 263, 8
TP_STATUS_VLAN_VALID, TP_STATUS_VLAN_TPID_VALID = 1 << 4, 1 << 6
AUXDATA = struct.Struct("=IIIHHHH")  # struct tpacket_auxdata
VLAN_TPIDS = (b"\x81\x00", b"\x88\xa8")
PACKET_OUTGOING = 4
RCVBUF = 8 << 20
NDP_TYPES = (133, 134, 135, 136, 137)
MLD_TYPES = (130, 131, 132, 143)


def icmp6_type(data):
    """The ICMPv6 type of an IPv6 frame (after a hop-by-hop header, as MLD
    has), or None."""
    if len(data) < 55 or data[12:14] != b"\x86\xdd":
        return None
    nh, at = data[20], 54
    if nh == 0 and len(data) >= at + 2:  # hop-by-hop options
        nh, at = data[at], at + (data[at + 1] + 1) * 8
    if nh == 58 and len(data) > at:
        return data[at]
    return None


def untagged(data):
    """The frame without its VLAN tags (for telling its kind)."""
    while len(data) >= 18 and data[12:14] in VLAN_TPIDS:
        data = data[:12] + data[16:]
    return data


def kind(data):
    """"ipv4", "ipv6", "ndp" (NDP and MLD) or "other" (behind any tags)."""
    data = untagged(data)
    et = data[12:14]
    if et == b"\x08\x00":
        return "ipv4"
    if et == b"\x86\xdd":
        t = icmp6_type(data)
        return "ndp" if t in NDP_TYPES or t in MLD_TYPES else "ipv6"
    return "other"


def counts(data, what):
    return what == "any" or kind(data) == what


def open_listeners(names):
    socks = {}
    for name in names:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
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
            s.send(bytes.fromhex(f) if isinstance(f, str) else f)


def matches(data, match):
    for off, hexbytes in match:
        want = bytes.fromhex(hexbytes)
        if data[off:off + len(want)] != want:
            return False
    return True


def retag(data, ancdata):
    """The frame with the tag the kernel took out of it (PACKET_AUXDATA) put back."""
    for level, typ, raw in ancdata:
        if level != SOL_PACKET or typ != PACKET_AUXDATA or len(raw) < AUXDATA.size:
            continue
        status, _, _, _, _, tci, tpid = AUXDATA.unpack(raw[:AUXDATA.size])
        if status & TP_STATUS_VLAN_VALID and len(data) >= 12:
            tpid = tpid if status & TP_STATUS_VLAN_TPID_VALID and tpid else 0x8100
            return data[:12] + struct.pack("!HH", tpid, tci) + data[12:]
    return data


def drain(sock, name, out, what, triggers):
    """Read what is queued into out (answering triggers); returns how many
    frames of the counted kind came."""
    got = 0
    while True:
        try:
            data, ancdata, _, addr = sock.recvmsg(65535, socket.CMSG_SPACE(AUXDATA.size))
        except BlockingIOError:
            return got
        if addr[2] == PACKET_OUTGOING:
            continue
        data = retag(data, ancdata)
        out.append(data.hex())
        got += counts(data, what)
        for t in triggers:
            if not t.get("done") and t["on"] == name and matches(data, t["match"]):
                t["done"] = True
                send(t.get("send_on", name), t["frames"])


def capture(socks, expect, quiet, grace, timeout, what, triggers):
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
            total += drain(s, name, out[name], what, triggers)
            if len(out[name]) != n:
                last = time.monotonic()


def main():
    req = json.load(sys.stdin)
    socks = open_listeners(req.get("listen", []))
    for name, s in socks.values():  # anything from before this exchange
        drain(s, name, [], "any", [])
    if req.get("ready"):
        sys.stderr.write("ready\n")
        sys.stderr.flush()
    send(req["send"], req.get("frames", []))
    out = capture(socks, req.get("expect", 0), req.get("quiet", 0.3), req.get("grace", 0.05),
                  req.get("timeout", 3.0), req.get("count", "ipv4"), req.get("triggers", []))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
