# SPDX-License-Identifier: BSD-3-Clause
"""Fragments arriving at the router (RFC 791, RFC 1812 4.2.2.7, 4.3.2.7).
On af_xdp ports (af_packet ones see them as they came too since
port/af_packet.c). Topology and addresses: conftest.py."""
from scapy.layers.inet import ICMP, IP, defragment, fragment
from scapy.layers.l2 import Ether

from conftest import P0_ADDR
from frames import (DST, check_forwarded, check_icmp_error, eth, exchange, icmp, nothing_out,
                    one, reassemble, udp)


def test_fragment_forwarded_whole(router_xdp):
    """A fragment that fits the egress MTU is routed as it is."""
    f = udp(router_xdp, DST, flags="MF", frag=20, payload=b"f" * 400)
    got, d = exchange(router_xdp, [f], expect=1)
    check_forwarded(router_xdp, f, one(got, "t1"))
    assert d.drops("p0") == {}


def test_fragmenting_a_fragment(router_xdp):
    """A non-last fragment stays non-last in every piece (MF on all)."""
    f = udp(router_xdp, DST, payload=b"F" * 1472, flags="MF", frag=100)
    got, _ = exchange(router_xdp, [f], expect=2)
    assert len(got["t1"]) == 2
    reassemble(router_xdp, f, got["t1"])


def test_fragmenting_a_last_fragment(router_xdp):
    f = udp(router_xdp, DST, payload=b"L" * 1472, frag=185)
    got, _ = exchange(router_xdp, [f], expect=2)
    assert len(got["t1"]) == 2
    reassemble(router_xdp, f, got["t1"])


def test_fragment_past_65535_dropped(router_xdp):
    """Re-fragmenting it would wrap the 13-bit offsets into the flags."""
    got, d = exchange(router_xdp, [udp(router_xdp, DST, payload=b"W" * 1472, frag=8100)])
    nothing_out(got)
    assert d.drops("p0") == {"frag_error": 1}


def test_no_error_about_non_first_fragment(router_xdp):
    got, d = exchange(router_xdp, [udp(router_xdp, DST, ttl=1, frag=10)])
    nothing_out(got)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("icmp_suppressed_fragment") == 1


def test_error_about_first_fragment(router_xdp):
    f = udp(router_xdp, DST, ttl=1, flags="MF")
    got, d = exchange(router_xdp, [f], expect=1)
    check_icmp_error(router_xdp, f, one(got, "t0"), 11, 0)
    assert d.drops("p0") == {"ttl_exceeded": 1}


def test_fragments_to_router_reassembled(router_xdp):
    """A fragmented echo request to us is answered once whole (reasm/), its
    reply fragmented to the link's MTU; the fragments count as consumed."""
    req = icmp(router_xdp, P0_ADDR, payload=bytes(range(256)) * 8)
    frames = [bytes(eth(router_xdp) / f) for f in fragment(req[IP], fragsize=1000)]
    got, d = exchange(router_xdp, frames[::-1], expect=2)
    replies = defragment([Ether(f)[IP] for f in got["t0"]])
    assert len(replies) == 1
    rep = replies[0]
    assert rep.src == P0_ADDR and rep[ICMP].type == 0
    assert bytes(rep[ICMP].payload) == bytes(range(256)) * 8
    assert d.drops("p0") == {}
    assert d.glob("reasm_datagrams") == 1


def test_overlapping_fragments_to_router_dropped(router_xdp):
    """Overlapping fragments end their datagram, counted (RFC 5722's rule)."""
    frames = [icmp(router_xdp, P0_ADDR, flags="MF", id=77, payload=b"a" * 64),
              udp(router_xdp, P0_ADDR, frag=4, id=77, proto=1)]
    got, d = exchange(router_xdp, frames)
    nothing_out(got)
    assert d.drops("p0") == {"reasm_overlap": 2}
