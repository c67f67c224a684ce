# SPDX-License-Identifier: BSD-3-Clause
"""ACLs (acls[], ports[].acl_in and acl_out, control.acl_local; doc/acl.md):
crafted frames in at t0, what comes out of t0 and t1. With
FWD_REFERENCE=linux the same tests run against the Linux kernel filtering
with the equivalent nftables rules (RULES_NFT), to show that fwd filters
as nftables does: first match, ports of the first fragment only, reject
as ICMP/ICMPv6 administratively prohibited, NDP never filtered by
acl_local. Topology and addresses: conftest.py."""
import os

import pytest
from scapy.all import ICMP, IP, TCP, UDP, IPv6, Raw

import conftest
from conftest import (HOST, HOST6, P0_ADDR, P0_ADDR6, P1_ADDR, LinuxRouter, Router,
                      router_session)
from frames import eth
from frames6 import echo6, exchange6, ip6, ns

DST = "198.51.100.5"  # routed out of p1
DST6 = "2001:db8:51::5"  # routed out of p1, in the blocked /64
DST6_OTHER = "2001:db8:51:1::5"  # routed out of p1, outside it

ACLS = f"""\
acls:
  - name: in0
    default: permit
    rules:
      - {{ action: deny, proto: tcp, dport: 22 }}
      - {{ action: reject, proto: udp, dport: "5000-5010" }}
      - {{ action: deny, proto: icmp, icmp_type: 8, dscp: 46 }}
      - {{ action: deny, proto: tcp, dst: "2001:db8:51::/64", dport: 23 }}
      - {{ action: permit, proto: tcp, src: {HOST}/32, sport: 1000 }}
      - {{ action: deny, proto: tcp, sport: "1000-1100" }}
  - name: out1
    default: permit
    rules:
      - {{ action: deny, proto: udp, dport: 7 }}
  - name: local
    default: permit
    rules:
      - {{ action: deny, proto: icmp, dst: {P1_ADDR}/32 }}
      - {{ action: deny, proto: icmpv6, dst: "{P0_ADDR6}/128" }}
"""

# The same in nftables: acl_in on r0 and acl_out on r1 in the forward hook,
# acl_local in the input hook (where fwd never filters NDP: nftables must
# be told).
RULES_NFT = f"""\
table inet acl {{
  chain forward_acl {{
    type filter hook forward priority 0; policy accept;
    iifname "r0" tcp dport 22 drop
    iifname "r0" udp dport 5000-5010 reject with icmpx type admin-prohibited
    iifname "r0" icmp type echo-request ip dscp 46 drop
    iifname "r0" ip6 daddr 2001:db8:51::/64 tcp dport 23 drop
    iifname "r0" ip saddr {HOST} tcp sport 1000 accept
    iifname "r0" tcp sport 1000-1100 drop
    oifname "r1" udp dport 7 drop
  }}
  chain input_acl {{
    type filter hook input priority 0; policy accept;
    ip daddr {P1_ADDR} meta l4proto icmp drop
    ip6 daddr {P0_ADDR6} meta l4proto icmpv6 icmpv6 type != {{ nd-router-solicit, nd-router-advert, nd-neighbor-solicit, nd-neighbor-advert, nd-redirect }} drop
  }}
}}
"""


class AclRouter(Router):
    extra = {"p0": ", acl_in: in0", "p1": ", acl_out: out1",
             "control": "  acl_local: local\n", "tail": ACLS}


class AclLinuxRouter(LinuxRouter):
    def start(self):
        super().start()
        path = os.path.join(self.tmp, "acl.nft")
        with open(path, "w") as f:
            f.write(RULES_NFT)
        self.x("nft", "-f", path)


@pytest.fixture(scope="module")
def router():
    if conftest.REFERENCE == "linux":
        yield from router_session(None, "al", AclLinuxRouter)
    else:
        yield from router_session("af_packet", "a", AclRouter)


def tcp4(router, dport, sport=40001, dst=DST, src=HOST):
    return eth(router) / IP(src=src, dst=dst, ttl=64, id=0x51) / TCP(sport=sport, dport=dport)


def udp4(router, dport, dst=DST):
    return eth(router) / IP(src=HOST, dst=dst, ttl=64, id=0x52) / UDP(sport=40000,
                                                                      dport=dport) / Raw(b"x" * 20)


def passes(router, frame, keep="ipv4"):
    got, _ = exchange6(router, [frame], expect=1, keep=keep)
    assert len(got["t1"]) == 1, "forwarded out of p1"
    assert got["t0"] == []


