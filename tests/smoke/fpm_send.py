#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A small FPM client in the manner of FRR zebra's dplane_fpm_nl: connects
to fwd's control.fpm and sends netlink route and next-hop messages in FPM
frames (version 1, type 1, 16-bit big-endian length with the header).

    fpm_send.py HOST:PORT [--hold S] [--expect-close S] [--out FILE] OP...

OPs, each one frame unless said:
    add PREFIX via GW[,GW...] [dev IFINDEX] [proto N] [mpls LABEL]
                                        (several GWs: RTA_MULTIPATH; mpls: a
                                        label push, RTA_ENCAP as zebra writes it)
    add PREFIX blackhole|unreachable|prohibit [proto N]
    del PREFIX
    nh ID via GW [dev IFINDEX]          RTM_NEWNEXTHOP
    group ID ID,ID...                   RTM_NEWNEXTHOP with NHA_GROUP
    addnh PREFIX ID [proto N]           a route by RTA_NH_ID
    bulk N FIRST via GW [proto N]       N /24s from FIRST, many to a frame
    bulk N FIRST nhid ID [proto N]      the same on next-hop object ID
    nhupdates ID COUNT via GW,GW...     COUNT RTM_NEWNEXTHOP of ID in one frame,
                                        taking the gateways in turn
    bad                                 a frame with nlmsg_len past its end
    sleep S
    waitfile PATH S                     until PATH exists (the test's go-ahead), S at most

--hold keeps the connection open S seconds after the last op; --expect-close
waits up to S seconds for the other side to close and exits 3 if it did
not. --out writes the frames to FILE instead of a socket (fuzzer seeds).
"""
import ipaddress
import os
import socket
import struct
import sys
import time

RTM_NEWROUTE, RTM_DELROUTE, RTM_NEWNEXTHOP = 24, 25, 104
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_MULTIPATH, RTA_TABLE, RTA_NH_ID = 1, 4, 5, 9, 15, 30
RTA_ENCAP_TYPE, RTA_ENCAP, LWTUNNEL_ENCAP_MPLS, MPLS_IPTUNNEL_DST = 21, 22, 1, 1
NHA_ID, NHA_GROUP, NHA_OIF, NHA_GATEWAY = 1, 2, 5, 6
RTN = {"unicast": 1, "blackhole": 6, "unreachable": 7, "prohibit": 8}
AF = {4: socket.AF_INET, 6: socket.AF_INET6}


def pad(b):
    return b + bytes(-len(b) % 4)


def attr(t, v):
    return pad(struct.pack("=HH", 4 + len(v), t) + v)


def nlmsg(t, body):
    return struct.pack("=IHHII", 16 + len(body), t, 0x401, 0, 0) + body


def frame(msgs):
    data = b"".join(msgs)
    assert len(data) + 4 <= 65535
    return struct.pack("!BBH", 1, 1, len(data) + 4) + data


def route(t, prefix, rtype="unicast", gws=(), dev=0, proto=186, nh_id=0, label=None):
    net = ipaddress.ip_network(prefix)
    fam = AF[net.version]
    body = struct.pack("=BBBBBBBBI", fam, net.prefixlen, 0, 0, 254, proto, 0, RTN[rtype], 0)
    if net.prefixlen:
        body += attr(RTA_DST, net.network_address.packed)
    if nh_id:
        body += attr(RTA_NH_ID, struct.pack("=I", nh_id))
    if len(gws) == 1:
        body += attr(RTA_GATEWAY, ipaddress.ip_address(gws[0]).packed)
    elif gws:
        hops = b""
        for g in gws:
            a = attr(RTA_GATEWAY, ipaddress.ip_address(g).packed)
            hops += struct.pack("=HBBi", 8 + len(a), 0, 0, dev) + a
        body += attr(RTA_MULTIPATH, hops)
    if dev and len(gws) <= 1:
        body += attr(RTA_OIF, struct.pack("=I", dev))
    if label is not None:  # bottom of stack, label << 12 in network order
        body += attr(RTA_ENCAP_TYPE, struct.pack("=H", LWTUNNEL_ENCAP_MPLS))
        body += attr(RTA_ENCAP, attr(MPLS_IPTUNNEL_DST, struct.pack("!I", label << 12 | 1 << 8)))
    return nlmsg(t, body)


def nexthop(nh_id, gw=None, dev=0, members=None):
    fam = 0 if gw is None else AF[ipaddress.ip_address(gw).version]
    body = struct.pack("=BBBBI", fam, 0, 11, 0, 0) + attr(NHA_ID, struct.pack("=I", nh_id))
    if gw is not None:
        body += attr(NHA_GATEWAY, ipaddress.ip_address(gw).packed)
    if dev:
        body += attr(NHA_OIF, struct.pack("=I", dev))
    if members:
        body += attr(NHA_GROUP, b"".join(struct.pack("=IBBH", m, 1, 0, 0) for m in members))
    return nlmsg(RTM_NEWNEXTHOP, body)


def opts(words):
    """key value pairs after the fixed words: dev, proto, via."""
    return {words[i]: words[i + 1] for i in range(0, len(words) - 1, 2)}


def bulk(n, first, gw, proto, nh_id=0):
    base = int(ipaddress.ip_address(first))
    msgs, size = [], 4
    for i in range(n):
        m = route(RTM_NEWROUTE, "%s/24" % ipaddress.ip_address(base + (i << 8)),
                  gws=(gw,) if gw else (), proto=proto, nh_id=nh_id)
        if size + len(m) > 65535:
            yield frame(msgs)
            msgs, size = [], 4
        msgs.append(m)
        size += len(m)
    if msgs:
        yield frame(msgs)


def frames(op):
    w = op.split()
    if w[0] == "add" and w[2] in RTN:
        o = opts(w[3:])
        yield frame([route(RTM_NEWROUTE, w[1], w[2], proto=int(o.get("proto", 186)))])
    elif w[0] == "add":
        o = opts(w[2:])
        label = int(o["mpls"]) if "mpls" in o else None
        yield frame([route(RTM_NEWROUTE, w[1], gws=o["via"].split(","),
                           dev=int(o.get("dev", 0)), proto=int(o.get("proto", 186)),
                           label=label)])
    elif w[0] == "del":
        yield frame([route(RTM_DELROUTE, w[1])])
    elif w[0] == "nh":
        o = opts(w[2:])
        yield frame([nexthop(int(w[1]), o["via"], int(o.get("dev", 0)))])
    elif w[0] == "group":
        yield frame([nexthop(int(w[1]), members=[int(x) for x in w[2].split(",")])])
    elif w[0] == "addnh":
        o = opts(w[3:])
        yield frame([route(RTM_NEWROUTE, w[1], nh_id=int(w[2]), proto=int(o.get("proto", 186)))])
    elif w[0] == "bulk":
        o = opts(w[3:])
        yield from bulk(int(w[1]), w[2], o.get("via"), int(o.get("proto", 186)),
                        int(o.get("nhid", 0)))
    elif w[0] == "nhupdates":
        o = opts(w[3:])
        gws = o["via"].split(",")
        yield frame([nexthop(int(w[1]), gws[i % len(gws)]) for i in range(int(w[2]))])
    elif w[0] == "bad":
        m = route(RTM_NEWROUTE, "10.99.0.0/16", gws=("10.0.0.2",))
        yield frame([struct.pack("=I", len(m) + 100) + m[4:]])
    else:
        raise SystemExit("fpm_send.py: unknown op: " + op)


def main(argv):
    hold = close_wait = 0.0
    out = None
    args = argv[1:]
    addr = args.pop(0)
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--hold":
            hold = float(args.pop(0))
        elif flag == "--expect-close":
            close_wait = float(args.pop(0))
        elif flag == "--out":
            out = open(args.pop(0), "wb")
    if out is not None:
        for op in args:
            for f in frames(op):
                out.write(f)
        return 0
    host, port = addr.rsplit(":", 1)
    host = host.strip("[]")
    s = socket.create_connection((host, int(port)), timeout=10)
    try:
        for op in args:
            if op.split()[0] == "sleep":
                time.sleep(float(op.split()[1]))
                continue
            if op.split()[0] == "waitfile":
                deadline = time.monotonic() + float(op.split()[2])
                while not os.path.exists(op.split()[1]) and time.monotonic() < deadline:
                    time.sleep(0.05)
                continue
            for f in frames(op):
                s.sendall(f)
    except (ConnectionResetError, BrokenPipeError):
        if close_wait:
            return 0  # closed before it took everything: as expected
        raise
    if close_wait:
        s.settimeout(close_wait)
        try:
            closed = s.recv(1) == b""
        except ConnectionResetError:
            closed = True
        except socket.timeout:
            closed = False
        if not closed:
            print("fpm_send.py: the connection stayed open", file=sys.stderr)
            return 3
    time.sleep(hold)
    s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
