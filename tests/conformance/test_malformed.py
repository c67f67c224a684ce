# SPDX-License-Identifier: BSD-3-Clause
"""Hostile traffic through a running (sanitized) daemon: 30k random and
mutated frames (mutate.py: IPv4, ARP, IPv6 with NDP, half of them IPv6;
each of its 58 templates about 500 times, each with each of its 28
mutations about 15 times) from the tester into p0, then

- every frame arrived (p0 rx == frames sent) and is accounted for: summed
  over the ports, rx + created == tx + drops + consumed + the fragments
  reassembly holds (fwdctl status), nothing uncounted;
- the mempool in-use count is back at its baseline once the neighbours the
  frames made the router resolve have failed and their held packets gone;
- the router still forwards and answers as before, over both families;
- and, at teardown (conftest.py), it exits 0 without a sanitizer report.

On af_xdp ports: af_packet's kernel side would reassemble fragments first
(and would take 802.1Q tags out of the frames). The router has a VLAN
interface on p0 (mutate.VLAN_EXTRA), so tagged frames reach the VLAN demux:
templates of every ethertype on it, tags of VLAN 0, 4095 and unknown
VLANs, double and truncated tags.
MALFORMED_FRAMES and MALFORMED_RATE (frames/s) override the defaults; a
soak sends more (MALFORMED_FRAMES=1000000): make check keeps to 12 s of
frames.
"""
import json
import os
import socket
import subprocess
import tempfile
import time

import pytest

import mutate
from conftest import HERE, P0_ADDR, P0_ADDR6, PY, Router, router_session, run
from frames import DST, check_forwarded, exchange, icmp, one, udp
from frames6 import DST6, a6, check_forwarded6, echo6, exchange6, udp6

N_FRAMES = int(os.environ.get("MALFORMED_FRAMES", "30000"))
RATE = float(os.environ.get("MALFORMED_RATE", "2500"))
SEED = 1812
SETTLE_S = 40  # ARP and NDP give up after 3 s, a failed entry lingers 3 s more
PROBE_FRAMES = 4  # two IPv4, two IPv6
FIELDS = ("rx_packets", "tx_packets", "drops", "consumed", "created")


class VlanRouter(Router):
    extra = mutate.VLAN_EXTRA


@pytest.fixture(scope="module")
def router_xdp():
    """conftest's af_xdp router, with mutate's VLAN interface on p0."""
    yield from router_session("af_xdp", "m", VlanRouter)


def in_use(router):
    return int(json.loads(router.ctl("-j", "status").stdout)["mempool"].get("in_use", 0))


def reasm_held(router):
    """Fragments to the router waiting in reassembly: taken in, not yet
    consumed (their datagram whole) nor dropped (reasm_timeout after 30 s
    for IPv4, 60 s for IPv6)."""
    return int(json.loads(router.ctl("-j", "status").stdout).get("reasm_fragments", 0))


def probe(router):
    """One routed packet and one echo request of each family: each port then
    sends exactly one frame of each. af_xdp frees a sent mbuf on the queue's
    next send, so the in-use count compares only after sends of the same size."""
    got, _ = exchange(router, [udp(router, DST), icmp(router, P0_ADDR)], expect=2)
    # late ICMP errors about the blast may come too
    assert any(f[30:34] == socket.inet_aton(DST) for f in got["t1"]), "forwarded"
    assert any(f[26:30] == socket.inet_aton(P0_ADDR) and f[34] == 0 for f in got["t0"]), "echo"
    got, _ = exchange6(router, [udp6(router, DST6), echo6(router, P0_ADDR6)], expect=2)
    assert any(f[38:54] == a6(DST6) for f in got["t1"]), "forwarded (IPv6)"
    assert any(f[22:38] == a6(P0_ADDR6) and f[54] == 129 for f in got["t0"]), "echo (IPv6)"


def settle(router, baseline):
    """Probes until the mempool is back at baseline (neighbours that never
    answer hold packets for 3 s, then fail); (stats, probes, settled)."""
    deadline = time.monotonic() + SETTLE_S
    probes = 0
    while True:
        probe(router)
        probes += 1
        if in_use(router) == baseline or time.monotonic() > deadline:
            return router.stats(), probes, in_use(router) == baseline
        time.sleep(1)


