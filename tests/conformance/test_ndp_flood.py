# SPDX-License-Identifier: BSD-3-Clause
"""NDP under floods: a host's Neighbor Solicitations for the router's
address are still answered (at least NEED of PROBES) while the link is
flooded with NDP messages the router ignores (Redirects, Router
Solicitations on a port without `ra`, unsolicited advertisements for
targets it has no entry for: what thc-ipv6's flood_redir6, flood_rs6 and
flood_advertise6 send), and while the other port is flooded with
solicitations it does answer. fwd drops what it ignores in the worker,
before the policer (ndp_ignored), and polices solicitations and
advertisements per port (policed_ns, policed_na), so neither takes the
tokens a host's solicitation needs.

The floods are scaled to what `make check` affords: FLOOD_PPS frames a
second (NDP_FLOOD_PPS; 4 times punt_rate_nd's default) for a few seconds,
paced by blast.py in batches a millisecond apart (NDP_FLOOD_BATCH_S), so
that the router's receive ring keeps up and every loss is the router's
decision, and no quiet gap lets a bucket refill for the probe alone. On a
machine too busy to carry the flood, the kernel may lose a probe before
fwd sees it: fwd must then have answered every probe it took in (p0's
`consumed`), none policed, and such probes are not held against it.
FWD_REFERENCE=linux runs them against the Linux kernel. Topology:
conftest.py."""
import json
import os
import random
import subprocess
import time

import pytest
from scapy.all import (ICMPv6ND_NA, ICMPv6ND_Redirect, ICMPv6ND_RS, ICMPv6NDOptDstLLAddr,
                       ICMPv6NDOptSrcLLAddr, IPv6, Ether)

from conftest import HERE, P0_ADDR6, P1_ADDR6, PY, R0_LL
from frames6 import ETH_IPV6, ns

FLOOD_PPS = int(os.environ.get("NDP_FLOOD_PPS", "20000"))
PROBES, NEED, INTERVAL = 8, 7, 0.35
FLOOD_S = PROBES * INTERVAL + 1.5  # starts 0.5 s before the first probe, ends after the last
DISTINCT = 256  # frames of a flood, repeated
# no quiet gap for a bucket to refill in (shorter: smoother, but more CPU)
BATCH_S = float(os.environ.get("NDP_FLOOD_BATCH_S", "0.001"))


def rand_mac(rng):
    return "02:bb:" + ":".join("%02x" % rng.randrange(256) for _ in range(4))


def rand_iid(rng):
    return ":".join("%x" % rng.randrange(1, 0xffff) for _ in range(4))


def redirect(router, rng):
    mac = rand_mac(rng)
    return (Ether(src=mac, dst=router.mac["p0"], type=ETH_IPV6) /
            IPv6(src="fe80::" + rand_iid(rng), dst=R0_LL, hlim=255) /
            ICMPv6ND_Redirect(tgt="fe80::" + rand_iid(rng), dst="2001:db8:99::" + rand_iid(rng)))


def rs(router, rng):
    mac = rand_mac(rng)
    return (Ether(src=mac, dst="33:33:00:00:00:02", type=ETH_IPV6) /
            IPv6(src="fe80::" + rand_iid(rng), dst="ff02::2", hlim=255) / ICMPv6ND_RS() /
            ICMPv6NDOptSrcLLAddr(lladdr=mac))


def na_unknown(router, rng):
    mac = rand_mac(rng)
    return (Ether(src=mac, dst="33:33:00:00:00:01", type=ETH_IPV6) /
            IPv6(src="fe80::" + rand_iid(rng), dst="ff02::1", hlim=255) /
            ICMPv6ND_NA(tgt="2001:db8:20:1:" + rand_iid(rng), R=0, S=0, O=1) /
            ICMPv6NDOptDstLLAddr(lladdr=mac))


def ns_other_port(router, rng):
    mac = rand_mac(rng)
    return ns(router, P1_ADDR6, src="2001:db8:20:2:" + rand_iid(rng), slla=mac, eth_src=mac)


# kind: (the interface it floods, a frame of it, the counter it must show on fwd)
FLOODS = {
    "redirect": ("t0", redirect, ("p0", "ndp_ignored")),
    "rs": ("t0", rs, ("p0", "ndp_ignored")),
    "na-unknown": ("t0", na_unknown, ("p0", "ndp_ignored")),
    "ns-other-port": ("t1", ns_other_port, ("p1", "policed_ns")),
}


