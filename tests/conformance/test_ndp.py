# SPDX-License-Identifier: BSD-3-Clause
# run.sh: long: 30 s and more, started before the short ones
"""Neighbor Discovery (RFC 4861) and Duplicate Address Detection (RFC 4862)
as the router does them: advertisements for its addresses, the entries
solicitations and advertisements make (and the unsolicited ones they must
not), resolution of a neighbour, messages that fail validation (7.1), DAD
for an address added at run time. Topology and addresses: conftest.py.
FWD_REFERENCE=linux runs them against the Linux kernel."""
import time

import pytest
from scapy.all import ICMPv6ND_NS, ICMPv6NDOptSrcLLAddr, IPv6, Ether, Raw

from conftest import HOST6, P0_ADDR6, P1_ADDR6, R0_LL, T0_LL, T0_MAC, T1_MAC
from frames import one
from frames6 import (ALL_NODES, a6, check_forwarded6, check_icmp6_error, describe, echo6,
                     exchange6, icmp6_cksum, mac_bytes, mcast_mac, na, na_fields, ndp_of, ns,
                     solicited, udp6, wait_until)

NEW = "2001:db8:20:1::33"  # a host that makes itself known with an NS
NEW_MAC = "02:aa:00:00:10:33"
OTHER_MAC = "02:aa:00:00:10:99"
FAR = "2001:db8:20:2::44"  # a host behind t1 the router has to resolve
FAR_MAC = "02:aa:00:00:20:44"
DAD_ADDR = "2001:db8:21:1::1"  # added to p0 at run time


def only_na(got, iface="t0"):
    nas = ndp_of(got[iface], 136)
    assert len(nas) == 1, "one advertisement, got: " + "; ".join(describe(f) for f in got[iface])
    return na_fields(nas[0])


def no_na(got):
    nas = ndp_of(got["t0"] + got["t1"], 136)
    assert nas == [], "no advertisement, got: " + "; ".join(describe(f) for f in nas)


def fix_ndp(frame):
    """frame (bytes) with its payload length and ICMPv6 checksum made right."""
    b = bytearray(frame)
    b[18:20] = (len(b) - 54).to_bytes(2, "big")
    b[56:58] = icmp6_cksum(bytes(b[14:]), fix=True).to_bytes(2, "big")
    return bytes(b)


# ------------------------------------------------- answering solicitations
@pytest.mark.parametrize("target,src", [(P0_ADDR6, HOST6), (R0_LL, T0_LL)])
def test_ns_answered(router6, target, src):
    """RFC 4861 7.2.4: solicited (S), router (R), override (O), the target
    link-layer address, hop limit 255, from the target address to the
    solicitor."""
    got, d = exchange6(router6, [ns(router6, target, src=src)], expect=1, keep="ndp")
    assert got["t1"] == []
    a = only_na(got)
    assert a == {"src": target, "dst": src, "hlim": 255, "R": 1, "S": 1, "O": 1,
                 "target": target, "tlla": router6.mac["p0"], "eth_src": router6.mac["p0"],
                 "eth_dst": T0_MAC, "cksum_ok": True}
    assert d.drops("p0") == {}


def test_ns_unicast_answered(router6):
    """A unicast NS (neighbour unreachability detection) is answered
    unicast; the link-layer option may be left out then (Linux does), and
    Linux clears O."""
    f = ns(router6, P0_ADDR6, dst=P0_ADDR6, eth_dst=router6.mac["p0"])
    got, _ = exchange6(router6, [f], expect=1, keep="ndp")
    a = only_na(got)
    assert (a["src"], a["dst"], a["hlim"], a["R"], a["S"]) == (P0_ADDR6, HOST6, 255, 1, 1)
    assert a["target"] == P0_ADDR6 and a["tlla"] in (None, router6.mac["p0"])
    assert a["cksum_ok"]


