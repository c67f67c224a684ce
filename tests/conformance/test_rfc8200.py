# SPDX-License-Identifier: BSD-3-Clause
# run.sh: long: 30 s and more, started before the short ones
"""RFC 8200 forwarding, one test each: crafted IPv6 frames in at t0 (or t1),
the exact packets out of the other side, the ICMPv6 errors (RFC 4443) the
router owes, and the counter that moved. Topology and addresses:
conftest.py. FWD_REFERENCE=linux runs them against the Linux kernel."""
import struct

import pytest

from conftest import GW6, HOST6, P1_ADDR6, P1_MTU, R0_LL, T0_LL, T0_MAC, T1_LL, T1_MAC, UNROUTED6
from frames import one
from frames6 import (BLACKHOLED6, DST6, DST6_LL, QUOTE_MAX, check_forwarded6, describe,
                     check_icmp6_error, exchange6, frag6, hbh6, ip6, mcast_mac, nothing_out6,
                     udp6)


def total(drops):
    return sum(drops.values())


# ------------------------------------------------------------ forwarding
@pytest.mark.parametrize("hlim", [2, 64, 255])
def test_forward(router6, hlim):
    """Hop limit down by exactly one; traffic class, flow label, addresses
    and payload untouched."""
    f = udp6(router6, DST6, hlim=hlim, tc=0xb8, fl=0x12345)
    got, d = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"))
    assert got["t0"] == []
    assert d.drops("p0") == {} and d.drops("p1") == {}
    assert d.port("p0", "rx_packets") == 1 and d.port("p1", "tx_packets") == 1


def test_forward_to_connected_neighbour(router6):
    f = udp6(router6, GW6)
    got, d = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"))
    assert d.drops("p0") == {}


def test_forward_via_link_local_gateway(router6):
    """2001:db8:52::/48 via fe80::aa:ff:fe00:2 dev p1."""
    f = udp6(router6, DST6_LL)
    got, d = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"), next_hop_mac=T1_MAC)
    assert d.drops("p0") == {}


def test_forward_other_way(router6):
    """From behind p1 to the host behind p0."""
    f = udp6(router6, HOST6, src="2001:db8:51::7", eth_src=T1_MAC, port="p1")
    got, d = exchange6(router6, [f], send="t1", expect=1)
    check_forwarded6(router6, f, one(got, "t0"), out_port="p0", next_hop_mac=T0_MAC)
    assert got["t1"] == []
    assert d.drops("p1") == {}


def test_forward_hop_by_hop(router6):
    """A hop-by-hop options header (PadN) is no reason not to forward."""
    f = hbh6(router6, DST6)
    got, d = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"))
    assert d.drops("p0") == {}


@pytest.mark.parametrize("offset,m", [(0, 1), (100, 1), (100, 0)])
def test_forward_fragment(router6, offset, m):
    """Routers never reassemble: a fragment goes through as it is."""
    f = frag6(router6, DST6, offset=offset, m=m)
    got, d = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"))
    assert d.drops("p0") == {}


def test_forward_no_next_header_strips_padding(router6):
    """A bare 40-byte header (next header 59) in a padded 60-byte frame:
    forwarded as 54 bytes."""
    f = bytes(ip6(router6, DST6, nh=59)) + b"\0" * 6
    assert len(f) == 60
    got, d = exchange6(router6, [f], expect=1)
    out = one(got, "t1")
    assert len(out) == 14 + 40
    check_forwarded6(router6, f[:54], out)


def test_forward_exactly_the_mtu(router6):
    f = udp6(router6, DST6, payload=b"M" * (P1_MTU - 48))
    got, d = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"))
    assert d.drops("p0") == {}


# ------------------------------------------------------------- ICMPv6 errors
@pytest.mark.parametrize("hlim", [1, 0])
def test_hop_limit_exceeded(router6, hlim):
    f = udp6(router6, DST6, hlim=hlim)
    got, d = exchange6(router6, [f], expect=1)
    assert got["t1"] == [], "an expired packet is not forwarded"
    check_icmp6_error(router6, f, one(got, "t0"), 3, 0)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("icmp6_time_exceeded_sent") == 1


def test_hop_limit_exceeded_quote_is_cut_at_1280(router6):
    """A 1500-byte packet: the error quotes its first 1232 bytes, 1280 in all."""
    f = udp6(router6, DST6, hlim=1, payload=bytes(range(256)) * 5 + b"x" * (1452 - 1280))
    assert len(bytes(f)) == 14 + 1500
    got, d = exchange6(router6, [f], expect=1)
    err = one(got, "t0")
    check_icmp6_error(router6, f, err, 3, 0)
    assert len(err) == 14 + 1280
    assert d.drops("p0") == {"ttl_exceeded": 1}


@pytest.mark.parametrize("size", [1232 + 40 - 1, 1232 + 40, 1232 + 40 + 1])
def test_quote_boundary(router6, size):
    """Packets around the largest that is quoted whole."""
    f = udp6(router6, DST6, hlim=1, payload=b"q" * (size - 48))
    got, _ = exchange6(router6, [f], expect=1)
    err = one(got, "t0")
    check_icmp6_error(router6, f, err, 3, 0)
    assert len(err) - 14 == 48 + min(size, QUOTE_MAX)


