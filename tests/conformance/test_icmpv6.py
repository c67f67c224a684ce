# SPDX-License-Identifier: BSD-3-Clause
# run.sh: long: 30 s and more, started before the short ones
"""ICMPv6 from the router (RFC 4443): echo replies from each of its
addresses, errors about packets to the router, TCP resets for its closed
ports (RFC 9293 3.10.7.1), the packets no error may be
sent about (2.4 (e)), address unreachable after neighbour discovery fails,
and the rate limit (2.4 (f)) with IPv6's own bucket. Topology and
addresses: conftest.py. FWD_REFERENCE=linux runs them against Linux."""
import time

import pytest
from scapy.all import TCP, ICMPv6EchoReply, IPv6, Ether

from conftest import HOST6, ICMP_RATE, P0_ADDR6, P1_ADDR6, R0_LL, R1_LL, T0_LL, UNROUTED6
from frames import one, ones_sum, udp
from frames6 import (ALL_NODES, DST6, check_icmp6_error, describe, echo6, exchange6, hbh6,
                     icmp6, icmp6_cksum, ip6, mcast_mac, nothing_out6, ns, udp6)

BURST = 50  # the limiter's bucket at rates up to 1000/s (as for IPv4)


def check_echo_reply(router, f, out, src, in_port="p0"):
    """out answers echo request f: from src to f's source, out of the ingress
    port to f's sender, identifier, sequence and data unchanged."""
    f, out = bytes(f), bytes(out)
    assert out[0:6] == f[6:12], "back to the sender's MAC"
    assert out[6:12] == bytes.fromhex(router.mac[in_port].replace(":", ""))
    p = Ether(out)[IPv6]
    q = Ether(f)[IPv6]
    assert (p.src, p.dst, p.nh, p.hlim) == (src, q.src, 58, 64)
    assert p.plen == len(out) - 54 == q.plen, "as long as the request"
    r = p[ICMPv6EchoReply]
    assert (r.type, r.code, r.id, r.seq) == (129, 0, 0x77, 5)
    assert out[62:] == f[62:54 + q.plen], "data echoed"
    assert icmp6_cksum(out[14:]) == 0xffff, "checksum"


# ------------------------------------------------------------------ echo
@pytest.mark.parametrize("addr", [P0_ADDR6, P1_ADDR6])
@pytest.mark.parametrize("hlim", [64, 1])
def test_echo_reply(router6, addr, hlim):
    f = echo6(router6, addr, hlim=hlim)
    got, d = exchange6(router6, [f], expect=1)
    assert got["t1"] == []
    check_echo_reply(router6, f, one(got, "t0"), addr)
    assert d.drops("p0") == {}
    assert d.glob("icmp6_echo_replies_sent") == 1


def test_echo_reply_link_local(router6):
    f = echo6(router6, R0_LL, src=T0_LL)
    got, d = exchange6(router6, [f], expect=1)
    check_echo_reply(router6, f, one(got, "t0"), R0_LL)
    assert d.drops("p0") == {}


def test_echo_reply_big(router6):
    """A 1500-byte request gets a 1500-byte reply (p0's MTU is 1500)."""
    f = echo6(router6, P0_ADDR6, payload=bytes(range(256)) * 5 + b"e" * (1452 - 1280))
    got, _ = exchange6(router6, [f], expect=1)
    check_echo_reply(router6, f, one(got, "t0"), P0_ADDR6)


def test_echo_to_all_nodes(router6):
    """ping ff02::1%t0: as Linux does (icmp/echo_ignore_multicast=0), the
    router answers from its unicast address for the requester."""
    f = echo6(router6, ALL_NODES, src=T0_LL, eth_dst=mcast_mac(ALL_NODES))
    got, d = exchange6(router6, [f], expect=1)
    check_echo_reply(router6, f, one(got, "t0"), R0_LL)


