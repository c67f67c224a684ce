#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""A host on a VLAN without a kernel VLAN device (this kernel has none): ARP
and ping, 802.1Q-tagged, by raw frames on IF, to a router's VLAN interface.

    bond_vlan.py IF ROUTER_MAC VID MY_ADDR ROUTER_ADDR

Sends a tagged ARP request for ROUTER_ADDR and expects a reply tagged VID
from ROUTER_MAC; then a tagged ICMP echo (the router learnt this host from
the request) and expects the tagged echo reply. Exit 0 when both came, 1
otherwise (and says what was missing). Used by tests/smoke/bond_test.sh:
the router's VLAN interface sits on a bond, so both go through a partner's
bond and fwd's members.
"""
import sys

from scapy.all import ARP, ICMP, IP, Dot1Q, Ether, conf, get_if_hwaddr, srp1

conf.verb = 0


def ask(frame, ifname, good):
    """frame sent (up to 3 times) until an answer for which good() holds."""
    for _ in range(3):
        ans = srp1(frame, iface=ifname, timeout=2)
        if ans is not None and good(ans):
            return ans
    return None


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    ifname, rmac, vid, me, router = sys.argv[1], sys.argv[2].lower(), int(sys.argv[3]), \
        sys.argv[4], sys.argv[5]
    mac = get_if_hwaddr(ifname)
    req = Ether(src=mac, dst="ff:ff:ff:ff:ff:ff") / Dot1Q(vlan=vid) / \
        ARP(op=1, hwsrc=mac, psrc=me, pdst=router)
    ans = ask(req, ifname, lambda a: ARP in a and a[ARP].op == 2)
    if ans is None:
        sys.exit("no ARP reply from %s on VLAN %d" % (router, vid))
    if Dot1Q not in ans or ans[Dot1Q].vlan != vid or ans[Ether].src.lower() != rmac:
        sys.exit("ARP reply not from %s tagged %d: %s" % (rmac, vid, ans.summary()))
    echo = Ether(src=mac, dst=rmac) / Dot1Q(vlan=vid) / IP(src=me, dst=router) / \
        ICMP(id=0x4242, seq=1) / (b"bond" * 8)
    rep = ask(echo, ifname, lambda a: ICMP in a and a[ICMP].type == 0)
    if rep is None:
        sys.exit("no echo reply from %s on VLAN %d" % (router, vid))
    if Dot1Q not in rep or rep[Dot1Q].vlan != vid:
        sys.exit("echo reply not tagged %d: %s" % (vid, rep.summary()))
    print("ARP and ping on VLAN %d: %s" % (vid, rep.summary()))


if __name__ == "__main__":
    main()