def test_dad_probe_for_our_address_defended(router6):
    """Someone else's DAD for an address the router has: RFC 4861 7.2.4,
    the advertisement goes to all nodes, S clear; the address stays ours."""
    f = ns(router6, P0_ADDR6, src="::", slla=None, eth_src="02:aa:00:00:10:77")
    got, _ = exchange6(router6, [f], expect=1, keep="ndp")
    a = only_na(got)
    assert a == {"src": P0_ADDR6, "dst": ALL_NODES, "hlim": 255, "R": 1, "S": 0, "O": 1,
                 "target": P0_ADDR6, "tlla": router6.mac["p0"], "eth_src": router6.mac["p0"],
                 "eth_dst": mcast_mac(ALL_NODES), "cksum_ok": True}
    assert router6.addr_state("p0", P0_ADDR6 + "/64") == "preferred"


@pytest.mark.parametrize("target", [P1_ADDR6, "2001:db8:20:1::99"])
def test_ns_for_someone_else_unanswered(router6, target):
    """p1's address asked for on p0's link, and an address nobody has."""
    got, _ = exchange6(router6, [ns(router6, target)], keep="ndp", quiet=0.5)
    no_na(got)


# ------------------------------------------------------- neighbour entries
def test_ns_creates_stale_entry(router6):
    """RFC 4861 7.2.3: an NS with a source link-layer address makes (or
    updates) the sender's entry, STALE; the NA goes straight to it. Linux
    sends that NA through the entry, which then is in DELAY (7.3.3)."""
    router6.neigh_del(NEW, "p0")
    got, _ = exchange6(router6, [ns(router6, P0_ADDR6, src=NEW, slla=NEW_MAC,
                                    eth_src=NEW_MAC)], expect=1, keep="ndp")
    a = only_na(got)
    assert (a["dst"], a["eth_dst"]) == (NEW, NEW_MAC)
    n = router6.neighbours().get(NEW)
    assert n is not None, "an entry for the solicitor"
    assert (n["mac"], n["port"]) == (NEW_MAC, "p0")
    assert n["state"] in ("stale", "delay")


def known(router, mac=NEW_MAC):
    """NEW known to the router (its NS makes the entry); the entry."""
    router.neigh_del(NEW, "p0")
    exchange6(router, [ns(router, P0_ADDR6, src=NEW, slla=mac, eth_src=mac)], expect=1,
              keep="ndp")
    n = router.neighbours()[NEW]
    assert n["mac"] == mac
    return n


def test_unsolicited_na_updates_existing_entry(router6):
    """RFC 4861 7.2.5: an unsolicited NA with O set for a known neighbour
    MUST update its link-layer address, at once (Linux does: no locktime in
    NDP); S clear and a new address: the entry goes STALE."""
    known(router6)
    got, _ = exchange6(router6, [na(router6, NEW, src=NEW, tlla=OTHER_MAC, eth_src=OTHER_MAC)],
                       keep="ndp", quiet=0.5)
    no_na(got)
    n = router6.neighbours().get(NEW)
    assert n["mac"] == OTHER_MAC, "the new link-layer address taken"
    assert n["state"] in ("stale", "delay")
    router6.neigh_del(NEW, "p0")


def test_unsolicited_na_new_mac_makes_entry_stale(router6):
    """The same a while later (past any ARP-like locktime): an unsolicited
    advertisement is no proof of reachability, the entry is STALE, not
    REACHABLE (7.2.5: "If the Solicited flag is zero and the link-layer
    address was updated with a different address, the state MUST be set to
    STALE")."""
    known(router6)
    time.sleep(1.5)
    exchange6(router6, [na(router6, NEW, src=NEW, tlla=OTHER_MAC, eth_src=OTHER_MAC)],
              keep="ndp", quiet=0.5)
    n = router6.neighbours().get(NEW)
    assert (n["mac"], n["state"]) == (OTHER_MAC, "stale")
    router6.neigh_del(NEW, "p0")