def delta(before, after, port, field):
    return int(after[port].get(field, 0)) - int(before.get(port, {}).get(field, 0))


def table(before, after):
    """The accounting, one row per port and a total; drops by reason below."""
    lines = ["%-6s" % "iface" + "".join("%12s" % f for f in FIELDS)]
    total = [0] * len(FIELDS)
    # a VLAN's frames count on the VLAN interface, what it sends on the VLAN
    # and its port (doc/architecture.md, "Counters"): the sum over all of
    # them adds up, with tx summed over the ports only
    names = [n for n in after if n != "global"]
    for p in names:
        row = [delta(before, after, p, f) for f in FIELDS]
        total = [t + (v if f != "tx_packets" or after[p].get("is_port", True) else 0)
                 for t, v, f in zip(total, row, FIELDS)]
        lines.append("%-6s" % p + "".join("%12d" % v for v in row))
    lines.append("%-6s" % "total" + "".join("%12d" % v for v in total))
    for p in names:
        b, a = before.get(p, {}).get("drop_reasons", {}), after[p]["drop_reasons"]
        reasons = {k: a[k] - b.get(k, 0) for k in sorted(a) if a[k] != b.get(k, 0)}
        lines.append("%s drops: %s" % (p, " ".join("%s=%d" % kv for kv in reasons.items())))
    return "\n".join(lines), dict(zip(FIELDS, total))


def blast(router, frames):
    with tempfile.NamedTemporaryFile(dir=router.tmp, delete=False) as f:
        for fr in frames:
            f.write(len(fr).to_bytes(2, "big") + fr)
    r = subprocess.run(["ip", "netns", "exec", router.ns_t, PY, os.path.join(HERE, "blast.py"),
                        "t0", f.name, str(RATE)],
                       capture_output=True, text=True, timeout=N_FRAMES / RATE * 3 + 60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_malformed_traffic(router_xdp, capsys):
    r = router_xdp
    # frames up to 1518 bytes leave t0 untagged: as far as r0 (MTU 1500) still takes them
    run("ip", "-n", r.ns_t, "link", "set", "t0", "mtu", "1504")
    probe(r)
    baseline = in_use(r)
    before = r.stats()
    sent = blast(r, mutate.frames(N_FRAMES, SEED, r.mac["p0"]))
    after, probes, settled = settle(r, baseline)
    text, total = table(before, after)
    with capsys.disabled():
        print("\n%d frames sent (%s refused by the tester's kernel) and %d probe frames; "
              "mempool in use %d -> %d\n%s" % (sent["sent"], sent["refused"] or "none",
                                               PROBE_FRAMES * probes, baseline, in_use(r), text))
    assert sent["sent"] == N_FRAMES, sent
    # on p0 and its VLAN p0.100 (a VLAN's frames count on the VLAN)
    assert sum(delta(before, after, p, "rx_packets") for p in after
               if p == "p0" or p.startswith("p0.")) == N_FRAMES + PROBE_FRAMES * probes, \
        "frames went missing"
    for _ in range(10):  # counters and the held fragments read at one instant
        held = reasm_held(r)
        after = r.stats()
        if reasm_held(r) == held:
            break
    text, total = table(before, after)
    assert total["rx_packets"] + total["created"] == (
        total["tx_packets"] + total["drops"] + total["consumed"] + held), \
        "a frame is not accounted for (%d fragments held in reassembly)" % held
    assert settled, "mempool in use %d, baseline %d: mbufs leaked or held" % (in_use(r), baseline)


def test_still_forwards(router_xdp):
    """After all that: a routed packet comes out exactly as it should."""
    f = udp(router_xdp, DST)
    got, _ = exchange(router_xdp, [f], expect=1)
    check_forwarded(router_xdp, f, one(got, "t1"))


def test_still_forwards_ipv6(router_xdp):
    f = udp6(router_xdp, DST6)
    got, _ = exchange6(router_xdp, [f], expect=1)
    check_forwarded6(router_xdp, f, one(got, "t1"))
