# SPDX-License-Identifier: BSD-3-Clause
"""Frames for the conformance tests, and exact checks of what comes out.

Checks work on raw bytes: a forwarded packet must equal the one sent but
for the TTL and the header checksum; an ICMP error must quote the
original's bytes exactly. Scapy builds the frames and names the fields.
"""
import struct
import time

from scapy.all import ICMP, IP, TCP, UDP, Ether, IPOption, Raw, conf

from conftest import HOST, P0_ADDR, P1_MTU, T0_MAC, T1_MAC

conf.verb = 0

ETH_IPV4 = 0x0800
DST = "198.51.100.10"  # routed via the gateway out of p1


def ones_sum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def header_cksum_ok(ip):
    return ones_sum(ip[:(ip[0] & 0xf) * 4]) == 0xffff


def eth(router, dst=None):
    """Ethernet from the tester's t0 to the router's p0 (or to dst)."""
    return Ether(src=T0_MAC, dst=dst or router.mac["p0"], type=ETH_IPV4)


def udp(router, dst, ttl=64, src=HOST, payload=b"conformance" * 3, eth_dst=None, **ipf):
    ipf.setdefault("id", 0x4d2)
    return (eth(router, eth_dst) / IP(src=src, dst=dst, ttl=ttl, **ipf) /
            UDP(sport=40000, dport=33434) / Raw(payload))


def icmp(router, dst, ttl=64, src=HOST, type=8, code=0, payload=b"ping" * 8, eth_dst=None,
         **ipf):
    ipf.setdefault("id", 0x4d3)
    return (eth(router, eth_dst) / IP(src=src, dst=dst, ttl=ttl, **ipf) /
            ICMP(type=type, code=code, id=0x77, seq=5) / Raw(payload))


def tcp_syn(router, dst, ttl=64, src=HOST):
    return eth(router) / IP(src=src, dst=dst, ttl=ttl, id=0x4d4) / TCP(sport=40001, dport=22)


def with_options(pkt, opts):
    """pkt (Ether/IP/...) with raw IP option bytes (a multiple of 4)."""
    pkt[IP].options = [IPOption(opts)]
    return pkt


def ip_of(frame):
    return bytes(frame)[14:]


def check_forwarded(router, sent, out, out_port="p1", next_hop_mac=T1_MAC):
    """out is sent, routed: new MACs, TTL - 1, checksum valid, nothing else changed."""
    sent, out = bytes(sent), bytes(out)
    assert out[0:6] == bytes.fromhex(next_hop_mac.replace(":", "")), "dst MAC: the neighbour's"
    assert out[6:12] == bytes.fromhex(router.mac[out_port].replace(":", "")), "src MAC: the port's"
    assert out[12:14] == b"\x08\x00"
    ip, orig = out[14:], sent[14:]
    tot = struct.unpack("!H", orig[2:4])[0]
    assert len(ip) == tot, "frame carries exactly the IP packet"
    assert ip[8] == orig[8] - 1, "TTL decremented"
    assert header_cksum_ok(ip), "header checksum valid"
    assert ip[:8] == orig[:8] and ip[9:10] == orig[9:10] and ip[12:] == orig[12:tot]


def check_icmp_error(router, sent, out, type, code, mtu=None, src=P0_ADDR, in_port="p0",
                     quote=None):
    """out is the ICMP error about sent: addressing, checksums, exact quote."""
    sent, out = bytes(sent), bytes(out)
    orig = sent[14:]
    hlen = (orig[0] & 0xf) * 4
    tot = struct.unpack("!H", orig[2:4])[0]
    quote = quote if quote is not None else min(tot, 576 - 20 - 8)  # RFC 1812 4.3.2.3
    assert out[0:6] == sent[6:12], "back to the sender's MAC"
    assert out[6:12] == bytes.fromhex(router.mac[in_port].replace(":", ""))
    assert out[12:14] == b"\x08\x00"
    ip = out[14:]
    p = IP(ip)
    assert (p.version, p.ihl, p.ttl, p.proto) == (4, 5, 64, 1)
    assert p.src == src, "sourced from the ingress port's address"
    assert p.dst == IP(orig).src
    assert p.frag == 0 and p.flags.MF == 0
    assert p.len == len(ip) == 20 + 8 + quote
    assert header_cksum_ok(ip)
    msg = ip[20:]
    assert (msg[0], msg[1]) == (type, code)
    assert ones_sum(msg) == 0xffff, "ICMP checksum over the whole message"
    rest = struct.pack("!HH", 0, mtu) if mtu is not None else b"\0\0\0\0"
    assert msg[4:8] == rest
    assert msg[8:] == orig[:quote], "quotes as much as fits 576 bytes, as received"
    return p