def test_unsolicited_na_same_mac_leaves_state(router6):
    """7.2.5: S clear, the address we have: "Otherwise, the entry's state
    remains unchanged"."""
    before = known(router6)["state"]
    time.sleep(1.5)
    exchange6(router6, [na(router6, NEW, src=NEW, tlla=NEW_MAC, eth_src=NEW_MAC)],
              keep="ndp", quiet=0.5)
    n = router6.neighbours().get(NEW)
    assert (n["mac"], n["state"]) == (NEW_MAC, before), "not made reachable"
    router6.neigh_del(NEW, "p0")


def test_unsolicited_na_ignored(router6):
    """RFC 4861 7.2.5: an NA for an address with no entry creates none
    (fwd drops it in the worker, before the policer: ndp_ignored)."""
    addr = "2001:db8:20:1::55"
    got, d = exchange6(router6, [na(router6, addr, src=addr, tlla="02:aa:00:00:10:55",
                                    eth_src="02:aa:00:00:10:55")], keep="ndp", quiet=0.5)
    assert got["t0"] == [] and got["t1"] == []
    assert addr not in router6.neighbours()
    assert d.drops("p0") == {"ndp_ignored": 1}


def test_unsolicited_na_with_s_for_unknown_ignored(router6):
    """Not even one that claims to be solicited."""
    addr = "2001:db8:20:1::56"
    exchange6(router6, [na(router6, addr, src=addr, dst=P0_ADDR6, S=1, tlla="02:aa:00:00:10:56",
                           eth_src="02:aa:00:00:10:56")], keep="ndp", quiet=0.5)
    assert addr not in router6.neighbours()


def test_resolution(router6):
    """A packet for a host on p1's prefix with no entry: an NS to its
    solicited-node group from one of p1's addresses with p1's link-layer
    address (7.2.2); the solicited NA completes the entry (REACHABLE) and
    the held packet goes out to the MAC it gave."""
    router6.neigh_del(FAR, "p1")
    group, gmac = solicited(FAR)
    answer = na(router6, FAR, src=FAR, dst=P1_ADDR6, S=1, O=1, tlla=FAR_MAC, eth_src=FAR_MAC,
                port="p1")
    trigger = {"on": "t1", "match": [(12, b"\x86\xdd"), (54, b"\x87"), (62, a6(FAR))],
               "frames": [answer]}
    f = udp6(router6, FAR)
    got, d = exchange6(router6, [f], expect=1, keep="any", count="ipv6", triggers=[trigger],
                       timeout=5)
    sol = ndp_of(got["t1"], 135)
    assert len(sol) >= 1, "a solicitation out of p1"
    s = Ether(sol[0])
    assert (s.dst, s.src) == (gmac, router6.mac["p1"])
    assert (s[IPv6].dst, s[IPv6].hlim) == (group, 255)
    assert s[IPv6].src in (P1_ADDR6, "fe80::ff:fe00:200"), "one of p1's addresses"
    assert s[ICMPv6ND_NS].tgt == FAR
    assert s[ICMPv6NDOptSrcLLAddr].lladdr == router6.mac["p1"]
    assert icmp6_cksum(bytes(sol[0])[14:]) == 0xffff
    data = [x for x in got["t1"] if x[12:14] == b"\x86\xdd" and x[20] == 17]
    check_forwarded6(router6, f, one({"t1": data}, "t1"), next_hop_mac=FAR_MAC)
    n = router6.neighbours().get(FAR)
    assert n is not None and (n["mac"], n["port"], n["state"]) == (FAR_MAC, "p1", "reachable")
    router6.neigh_del(FAR, "p1")