def test_error_from_the_far_side(router6):
    """From behind p1: the error comes from p1's address, routed back to p1's
    gateway."""
    f = udp6(router6, HOST6, hlim=1, src="2001:db8:51::7", eth_src=T1_MAC, port="p1")
    got, d = exchange6(router6, [f], send="t1", expect=1)
    assert got["t0"] == []
    check_icmp6_error(router6, f, one(got, "t1"), 3, 0, src=P1_ADDR6, in_port="p1")
    assert d.drops("p1") == {"ttl_exceeded": 1}


def test_no_route(router6):
    f = udp6(router6, UNROUTED6)
    got, d = exchange6(router6, [f], expect=1)
    assert got["t1"] == []
    check_icmp6_error(router6, f, one(got, "t0"), 1, 0)
    assert d.drops("p0") == {"no_route": 1}
    assert d.glob("icmp6_no_route_sent") == 1


def test_no_route_big_packet(router6):
    f = udp6(router6, UNROUTED6, payload=b"N" * (1500 - 48))
    got, d = exchange6(router6, [f], expect=1)
    err = one(got, "t0")
    check_icmp6_error(router6, f, err, 1, 0)
    assert len(err) == 14 + 1280
    assert d.drops("p0") == {"no_route": 1}


def test_blackhole(router6):
    got, d = exchange6(router6, [udp6(router6, BLACKHOLED6)])
    nothing_out6(got)
    assert d.drops("p0") == {"blackhole": 1}


@pytest.mark.parametrize("size", [P1_MTU + 1, 1400, 1500])
def test_packet_too_big(router6, size):
    """Routers never fragment: Packet Too Big with the egress MTU, quoting
    the packet as received (hop limit not yet decremented)."""
    f = udp6(router6, DST6, payload=b"B" * (size - 48))
    got, d = exchange6(router6, [f], expect=1)
    assert got["t1"] == []
    check_icmp6_error(router6, f, one(got, "t0"), 2, 0, param=P1_MTU)
    assert d.drops("p0") == {"mtu": 1}
    assert d.glob("icmp6_packet_too_big_sent") == 1


def test_packet_too_big_for_a_fragment(router6):
    f = frag6(router6, DST6, payload=b"F" * 1300)
    got, d = exchange6(router6, [f], expect=1)
    check_icmp6_error(router6, f, one(got, "t0"), 2, 0, param=P1_MTU)
    assert d.drops("p0") == {"mtu": 1}


def test_packet_too_big_hop_by_hop(router6):
    f = hbh6(router6, DST6, payload=b"H" * 1300)
    got, d = exchange6(router6, [f], expect=1)
    check_icmp6_error(router6, f, one(got, "t0"), 2, 0, param=P1_MTU)
    assert d.drops("p0") == {"mtu": 1}


def test_link_local_source_not_forwarded(router6):
    """RFC 4291 2.5.6 / RFC 4443 3.1: Destination Unreachable, beyond scope of
    source address (code 2), from the link-local address of the port."""
    f = udp6(router6, DST6, src=T0_LL)
    got, d = exchange6(router6, [f], expect=1)
    assert got["t1"] == []
    check_icmp6_error(router6, f, one(got, "t0"), 1, 2, src=R0_LL)
    assert d.drops("p0") == {"scope": 1}
    assert d.glob("icmp6_beyond_scope_sent") == 1


@pytest.mark.parametrize("dst", ["fe80::99", T1_LL])
def test_link_local_destination_not_forwarded(router6, dst):
    """RFC 4291 2.5.6: a link-local destination that is not ours is never
    routed to another link, not even to a neighbour on another port. Linux
    looks for it on the ingress link and, when nobody answers there, sends
    address unreachable (code 3) 3 s later; dropping it at once is as good."""
    f = udp6(router6, dst, src=T0_LL)
    got, d = exchange6(router6, [f], quiet=4.5)
    assert got["t1"] == [], "never out of another port"
    for err in got["t0"]:
        assert err[14 + 40] == 1 and err[14 + 41] in (2, 3), describe(err)
    assert total(d.drops("p0")) == 1


# --------------------------------------------- addresses that are never right
@pytest.mark.parametrize("src", ["ff02::1", "ff0e::5", "::1"])
def test_bad_source_dropped(router6, src):
    got, d = exchange6(router6, [udp6(router6, DST6, src=src, hlim=1)])
    nothing_out6(got)
    assert d.drops("p0") == {"bad_address": 1}


@pytest.mark.parametrize("dst", ["::1", "ff00::5"])
def test_bad_destination_dropped(router6, dst):
    """Loopback, multicast of reserved scope 0 (RFC 4291 2.5.3, 2.7)."""
    got, d = exchange6(router6, [udp6(router6, dst)])
    nothing_out6(got)
    assert d.drops("p0") == {"bad_address": 1}


