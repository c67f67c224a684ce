# SPDX-License-Identifier: BSD-3-Clause
"""IPv6 frames for the conformance tests, and exact checks of what comes out
(the IPv6 side of frames.py).

Checks work on raw bytes: a forwarded packet must equal the one sent but
for the hop limit (RFC 8200 3: decremented by one, nothing else changes:
IPv6 has no header checksum); an ICMPv6 error must quote the original's
bytes exactly, as much of them as keeps the error within the minimum MTU,
1280 bytes (RFC 4443 2.4 (c)). Scapy builds the frames and names the fields.
"""
import socket
import struct
import time

from scapy.all import (ICMPv6EchoRequest, ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptDstLLAddr,
                       ICMPv6NDOptSrcLLAddr, IPv6, IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                       PadN, Raw, UDP, Ether, conf, in6_getnsma, in6_getnsmac)

import frames
import pkt
from conftest import HOST6, P0_ADDR6, T0_MAC, T1_MAC

conf.verb = 0

ETH_IPV6 = 0x86dd
DST6 = "2001:db8:51::10"  # routed via gateway6 out of p1
DST6_LL = "2001:db8:52::10"  # routed via t1's link-local out of p1
BLACKHOLED6 = "2001:db8:66::5"
MIN_MTU = 1280
QUOTE_MAX = MIN_MTU - 40 - 8  # what an ICMPv6 error can quote: 1232 bytes
ALL_NODES = "ff02::1"


def mac_bytes(mac):
    return bytes.fromhex(mac.replace(":", ""))


def a6(text):
    return socket.inet_pton(socket.AF_INET6, text)


def solicited(addr):
    """The solicited-node group of addr and its MAC."""
    group = socket.inet_ntop(socket.AF_INET6, in6_getnsma(a6(addr)))
    return group, in6_getnsmac(a6(group))


def mcast_mac(group):
    return "33:33:" + ":".join("%02x" % b for b in a6(group)[12:])


def eth6(router, dst=None, src=T0_MAC, port="p0"):
    """Ethernet from a tester interface (t0 by default) to the router's port."""
    return Ether(src=src, dst=dst or router.mac[port], type=ETH_IPV6)


def ip6(router, dst, hlim=64, src=HOST6, eth_dst=None, eth_src=T0_MAC, port="p0", **f):
    return eth6(router, eth_dst, eth_src, port) / IPv6(src=src, dst=dst, hlim=hlim, **f)


def udp6(router, dst, hlim=64, src=HOST6, payload=b"conformance" * 3, **kw):
    return ip6(router, dst, hlim, src, **kw) / UDP(sport=40000, dport=33434) / Raw(payload)


def echo6(router, dst, hlim=64, src=HOST6, payload=b"ping" * 8, **kw):
    return (ip6(router, dst, hlim, src, **kw) / ICMPv6EchoRequest(id=0x77, seq=5) /
            Raw(payload))


def icmp6(router, dst, type, code=0, body=b"\0" * 4, hlim=64, src=HOST6, **kw):
    """Any ICMPv6 message (checksum made right): type, code, then body."""
    p = ip6(router, dst, hlim, src, nh=58, **kw) / Raw(bytes([type, code, 0, 0]) + body)
    raw = bytearray(bytes(p))
    raw[56:58] = struct.pack("!H", icmp6_cksum(bytes(raw[14:]), fix=True))
    return Ether(bytes(raw))


def hbh6(router, dst, hlim=64, src=HOST6, payload=b"hop-by-hop" * 3, options=None, **kw):
    """UDP behind a hop-by-hop options header (PadN by default)."""
    opts = options if options is not None else [PadN(optdata=b"\0\0\0\0")]
    return (ip6(router, dst, hlim, src, **kw) / IPv6ExtHdrHopByHop(options=opts) /
            UDP(sport=40000, dport=33434) / Raw(payload))


def frag6(router, dst, hlim=64, src=HOST6, offset=0, m=1, payload=b"fragment" * 8, **kw):
    return (ip6(router, dst, hlim, src, **kw) /
            IPv6ExtHdrFragment(nh=17, offset=offset, m=m, id=0x1234) / Raw(payload))