@pytest.mark.parametrize("group", ["ff00::1", "ff01::1"])
def test_echo_to_reserved_or_interface_scope_unanswered(router6, group):
    """RFC 4291 2.7: a group of reserved scope 0 is silently dropped; an
    interface-local one (scope 1) never comes from the wire."""
    f = echo6(router6, group, src=T0_LL, eth_dst=mcast_mac(group))
    got, d = exchange6(router6, [f])
    nothing_out6(got)
    assert sum(d.drops("p0").values()) == 1


def test_echo_to_other_ports_link_local_unanswered(router6):
    """p1's link-local address is not on p0's link."""
    got, d = exchange6(router6, [echo6(router6, R1_LL, src=T0_LL)], quiet=4.5)
    assert got["t1"] == []
    for f in got["t0"]:
        assert f[54] == 1, "at most an unreachable: " + describe(f)
    assert sum(d.drops("p0").values()) == 1


def test_echo_bad_checksum(router6):
    f = bytearray(bytes(echo6(router6, P0_ADDR6)))
    f[54 + 2] ^= 0x01
    got, d = exchange6(router6, [bytes(f)])
    nothing_out6(got)
    assert sum(d.drops("p0").values()) == 1


def test_echo_to_a_neighbours_address_unanswered(router6):
    """An address on p0's prefix that is not the router's is a neighbour's:
    no echo reply, at most (as Linux, which goes looking for it back on p0)
    address unreachable once nobody answers there."""
    # fwd sends the error once its 3 solicitations (1 s apart) go unanswered:
    # wait for it, or on a busy machine it lands in the next test's capture
    wait = {"quiet": 4.5} if router6.reference else {"expect": 1, "timeout": 10}
    got, _ = exchange6(router6, [echo6(router6, "2001:db8:20:1::77")], **wait)
    assert got["t1"] == []
    if not router6.reference:
        assert len(got["t0"]) == 1, "address unreachable, once"
    for f in got["t0"]:
        assert (f[54], f[55]) == (1, 3), "no echo reply: " + describe(f)


# ------------------------------------------- errors about packets to the router
@pytest.mark.parametrize("addr", [P0_ADDR6, P1_ADDR6])
def test_udp_port_unreachable(router6, addr):
    """traceroute6's last probe when the router itself is traced: port
    unreachable (code 4) from the address probed."""
    f = udp6(router6, addr, hlim=1)
    got, d = exchange6(router6, [f], expect=1)
    check_icmp6_error(router6, f, one(got, "t0"), 1, 4, src=addr)
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("icmp6_port_unreachable_sent") == 1


def test_unknown_next_header_to_router(router6):
    """RFC 8200 4: an unrecognised next header: Parameter Problem code 1,
    pointing at the Next Header field (offset 6)."""
    f = udp6(router6, P1_ADDR6, nh=253)
    got, d = exchange6(router6, [f], expect=1)
    check_icmp6_error(router6, f, one(got, "t0"), 4, 1, param=6, src=P1_ADDR6)
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("icmp6_param_problem_sent") == 1


def test_no_port_unreachable_about_multicast(router6):
    """UDP to all nodes: no error (RFC 4443 2.4 (e.3))."""
    got, _ = exchange6(router6, [udp6(router6, ALL_NODES, src=T0_LL,
                                      eth_dst=mcast_mac(ALL_NODES))])
    nothing_out6(got)


# ------------------------------------------------ no error about an error
@pytest.mark.parametrize("type,code", [(1, 0), (1, 4), (2, 0), (3, 0), (4, 1), (100, 0),
                                       (127, 0)])
def test_no_error_about_icmpv6_error(router6, type, code):
    """RFC 4443 2.4 (e.1): types 0-127 are errors; no Time Exceeded about them."""
    inner = bytes(IPv6(src=DST6, dst=HOST6) / (b"\0" * 8))
    f = icmp6(router6, DST6, type, code, body=b"\0\0\x05\x00" + inner, hlim=1)
    got, d = exchange6(router6, [f])
    nothing_out6(got)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("icmp6_suppressed_about_error") == 1