# ----------------------------------------------------- validation (7.1)
def bad_ns(router, how):
    """A solicitation for p0's address from a new host with one rule broken."""
    src, mac = "2001:db8:20:1::3c", "02:aa:00:00:10:3c"
    if how == "hop_limit_254":
        return ns(router, P0_ADDR6, src=src, slla=mac, eth_src=mac, hlim=254)
    if how == "hop_limit_64":
        return ns(router, P0_ADDR6, src=src, slla=mac, eth_src=mac, hlim=64)
    if how == "code_1":
        return ns(router, P0_ADDR6, src=src, slla=mac, eth_src=mac, code=1)
    if how == "multicast_target":
        return ns(router, "ff02::1", src=src, slla=mac, eth_src=mac, dst=solicited(P0_ADDR6)[0],
                  eth_dst=solicited(P0_ADDR6)[1])
    if how == "unspecified_source_with_slla":
        return ns(router, P0_ADDR6, src="::", slla=mac, eth_src=mac)
    if how == "unspecified_source_to_unicast":
        return ns(router, P0_ADDR6, src="::", slla=None, eth_src=mac, dst=P0_ADDR6,
                  eth_dst=router.mac["p0"])
    if how == "option_length_0":
        return fix_ndp(bytes(ns(router, P0_ADDR6, src=src, slla=None, eth_src=mac)) +
                       b"\x01\x00" + bytes.fromhex(mac.replace(":", "")))
    if how == "too_short":  # 20 bytes of ICMPv6: the target cut short
        return fix_ndp(bytes(ns(router, P0_ADDR6, src=src, slla=None, eth_src=mac))[:54 + 20])
    raise ValueError(how)


@pytest.mark.parametrize("how", ["hop_limit_254", "hop_limit_64", "code_1", "multicast_target",
                                 "unspecified_source_with_slla", "unspecified_source_to_unicast",
                                 "option_length_0", "too_short"])
def test_invalid_ns_dropped(router6, how):
    """RFC 4861 7.1.1: silently discarded (no NA, no entry) and counted; a
    multicast target is no address of ours: the worker drops it first."""
    got, d = exchange6(router6, [bad_ns(router6, how)], keep="ndp", quiet=0.5)
    no_na(got)
    assert "2001:db8:20:1::3c" not in router6.neighbours()
    why = "ndp_ignored" if how == "multicast_target" else "ndp_invalid"
    assert d.drops("p0") == {why: 1}


def test_ns_bad_checksum_dropped(router6):
    f = bytearray(bytes(ns(router6, P0_ADDR6)))
    f[56] ^= 0x40
    got, d = exchange6(router6, [bytes(f)], keep="ndp", quiet=0.5)
    no_na(got)
    assert sum(d.drops("p0").values()) == 1


@pytest.mark.parametrize("how", ["hop_limit_254", "solicited_to_multicast"])
def test_invalid_na_ignored(router6, how):
    """RFC 4861 7.1.2: an invalid NA changes nothing (here: it would give a
    known neighbour a new MAC) and is counted."""
    router6.neigh_del(NEW, "p0")
    exchange6(router6, [ns(router6, P0_ADDR6, src=NEW, slla=NEW_MAC, eth_src=NEW_MAC)],
              expect=1, keep="ndp")
    kw = {"hlim": 254} if how == "hop_limit_254" else {"S": 1}
    _, d = exchange6(router6, [na(router6, NEW, src=NEW, tlla=OTHER_MAC, eth_src=OTHER_MAC,
                                  **kw)], keep="ndp", quiet=0.5)
    assert router6.neighbours()[NEW]["mac"] == NEW_MAC, "entry unchanged"
    assert d.drops("p0") == {"ndp_invalid": 1}
    router6.neigh_del(NEW, "p0")


def rs_frame():
    """A Router Solicitation from t0's link-local address with its SLLA."""
    return fix_ndp(bytes(Ether(src=T0_MAC, dst=mcast_mac("ff02::2")) /
                         IPv6(src=T0_LL, dst="ff02::2", hlim=255, nh=58) /
                         Raw(bytes([133, 0, 0, 0, 0, 0, 0, 0, 1, 1]) + mac_bytes(T0_MAC))))


