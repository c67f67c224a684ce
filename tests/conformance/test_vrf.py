# SPDX-License-Identifier: BSD-3-Clause
"""The ARP and ICMP suites again, with both ports, their routes and
neighbours in a VRF that is not the default one (blue, table 10): a
packet's VRF is its arriving interface's, and what a router answers itself
must work there as in the default VRF (ip4_output routes it in the VRF of
the interface it answers). fwdctl's lists and routes take `-V
blue` here."""
import pytest

from conftest import REFERENCE, Router, router_session
from test_arp import *  # noqa: F401,F403 (the suites, collected again here)
from test_icmp import *  # noqa: F401,F403

VRF = "blue"


class VrfRouter(Router):
    extra = {"p0": f", vrf: {VRF}", "p1": f", vrf: {VRF}", "route": f", vrf: {VRF}",
             "tail": f"vrfs:\n  - {{ name: {VRF}, table: 10 }}\n"}

    def ctl(self, *args, check=True):
        """-V for what lists or routes in a VRF (an interface names its own)."""
        words = [a for a in args if not a.startswith("-")]
        if words[:1] == ["route"] or words[:2] in (["addr", "list"], ["neigh", "list"]):
            args = ("-V", VRF) + args
        return super().ctl(*args, check=check)


@pytest.fixture(scope="module")
def router():
    if REFERENCE:
        pytest.skip("fwd's VRFs: no Linux reference here")
    yield from router_session("af_packet", "v", VrfRouter)


@pytest.fixture(scope="module")
def router6(router):
    yield router


def test_addresses_are_in_the_vrf(router):
    """The ports' addresses are listed in blue, none in the default VRF."""
    blue = {a["prefix"] for a in router.addresses()}
    assert "10.20.1.1/24" in blue and "10.20.2.1/24" in blue
    default = Router.ctl(router, "-j", "addr", "list").stdout
    assert "10.20.1.1" not in default