def test_no_error_about_error_behind_hop_by_hop(router6):
    """The error is found behind a hop-by-hop options header too."""
    f = bytearray(bytes(hbh6(router6, DST6, hlim=1, payload=b"")))
    f[54] = 58  # the hop-by-hop header's next header: ICMPv6, then a Time Exceeded
    body = bytes([3, 0, 0, 0, 0, 0, 0, 0]) + bytes(IPv6(src=DST6, dst=HOST6))
    f = f[:62] + body
    f[18:20] = (len(f) - 54).to_bytes(2, "big")
    ip = bytes(f[14:])
    # checksum over the ICMPv6 message behind the 8-byte extension header
    pseudo = ip[8:40] + (len(body)).to_bytes(4, "big") + b"\0\0\0\x3a"
    ck = ~ones_sum(pseudo + body) & 0xffff
    f[62 + 2:62 + 4] = ck.to_bytes(2, "big")
    got, d = exchange6(router6, [bytes(f)])
    nothing_out6(got)
    assert d.drops("p0") == {"ttl_exceeded": 1}
    assert d.glob("icmp6_suppressed_about_error") == 1


@pytest.mark.parametrize("type", [128, 129, 200])
def test_error_about_icmpv6_informational(router6, type):
    """Types 128-255 are informational: they do get errors."""
    f = icmp6(router6, DST6, type, 0, body=b"\0\x77\0\x05" + b"i" * 16, hlim=1)
    got, _ = exchange6(router6, [f], expect=1)
    check_icmp6_error(router6, f, one(got, "t0"), 3, 0)


# ---------------------------------------------------- address unreachable
def test_address_unreachable_after_ndp_failure(router6):
    """A host on p1's prefix that never answers: after neighbour discovery
    gives up (3 solicitations, 1 s apart), Destination Unreachable code 3,
    quoting the packet as it was held (hop limit already decremented),
    as Linux does."""
    f = udp6(router6, "2001:db8:20:2::77", hlim=9)
    held = bytearray(bytes(f))
    held[21] = 8
    got, d = exchange6(router6, [f], expect=1, timeout=8, keep="any", count="ipv6")
    ns_out = [x for x in got["t1"] if x[12:14] == b"\x86\xdd" and x[54:55] == b"\x87"]
    assert 1 <= len(ns_out) <= 3, "3 solicitations at most"
    assert [x for x in got["t1"] if x not in ns_out and x[54] not in (143,)] == [], \
        "nothing but NDP out of p1"
    errs = [x for x in got["t0"] if x[12:14] == b"\x86\xdd" and x[54:55] == b"\x01"]
    check_icmp6_error(router6, bytes(held), one({"t0": errs}, "t0"), 1, 3)
    assert sum(d.drops("p0").values()) + sum(d.drops("p1").values()) == 1
    assert d.glob("icmp6_addr_unreachable_sent") == 1


# ------------------------------------------------------------ rate limit
def test_rate_limit(router6):
    """500 expired packets at once: at most the burst plus the rate over the
    time it took come back (dataplane.icmp_rate, default 100/s)."""
    if router6.reference:
        pytest.skip("fwd's own limiter settings")
    time.sleep(BURST / ICMP_RATE + 0.1)
    frames = [udp6(router6, DST6, hlim=1, fl=i) for i in range(500)]
    start = time.monotonic()
    got, d = exchange6(router6, frames, quiet=1.0)
    took = time.monotonic() - start
    sent = len(got["t0"])
    # the punt policer (dataplane.punt_rate_error) takes some before the ICMP limiter
    policed = d.drops("p0").get("policed_icmp6", 0)
    expired = d.drops("p0").get("ttl_exceeded", 0) + policed
    assert got["t1"] == []
    assert BURST <= sent <= BURST + ICMP_RATE * took + 1, f"{sent} errors in {took:.2f} s"
    assert expired > 400, "the router saw (nearly) all of them"
    assert d.glob("icmp6_ratelimited") == expired - policed - sent, "the rest counted"
    assert d.glob("icmp6_time_exceeded_sent") == sent
    time.sleep(BURST / ICMP_RATE + 0.1)


