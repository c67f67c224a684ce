# SPDX-License-Identifier: BSD-3-Clause
# run.sh: long: 30 s and more, started before the short ones
"""802.1Q VLAN sub-interfaces (doc/architecture.md, fwd.yaml(5) `interfaces:`).

The conformance topology (conftest.py) with two VLAN interfaces on p0:

    tester t0 (trunk) <-> r0  p0        10.20.1.1/24 untagged (as before)
                              p0.100    10.20.100.1/24 2001:db8:20:100::1/64
                              p0.200    10.20.200.1/24 2001:db8:20:200::1/64
    tester t1         <-> r1  p1        10.20.2.1/24, gateway behind it (as before)

Static neighbours: "vhost" 10.20.100.2 / 2001:db8:20:100::2 on VLAN 100 at
t0's MAC, "vpeer" 10.20.200.2 / 2001:db8:20:200::2 on VLAN 200 at VPEER_MAC.
VLAN 300 has no interface.

What is checked: ICMP errors (TTL/hop limit 1, no route) go back on the
VLAN the packet came in on, with its tag, from that interface's address;
routing between VLANs of one port and to and from an untagged port; ARP
and NDP on a VLAN answered tagged (NS, DAD probe defended); a frame of an
unknown VLAN counted as vlan_unknown; priority-tagged frames (VLAN 0)
handled as untagged; double tags (802.1Q and 802.1ad outer) and truncated
tags dropped and counted, the router still answering.

Each test runs on af_packet ports (the kernel takes the tag out of the
frame and hands it over beside it: the PMD's vlan_tci) and on af_xdp
ports (the tag stays in the frame), and, with FWD_REFERENCE=linux on a
kernel with 802.1Q devices, against Linux (r0.100, r0.200) to show the
expectations are what Linux does; fwd's counters are skipped there.
"""
import json
import time

import pytest
from scapy.all import ARP, ICMP, IP, UDP, Dot1AD, Dot1Q, Ether, ICMPv6DestUnreach, \
    ICMPv6EchoReply, ICMPv6EchoRequest, ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptSrcLLAddr, \
    ICMPv6TimeExceeded, IPv6, Raw, conf

from conftest import (GW, GW6, HOST, P0_ADDR, REFERENCE, T0_MAC, T1_MAC, LinuxRouter, Router,
                      router_session, run)

conf.verb = 0

A_VID, B_VID, UNKNOWN_VID = 100, 200, 300
A_ADDR, A_HOST = "10.20.100.1", "10.20.100.2"
B_ADDR, B_HOST = "10.20.200.1", "10.20.200.2"
A_ADDR6, A_HOST6 = "2001:db8:20:100::1", "2001:db8:20:100::2"
B_ADDR6, B_HOST6 = "2001:db8:20:200::1", "2001:db8:20:200::2"
VPEER_MAC = "02:aa:00:00:02:00"
DST, DST6 = "198.51.100.10", "2001:db8:51::10"  # routed via GW / GW6 on p1
TPID_8021Q, TPID_8021AD = 0x8100, 0x88a8

# The interfaces and the VLAN neighbours. "tail" follows the neighbour list
# of conftest.config() directly, so its first lines continue that list.
EXTRA = {"tail": f"""\
  - {{ address: {A_HOST}, mac: "{T0_MAC}", port: p0.100 }}
  - {{ address: "{A_HOST6}", mac: "{T0_MAC}", port: p0.100 }}
  - {{ address: {B_HOST}, mac: "{VPEER_MAC}", port: p0.200 }}
  - {{ address: "{B_HOST6}", mac: "{VPEER_MAC}", port: p0.200 }}
interfaces:
  - {{ name: p0.100, port: p0, vlan: {A_VID}, addresses: [{A_ADDR}/24, "{A_ADDR6}/64"] }}
  - {{ name: p0.200, port: p0, vlan: {B_VID}, addresses: [{B_ADDR}/24, "{B_ADDR6}/64"] }}
"""}


class VlanRouter(Router):
    extra = EXTRA


def kernel_has_vlans(ns):
    """Whether this kernel makes 802.1Q devices (probed in namespace ns)."""
    r = run("ip", "-n", ns, "link", "add", "link", "r0", "name", "vprobe", "type", "vlan", "id",
            "4000", check=False)
    run("ip", "-n", ns, "link", "del", "vprobe", check=False)
    return r.returncode == 0