def dropped(router, frame, keep="ipv4", port="p0"):
    got, d = exchange6(router, [frame], keep=keep)
    assert got["t0"] == [] and got["t1"] == [], "nothing comes out"
    assert d.drops(port) == {"acl": 1}


def test_tcp_port(router):
    """A TCP port denied while another passes."""
    dropped(router, tcp4(router, 22))
    passes(router, tcp4(router, 80))


def test_first_match(router):
    """The permit before the deny of the same ports wins."""
    passes(router, tcp4(router, 80, sport=1000))
    dropped(router, tcp4(router, 80, sport=1001))
    passes(router, tcp4(router, 80, sport=1101))


def check_prohibited(out, sent, family):
    """out is ICMP(v6) administratively prohibited about sent, from p0's address."""
    if family == 4:
        ip = IP(bytes(out)[14:])
        assert (ip.src, ip.dst, ip.proto) == (P0_ADDR, HOST, 1)
        assert (ip[ICMP].type, ip[ICMP].code) == (3, 13)
        quoted = IP(bytes(ip[ICMP].payload))
        assert (quoted.src, quoted.dst, quoted[UDP].dport) == (HOST, sent[IP].dst,
                                                             sent[UDP].dport)
    else:
        ip = IPv6(bytes(out)[14:])
        assert (ip.src, ip.dst, ip.nh) == (P0_ADDR6, HOST6, 58)
        body = bytes(ip.payload)
        assert (body[0], body[1]) == (1, 1)
        quoted = IPv6(body[8:])
        assert (quoted.src, quoted.dst) == (HOST6, sent[IPv6].dst)


def test_reject(router):
    """reject: dropped, and ICMP administratively prohibited to the sender."""
    f = udp4(router, 5003)
    got, d = exchange6(router, [f], expect=1, keep="ipv4")
    assert got["t1"] == []
    assert len(got["t0"]) == 1
    check_prohibited(got["t0"][0], f, 4)
    assert d.drops("p0") == {"acl": 1}
    passes(router, udp4(router, 5011))


def test_reject6(router):
    f = ip6(router, DST6) / UDP(sport=40000, dport=5000) / Raw(b"y" * 20)
    got, d = exchange6(router, [f], expect=1)
    assert got["t1"] == []
    assert len(got["t0"]) == 1
    check_prohibited(got["t0"][0], f, 6)
    assert d.drops("p0") == {"acl": 1}


def test_dscp_icmp_type(router):
    """An EF echo request is denied; a best-effort one and an EF reply pass."""
    ping = eth(router) / IP(src=HOST, dst=DST, tos=46 << 2) / ICMP(type=8, id=1, seq=1)
    dropped(router, ping)
    passes(router, eth(router) / IP(src=HOST, dst=DST) / ICMP(type=8, id=1, seq=2))
    passes(router, eth(router) / IP(src=HOST, dst=DST, tos=46 << 2) / ICMP(type=0, id=1, seq=3))


def test_ipv6_prefix(router):
    f = ip6(router, DST6) / TCP(sport=40001, dport=23)
    dropped(router, f, keep="ipv6")
    passes(router, ip6(router, DST6_OTHER) / TCP(sport=40001, dport=23), keep="ipv6")
    dropped(router, ip6(router, DST6_OTHER) / TCP(sport=40001, dport=22), keep="ipv6")


def test_acl_out(router):
    """acl_out on p1, after the route lookup: counted on p1."""
    dropped(router, udp4(router, 7), port="p1")
    passes(router, udp4(router, 9))


def test_local(router):
    """acl_local keeps ICMP from one of the router's addresses, not the other."""
    got, _ = exchange6(router, [eth(router) / IP(src=HOST, dst=P0_ADDR) / ICMP(id=2, seq=1)],
                       expect=1, keep="ipv4")
    assert len(got["t0"]) == 1 and IP(bytes(got["t0"][0])[14:])[ICMP].type == 0
    got, d = exchange6(router, [eth(router) / IP(src=HOST, dst=P1_ADDR) / ICMP(id=2, seq=2)],
                       keep="ipv4")
    assert got["t0"] == [] and got["t1"] == []
    assert d.drops("p0") == {"acl": 1}


def test_local_ndp_never_filtered(router):
    """All ICMPv6 to p0's address is denied, but neighbour discovery still answers."""
    got, _ = exchange6(router, [echo6(router, P0_ADDR6)])
    assert got["t0"] == []
    got, _ = exchange6(router, [ns(router, P0_ADDR6)], expect=1, keep="ndp")
    assert any(bytes(f)[54] == 136 for f in got["t0"]), "a neighbour advertisement"