def test_unspecified_destination_not_forwarded(router6):
    """RFC 4291 2.5.2: never a destination. Dropped; Linux answers no route
    (code 0), silence is as good."""
    f = udp6(router6, "::")
    got, d = exchange6(router6, [f])
    assert got["t1"] == []
    if got["t0"]:
        check_icmp6_error(router6, f, one(got, "t0"), 1, 0)
    assert total(d.drops("p0")) == 1


def test_unspecified_source_gets_no_error(router6):
    """:: as a source is not forwarded further (hop limit 1) and no error
    can go back to it."""
    got, d = exchange6(router6, [udp6(router6, DST6, src="::", hlim=1)])
    nothing_out6(got)
    assert total(d.drops("p0")) == 1


@pytest.mark.parametrize("dst", ["ff0e::1", "ff05::2", "ff02::1:3"])
def test_multicast_destination_not_forwarded(router6, dst):
    """No multicast routing: a multicast packet stays on its link, and no
    error is sent about it (not even with hop limit 1)."""
    e = mcast_mac(dst)
    got, _ = exchange6(router6, [udp6(router6, dst, eth_dst=e),
                                 udp6(router6, dst, hlim=1, eth_dst=e)])
    nothing_out6(got)


@pytest.mark.parametrize("mac", ["ff:ff:ff:ff:ff:ff", "33:33:00:00:00:01"])
def test_link_multicast_with_unicast_destination_not_forwarded(router6, mac):
    got, d = exchange6(router6, [udp6(router6, DST6, eth_dst=mac)])
    nothing_out6(got)
    assert d.drops("p0") == {"not_for_us": 1}


def test_other_mac_not_forwarded(router6):
    got, d = exchange6(router6, [udp6(router6, DST6, eth_dst="02:99:00:00:00:01")])
    nothing_out6(got)
    assert d.drops("p0") == {"not_for_us": 1}


# ------------------------------------------------------------- malformed
def spoil(router, how):
    """A valid frame to a routed destination with one thing broken."""
    b = bytearray(bytes(udp6(router, DST6)))
    plen = struct.unpack("!H", b[18:20])[0]
    if how == "version_4":
        b[14] = 0x40 | (b[14] & 0x0f)
    elif how == "version_0":
        b[14] &= 0x0f
    elif how == "payload_length_past_frame":
        b[18:20] = struct.pack("!H", plen + 1)
    elif how == "payload_length_65535":
        b[18:20] = b"\xff\xff"
    elif how == "hop_by_hop_truncated":  # next header 0, nothing after the header
        b[20] = 0
        b[18:20] = b"\0\0"
        del b[54:]
    elif how == "hop_by_hop_past_payload":  # its length says 8 * 8 bytes, 16 there
        b = bytearray(bytes(hbh6(router, DST6, payload=b"")))
        b[55] = 7
    return bytes(b)


@pytest.mark.parametrize("how,reason", [
    ("version_4", "bad_header"), ("version_0", "bad_header"),
    ("payload_length_past_frame", "truncated"), ("payload_length_65535", "truncated"),
    ("hop_by_hop_truncated", "bad_header"), ("hop_by_hop_past_payload", "bad_header")])
def test_malformed_dropped(router6, how, reason):
    got, d = exchange6(router6, [spoil(router6, how)])
    nothing_out6(got)
    assert d.drops("p0") == {reason: 1}


@pytest.mark.parametrize("length", [14, 15, 20, 53])
def test_truncated_dropped(router6, length):
    """Frames that end inside the 40-byte header."""
    got, d = exchange6(router6, [bytes(udp6(router6, DST6))[:length]])
    nothing_out6(got)
    assert d.drops("p0") == {"bad_header": 1}


def test_frame_longer_than_payload_length(router6):
    """Bytes past the payload length are link padding: cut, the rest forwarded."""
    f = bytes(udp6(router6, DST6))
    got, d = exchange6(router6, [f + b"\xee" * 20], expect=1)
    out = one(got, "t1")
    check_forwarded6(router6, f, out)
    assert d.drops("p0") == {}


def test_vlan_tagged_unknown(router6):
    f = bytes(udp6(router6, DST6))
    got, d = exchange6(router6, [f[:12] + b"\x81\x00\x00\x05" + f[12:]])
    nothing_out6(got)
    assert d.drops("p0") == {"vlan_unknown": 1}


def test_ipv6_in_an_ipv4_ethertype(router6):
    """An IPv6 packet behind ethertype 0x0800 is a bad IPv4 header."""
    f = bytearray(bytes(udp6(router6, DST6)))
    f[12:14] = b"\x08\x00"
    got, d = exchange6(router6, [bytes(f)], keep="any")
    nothing_out6(got)
    assert d.drops("p0") == {"bad_header": 1}


def test_still_forwards(router6):
    """After everything above."""
    f = udp6(router6, DST6)
    got, _ = exchange6(router6, [f], expect=1)
    check_forwarded6(router6, f, one(got, "t1"))