class VlanLinuxRouter(LinuxRouter):
    """Linux as the router: VLAN devices r0.100 and r0.200 on r0."""

    PORTS = {"p0": "r0", "p1": "r1", "p0.100": "r0.100", "p0.200": "r0.200"}

    def start(self):
        if not kernel_has_vlans(self.ns_r):
            pytest.skip("FWD_REFERENCE=linux: this kernel has no 802.1Q devices")
        for vid, a4, a6, host, host6, mac in ((A_VID, A_ADDR, A_ADDR6, A_HOST, A_HOST6, T0_MAC),
                                              (B_VID, B_ADDR, B_ADDR6, B_HOST, B_HOST6,
                                               VPEER_MAC)):
            dev = f"r0.{vid}"
            self.x("ip", "link", "add", "link", "r0", "name", dev, "type", "vlan", "id", str(vid))
            self.x("sysctl", "-qw", f"net.ipv6.conf.{dev.replace('.', '/')}.disable_ipv6=0")
            self.x("ip", "link", "set", dev, "up")
            self.x("ip", "addr", "add", f"{a4}/24", "dev", dev)
            self.x("ip", "addr", "add", f"{a6}/64", "dev", dev)
            for addr in (host, host6):
                self.x("ip", "neigh", "replace", addr, "lladdr", mac, "dev", dev, "nud",
                       "permanent")
        super().start()


def pmds():
    if REFERENCE == "linux":
        return [None]
    return ["af_packet", "af_xdp"]


@pytest.fixture(scope="module", params=pmds())
def vr(request):
    """The router with VLANs, on each PMD in turn (or Linux)."""
    if request.param is None:
        yield from router_session(None, "vl", VlanLinuxRouter)
    else:
        yield from router_session(request.param, "v" + request.param[3], VlanRouter)


# ---------------------------------------------------------------- helpers
def tagged(vid, pkt, src=T0_MAC, dst=None, tpid=TPID_8021Q, prio=0):
    """An Ether/Dot1Q frame around pkt (an IP, IPv6 or ARP layer)."""
    return Ether(src=src, dst=dst or "ff:ff:ff:ff:ff:ff", type=tpid) / Dot1Q(vlan=vid,
                                                                             prio=prio) / pkt


def to_router(r, vid, pkt, **kw):
    return bytes(tagged(vid, pkt, dst=r.mac["p0"], **kw))


def vid_of(frame):
    """The VLAN of a frame (None: untagged), and the frame parsed."""
    e = Ether(frame)
    return (e[Dot1Q].vlan if Dot1Q in e and e.type == TPID_8021Q else None), e


def stats_json(r):
    return None if r.reference else json.loads(r.ctl("-j", "stats").stdout)


def entries(d):
    """The objects of `fwdctl -j stats` that count packets (ports, interfaces)."""
    return [p for k in ("ports", "ifaces", "interfaces") for p in d.get(k, [])]


def drop_total(d, reason=None):
    """Drops over every entry of `fwdctl -j stats` (ports and interfaces)."""
    return sum(int(c.get("value", 0)) for p in entries(d) for c in p.get("drop_reasons", [])
               if reason is None or c["name"] == reason)


def wire_rx(d, port):
    """What arrived on port's wire: a VLAN's frames are counted on the VLAN
    interface, not on its port (doc/architecture.md, "Counters"); the
    VLAN interfaces here are named PORT.VID."""
    return sum(int(p.get("rx_packets", 0)) for p in entries(d)
               if p["name"] == port or p["name"].startswith(port + "."))


def moved(d):
    """What packets move in a stats snapshot (not rates, not time)."""
    return [(p["name"], p.get("rx_packets"), p.get("tx_packets"), drop_total({"ports": [p]}))
            for p in entries(d)]


def exchange(r, frames, expect=0, count="any", **kw):
    """Frames sent from t0; what came back on t0 and t1 with their VLANs:
    {"t0": [(vid, Ether)], "t1": [...]}, and the stats before and after
    (None on the reference router)."""
    before = stats_json(r)
    got = r.exchange([bytes(f) for f in frames], expect=expect, count=count, **kw)
    after = before
    if before is not None:  # until p0 counted them all and nothing moves
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            time.sleep(0.05)
            cur = stats_json(r)
            if wire_rx(cur, "p0") - wire_rx(before, "p0") >= len(frames) and \
                    moved(cur) == moved(after):
                break
            after = cur
    return {k: [vid_of(f) for f in v if not is_noise(f)] for k, v in got.items()}, before, after