def flood_file(router, kind, path):
    """FLOOD_PPS * FLOOD_S frames of kind (DISTINCT of them, repeated), in
    blast.py's format; returns how many."""
    rng = random.Random(kind)
    make = FLOODS[kind][1]
    one = b"".join(len(b).to_bytes(2, "big") + b for b in
                   (bytes(make(router, rng)) for _ in range(DISTINCT)))
    n = int(FLOOD_PPS * FLOOD_S)
    with open(path, "wb") as f:
        f.write(one * (n // DISTINCT))
    return n // DISTINCT * DISTINCT


def drops(before, after, port, reason):
    return (after[port]["drop_reasons"].get(reason, 0) -
            before[port]["drop_reasons"].get(reason, 0))


def probes(router):
    """A host's solicitations for p0's address, each from an address of its
    own (2001:db8:20:1::100 and up), so that each answer names its question."""
    return [ns(router, P0_ADDR6, src="2001:db8:20:1::%x" % (0x100 + i)) for i in range(PROBES)]


def flood_and_probe(router, kind, path):
    """Flood kind from its interface while ndp_probe.py solicits p0's
    address from t0: (the probe's result, flood frames sent, blast's stderr)."""
    iface = FLOODS[kind][0]
    blast = subprocess.Popen(["ip", "netns", "exec", router.ns_t, PY,
                              os.path.join(HERE, "blast.py"), iface, path, str(FLOOD_PPS),
                              str(BATCH_S)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)
        probe = subprocess.run(["ip", "netns", "exec", router.ns_t, PY,
                                os.path.join(HERE, "ndp_probe.py"), "t0",
                                ",".join(bytes(f).hex() for f in probes(router)), P0_ADDR6,
                                str(INTERVAL)], capture_output=True, text=True, timeout=60)
        out, err = blast.communicate(timeout=FLOOD_S + 30)
    finally:
        if blast.poll() is None:
            blast.kill()
            blast.wait()
    assert probe.returncode == 0, probe.stderr
    return json.loads(probe.stdout), json.loads(out)["sent"], err


def counters_moved(before, after, port, counter):
    """What the flood did to fwd's counters, for the report line."""
    line = f"; {counter} +{drops(before, after, port, counter)}" + "".join(
        f", {p} {r} +{drops(before, after, p, r)}" for p in ("p0", "p1")
        for r in ("policed_ndp", "policed_ns", "policed_na", "ndp_ignored")
        if drops(before, after, p, r))
    return line + "".join(f", {p} {f} +{int(after[p].get(f, 0)) - int(before[p].get(f, 0))}"
                          for p in ("p0", "p1") for f in ("rx_packets", "kernel_rx_dropped"))


@pytest.mark.parametrize("kind", list(FLOODS))
def test_ns_answered_during_flood(router6, kind, tmp_path):
    port, counter = FLOODS[kind][2]
    n = flood_file(router6, kind, str(tmp_path / "flood.bin"))
    before = router6.stats()
    got, sent, err = flood_and_probe(router6, kind, str(tmp_path / "flood.bin"))
    after = router6.stats()
    line = (f"{kind}: {got['answered']} of {got['sent']} solicitations answered "
            f"(ms {got['ms']}) during {sent} flood frames at {FLOOD_PPS}/s")
    assert sent >= n * 0.9, f"the flood was sent: {line} ({err})"
    if after is None:  # the Linux reference
        print(line)
        assert got["answered"] >= NEED, line
        return
    taken = int(after["p0"].get("consumed", 0)) - int(before["p0"].get("consumed", 0))
    policed = drops(before, after, "p0", "policed_ns")
    lost = max(0, PROBES - taken - policed)  # never reached fwd's policer
    line += counters_moved(before, after, port, counter) + (
        f"; probes taken in {taken}, policed {policed}, lost before fwd {lost}")
    print(line)
    assert policed == 0, line
    assert got["answered"] >= min(NEED, PROBES - lost) and got["answered"] >= taken - 1, line
    assert lost <= PROBES // 2, "the machine could not carry the flood: " + line
    assert drops(before, after, port, counter) >= sent // 4, line
