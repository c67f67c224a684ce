# SPDX-License-Identifier: BSD-3-Clause
"""RFC 1812 forwarding rules, one test each: crafted frames in at t0 (or t1),
the exact packets out of the other side, and the counter that moved.
Topology and addresses: conftest.py."""
import struct

import pytest
from scapy.all import IP, UDP, Ether, Raw

from conftest import BLACKHOLE, GW, HOST, P1_ADDR, P1_MTU, T1_MAC, UNROUTED
from frames import (DST, check_forwarded, check_icmp_error, exchange, icmp, nothing_out, one,
                    ones_sum, reassemble, udp, with_options)

BLACKHOLED = BLACKHOLE.replace(".0/24", ".5")


# ------------------------------------------------------------ forwarding
@pytest.mark.parametrize("ttl", [2, 64, 255])
def test_forward(router, ttl):
    f = udp(router, DST, ttl=ttl)
    got, d = exchange(router, [f], expect=1)
    check_forwarded(router, f, one(got, "t1"))
    assert got["t0"] == []
    assert d.drops("p0") == {} and d.drops("p1") == {}
    assert d.port("p0", "rx_packets") == 1 and d.port("p1", "tx_packets") == 1


def test_forward_to_connected_neighbour(router):
    f = icmp(router, GW)
    got, d = exchange(router, [f], expect=1)
    check_forwarded(router, f, one(got, "t1"))
    assert d.drops("p0") == {}


def test_forward_keeps_options(router):
    f = with_options(udp(router, DST), b"\x07\x07\x04\x00\x00\x00\x00\x01")  # RR + NOP
    got, _ = exchange(router, [f], expect=1)
    check_forwarded(router, f, one(got, "t1"))


def test_forward_strips_ethernet_padding(router):
    f = bytes(udp(router, DST, payload=b"")) + b"\0" * 18  # 42 + 18 = 60-byte frame
    got, _ = exchange(router, [f], expect=1)
    out = one(got, "t1")
    assert len(out) == 14 + 28
    check_forwarded(router, f[:42], out)


# ------------------------------------------------------------- ICMP errors
@pytest.mark.parametrize("ttl", [1, 0])
def test_ttl_expired(router, ttl):
    f = udp(router, DST, ttl=ttl)
    got, d = exchange(router, [f], expect=1)
    assert got["t1"] == [], "an expired packet is not forwarded"
    check_icmp_error(router, f, one(got, "t0"), 11, 0)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("icmp_time_exceeded_sent") == 1


def test_ttl_expired_quotes_options(router):
    f = with_options(udp(router, DST, ttl=1), b"\x83\x07\x04\x0a\x01\x01\x01\x00")
    got, _ = exchange(router, [f], expect=1)
    check_icmp_error(router, f, one(got, "t0"), 11, 0)  # the whole packet quoted


@pytest.mark.parametrize("size,err", [(100, 20 + 8 + 100), (1000, 576)])
def test_error_quotes_up_to_576_bytes(router, size, err):
    """RFC 1812 4.3.2.3, as Linux: the error holds as much of the datagram
    as fits in 576 bytes, the whole of a shorter one."""
    f = udp(router, DST, ttl=1, payload=(bytes(range(256)) * 4)[:size - 28])
    got, _ = exchange(router, [f], expect=1)
    out = one(got, "t0")
    assert len(out) == 14 + err
    check_icmp_error(router, f, out, 11, 0)


def test_error_without_route_back(router):
    """The sender is unreachable: nothing goes out, the attempt is counted."""
    got, d = exchange(router, [udp(router, DST, ttl=1, src="192.0.2.99")])
    nothing_out(got)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("control_output_no_route") == 1
    assert d.glob("icmp_time_exceeded_sent") == 0


def test_no_error_to_our_own_address(router):
    """A packet spoofing the router's address as its source gets no error:
    it is dropped on arrival (RFC 1812 5.3.7, test_srcchk.py)."""
    got, d = exchange(router, [udp(router, DST, ttl=1, src=P1_ADDR)])
    nothing_out(got)
    if not router.reference:
        assert d.drops("p0") == {"own_source": 1}
    assert d.glob("icmp_time_exceeded_sent") == 0


def test_error_source_is_ingress_port(router):
    """From behind p1: sourced from p1's address, routed back out of p1."""
    f = (Ether(src=T1_MAC, dst=router.mac["p1"]) /
         IP(src="198.51.100.7", dst=HOST, ttl=1, id=77) / UDP(sport=1, dport=2) / Raw(b"z" * 20))
    got, d = exchange(router, [f], send="t1", expect=1)
    assert got["t0"] == []
    check_icmp_error(router, f, one(got, "t1"), 11, 0, src=P1_ADDR, in_port="p1")
    assert d.drops("p1") == {"ttl_exceeded": 1}


def test_no_route(router):
    f = udp(router, UNROUTED)
    got, d = exchange(router, [f], expect=1)
    assert got["t1"] == []
    check_icmp_error(router, f, one(got, "t0"), 3, 0)
    assert d.drops("p0") == {"no_route": 1}
    assert d.glob("icmp_net_unreachable_sent") == 1


def test_blackhole(router):
    got, d = exchange(router, [udp(router, BLACKHOLED)])
    nothing_out(got)
    assert d.drops("p0") == {"blackhole": 1}


def test_frag_needed(router):
    f = udp(router, DST, flags="DF", payload=b"D" * (1400 - 28))
    got, d = exchange(router, [f], expect=1)
    assert got["t1"] == []
    check_icmp_error(router, f, one(got, "t0"), 3, 4, mtu=P1_MTU)
    assert d.drops("p0") == {"mtu": 1}
    assert d.glob("icmp_frag_needed_sent") == 1


