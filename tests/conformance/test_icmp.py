# SPDX-License-Identifier: BSD-3-Clause
"""ICMP from the router (RFC 792, RFC 1122 3.2.2, RFC 1812 4.3): echo
replies, unreachables for packets to the router, TCP resets for its closed
ports (RFC 9293 3.10.7.1), the packets no error may be sent about, and the
rate limit. Topology and addresses: conftest.py."""
import time

import pytest
from scapy.all import ICMP, IP, TCP, UDP

from conftest import HOST, ICMP_RATE, P0_ADDR, P1_ADDR
from frames import (DST, check_icmp_error, eth, exchange, icmp, nothing_out, one, tcp_syn, udp,
                    with_options)

BURST = 50  # the limiter's bucket at rates up to 1000/s


@pytest.mark.parametrize("addr", [P0_ADDR, P1_ADDR])
def test_echo_reply(router, addr):
    """From the address pinged, back out of the ingress port; id, seq and
    data unchanged; options (record route here) are not echoed."""
    f = with_options(icmp(router, addr, ttl=1, tos=0x10), b"\x07\x07\x04\x00\x00\x00\x00\x01")
    got, d = exchange(router, [f], expect=1)
    assert got["t1"] == []
    out = one(got, "t0")
    assert out[0:6] == bytes(f)[6:12] and out[6:12] == bytes(f)[0:6]
    p = IP(out[14:])
    assert (p.src, p.dst, p.ttl, p.proto, p.ihl, p.tos) == (addr, HOST, 64, 1, 5, 0x10)
    assert p.frag == 0 and p.flags.MF == 0
    assert p.len == len(out) - 14
    ref = IP(bytes(p))
    del ref.chksum, ref[ICMP].chksum
    ref = IP(bytes(ref))
    assert (p.chksum, p[ICMP].chksum) == (ref.chksum, ref[ICMP].chksum), "checksums"
    assert (p[ICMP].type, p[ICMP].code, p[ICMP].id, p[ICMP].seq) == (0, 0, 0x77, 5)
    assert bytes(p[ICMP].payload) == bytes(f[ICMP].payload)
    assert d.glob("icmp_echo_replies_sent") == 1
    assert d.drops("p0") == {}


@pytest.mark.parametrize("dst,mac", [
    ("255.255.255.255", "ff:ff:ff:ff:ff:ff"), ("10.20.1.255", "ff:ff:ff:ff:ff:ff"),
    ("10.20.1.255", None), ("10.20.2.255", None), ("224.0.0.1", "01:00:5e:00:00:01"),
    ("224.0.0.5", None)])
def test_echo_to_broadcast_unanswered(router, dst, mac):
    got, d = exchange(router, [icmp(router, dst, eth_dst=mac)])
    nothing_out(got)
    assert d.drops("p0") == {"local_proto": 1}


def test_echo_bad_checksum(router):
    f = bytearray(bytes(icmp(router, P0_ADDR)))
    f[14 + 20 + 2] ^= 0x01
    got, d = exchange(router, [bytes(f)])
    nothing_out(got)
    assert d.drops("p0") == {"icmp_invalid": 1}


@pytest.mark.parametrize("addr", [P0_ADDR, P1_ADDR])
def test_udp_port_unreachable(router, addr):
    """Traceroute's last probe: TTL 1 to the router itself; the error
    comes from the address probed."""
    f = udp(router, addr, ttl=1)
    got, d = exchange(router, [f], expect=1)
    check_icmp_error(router, f, one(got, "t0"), 3, 3, src=addr)
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("icmp_port_unreachable_sent") == 1


def check_reset(router, out, src, seq, ack, flags):
    """out is a reset from src:22 to the tester's port 40001 (RFC 9293
    3.10.7.1), with checksums right; returns its TCP header."""
    p = IP(bytes(out)[14:])
    assert (p.src, p.dst, p.proto, p.ttl) == (src, HOST, 6, 64)
    t = p[TCP]
    assert (t.sport, t.dport, t.seq, t.ack, str(t.flags)) == (22, 40001, seq, ack, flags)
    assert t.dataofs == 5 and len(p) == 40
    again = IP(bytes(p))
    del again.chksum
    del again[TCP].chksum
    again = IP(bytes(again))
    assert (again.chksum, again[TCP].chksum) == (p.chksum, t.chksum), "checksums"
    return t


@pytest.mark.parametrize("addr", [P0_ADDR, P1_ADDR])
def test_tcp_to_router_reset(router, addr):
    """A SYN to a closed port (the router serves no TCP): <SEQ=0>
    <ACK=SEG.SEQ+1><CTL=RST,ACK>, from the address asked, as Linux answers."""
    f = eth(router) / IP(src=HOST, dst=addr, id=0x4d4) / TCP(sport=40001, dport=22, seq=1000)
    got, d = exchange(router, [f], expect=1)
    check_reset(router, one(got, "t0"), addr, 0, 1001, "RA")
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("tcp_resets_sent") == 1