def test_no_router_advertisement_without_ra(router6):
    """ra is off on p0: a router solicitation gets nothing (fwd drops it in
    the worker, before the policer: ndp_ignored)."""
    got, d = exchange6(router6, [rs_frame()], keep="ndp", quiet=1.0)
    assert ndp_of(got["t0"], 134) == [], "no RA"
    assert d.drops("p0") == {"ndp_ignored": 1}, "the solicitation was dropped as ignored"


# ------------------------------------------------------------------- DAD
def dad_ns_for(frames_, addr):
    return [f for f in ndp_of(frames_, 135) if Ether(f)[ICMPv6ND_NS].tgt == addr]


def added_with(router, triggers):
    """Add DAD_ADDR/64 to p0 while capturing t0 (answering triggers); the
    frames captured and the address's state 4 s later at most."""
    router.addr_del(DAD_ADDR + "/64", "p0", check=False)
    h = router.capture_start(listen=("t0",), count="any", quiet=4.0, timeout=4.0,
                             triggers=triggers)
    router.addr_add(DAD_ADDR + "/64", "p0")
    first = router.addr_state("p0", DAD_ADDR + "/64")
    got = router.capture_end(h)
    final = wait_until(lambda: router.addr_state("p0", DAD_ADDR + "/64") != "tentative", 3.0)
    return got, first, router.addr_state("p0", DAD_ADDR + "/64") if final else "tentative"


def dad_trigger(frames_):
    return [{"on": "t0", "match": [(12, b"\x86\xdd"), (22, bytes(16)), (54, b"\x87"),
                                   (62, a6(DAD_ADDR))], "frames": frames_}]


def test_dad_address_becomes_preferred(router6):
    """RFC 4862 5.4: an added address is tentative while one NS from ::, to
    its solicited-node group, with no link-layer option, asks whether anyone
    has it; nobody answers, it becomes preferred and answers echo."""
    got, first, final = added_with(router6, [])
    try:
        assert first == "tentative", "tentative right after the add"
        probes = dad_ns_for(got["t0"], DAD_ADDR)
        assert len(probes) == 1, "one DAD probe (DupAddrDetectTransmits 1)"
        p = Ether(probes[0])
        group, gmac = solicited(DAD_ADDR)
        assert (p.dst, p.src) == (gmac, router6.mac["p0"])
        assert (p[IPv6].src, p[IPv6].dst, p[IPv6].hlim) == ("::", group, 255)
        assert ICMPv6NDOptSrcLLAddr not in p, "no source link-layer option from ::"
        assert icmp6_cksum(bytes(probes[0])[14:]) == 0xffff
        assert final == "preferred"
        f = echo6(router6, DAD_ADDR)
        got, _ = exchange6(router6, [f], expect=1)
        r = one(got, "t0")
        assert r[54] == 129 and Ether(r)[IPv6].src == DAD_ADDR, "answers echo"
    finally:
        router6.addr_del(DAD_ADDR + "/64", "p0", check=False)


def test_dad_duplicate_by_advertisement(router6):
    """RFC 4862 5.4.4: an NA for the tentative address: duplicate, and not
    used (no NA for it, no echo reply from it)."""
    defend = na(router6, DAD_ADDR, src=DAD_ADDR, tlla=OTHER_MAC, eth_src=OTHER_MAC)
    got, first, final = added_with(router6, dad_trigger([defend]))
    try:
        assert first == "tentative"
        assert len(dad_ns_for(got["t0"], DAD_ADDR)) == 1, "the probe the NA answered"
        assert final == "duplicate"
        got, _ = exchange6(router6, [ns(router6, DAD_ADDR), echo6(router6, DAD_ADDR)],
                           keep="any", quiet=0.5)
        assert ndp_of(got["t0"], 136) == [], "a duplicate address is not advertised"
        assert [f for f in got["t0"] if f[12:14] == b"\x86\xdd" and f[54] == 129] == [], \
            "nor answers echo"
    finally:
        router6.addr_del(DAD_ADDR + "/64", "p0", check=False)
    assert router6.addr_state("p0", DAD_ADDR + "/64") == "absent"


