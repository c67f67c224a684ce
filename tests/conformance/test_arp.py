# SPDX-License-Identifier: BSD-3-Clause
"""ARP (RFC 826) as the router does it: a request for its address is
answered and teaches it the asker, an RFC 5227 probe (sender 0.0.0.0) is
answered and teaches nothing, and a request from a sender outside the
port's subnets (a host asking from its loopback's address, as Linux's
arp_announce=0 does once the router was renumbered) is answered as Linux
answers it, without an entry for the sender. Topology: conftest.py.
FWD_REFERENCE=linux runs them against the Linux kernel (which keeps a
stale entry for an off-subnet asker: harmless there, as its routes never
use it; fwd's entries make routes, so it keeps none)."""
import pytest
from scapy.all import ARP, Ether

from conftest import P0_ADDR, P1_ADDR
from frames import settle

BCAST = "ff:ff:ff:ff:ff:ff"
ON = "10.20.1.77"  # a new host on p0's subnet
ON_MAC = "02:aa:00:00:30:77"
OFF = "10.7.0.5"  # a host's loopback address: on no subnet of the router
OFF_MAC = "02:aa:00:00:30:05"


def request(sip, tip, smac, eth_dst=BCAST):
    return (Ether(src=smac, dst=eth_dst, type=0x0806) /
            ARP(op=1, hwsrc=smac, psrc=sip, hwdst="00:00:00:00:00:00", pdst=tip))


def arp_frames(got, iface="t0"):
    """The ARP frames of what came out of iface, as scapy packets."""
    return [Ether(bytes(f)) for f in got[iface] if bytes(f)[12:14] == b"\x08\x06"]


def send(router, frames_):
    """Send from t0; the ARP frames each tester interface received and the
    router's counters before and after (None on the Linux reference)."""
    before = router.stats()
    got = router.exchange(frames_, expect=0, count="any", quiet=0.5)
    after = None if router.reference else settle(router, before, len(frames_), "p0")
    return {k: arp_frames(got, k) for k in ("t0", "t1")}, before, after


def only_reply(got, smac):
    """The one ARP reply that came back, addressed to smac."""
    replies = [f for f in got["t0"] if f[ARP].op == 2]
    assert len(replies) == 1, "one reply, got: " + "; ".join(f.summary() for f in got["t0"])
    assert got["t1"] == []
    f = replies[0]
    assert (f.dst, f[ARP].hwdst) == (smac, smac), "to the asker's MAC"
    return f


def drops(before, after, reason, port="p0"):
    return after[port]["drop_reasons"].get(reason, 0) - before[port]["drop_reasons"].get(reason, 0)


def test_request_answered_and_learnt(router6):
    """RFC 826: the reply comes from the port's MAC and address, to the
    asker, whose address is learnt (stale until it answers a probe)."""
    router6.neigh_del(ON, "p0")
    got, _, _ = send(router6, [request(ON, P0_ADDR, ON_MAC)])
    f = only_reply(got, ON_MAC)
    assert (f.src, f[ARP].hwsrc, f[ARP].psrc, f[ARP].pdst) == (
        router6.mac["p0"], router6.mac["p0"], P0_ADDR, ON)
    n = router6.neighbours(family=4).get(ON)
    assert n is not None and n["mac"] == ON_MAC
    router6.neigh_del(ON, "p0")


def test_rfc5227_probe_answered_not_learnt(router6):
    """RFC 5227 2.1.1: a probe for our address (sender 0.0.0.0) is answered
    to the prober's MAC (target address 0.0.0.0, as Linux sends it), and
    teaches nothing."""
    got, _, _ = send(router6, [request("0.0.0.0", P0_ADDR, ON_MAC)])
    f = only_reply(got, ON_MAC)
    assert (f[ARP].psrc, f[ARP].pdst) == (P0_ADDR, "0.0.0.0")
    assert "0.0.0.0" not in router6.neighbours(family=4)


@pytest.mark.parametrize("sender", [OFF, "10.20.2.9"], ids=["elsewhere", "p1-subnet"])
def test_offsubnet_request_answered_not_learnt(router6, sender):
    """A request for p0's address from outside p0's subnets (a host's
    loopback address, or an address of p1's subnet) is answered as Linux
    answers it; fwd learns nothing from it."""
    got, before, after = send(router6, [request(sender, P0_ADDR, OFF_MAC)])
    f = only_reply(got, OFF_MAC)
    assert (f.src, f[ARP].psrc, f[ARP].pdst) == (router6.mac["p0"], P0_ADDR, sender)
    if router6.reference:
        return
    assert sender not in router6.neighbours(family=4), "no entry for an off-subnet sender"
    assert drops(before, after, "arp_invalid") == 0
    g = after["global"]
    assert g["arp_offsubnet_requests_answered"] - before["global"].get(
        "arp_offsubnet_requests_answered", 0) == 1


@pytest.mark.parametrize("frame", [
    request(OFF, "10.20.1.99", OFF_MAC),  # for an address not ours
    request(OFF, P1_ADDR, OFF_MAC),  # for p1's address, on p0's link
    Ether(src=OFF_MAC, dst=BCAST, type=0x0806) / ARP(op=2, hwsrc=OFF_MAC, psrc=OFF,
                                                     hwdst=BCAST, pdst=P0_ADDR),
    request("224.0.0.9", P0_ADDR, OFF_MAC),  # from a group: nobody to answer
], ids=["other-target", "other-port", "reply", "multicast-sender"])
def test_offsubnet_rest_refused(router6, frame):
    """From an off-subnet sender, only a request for the port's own address
    means anything: the rest is dropped (arp_invalid), unanswered."""
    if router6.reference and frame[ARP].pdst == P1_ADDR:
        pytest.skip("Linux (arp_ignore=0) answers for any of its addresses on any link; "
                    "fwd for the port's own only, from any sender")
    got, before, after = send(router6, [frame])
    assert got["t0"] == [] and got["t1"] == [], "nothing comes back"
    if router6.reference:
        return
    assert drops(before, after, "arp_invalid") == 1
    assert OFF not in router6.neighbours(family=4)