def is_noise(frame):
    """MLD reports and router solicitations a Linux reference sends unasked."""
    e = Ether(frame)
    return IPv6 in e and e[IPv6].nh in (0, 58) and e[IPv6].dst.startswith("ff02::") and \
        ICMPv6ND_NA not in e


def only(got, port):
    assert len(got[port]) == 1, f"{port}: {len(got[port])} frames: " + \
        "; ".join(e.summary() for _, e in got[port])
    return got[port][0]


def check_error_on_vlan(r, got, vid, src, dst, family=4):
    """One ICMP error back on t0 with tag vid, from the VLAN interface's address."""
    v, e = only(got, "t0")
    assert v == vid, f"error sent with VLAN {v}, not {vid}"
    assert e.src == r.mac["p0"] and e.dst == T0_MAC
    l3 = e[IP] if family == 4 else e[IPv6]
    assert l3.src == src and l3.dst == dst
    assert not got["t1"], "something went out of p1"
    return l3


# ----------------------------------------------------------- ICMP errors
def test_ttl1_answered_on_its_vlan(vr):
    f = to_router(vr, A_VID, IP(src=A_HOST, dst=DST, ttl=1) / UDP(dport=33434) / Raw(b"t" * 20))
    got, _, _ = exchange(vr, [f], expect=1)
    ip = check_error_on_vlan(vr, got, A_VID, A_ADDR, A_HOST)
    assert ip[ICMP].type == 11 and ip[ICMP].code == 0


def test_hlim1_answered_on_its_vlan(vr):
    f = to_router(vr, A_VID, IPv6(src=A_HOST6, dst=DST6, hlim=1) / UDP() / Raw(b"t" * 20))
    got, _, _ = exchange(vr, [f], expect=1, count="ipv6")
    ip6 = check_error_on_vlan(vr, got, A_VID, A_ADDR6, A_HOST6, 6)
    assert ICMPv6TimeExceeded in ip6 and ip6[ICMPv6TimeExceeded].code == 0


def test_no_route_answered_on_its_vlan(vr):
    f = to_router(vr, B_VID, IP(src=B_HOST, dst="192.0.2.10") / UDP() / Raw(b"n" * 20),
                  src=VPEER_MAC)
    got, _, _ = exchange(vr, [f], expect=1)
    v, e = only(got, "t0")
    assert v == B_VID and e.dst == VPEER_MAC
    assert e[IP].src == B_ADDR and e[IP].dst == B_HOST
    assert e[ICMP].type == 3 and e[ICMP].code == 0


def test_no_route6_answered_on_its_vlan(vr):
    f = to_router(vr, B_VID, IPv6(src=B_HOST6, dst="2001:db8:99::10") / UDP() / Raw(b"n" * 20),
                  src=VPEER_MAC)
    got, _, _ = exchange(vr, [f], expect=1, count="ipv6")
    v, e = only(got, "t0")
    assert v == B_VID and e.dst == VPEER_MAC
    assert e[IPv6].src == B_ADDR6 and e[IPv6].dst == B_HOST6
    assert ICMPv6DestUnreach in e and e[ICMPv6DestUnreach].code == 0


# --------------------------------------------------------------- routing
def test_routed_between_vlans(vr):
    f = to_router(vr, A_VID, IP(src=A_HOST, dst=B_HOST, ttl=9) / UDP() / Raw(b"r" * 30))
    got, _, _ = exchange(vr, [f], expect=1)
    v, e = only(got, "t0")
    assert v == B_VID and e.src == vr.mac["p0"] and e.dst == VPEER_MAC
    # the UDP payload as bytes: scapy takes port 53's for DNS and parses it
    assert e[IP].ttl == 8 and bytes(e[UDP].payload) == b"r" * 30


def test_routed6_between_vlans(vr):
    f = to_router(vr, B_VID, IPv6(src=B_HOST6, dst=A_HOST6, hlim=9) / UDP() / Raw(b"r" * 30),
                  src=VPEER_MAC)
    got, _, _ = exchange(vr, [f], expect=1, count="ipv6")
    v, e = only(got, "t0")
    assert v == A_VID and e.dst == T0_MAC and e[IPv6].hlim == 8


def test_routed_vlan_to_untagged(vr):
    f = to_router(vr, A_VID, IP(src=A_HOST, dst=DST) / UDP() / Raw(b"u" * 30))
    got, _, _ = exchange(vr, [f], expect=1)
    v, e = only(got, "t1")
    assert v is None and Dot1Q not in e, "left p1 tagged"
    assert e.dst == T1_MAC and e[IP].dst == DST and e[IP].ttl == 63
    assert not got["t0"]


