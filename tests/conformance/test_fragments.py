# SPDX-License-Identifier: BSD-3-Clause
"""Fragments arriving at the router (RFC 791, RFC 1812 4.2.2.7, 4.3.2.7).
On af_xdp ports: on af_packet the kernel would reassemble them first (see
conftest.py). Topology and addresses: conftest.py."""
from conftest import P0_ADDR
from frames import (DST, check_forwarded, check_icmp_error, exchange, icmp, nothing_out, one,
                    reassemble, udp)


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


def test_fragments_to_router_dropped(router_xdp):
    """No reassembly: a fragmented echo request to us goes unanswered, counted."""
    frames = [icmp(router_xdp, P0_ADDR, flags="MF", payload=b"a" * 64),
              udp(router_xdp, P0_ADDR, frag=9)]
    got, d = exchange(router_xdp, frames)
    nothing_out(got)
    assert d.drops("p0") == {"local_proto": 2}
    assert d.glob("local_fragments_dropped") == 2