def ns(router, target, src=HOST6, dst=None, slla=T0_MAC, hlim=255, eth_src=T0_MAC,
       eth_dst=None, port="p0", code=0, extra=b""):
    """A Neighbor Solicitation for target (to its solicited-node group unless
    dst is given), with a source link-layer address option unless slla is None."""
    if dst is None:
        dst, mac = solicited(target)
        eth_dst = eth_dst or mac
    p = (Ether(src=eth_src, dst=eth_dst or router.mac[port], type=ETH_IPV6) /
         IPv6(src=src, dst=dst, hlim=hlim) / ICMPv6ND_NS(tgt=target, code=code))
    if slla is not None:
        p = p / ICMPv6NDOptSrcLLAddr(lladdr=slla)
    if extra:
        p = p / Raw(extra)
    return p


def na(router, target, src, dst=ALL_NODES, tlla=T0_MAC, R=0, S=0, O=1, hlim=255,
       eth_src=T0_MAC, eth_dst=None, port="p0"):
    """A Neighbor Advertisement (unsolicited, to all nodes, by default)."""
    if eth_dst is None:
        eth_dst = mcast_mac(dst) if dst.startswith("ff") else router.mac[port]
    p = (Ether(src=eth_src, dst=eth_dst, type=ETH_IPV6) / IPv6(src=src, dst=dst, hlim=hlim) /
         ICMPv6ND_NA(tgt=target, R=R, S=S, O=O))
    if tlla is not None:
        p = p / ICMPv6NDOptDstLLAddr(lladdr=tlla)
    return p


# ------------------------------------------------------------------ checks
def icmp6_cksum(ip, fix=False):
    """The ICMPv6 checksum over IPv6 packet ip (header at 0, ICMPv6 right
    after it): 0xffff when right; with fix, the value to put in the field."""
    plen = struct.unpack("!H", ip[4:6])[0]
    msg = bytearray(ip[40:40 + plen])
    if fix:
        msg[2:4] = b"\0\0"
    pseudo = ip[8:40] + struct.pack("!IxxxB", plen, 58)
    s = frames.ones_sum(pseudo + bytes(msg))
    return (~s & 0xffff) if fix else s


def check_forwarded6(router, sent, out, out_port="p1", next_hop_mac=T1_MAC):
    """out is sent, routed: new MACs, hop limit - 1, every other byte the same."""
    sent, out = bytes(sent), bytes(out)
    plen = struct.unpack("!H", sent[18:20])[0]
    assert out[0:6] == mac_bytes(next_hop_mac), "dst MAC: the next hop's"
    assert out[6:12] == mac_bytes(router.mac[out_port]), "src MAC: the egress port's"
    assert out[12:14] == b"\x86\xdd"
    ip, orig = out[14:], sent[14:14 + 40 + plen]
    assert len(ip) == 40 + plen, "frame carries exactly the IPv6 packet"
    assert ip[7] == orig[7] - 1, "hop limit decremented by one"
    assert ip[:7] == orig[:7], "version, traffic class, flow label, length, next header kept"
    assert ip[8:] == orig[8:], "addresses and payload unchanged"


def check_icmp6_error(router, sent, out, type, code, param=0, src=P0_ADDR6, in_port="p0",
                      quote=None, hlim=64):
    """out is the ICMPv6 error about sent: addressing, checksum, the exact
    quote (the packet as received, up to 1232 bytes); returns the IPv6 header
    fields as scapy sees them."""
    sent, out = bytes(sent), bytes(out)
    plen = struct.unpack("!H", sent[18:20])[0]
    orig = sent[14:14 + 40 + plen]
    quote = quote if quote is not None else orig[:QUOTE_MAX]
    assert out[0:6] == sent[6:12], "back to the sender's MAC"
    assert out[6:12] == mac_bytes(router.mac[in_port]), "from the ingress port's MAC"
    assert out[12:14] == b"\x86\xdd"
    ip = out[14:]
    p = IPv6(ip)
    assert p.version == 6
    assert (p.nh, p.hlim) == (58, hlim), "ICMPv6, hop limit %d" % hlim
    assert p.src == src, "sourced from %s" % src
    assert p.dst == IPv6(orig).src, "to the offender's source"
    assert p.plen == len(ip) - 40 == 8 + len(quote), "length: header, then the quote"
    assert len(ip) <= MIN_MTU, "the error fits in the minimum MTU"
    msg = ip[40:]
    assert (msg[0], msg[1]) == (type, code), "type %d code %d" % (type, code)
    assert icmp6_cksum(ip) == 0xffff, "ICMPv6 checksum (with the pseudo-header)"
    assert msg[4:8] == struct.pack("!I", param), "MTU / pointer / unused field"
    assert msg[8:] == quote, "quotes the packet as received, as much as fits"
    return p