def test_rate_limit_own_bucket(router6):
    """IPv4's errors do not use up IPv6's: 200 expired IPv4 packets empty the
    IPv4 bucket, the IPv6 ones right after still get a full burst."""
    if router6.reference:
        pytest.skip("fwd's own limiter settings")
    time.sleep(BURST / ICMP_RATE + 0.1)
    v4 = [udp(router6, "198.51.100.10", ttl=1, id=i) for i in range(200)]
    v6 = [udp6(router6, DST6, hlim=1, fl=i) for i in range(200)]
    got, _ = exchange6(router6, v4 + v6, quiet=1.0, keep="any")
    v4_errs = [f for f in got["t0"] if f[12:14] == b"\x08\x00"]
    v6_errs = [f for f in got["t0"] if f[12:14] == b"\x86\xdd" and f[54] == 3]
    assert BURST <= len(v4_errs) < 100, "IPv4 limited"
    assert len(v6_errs) >= BURST, f"IPv6 has a bucket of its own: {len(v6_errs)} errors"
    time.sleep(BURST / ICMP_RATE + 0.1)


def test_error_to_unrouted_source(router6):
    """An error that cannot be routed back goes nowhere, quietly."""
    got, d = exchange6(router6, [udp6(router6, DST6, hlim=1, src=UNROUTED6)])
    nothing_out6(got)
    assert d.drops("p0") == {"ttl_exceeded": 1}


def test_no_error_to_own_address(router6):
    """A packet spoofing the router's own address as its source gets no error."""
    got, d = exchange6(router6, [udp6(router6, DST6, hlim=1, src=P1_ADDR6)])
    nothing_out6(got)
    # dropped on arrival: our own address from outside (RFC 1812 5.3.7's rule, both families)
    assert d.drops("p0") == {"own_source": 1}


def test_echo_still_answered(router6):
    f = echo6(router6, P0_ADDR6)
    got, _ = exchange6(router6, [f], expect=1)
    check_echo_reply(router6, f, one(got, "t0"), P0_ADDR6)


# ---------------------------------------------------------- TCP resets
@pytest.mark.parametrize("flags,seq,ack,want", [("S", 1000, 0, (0, 1001, "RA")),
                                                ("PA", 7, 5555, (5555, 0, "R"))],
                         ids=["syn", "ack"])
def test_tcp_to_router_reset(router6, flags, seq, ack, want):
    """RFC 9293 3.10.7.1: a segment to a closed port of the router gets the
    reset its sender accepts, from the address it asked (Linux does)."""
    f = ip6(router6, P0_ADDR6) / TCP(sport=40001, dport=22, flags=flags, seq=seq, ack=ack)
    got, d = exchange6(router6, [f], expect=1)
    p = Ether(bytes(one(got, "t0")))[IPv6]
    assert (p.src, p.dst, p.nh) == (P0_ADDR6, HOST6, 6)
    t = p[TCP]
    assert (t.sport, t.dport, t.seq, t.ack, str(t.flags)) == (22, 40001) + want
    again = IPv6(bytes(p))
    del again[TCP].chksum
    assert IPv6(bytes(again))[TCP].chksum == t.chksum, "checksum"
    assert d.drops("p0") == {"local_proto": 1}
    assert d.glob("tcp6_resets_sent") == 1


def test_no_reset_to_group_or_about_reset(router6):
    """Nothing to a segment sent to a group, nor about a reset."""
    to_group = ip6(router6, ALL_NODES, eth_dst=mcast_mac(ALL_NODES)) / TCP(sport=40001, dport=22)
    reset = ip6(router6, P0_ADDR6) / TCP(sport=40001, dport=22, flags="R")
    got, _ = exchange6(router6, [to_group, reset])
    nothing_out6(got)