def one(got, iface):
    if len(got[iface]) != 1:
        from scapy.all import Ether
        came = "; ".join(Ether(bytes(f)).summary() for f in got[iface])
        assert len(got[iface]) == 1, f"expected one frame on {iface}, got {len(got[iface])}: {came}"
    return got[iface][0]

def nothing_out(got):
    assert got["t0"] == [] and got["t1"] == [], "nothing may come out"



def reassemble(router, sent, frags, copied_opts=b""):
    """Check each fragment and that they put back together to sent's payload."""
    orig = ip_of(sent)
    ohlen = (orig[0] & 0xf) * 4
    ooff = struct.unpack("!H", orig[6:8])[0]
    payload, off = orig[ohlen:], 0
    for i, fr in enumerate(frags):
        assert fr[0:6] == bytes.fromhex(T1_MAC.replace(":", ""))
        assert fr[6:12] == bytes.fromhex(router.mac["p1"].replace(":", ""))
        ip = fr[14:]
        hlen = (ip[0] & 0xf) * 4
        tot, field = struct.unpack("!H", ip[2:4])[0], struct.unpack("!H", ip[6:8])[0]
        last = i == len(frags) - 1
        assert len(ip) == tot <= P1_MTU
        assert header_cksum_ok(ip)
        assert ip[1] == orig[1] and ip[4:6] == orig[4:6] and ip[9] == orig[9]
        assert ip[8] == orig[8] - 1 and ip[12:20] == orig[12:20]
        assert ip[20:hlen] == (orig[20:ohlen] if i == 0 else copied_opts), "options"
        assert not field & 0x4000, "DF clear"
        assert (field & 0x1fff) * 8 == (ooff & 0x1fff) * 8 + off
        assert bool(field & 0x2000) == (bool(ooff & 0x2000) if last else True), "MF"
        if not last:
            assert (tot - hlen) % 8 == 0
        assert ip[hlen:] == payload[off:off + tot - hlen]
        off += tot - hlen
    assert off == len(payload), "fragments cover the whole payload"


def ipv4_only(frames):
    """Frames that carry IPv4 (the daemon may send ARP of its own)."""
    return [f for f in frames if len(f) >= 14 and f[12:14] == b"\x08\x00"]


class Delta:
    """What moved in `fwdctl stats` between two snapshots."""

    def __init__(self, before, after):
        self.b, self.a = before, after

    def drops(self, port):
        b, a = self.b[port]["drop_reasons"], self.a[port]["drop_reasons"]
        return {k: a[k] - b.get(k, 0) for k in a if a[k] != b.get(k, 0)}

    def port(self, port, field):
        return int(self.a[port].get(field, 0)) - int(self.b[port].get(field, 0))

    def glob(self, name):
        return self.a["global"].get(name, 0) - self.b["global"].get(name, 0)


def counts(stats):
    """The parts of a stats snapshot that packets move (not rates, not time)."""
    return {k: (v.get("rx_packets"), v.get("tx_packets"), v.get("drop_reasons"))
            if k != "global" else v for k, v in stats.items()}


def settle(router, before, n_in, port):
    """Stats once the router has taken in n_in frames on port and its
    counters have stopped moving (the slow path drains every 0.5 ms, but a
    loaded machine can make anything late)."""
    deadline = time.monotonic() + 3
    prev = router.stats()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        cur = router.stats()
        arrived = int(cur[port].get("rx_packets", 0)) - int(before[port].get("rx_packets", 0))
        if arrived >= n_in and counts(cur) == counts(prev):
            return cur
        prev = cur
    return prev


def exchange(router, frames, expect=0, send="t0", **kw):
    """Send frames from a tester interface; IPv4 frames each interface
    received, and the Delta of the router's counters around it."""
    before = router.stats()
    got = router.exchange(frames, send=send, expect=expect, **kw)
    after = settle(router, before, len(frames), "p0" if send == "t0" else "p1")
    return {k: ipv4_only(v) for k, v in got.items()}, Delta(before, after)