def na_fields(frame):
    """{"src", "dst", "hlim", "R", "S", "O", "target", "tlla", "eth_src", "eth_dst"}
    of a Neighbor Advertisement frame."""
    e = Ether(bytes(frame))
    p, a = e[IPv6], e[ICMPv6ND_NA]
    tlla = e[ICMPv6NDOptDstLLAddr].lladdr if ICMPv6NDOptDstLLAddr in e else None
    return {"src": p.src, "dst": p.dst, "hlim": p.hlim, "R": a.R, "S": a.S, "O": a.O,
            "target": a.tgt, "tlla": tlla, "eth_src": e.src, "eth_dst": e.dst,
            "cksum_ok": icmp6_cksum(bytes(frame)[14:]) == 0xffff}


def icmp6_type(frame):
    return pkt.icmp6_type(bytes(frame))


def of_kind(frames_, what):
    """The frames of a kind (pkt.py: ipv6 = IPv6 but NDP and MLD)."""
    return [f for f in frames_ if pkt.kind(bytes(f)) == what]


def ndp_of(frames_, type):
    return [f for f in frames_ if icmp6_type(f) == type]


# --------------------------------------------------------------- exchange
class _Any:
    """Equal to (and not less than, nor more than) anything: fwd's counters
    on the Linux reference router."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __lt__ = __le__ = __gt__ = __ge__ = __eq__

    def __hash__(self):
        return 0

    def __add__(self, other):
        return self

    __radd__ = __sub__ = __rsub__ = __add__

    def get(self, *args):
        return self

    def values(self):
        return [self]

    def __repr__(self):
        return "ANY"


ANY = _Any()


class AnyDelta:
    def drops(self, port):
        return ANY

    def port(self, port, field):
        return ANY

    def glob(self, name):
        return ANY


def exchange6(router, frames_, expect=0, send="t0", keep="ipv6", count=None, **kw):
    """Send frames from a tester interface; the frames of kind `keep` each
    interface received ("ipv6": IPv6 but NDP and MLD, "ndp", "any"), and the
    Delta of the router's counters around it. `expect` counts frames of
    kind `count` (default: keep)."""
    count = count or keep
    if router.reference:
        got = router.exchange(frames_, send=send, expect=expect, count=count, **kw)
        d = AnyDelta()
    else:
        before = router.stats()
        got = router.exchange(frames_, send=send, expect=expect, count=count, **kw)
        d = frames.Delta(before, frames.settle(router, before, len(frames_),
                                                "p0" if send == "t0" else "p1"))
    if keep != "any":
        got = {k: of_kind(v, keep) for k, v in got.items()}
    return got, d


def describe(frame):
    """One line about a frame, for assertion messages."""
    try:
        return Ether(bytes(frame)).summary()
    except Exception:  # noqa: BLE001 (anything scapy cannot parse)
        return bytes(frame)[:64].hex()


def nothing_out6(got):
    came = ["%s: %s" % (k, describe(f)) for k in ("t0", "t1") for f in got[k]]
    assert not came, "nothing may come out, but: " + "; ".join(came)


def wait_until(what, timeout=5.0, step=0.1):
    """Poll what() until it is true; its last value."""
    deadline = time.monotonic() + timeout
    while True:
        v = what()
        if v or time.monotonic() > deadline:
            return v
        time.sleep(step)