def test_duplicate_address_does_not_swallow_packets(router6):
    """After DAD failed, the address is not the router's: a packet for it
    from behind p1 is not taken in, and does not vanish either. It goes to
    the owner (resolved on p0 like any neighbour), or, as Linux does (it
    solicits, but takes an NA for an address it holds, duplicate or not, for
    another conflict), address unreachable goes back to the sender."""
    defend = na(router6, DAD_ADDR, src=DAD_ADDR, tlla=OTHER_MAC, eth_src=OTHER_MAC)
    _, _, final = added_with(router6, dad_trigger([defend]))
    try:
        assert final == "duplicate"
        router6.neigh_del(DAD_ADDR, "p0")
        answer = na(router6, DAD_ADDR, src=DAD_ADDR, dst=P0_ADDR6, S=1, O=1, tlla=OTHER_MAC,
                    eth_src=OTHER_MAC)
        trigger = {"on": "t0", "match": [(12, b"\x86\xdd"), (54, b"\x87"), (62, a6(DAD_ADDR))],
                   "frames": [answer]}
        f = udp6(router6, DAD_ADDR, src="2001:db8:51::7", eth_src=T1_MAC, port="p1", hlim=9)
        got, _ = exchange6(router6, [f], send="t1", keep="any", triggers=[trigger], timeout=6,
                           quiet=4.5)
        data = [x for x in got["t0"] if x[12:14] == b"\x86\xdd" and x[20] == 17]
        errs = [x for x in got["t1"] if x[12:14] == b"\x86\xdd" and x[20] == 58 and x[54] == 1]
        assert data or errs, "forwarded to the owner or address unreachable, not a black hole"
        if data:
            check_forwarded6(router6, f, one({"t0": data}, "t0"), out_port="p0",
                             next_hop_mac=OTHER_MAC)
        else:
            held = bytearray(bytes(f))
            held[21] -= 1
            check_icmp6_error(router6, bytes(held), one({"t1": errs}, "t1"), 1, 3,
                              src=P1_ADDR6, in_port="p1")
        assert [x for x in got["t1"] if x[12:14] == b"\x86\xdd" and x[20] == 17] == [], \
            "not answered as the router's own (no port unreachable)"
    finally:
        router6.addr_del(DAD_ADDR + "/64", "p0", check=False)
        router6.neigh_del(DAD_ADDR, "p0")


def test_dad_duplicate_by_simultaneous_probe(router6):
    """RFC 4862 5.4.3: someone else's DAD probe for the same tentative
    address: duplicate too."""
    probe = ns(router6, DAD_ADDR, src="::", slla=None, eth_src=OTHER_MAC)
    got, first, final = added_with(router6, dad_trigger([probe]))
    try:
        assert final == "duplicate"
    finally:
        router6.addr_del(DAD_ADDR + "/64", "p0", check=False)


def test_address_readded_after_duplicate(router6):
    """Deleted and added again with nobody answering: preferred this time."""
    got, first, final = added_with(router6, [])
    router6.addr_del(DAD_ADDR + "/64", "p0", check=False)
    assert final == "preferred"


def test_router_addresses_all_preferred(router6):
    """Start-up DAD of every address (the fixture waited for it): both ports'
    link-local and global addresses preferred."""
    for port, addr in (("p0", P0_ADDR6 + "/64"), ("p1", P1_ADDR6 + "/64"),
                       ("p0", R0_LL + "/64"), ("p1", "fe80::ff:fe00:200/64")):
        assert router6.addr_state(port, addr) == "preferred", f"{addr} on {port}"