def test_frag_needed_connected_host(router):
    """The same towards a host on p1's subnet that has no neighbour entry."""
    f = udp(router, "10.20.2.50", flags="DF", payload=b"D" * (1300 - 28))
    got, d = exchange(router, [f], expect=1)
    check_icmp_error(router, f, one(got, "t0"), 3, 4, mtu=P1_MTU)
    assert d.drops("p0") == {"mtu": 1}


def test_mtu_boundary(router):
    """Exactly the egress MTU goes through whole, DF or not."""
    f = udp(router, DST, flags="DF", payload=b"M" * (P1_MTU - 28))
    got, d = exchange(router, [f], expect=1)
    check_forwarded(router, f, one(got, "t1"))
    assert d.drops("p0") == {}


# ------------------------------------------------------------ fragmentation
def test_fragmentation(router):
    f = udp(router, DST, payload=bytes(range(256)) * 5 + b"end")  # 1311 bytes of IP
    got, d = exchange(router, [f], expect=2)
    assert got["t0"] == []
    assert len(got["t1"]) == 2
    reassemble(router, f, got["t1"])
    assert d.drops("p0") == {} and d.port("p1", "tx_packets") == 2


def test_fragmentation_copies_options(router):
    opts = (b"\x01" + b"\x82\x0b" + bytes(range(1, 10)) +  # NOP, security (copied)
            b"\x07\x07\x04\x00\x00\x00\x00" +  # record route (not copied)
            b"\x83\x07\x04\x0a\x01\x01\x01" + b"\x00\x00")  # LSRR (copied), EOL
    copied = b"\x82\x0b" + bytes(range(1, 10)) + b"\x83\x07\x04\x0a\x01\x01\x01\x00\x00"
    f = with_options(udp(router, DST, payload=b"O" * 1444), opts)  # 1500 bytes of IP
    got, _ = exchange(router, [f], expect=2)
    assert len(got["t1"]) == 2
    reassemble(router, f, got["t1"], copied)


# --------------------------------------------------- malformed (RFC 1812 5.2.2)
def spoil(router, how):
    """A valid frame with one RFC 1812 5.2.2 check broken (the header
    checksum fixed up after, unless that is what is broken)."""
    b = bytearray(bytes(udp(router, DST)))
    if how == "version":
        b[14] = 0x65
    elif how == "ihl_below_5":
        b[14] = 0x44
    elif how == "length_past_frame":
        b[16:18] = struct.pack("!H", len(b) - 14 + 1)
    elif how == "length_below_header":
        b[16:18] = struct.pack("!H", 19)
    elif how == "ihl_past_frame":  # a 60-byte header (and total length) in 40 bytes
        b[14] = 0x4f
        b[16:18] = struct.pack("!H", 60)
        del b[14 + 40:]
    if how == "checksum":
        b[24] ^= 0xff
    else:
        b[24:26] = b"\0\0"
        b[24:26] = struct.pack("!H", ~ones_sum(bytes(b[14:34])) & 0xffff)
    return bytes(b)


@pytest.mark.parametrize("how,reason", [
    ("version", "bad_header"), ("ihl_below_5", "bad_header"),
    ("length_past_frame", "truncated"), ("length_below_header", "bad_header"),
    ("ihl_past_frame", "truncated"), ("checksum", "bad_checksum")])
def test_malformed_dropped(router, how, reason):
    got, d = exchange(router, [spoil(router, how)])
    nothing_out(got)
    assert d.drops("p0") == {reason: 1}


@pytest.mark.parametrize("length", [14, 20, 33])
def test_truncated_dropped(router, length):
    got, d = exchange(router, [bytes(udp(router, DST))[:length]])
    nothing_out(got)
    assert d.drops("p0") == {"bad_header": 1}


@pytest.mark.parametrize("src", ["127.0.0.1", "0.0.0.5", "224.0.0.9", "240.0.0.1",
                                 "255.255.255.255"])
def test_martian_source_dropped(router, src):
    got, d = exchange(router, [udp(router, DST, src=src, ttl=1)])
    nothing_out(got)
    assert d.drops("p0") == {"bad_address": 1}


@pytest.mark.parametrize("dst", ["127.0.0.1", "0.1.2.3", "240.0.0.1", "255.1.2.3"])
def test_martian_destination_dropped(router, dst):
    got, d = exchange(router, [udp(router, dst)])
    nothing_out(got)
    assert d.drops("p0") == {"bad_address": 1}


@pytest.mark.parametrize("mac", ["ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01"])
def test_link_broadcast_not_forwarded(router, mac):
    """RFC 1812 5.3.4: a link-layer broadcast or multicast with a unicast IP."""
    got, d = exchange(router, [udp(router, DST, eth_dst=mac)])
    nothing_out(got)
    assert d.drops("p0") == {"not_for_us": 1}


def test_vlan_tagged_unknown(router):
    f = bytes(udp(router, DST))
    tagged = f[:12] + b"\x81\x00\x00\x05" + f[12:]
    got, d = exchange(router, [tagged])
    nothing_out(got)
    assert d.drops("p0") == {"vlan_unknown": 1}


def test_other_mac_not_forwarded(router):
    got, d = exchange(router, [udp(router, DST, eth_dst="02:99:00:00:00:01")])
    nothing_out(got)
    assert d.drops("p0") == {"not_for_us": 1}
