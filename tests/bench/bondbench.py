# SPDX-License-Identifier: BSD-3-Clause
"""The bond group of the benchmarks: fwd l3 16 routes out of a bond of
two members (net_null sinks) beside the same routes out of one port.

The bond is the sink (named "sink", so benchlib's counters read it: a
bond's counters are its members' sums). The members are net_null ports,
which have no LACP partner, so the bond is active-backup: every routed
frame goes through the bond's rx/tx path (its tx buffer flushed through
bond_xmit to the active member); with lacp and two members distributing
the per-packet hash adds what bond_hash_test measures apart.
"""
import benchlib as bl


class FwdBond(bl.Fwd):
    """fwd l3 16 routes out of bond "sink" over members m0 and m1."""

    def config(self):
        text = super().config()
        head, rest = text.split("ports:\n")
        src_line = rest.splitlines()[0]
        routes = rest[rest.index("routes:\n"):]
        return head + (
            "ports:\n%s\n"
            "  - { name: m0, device: \"net_null0,no-rx=1\" }\n"
            "  - { name: m1, device: \"net_null1,no-rx=1\" }\n"
            "bonds:\n"
            "  - { name: sink, members: [m0, m1], lacp: false, addresses: [%s] }\n%s" %
            (src_line, bl.SINK_NET, routes))