def test_routed6_vlan_to_untagged(vr):
    f = to_router(vr, A_VID, IPv6(src=A_HOST6, dst=DST6) / UDP() / Raw(b"u" * 30))
    got, _, _ = exchange(vr, [f], expect=1, count="ipv6")
    v, e = only(got, "t1")
    assert v is None and e[IPv6].dst == DST6 and e[IPv6].hlim == 63


def test_routed_untagged_to_vlan(vr):
    f = Ether(src=T1_MAC, dst=vr.mac["p1"]) / IP(src=GW, dst=A_HOST) / UDP() / Raw(b"d" * 30)
    got, _, _ = exchange(vr, [f], expect=1, send="t1")
    v, e = only(got, "t0")
    assert v == A_VID and e.dst == T0_MAC and e[IP].dst == A_HOST


def test_routed6_untagged_to_vlan(vr):
    f = Ether(src=T1_MAC, dst=vr.mac["p1"]) / IPv6(src=GW6, dst=B_HOST6) / UDP() / Raw(b"d" * 8)
    got, _, _ = exchange(vr, [f], expect=1, send="t1", count="ipv6")
    v, e = only(got, "t0")
    assert v == B_VID and e.dst == VPEER_MAC


# -------------------------------------------------------- ARP and NDP
def test_arp_on_vlan_answered_tagged(vr):
    f = tagged(A_VID, ARP(op=1, hwsrc=T0_MAC, psrc=A_HOST, pdst=A_ADDR))
    got, _, _ = exchange(vr, [f], expect=1)
    v, e = only(got, "t0")
    assert v == A_VID and ARP in e and e[ARP].op == 2
    assert e[ARP].psrc == A_ADDR and e[ARP].hwsrc == vr.mac["p0"] and e.dst == T0_MAC


def test_echo_on_vlan(vr):
    f = to_router(vr, B_VID, IP(src=B_HOST, dst=B_ADDR) / ICMP(id=7, seq=1) / Raw(b"e" * 16),
                  src=VPEER_MAC)
    got, _, _ = exchange(vr, [f], expect=1)
    v, e = only(got, "t0")
    assert v == B_VID and e[ICMP].type == 0 and e[IP].src == B_ADDR


def test_ns_on_vlan_answered_tagged(vr):
    ns = (IPv6(src=A_HOST6, dst="ff02::1:ff00:1", hlim=255) / ICMPv6ND_NS(tgt=A_ADDR6) /
          ICMPv6NDOptSrcLLAddr(lladdr=T0_MAC))
    got, _, _ = exchange(vr, [tagged(A_VID, ns, dst="33:33:ff:00:00:01")], expect=1, count="ndp")
    v, e = only(got, "t0")
    assert v == A_VID and ICMPv6ND_NA in e, e.summary()
    na = e[ICMPv6ND_NA]
    assert na.tgt == A_ADDR6 and na.S == 1 and na.R == 1
    assert e[IPv6].dst == A_HOST6 and e[IPv6].hlim == 255 and e.src == vr.mac["p0"]


def test_dad_probe_on_vlan_defended_tagged(vr):
    """Someone's DAD for the router's address on VLAN 200: an NA to all-nodes, tagged."""
    ns = IPv6(src="::", dst="ff02::1:ff00:1", hlim=255) / ICMPv6ND_NS(tgt=B_ADDR6)
    got, _, _ = exchange(vr, [tagged(B_VID, ns, src=VPEER_MAC, dst="33:33:ff:00:00:01")],
                         expect=1, count="ndp")
    v, e = only(got, "t0")
    assert v == B_VID and ICMPv6ND_NA in e
    assert e[ICMPv6ND_NA].tgt == B_ADDR6 and e[IPv6].dst == "ff02::1"


def test_echo6_on_vlan(vr):
    f = to_router(vr, A_VID, IPv6(src=A_HOST6, dst=A_ADDR6) / ICMPv6EchoRequest(id=5, seq=1))
    got, _, _ = exchange(vr, [f], expect=1, count="ipv6")
    v, e = only(got, "t0")
    assert v == A_VID and ICMPv6EchoReply in e and e[IPv6].src == A_ADDR6


# ----------------------------------------------------- hostile tagging
def test_unknown_vlan_counted(vr):
    f = to_router(vr, UNKNOWN_VID, IP(src="10.20.33.2", dst=A_ADDR) / ICMP(id=9))
    got, before, after = exchange(vr, [f, f, f])
    assert not got["t0"] and not got["t1"], "an unknown VLAN's frame was answered"
    if before is not None:
        assert drop_total(after, "vlan_unknown") - drop_total(before, "vlan_unknown") == 3