# ---------------------------------------------------- router advertisements
def ra_fields(frame):
    """The parts of a Router Advertisement frame the tests read."""
    from scapy.all import ICMPv6ND_RA, ICMPv6NDOptMTU, ICMPv6NDOptPrefixInfo
    e = Ether(bytes(frame))
    ra = e[ICMPv6ND_RA]
    pios = []
    p = e
    while ICMPv6NDOptPrefixInfo in p:
        o = p[ICMPv6NDOptPrefixInfo]
        pios.append((o.prefix, o.prefixlen, o.L, o.A, o.validlifetime, o.preferredlifetime))
        p = o.payload
    return {"eth_src": e.src, "src": e[IPv6].src, "dst": e[IPv6].dst, "hlim": e[IPv6].hlim,
            "code": ra.code, "lifetime": ra.routerlifetime,
            "slla": e[ICMPv6NDOptSrcLLAddr].lladdr if ICMPv6NDOptSrcLLAddr in e else None,
            "mtu": e[ICMPv6NDOptMTU].mtu if ICMPv6NDOptMTU in e else None, "pios": pios,
            "cksum_ok": icmp6_cksum(bytes(frame)[14:]) == 0xffff}


def set_ra(router, on):
    """ra: true (or not) on p0 in the running config file, then reload."""
    import os
    path = os.path.join(router.tmp, "fwd.yaml")
    with open(path) as f:
        text = f.read()
    p0 = next(line for line in text.splitlines() if "name: p0" in line)
    new = p0.replace(", ra: true", "")
    if on:
        new = new[:new.rindex("}")].rstrip() + ", ra: true }"
    with open(path, "w") as f:
        f.write(text.replace(p0, new))
    router.ctl("config", "reload")


def test_router_advertisements(router6):
    """ra: true on p0 (config reload): advertisements from p0's link-local,
    hop limit 255, with p0's link-layer address, MTU and its global /64,
    on-link and autonomous (RFC 4861 4.2, 6.2; hosts can SLAAC), also in
    answer to a solicitation; ra off again: a last one with router lifetime
    0 (6.2.5)."""
    if router6.reference:
        pytest.skip("fwd's ra setting (Linux needs radvd)")
    h = router6.capture_start(listen=("t0", "t1"), count="any", quiet=3.0, timeout=3.0)
    set_ra(router6, True)
    try:
        first = router6.capture_end(h)
        # answered within MIN_DELAY_BETWEEN_RAS (3 s) of the last multicast RA (6.2.6)
        got, d = exchange6(router6, [rs_frame()], keep="ndp", expect=1, timeout=4.5)
    finally:
        h = router6.capture_start(listen=("t0",), count="any", quiet=3.0, timeout=3.0)
        set_ra(router6, False)
        last = router6.capture_end(h)
    assert ndp_of(first["t1"], 134) == [], "p1 has no ra"
    assert d.glob("ndp_rs_rx") == 1, "with ra, a solicitation reaches the control thread"
    for what, frames_ in (("unsolicited", first["t0"]), ("solicited", got["t0"])):
        ras = ndp_of(frames_, 134)
        assert ras, f"an {what} RA out of p0"
        a = ra_fields(ras[0])
        assert (a["eth_src"], a["src"], a["hlim"], a["code"]) == (
            router6.mac["p0"], R0_LL, 255, 0), what
        assert a["dst"] in (ALL_NODES, T0_LL), what
        assert a["cksum_ok"], what
        assert 0 < a["lifetime"] <= 9000, "a default router for a while"
        assert a["slla"] == router6.mac["p0"]
        assert a["mtu"] in (None, 1500)
        assert [p[:4] for p in a["pios"]] == [("2001:db8:20:1::", 64, 1, 1)], \
            "p0's global /64, on-link and autonomous"
        assert all(p[4] >= p[5] > 0 for p in a["pios"]), "valid >= preferred > 0"
    finals = [ra_fields(f) for f in ndp_of(last["t0"], 134)]
    assert finals and finals[-1]["lifetime"] == 0, "a final RA with router lifetime 0"