def test_tcp_ack_to_router_reset(router):
    """A segment with ACK: <SEQ=SEG.ACK><CTL=RST>."""
    f = (eth(router) / IP(src=HOST, dst=P0_ADDR) /
         TCP(sport=40001, dport=22, flags="PA", seq=7, ack=5555) / b"data")
    got, _ = exchange(router, [f], expect=1)
    check_reset(router, one(got, "t0"), P0_ADDR, 5555, 0, "R")


def test_no_reset_about_reset(router):
    f = eth(router) / IP(src=HOST, dst=P0_ADDR) / TCP(sport=40001, dport=22, flags="R")
    got, d = exchange(router, [f])
    nothing_out(got)
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("tcp_resets_sent") == 0


def test_protocol_unreachable(router):
    f = udp(router, P1_ADDR, proto=253)
    got, d = exchange(router, [f], expect=1)
    check_icmp_error(router, f, one(got, "t0"), 3, 2, src=P1_ADDR)
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("icmp_proto_unreachable_sent") == 1


@pytest.mark.parametrize("type,code", [(3, 1), (11, 0), (12, 0), (4, 0), (5, 1)])
def test_no_error_about_icmp_error(router, type, code):
    inner = bytes(IP(src=DST, dst=HOST) / UDP())[:28]
    f = icmp(router, DST, ttl=1, type=type, code=code, payload=inner)
    got, d = exchange(router, [f])
    nothing_out(got)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("icmp_suppressed_about_error") == 1


@pytest.mark.parametrize("type", [8, 0, 13])
def test_error_about_icmp_query(router, type):
    f = icmp(router, DST, ttl=1, type=type)
    got, _ = exchange(router, [f], expect=1)
    check_icmp_error(router, f, one(got, "t0"), 11, 0)


@pytest.mark.parametrize("dst", ["255.255.255.255", "10.20.1.255", "10.20.2.255"])
def test_no_error_about_broadcast(router, dst):
    """UDP to a broadcast: no port unreachable, even to a directed broadcast."""
    got, d = exchange(router, [udp(router, dst, ttl=1, eth_dst="ff:ff:ff:ff:ff:ff")])
    nothing_out(got)
    assert d.drops("p0") == {"local_proto": 1}
    got, d = exchange(router, [udp(router, dst, ttl=1)])  # link unicast, IP broadcast
    nothing_out(got)
    assert d.drops("p0") == {"local_proto": 1}


def test_no_error_about_link_broadcast(router):
    """A link broadcast with our unicast address: neither answered nor errored."""
    got, d = exchange(router, [udp(router, P0_ADDR, eth_dst="ff:ff:ff:ff:ff:ff")])
    nothing_out(got)
    assert d.drops("p0") == {"local_proto": 1}


def test_host_unreachable_after_arp_failure(router):
    """A host on p1's subnet that never answers ARP: after the neighbour
    layer gives up (3 requests, 1 s apart), host unreachable comes back,
    quoting the packet as it was held (TTL already decremented)."""
    f = udp(router, "10.20.2.77", ttl=9)
    held = f.copy()
    held[IP].ttl = 8
    del held[IP].chksum
    got, d = exchange(router, [f], expect=1, timeout=8)
    assert got["t1"] == [], "nothing but ARP requests out of p1"
    check_icmp_error(router, held, one(got, "t0"), 3, 1)
    assert d.glob("icmp_host_unreachable_sent") == 1
    assert d.drops("p0").get("no_neighbour", 0) + d.drops("p1").get("no_neighbour", 0) == 1


def test_rate_limit(router):
    """RFC 1812 4.3.2.8: 500 expired packets at once; at most the burst
    plus the rate over the time it took come back, the rest are counted."""
    time.sleep(BURST / ICMP_RATE + 0.1)  # let the bucket fill
    frames = [udp(router, DST, ttl=1, id=i) for i in range(500)]
    start = time.monotonic()
    got, d = exchange(router, frames, quiet=1.0)
    took = time.monotonic() - start
    sent = len(got["t0"])
    ttl = d.drops("p0").get("ttl_exceeded", 0)
    assert got["t1"] == []
    assert BURST <= sent <= BURST + ICMP_RATE * took + 1, f"{sent} errors in {took:.2f} s"
    assert d.glob("icmp_time_exceeded_sent") == sent
    # the punt policer (dataplane.punt_rate_error) takes some before the ICMP limiter
    policed = d.drops("p0").get("policed_ttl", 0)
    assert ttl + policed > 400, "the router saw (nearly) all of them"
    assert d.glob("icmp_ratelimited") == ttl - sent
    time.sleep(BURST / ICMP_RATE + 0.1)  # leave a full bucket to the next test