def test_priority_tagged_is_untagged(vr):
    """VLAN 0 (802.1p priority only): p0's own untagged traffic."""
    f = to_router(vr, 0, IP(src=HOST, dst=P0_ADDR) / ICMP(id=11, seq=1), prio=5)
    a = tagged(0, ARP(op=1, hwsrc=T0_MAC, psrc=HOST, pdst=P0_ADDR))
    got, _, _ = exchange(vr, [f, a], expect=2)
    assert len(got["t0"]) == 2, [e.summary() for _, e in got["t0"]]
    for v, e in got["t0"]:
        assert v in (None, 0), f"answered on VLAN {v}"
        assert (ICMP in e and e[ICMP].type == 0 and e[IP].src == P0_ADDR) or \
            (ARP in e and e[ARP].op == 2 and e[ARP].psrc == P0_ADDR), e.summary()


def double_tagged(r):
    inner = IP(src=A_HOST, dst=A_ADDR) / ICMP(id=13)
    return [
        Ether(src=T0_MAC, dst=r.mac["p0"]) / Dot1Q(vlan=A_VID) / Dot1Q(vlan=B_VID) / inner,
        Ether(src=T0_MAC, dst=r.mac["p0"], type=TPID_8021AD) / Dot1AD(vlan=A_VID) /
        Dot1Q(vlan=A_VID) / inner,
        Ether(src=T0_MAC, dst=r.mac["p0"]) / Dot1Q(vlan=A_VID, type=TPID_8021AD) /
        Dot1AD(vlan=B_VID) / inner,
    ]


def test_double_tags_counted(vr):
    """QinQ is not carried: each frame dropped and counted, nothing answered."""
    frames = double_tagged(vr)
    got, before, after = exchange(vr, frames)
    assert not got["t0"] and not got["t1"], [e.summary() for _, e in got["t0"] + got["t1"]]
    if before is not None:
        assert drop_total(after) - drop_total(before) >= len(frames)
        assert wire_rx(after, "p0") - wire_rx(before, "p0") == len(frames)


def truncated(r):
    mac = bytes.fromhex(r.mac["p0"].replace(":", "")) + bytes.fromhex(T0_MAC.replace(":", ""))
    return [mac + b"\x81\x00",  # the TPID and nothing after it
            mac + b"\x81\x00\x00\x64",  # a TCI, no inner ethertype
            mac + b"\x81\x00\x00\x64\x08\x00",  # an inner ethertype, no header
            mac + b"\x81\x00\x00\x64\x08\x00\x45\x00",  # a header cut short
            mac + b"\x81\x00\x00\x64\x86\xdd\x60\x00\x00",
            mac + b"\x81\x00\x00\x64\x08\x06\x00\x01\x08\x00"]  # ARP cut short


def test_truncated_tags_counted(vr):
    """Tags cut short: dropped and counted (on af_packet the kernel drops
    those shorter than a tag before fwd sees them: whatever arrives is counted)."""
    frames = truncated(vr)
    got, before, after = exchange(vr, frames)
    assert not got["t0"] and not got["t1"]
    if before is not None:
        rx = wire_rx(after, "p0") - wire_rx(before, "p0")
        if vr.pmd == "af_xdp":
            assert rx == len(frames), "af_xdp hands over every frame"
        assert drop_total(after) - drop_total(before) >= rx
        assert rx >= 3, "the frames with a whole tag arrive on any PMD"


def test_still_answers_after_hostile_tags(vr):
    f = to_router(vr, A_VID, IP(src=A_HOST, dst=A_ADDR) / ICMP(id=15, seq=2))
    got, _, _ = exchange(vr, [f], expect=1)
    v, e = only(got, "t0")
    assert v == A_VID and e[ICMP].type == 0


def test_fwdctl_iface_list(vr):
    if vr.reference:
        pytest.skip("fwdctl: not on the Linux reference router")
    d = json.loads(vr.ctl("-j", "iface", "list").stdout)
    by = {i["name"]: i for i in d["ifaces"]}
    for name, vid, a4 in (("p0.100", A_VID, A_ADDR), ("p0.200", B_VID, B_ADDR)):
        assert by[name]["type"] == "vlan" and by[name]["parent"] == "p0"
        assert int(by[name]["vlan"]) == vid and f"{a4}/24" in by[name]["addresses"]
        assert by[name]["mac"] == vr.mac["p0"]
