# SPDX-License-Identifier: BSD-3-Clause
"""Source checks (RFC 1812 5.3.7, RFC 3927 section 7) and the unicast
reverse-path filter (RFC 3704, ports[].rpf): crafted frames in at t0,
nothing (or the packet) out, and the drop reason that moved.
Topology and addresses: conftest.py."""
import json
import os

import pytest

from conftest import P0_ADDR, P1_ADDR, UNROUTED
from frames import DST, check_forwarded, exchange, nothing_out, one, udp

SPOOFED = "198.51.100.7"  # routed out of p1, arriving on p0


@pytest.fixture(autouse=True)
def fwd_only(router):
    if router.reference:
        pytest.skip("fwd's drop reasons and ports[].rpf")


def dropped(router, frame, reason):
    got, d = exchange(router, [frame])
    nothing_out(got)
    assert d.drops("p0") == {reason: 1}


def forwarded(router, frame):
    got, d = exchange(router, [frame], expect=1)
    check_forwarded(router, frame, one(got, "t1"))
    assert d.drops("p0") == {}


@pytest.mark.parametrize("src", [P0_ADDR, P1_ADDR, "10.20.1.255", "10.20.2.255"])
def test_our_source_from_outside(router, src):
    """Our addresses and our subnets' directed broadcasts, as sources."""
    dropped(router, udp(router, DST, src=src), "own_source")


def test_link_local(router):
    dropped(router, udp(router, DST, src="169.254.3.4"), "link_local")
    dropped(router, udp(router, "169.254.3.4"), "link_local")
    forwarded(router, udp(router, DST, src="169.253.3.4"))


def set_rpf(router, mode):
    """rpf: mode on p0 in the running config file, then reload."""
    path = os.path.join(router.tmp, "fwd.yaml")
    with open(path) as f:
        text = f.read()
    p0 = next(line for line in text.splitlines() if "name: p0" in line)
    new = p0.split(", rpf:")[0].rstrip().rstrip("}").rstrip() + f", rpf: {mode} }}"
    with open(path, "w") as f:
        f.write(text.replace(p0, new))
    router.ctl("config", "reload")
    assert json.loads(router.ctl("-j", "port", "show", "p0").stdout)["rpf"] == mode
    assert f"rpf: {mode}" in router.ctl("config", "show").stdout


def test_rpf(router):
    try:
        set_rpf(router, "strict")
        forwarded(router, udp(router, DST))
        dropped(router, udp(router, DST, src=SPOOFED), "rpf")
        dropped(router, udp(router, DST, src=UNROUTED), "rpf")
        set_rpf(router, "loose")
        forwarded(router, udp(router, DST, src=SPOOFED))
        dropped(router, udp(router, DST, src=UNROUTED), "rpf")
        dropped(router, udp(router, DST, src="203.0.113.9"), "rpf")  # blackhole route
    finally:
        set_rpf(router, "off")
    forwarded(router, udp(router, DST, src=UNROUTED))
